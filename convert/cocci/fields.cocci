// refcount-convert: every use of the candidate fields ({{FIELDS}}), with its
// context: the argument of an operation ({{OPS}}), the plain ++/-- forms,
// stores, comparisons, other arithmetic, address taken, plain reads; the
// creation facts (below) and the releases
// after a final put ({{RELEASE}}).
// Output lines: FIELD ctx base field op value file line column.

@initialize:python@
@@
def use(ctx, e, f, op, v, p):
    print("FIELD\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s" % (ctx, e, f, op, v,
          p[0].file, p[0].line, p[0].column))

@f_oparg@
identifier X =~ "{{OPS}}";
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
X(&E->f@p, ...)

@script:python@
E << f_oparg.E; f << f_oparg.f; X << f_oparg.X; p << f_oparg.p;
@@
use("oparg", E, f, X, "", p)

@f_noop@
identifier X =~ "{{NOOPS}}";
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
X(&E->f@p);

@script:python@
E << f_noop.E; f << f_noop.f; X << f_noop.X; p << f_noop.p;
@@
use("noop", E, f, X, "", p)

@f_aset@
identifier X =~ "{{STORES}}";
expression E, V;
identifier f =~ "{{FIELDS}}";
position p;
@@
X(&E->f@p, V, ...)

@script:python@
E << f_aset.E; f << f_aset.f; X << f_aset.X; V << f_aset.V; p << f_aset.p;
@@
use("aset", E, f, X, V, p)

@f_ainit@
identifier X =~ "{{INITS}}";
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
X(&E->f@p)

@script:python@
E << f_ainit.E; f << f_ainit.f; X << f_ainit.X; p << f_ainit.p;
@@
use("aset", E, f, X, "1", p)

@f_plainstmt@
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
(
 ++E->f@p;
|
E->f@p++;
|
 --E->f@p;
|
E->f@p--;
)

@script:python@
E << f_plainstmt.E; f << f_plainstmt.f; p << f_plainstmt.p;
@@
use("plain-stmt", E, f, "", "", p)

@f_plaincmp@
expression E;
identifier f =~ "{{FIELDS}}";
binary operator op = {==,!=,<,>,<=,>=};
constant C;
position p;
@@
(
 --E->f@p op C
|
E->f@p-- op C
)

@script:python@
E << f_plaincmp.E; f << f_plaincmp.f; op << f_plaincmp.op; C << f_plaincmp.C;
p << f_plaincmp.p;
@@
use("plain-cmp", E, f, op, C, p)

@f_plain@
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
(
 ++E->f@p
|
E->f@p++
|
 --E->f@p
|
E->f@p--
)

@script:python@
E << f_plain.E; f << f_plain.f; p << f_plain.p;
@@
use("plain-value", E, f, "", "", p)

// a member of a struct-typed counter (dbus's DBusAtomic .value) used
// directly: not an operation the library has
@f_member@
expression E;
identifier f =~ "{{FIELDS}}";
identifier g;
position p;
@@
E->f@p.g

@script:python@
E << f_member.E; f << f_member.f; g << f_member.g; p << f_member.p;
@@
use("member", E, f, g, "", p)

@f_arith@
expression E, V;
identifier f =~ "{{FIELDS}}";
assignment operator aop = {+=,-=,*=,/=,|=,&=,^=,<<=,>>=};
position p;
@@
E->f@p aop V

@script:python@
E << f_arith.E; f << f_arith.f; aop << f_arith.aop; V << f_arith.V; p << f_arith.p;
@@
use("arith", E, f, aop, V, p)

@f_set@
expression E, V;
identifier f =~ "{{FIELDS}}";
position p;
@@
E->f@p = V

@script:python@
E << f_set.E; f << f_set.f; V << f_set.V; p << f_set.p;
@@
use("set", E, f, "=", V, p)

@f_cmp@
expression E, V;
identifier f =~ "{{FIELDS}}";
binary operator op = {==,!=,<,>,<=,>=};
position p;
@@
E->f@p op V

@script:python@
E << f_cmp.E; f << f_cmp.f; op << f_cmp.op; V << f_cmp.V; p << f_cmp.p;
@@
use("cmp", E, f, op, V, p)

@f_addr@
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
 &E->f@p

@script:python@
E << f_addr.E; f << f_addr.f; p << f_addr.p;
@@
use("addr", E, f, "", "", p)

@f_any@
expression E;
identifier f =~ "{{FIELDS}}";
position p;
@@
E->f@p

@script:python@
E << f_any.E; f << f_any.f; p << f_any.p;
@@
use("read", E, f, "", "", p)

@f_release exists@
expression E;
identifier X =~ "{{DECOPS}}";
identifier R =~ "{{RELEASE}}";
identifier f =~ "{{FIELDS}}";
position p, q;
@@
X(&E->f@p, ...)
...
R@q(...)

@script:python@
E << f_release.E; f << f_release.f; R << f_release.R; p << f_release.p;
q << f_release.q;
@@
use("release", E, f, R, q[0].line, p)

@f_releasem exists@
expression E;
identifier X =~ "{{DECMACROS}}";
identifier R =~ "{{RELEASE}}";
position p, q;
@@
X@p(E)
...
R@q(...)

@script:python@
E << f_releasem.E; X << f_releasem.X; R << f_releasem.R; p << f_releasem.p;
q << f_releasem.q;
@@
use("release-macro", E, X, R, q[0].line, p)

// Creation sites.  The driver proves an increment of E->f ({{INCOPS}}) is
// the first reference of a fresh object (model.creations()): every
// assignment of E that reaches it (def, decldef) is a zero source, and no
// path reaches it from the function's entry without one (undef).  Zero
// sources are zeroing allocators and the functions whose every return
// (ret) is NULL or such an object (rdef, rdecl, rundef), or an object
// whose count an assertion ({{ASSERT}} of {{READOPS}} == 0) checks on
// every path before the return (noassert: a path that skips it).
@f_def exists@
identifier X =~ "{{INCOPS}}";
expression E, R, E2;
identifier f =~ "{{FIELDS}}";
position p, q;
@@
E = R@q;
... when != E = E2
X@p(&E->f, ...)

@script:python@
E << f_def.E; f << f_def.f; R << f_def.R; q << f_def.q; p << f_def.p;
@@
use("def", E, f, R, q[0].line, p)

@f_decldef exists@
identifier X =~ "{{INCOPS}}";
identifier E;
type T;
expression R, E2;
identifier f =~ "{{FIELDS}}";
position p, q;
@@
T *E = R@q;
... when != E = E2
X@p(&E->f, ...)

@script:python@
E << f_decldef.E; f << f_decldef.f; R << f_decldef.R; q << f_decldef.q; p << f_decldef.p;
@@
use("def", E, f, R, q[0].line, p)

@f_undef exists@
identifier fn, V;
identifier X =~ "{{INCOPS}}";
type T;
expression E, E2;
identifier f =~ "{{FIELDS}}";
position p;
@@
fn(...) {
... when != E = E2
(
X@p(&E->f, ...);
|
T V = X@p(&E->f, ...);
|
V = X@p(&E->f, ...);
)
... when any
}

@script:python@
E << f_undef.E; f << f_undef.f; p << f_undef.p;
@@
use("undef", E, f, "", "", p)

// an increment of a parameter's count: a creation if every caller passes a
// fresh object (convert/cocci/calls.cocci)
@f_param exists@
identifier fn, P;
identifier X =~ "{{INCOPS}}";
identifier f =~ "{{FIELDS}}";
type T;
parameter list[n] ps;
position p, q;
@@
fn@q(ps, T *P, ...) { <+... X@p(&P->f, ...) ...+> }

@script:python@
P << f_param.P; f << f_param.f; fn << f_param.fn; n << f_param.n; q << f_param.q;
p << f_param.p;
@@
use("param", P, f, fn, "%s %s" % (n, q[0].line), p)

@f_type@
type T;
T *E;
identifier f =~ "{{FIELDS}}";
position p;
@@
E->f@p

@script:python@
T << f_type.T; p << f_type.p;
@@
print("TYPE\t%s\t%s\t%s\t%s" % (T, p[0].file, p[0].line, p[0].column))

@f_dtype@
type T;
T E;
identifier f =~ "{{FIELDS}}";
position p;
@@
E.f@p

@script:python@
T << f_dtype.T; p << f_dtype.p;
@@
print("TYPE\t%s\t%s\t%s\t%s" % (T, p[0].file, p[0].line, p[0].column))
