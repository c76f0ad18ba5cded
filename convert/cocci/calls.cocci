// refcount-convert: the calls of a function that creates the object its
// parameter {{INDEX}} points to ({{FN}}: the first get of that parameter's
// count, model.param_creations()).  Every call must pass a fresh object:
// E or &E->member, every assignment of E that reaches the call a zero
// source (cdef), no path to it without one (cundef).  {{ARGS}} are the
// arguments before it.  Output lines: CALL kind E R qline file line column.
// The driver concatenates one copy per function ({{ID}} names its rules).

@c_all{{ID}}@
position p;
@@
{{FN}}@p(...)

@script:python@
p << c_all{{ID}}.p;
@@
call("all", "", "", 0, p)

@c_def{{ID}} exists@
expression {{ARGDECL}}R, E2;
idexpression E;
identifier g;
position p, q;
@@
E = R@q;
... when != E = E2
(
{{FN}}@p({{ARGS}}&E->g, ...)
|
{{FN}}@p({{ARGS}}E, ...)
)

@script:python@
E << c_def{{ID}}.E; R << c_def{{ID}}.R; q << c_def{{ID}}.q; p << c_def{{ID}}.p;
@@
call("def", E, R, q[0].line, p)

@c_decl{{ID}} exists@
expression {{ARGDECL}}R, E2;
identifier E, g;
type T;
position p, q;
@@
T *E = R@q;
... when != E = E2
(
{{FN}}@p({{ARGS}}&E->g, ...)
|
{{FN}}@p({{ARGS}}E, ...)
)

@script:python@
E << c_decl{{ID}}.E; R << c_decl{{ID}}.R; q << c_decl{{ID}}.q; p << c_decl{{ID}}.p;
@@
call("def", E, R, q[0].line, p)

@c_undef{{ID}} exists@
identifier fn;
expression {{ARGDECL}}E2;
idexpression E;
identifier g;
position p;
@@
fn(...) {
... when != E = E2
(
{{FN}}@p({{ARGS}}&E->g, ...)
|
{{FN}}@p({{ARGS}}E, ...)
)
... when any
}

@script:python@
E << c_undef{{ID}}.E; p << c_undef{{ID}}.p;
@@
call("undef", E, "", 0, p)
