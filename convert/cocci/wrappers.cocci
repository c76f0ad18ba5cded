// refcount-convert: functions whose whole body is one atomic
// read-modify-write of a pointer parameter ({{PRIMS}}), returned as is or
// adjusted by one (usbi_atomic_dec, FcRefDec, _dbus_atomic_dec...).
// Output lines: WRAP function parameter primitive args adjust file first last.

@initialize:python@
@@
def wrap(fn, prm, x, es, adj, p, q):
    print("WRAP\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s" % (fn, prm, x, es, adj,
          p[0].file, p[0].line, q[0].line))

@w@
identifier fn, prm;
identifier X =~ "{{PRIMS}}";
type T, PT;
expression list es;
position p, q;
@@
T fn@p(PT prm) {
(
return X(es);
|
return (X(es));
)
}@q

@script:python@
fn << w.fn; prm << w.prm; X << w.X; es << w.es; p << w.p; q << w.q;
@@
wrap(fn, prm, X, es, "", p, q)

@w_adj@
identifier fn, prm;
identifier X =~ "{{PRIMS}}";
type T, PT;
expression list es;
binary operator a = {+,-};
constant C;
position p, q;
@@
T fn@p(PT prm) {
return X(es) a C;
}@q

@script:python@
fn << w_adj.fn; prm << w_adj.prm; X << w_adj.X; es << w_adj.es; a << w_adj.a;
C << w_adj.C; p << w_adj.p; q << w_adj.q;
@@
wrap(fn, prm, X, es, a.strip() + C, p, q)
