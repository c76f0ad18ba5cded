// refcount-convert: every call of an atomic read-modify-write (a primitive
// or a discovered wrapper, {{OPS}}) with the context its result is used in.
// Output lines: SITE ctx name args op const file line column [var type]
// (var and type: the variable a kept result is stored in).
// Written for librefcount (convert/refcount-convert); the driver fills in the
// placeholders.

@initialize:python@
@@
def site(ctx, x, es, op, c, p, v="", t=""):
    print("SITE\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s" % (ctx, x, es, op, c,
          p[0].file, p[0].line, p[0].column, v, t))

@s_stmt@
identifier X =~ "{{OPS}}";
expression list es;
position p;
@@
X@p(es);

@script:python@
X << s_stmt.X; es << s_stmt.es; p << s_stmt.p;
@@
site("stmt", X, es, "", "", p)

@s_cmp@
identifier X =~ "{{OPS}}";
expression list es;
binary operator op = {==,!=,<,>,<=,>=};
constant C;
position p;
@@
X@p(es) op C

@script:python@
X << s_cmp.X; es << s_cmp.es; op << s_cmp.op; C << s_cmp.C; p << s_cmp.p;
@@
site("cmp", X, es, op, C, p)

@s_addcmp@
identifier X =~ "{{OPS}}";
expression list es;
binary operator op = {==,!=,<,>,<=,>=};
constant C1, C;
position p;
@@
X@p(es) + C1 op C

@script:python@
X << s_addcmp.X; es << s_addcmp.es; op << s_addcmp.op; C1 << s_addcmp.C1;
C << s_addcmp.C; p << s_addcmp.p;
@@
site("cmp+" + C1, X, es, op, C, p)

@s_subcmp@
identifier X =~ "{{OPS}}";
expression list es;
binary operator op = {==,!=,<,>,<=,>=};
constant C1, C;
position p;
@@
X@p(es) - C1 op C

@script:python@
X << s_subcmp.X; es << s_subcmp.es; op << s_subcmp.op; C1 << s_subcmp.C1;
C << s_subcmp.C; p << s_subcmp.p;
@@
site("cmp-" + C1, X, es, op, C, p)

@s_not@
identifier X =~ "{{OPS}}";
expression list es;
position p;
@@
!X@p(es)

@script:python@
X << s_not.X; es << s_not.es; p << s_not.p;
@@
site("!", X, es, "", "", p)

@s_if@
identifier X =~ "{{OPS}}";
expression list es;
statement S;
position p;
@@
if (X@p(es)) S

@script:python@
X << s_if.X; es << s_if.es; p << s_if.p;
@@
site("bool", X, es, "", "", p)

@s_ret@
identifier X =~ "{{OPS}}";
expression list es;
position p;
@@
return X@p(es);

@script:python@
X << s_ret.X; es << s_ret.es; p << s_ret.p;
@@
site("return", X, es, "", "", p)

@s_any@
identifier X =~ "{{OPS}}";
expression list es;
position p;
@@
X@p(es)

@script:python@
X << s_any.X; es << s_any.es; p << s_any.p;
@@
site("value", X, es, "", "", p)

@s_assign exists@
identifier X =~ "{{OPS}}";
expression list es;
type T;
idexpression T V;
expression E2;
binary operator op = {==,!=,<,>,<=,>=};
constant C;
position p;
@@
V = X@p(es);
... when != V = E2
V op C

@script:python@
X << s_assign.X; es << s_assign.es; op << s_assign.op; C << s_assign.C;
p << s_assign.p; V << s_assign.V; T << s_assign.T;
@@
site("kept", X, es, op, C, p, V, T)

@s_stored@
identifier X =~ "{{OPS}}";
expression list es;
type T;
idexpression T V;
position p;
@@
V = X@p(es);

@script:python@
X << s_stored.X; es << s_stored.es; p << s_stored.p; V << s_stored.V; T << s_stored.T;
@@
site("kept", X, es, "", "", p, V, T)

@s_keptdecl exists@
identifier X =~ "{{OPS}}";
expression list es;
type T;
identifier V;
expression E2;
binary operator op = {==,!=,<,>,<=,>=};
constant C;
position p;
@@
T V = X@p(es);
... when != V = E2
V op C

@script:python@
X << s_keptdecl.X; es << s_keptdecl.es; op << s_keptdecl.op; C << s_keptdecl.C;
p << s_keptdecl.p; V << s_keptdecl.V; T << s_keptdecl.T;
@@
site("keptdecl", X, es, op, C, p, V, T)

// a read compared inside an assertion ({{ASSERT}}): a check, not a branch
@s_assert@
identifier X =~ "{{OPS}}";
identifier A =~ "{{ASSERT}}";
expression list es;
binary operator op = {==,!=,<,>,<=,>=};
constant C;
position p;
@@
A(X@p(es) op C)

@script:python@
X << s_assert.X; es << s_assert.es; op << s_assert.op; C << s_assert.C; p << s_assert.p;
@@
site("assert", X, es, op, C, p)

@s_type@
identifier X =~ "{{OPS}}";
type T;
T *E;
identifier f;
position p;
@@
X@p(&E->f, ...)

@script:python@
T << s_type.T; p << s_type.p;
@@
print("TYPE\t%s\t%s\t%s\t%s" % (T, p[0].file, p[0].line, p[0].column))
