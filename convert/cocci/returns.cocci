// refcount-convert: the returns of the functions whose result reaches a
// creation candidate ({{FNS}}): every return (ret), the assignments that
// reach a returned variable (rdef, rdecl), a path with none (rundef), and a
// path from such an assignment that skips an assertion ({{ASSERT}} of
// {{READOPS}} == 0) of the counter ({{FIELDS}}) (noassert).  The driver
// runs it on the files that mention those functions, to a fixpoint
// (convert/refconv/creation.py).
// Output lines: FIELD kind expression function value qline file line column.

@initialize:python@
@@
def use(ctx, e, f, op, v, p):
    print("FIELD\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s" % (ctx, e, f, op, v,
          p[0].file, p[0].line, p[0].column))

@f_ret@
identifier fn =~ "{{FNS}}";
type T;
expression E;
position p;
@@
T *fn(...) { <... return E@p; ...> }

@script:python@
E << f_ret.E; fn << f_ret.fn; p << f_ret.p;
@@
use("ret", E, fn, "", "", p)

@f_rdef exists@
identifier fn =~ "{{FNS}}";
type T, T2;
idexpression T2 *E;
expression R, E2;
position p, q;
@@
T *fn(...) { <...
E = R@q;
... when != E = E2
return E@p;
...> }

@script:python@
E << f_rdef.E; fn << f_rdef.fn; R << f_rdef.R; q << f_rdef.q; p << f_rdef.p;
@@
use("rdef", E, fn, R, q[0].line, p)

@f_rdecl exists@
identifier fn =~ "{{FNS}}";
identifier E;
type T, T2;
expression R, E2;
position p, q;
@@
T *fn(...) { <...
T2 *E = R@q;
... when != E = E2
return E@p;
...> }

@script:python@
E << f_rdecl.E; fn << f_rdecl.fn; R << f_rdecl.R; q << f_rdecl.q; p << f_rdecl.p;
@@
use("rdef", E, fn, R, q[0].line, p)

@f_rundef exists@
identifier fn =~ "{{FNS}}";
type T, T2;
idexpression T2 *E;
expression E2;
position p;
@@
T *fn(...) {
... when != E = E2
return E@p;
}

@script:python@
E << f_rundef.E; fn << f_rundef.fn; p << f_rundef.p;
@@
use("rundef", E, fn, "", "", p)

@f_noassert exists@
identifier A =~ "{{ASSERT}}";
identifier G =~ "{{READOPS}}";
identifier f =~ "{{FIELDS}}";
type T2;
idexpression T2 *E;
expression R, E2;
position p, q;
@@
E = R@q;
... when != E = E2
    when != A(G(&E->f) == 0);
return E@p;

@script:python@
E << f_noassert.E; R << f_noassert.R; q << f_noassert.q; p << f_noassert.p;
@@
use("noassert", E, "", R, q[0].line, p)
