// refcount-convert apply: the rewrite of one converted field.  The driver
// instantiates each section below once per operation shape ({{CALL}}, the
// matched call; {{PTR}}, the counter's address; {{DECL}}, the metavariables
// they use) and restricts each rule to the positions the report classified
// ({{KEYS}}, a set in the initialize rule).  {{P}} is the library prefix for
// the field's width (refcount, refcount_long), {{F}} the field.
// Written for librefcount; the sections are separated by "// @@@ name".

// @@@ header
@initialize:python@
@@
def key(p):
    return "%s:%s:%s" % (p[0].file, p[0].line, p[0].column)
{{SETS}}

// @@@ cmp
@{{RULE}}@
{{DECL}}
binary operator op;
constant C;
position p : script:python() { key(p) in {{KEYS}} };
@@
- {{CALL}} op C
+ {{NEW}}

// @@@ cmpadj
@{{RULE}}@
{{DECL}}
binary operator op, a;
constant C, C1;
position p : script:python() { key(p) in {{KEYS}} };
@@
- {{CALL}} a C1 op C
+ {{NEW}}

// @@@ not
@{{RULE}}@
{{DECL}}
position p : script:python() { key(p) in {{KEYS}} };
@@
- !{{CALL}}
+ {{NEW}}

// @@@ kept
@{{RULE}}@
{{DECL}}
identifier V;
position p : script:python() { key(p) in {{KEYS}} };
@@
- V = {{CALL}}
+ {{NEW}}

// @@@ expr
@{{RULE}}@
{{DECL}}
position p : script:python() { key(p) in {{KEYS}} };
@@
- {{CALL}}
+ {{NEW}}

// @@@ plaincmp
@{{RULE}}@
expression E;
binary operator op;
constant C;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
(
- --E->f@p op C
+ {{NEW}}
|
- E->f@p-- op C
+ {{NEW}}
)

// @@@ plainstmt
@{{RULE}}@
expression E;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
(
- ++E->f@p
+ {{P}}_inc(&E->{{F}})
|
- E->f@p++
+ {{P}}_inc(&E->{{F}})
|
- --E->f@p
+ {{P}}_dec(&E->{{F}})
|
- E->f@p--
+ {{P}}_dec(&E->{{F}})
)

// @@@ guard
@{{RULE}}@
expression E, A, S;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
(
- E->f@p != S && A
+ A
|
  A
- && E->f@p != S
)

// @@@ sentinel
@{{RULE}}@
expression E, S;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
(
- E->f@p != S
+ !{{P}}_is_immortal(&E->{{F}})
|
- E->f@p == S
+ {{P}}_is_immortal(&E->{{F}})
|
- E->f@p = S
+ {{P}}_set_immortal(&E->{{F}})
)

// @@@ set
@{{RULE}}@
expression E, V;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
- E->f@p = V
+ {{P}}_set(&E->{{F}}, V)

// @@@ noop
@{{RULE}}@
identifier X;
expression E;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
- X(&E->f@p)
+ (void)0

// @@@ aset
@{{RULE}}@
identifier X;
expression E, V;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
(
- X(&E->f@p, V, ...)
+ {{P}}_set(&E->{{F}}, V)
|
- X(&E->f@p)
+ {{P}}_set(&E->{{F}}, 1)
)

// @@@ read
@{{RULE}}@
expression E;
identifier f =~ "^{{F}}$";
position p : script:python() { key(p) in {{KEYS}} };
@@
- E->f@p
+ {{P}}_read(&E->{{F}})
