"""The one registry of refcount-convert: every table the tool reads.

Atomic primitives and their semantics, the plain (non-atomic) forms, the
contexts a decrement's result can be tested in and what each becomes, the
widths, the sentinels, the allocators and the release-like calls.  Every
other module (and the cocci templates, through placeholders) reads these;
nothing else lists them.
"""

import re

# An atomic read-modify-write primitive:
#   name: (family, returns, ptr_arg, delta)
# returns: "new" (the value after), "old" (the value before), "void",
#          "dec0" (true when the count reached 0), "read", "set".
# ptr_arg: index of the pointer argument.
# delta:   +1/-1 for primitives with a fixed step, or ("arg", i, sign) when
#          the step is argument i (sign -1 for the *_sub_* forms).
PRIMITIVES = {
    "__atomic_add_fetch": ("gcc-atomic", "new", 0, ("arg", 1, +1)),
    "__atomic_sub_fetch": ("gcc-atomic", "new", 0, ("arg", 1, -1)),
    "__atomic_fetch_add": ("gcc-atomic-old", "old", 0, ("arg", 1, +1)),
    "__atomic_fetch_sub": ("gcc-atomic-old", "old", 0, ("arg", 1, -1)),
    "__sync_add_and_fetch": ("sync", "new", 0, ("arg", 1, +1)),
    "__sync_sub_and_fetch": ("sync", "new", 0, ("arg", 1, -1)),
    "__sync_fetch_and_add": ("sync-old", "old", 0, ("arg", 1, +1)),
    "__sync_fetch_and_sub": ("sync-old", "old", 0, ("arg", 1, -1)),
    "atomic_fetch_add": ("c11", "old", 0, ("arg", 1, +1)),
    "atomic_fetch_sub": ("c11", "old", 0, ("arg", 1, -1)),
    "atomic_fetch_add_explicit": ("c11-explicit", "old", 0, ("arg", 1, +1)),
    "atomic_fetch_sub_explicit": ("c11-explicit", "old", 0, ("arg", 1, -1)),
    "g_atomic_int_inc": ("glib", "void", 0, +1),
    "g_atomic_int_dec_and_test": ("glib", "dec0", 0, -1),
    "g_atomic_int_add": ("glib-old", "old", 0, ("arg", 1, +1)),
    "g_atomic_ref_count_inc": ("glib-refcount", "void", 0, +1),
    "g_atomic_ref_count_dec": ("glib-refcount", "dec0", 0, -1),
    "atomic_inc": ("kernel-like", "void", 0, +1),
    "atomic_dec": ("kernel-like", "void", 0, -1),
    "atomic_dec_and_test": ("kernel-like", "dec0", 0, -1),
    "atomic_inc_return": ("kernel-like", "new", 0, +1),
    "atomic_dec_return": ("kernel-like", "new", 0, -1),
    # the Win32 interlocked family (winnt.h; new value): code under
    # #ifdef _WIN32 that no Linux compile database sees
    "InterlockedIncrement": ("win32", "new", 0, +1),
    "InterlockedDecrement": ("win32", "new", 0, -1),
    # reads (step 0)
    "__atomic_load_n": ("gcc-atomic", "read", 0, 0),
    "atomic_load": ("c11", "read", 0, 0),
    "atomic_load_explicit": ("c11-explicit", "read", 0, 0),
    "g_atomic_int_get": ("glib", "read", 0, 0),
    "atomic_read": ("kernel-like", "read", 0, 0),
}
# Atomic stores: a store of a constant through one of these is a store
# like `x->f = V` (a creation when it follows the allocation), not an
# escape of the field's address.  name: index of the value argument, or
# the constant it stores.
ATOMIC_STORES = {
    "atomic_init": 1, "atomic_store": 1, "atomic_store_explicit": 1,
    "__atomic_store_n": 1, "g_atomic_int_set": 1, "g_atomic_ref_count_init": "1",
}
# Barriers a read wrapper may put before its load (dbus's _dbus_atomic_get).
FENCES = ("__sync_synchronize", "atomic_thread_fence", "__atomic_thread_fence")

# The non-atomic forms of the same operations (a build without threads).
PLAIN = {
    "pre++": ("plain", "new", +1),
    "pre--": ("plain", "new", -1),
    "post++": ("plain", "old", +1),
    "post--": ("plain", "old", -1),
}

# How a decrement's result is tested, and what it means.  Key: (returns,
# comparison, constant); value: "last" when the test is true on the final
# put, "notlast" when it is true while references remain.  An adjusted
# value (x + 1, x - 1) is first turned into the other convention.
DEC_TESTS = {
    ("new", "==", 0): "last", ("new", "<=", 0): "last", ("new", "<", 1): "last",
    ("new", "!=", 0): "notlast", ("new", ">", 0): "notlast",
    ("new", ">=", 1): "notlast",
    ("old", "==", 1): "last", ("old", "<=", 1): "last", ("old", "<", 2): "last",
    ("old", "!=", 1): "notlast", ("old", ">", 1): "notlast",
    ("old", ">=", 2): "notlast",
    ("new", "!", None): "last", ("new", "bool", None): "notlast",
    ("dec0", "bool", None): "last", ("dec0", "!", None): "notlast",
    ("dec0", "stmt", None): "last",
}
# An adjusted result (x + 1, x - 1): new = old + step, so new - step is the
# old value and old + step the new one.
def adjust(ret, sign, k, step):
    off = k if sign == "+" else -k
    if ret == "new" and off == -step:
        return "old"
    if ret == "old" and off == step:
        return "new"
    return None

# The idiom names the report prints (D.3's families), by family.
IDIOMS = {
    "compiled": "the project's wrappers, read on the compiled code",
    "gcc-atomic": "GCC __atomic (new value)",
    "gcc-atomic-old": "GCC __atomic, old value",
    "sync": "__sync (new value)",
    "sync-old": "__sync, old value",
    "c11": "C11 atomic_fetch_*",
    "c11-explicit": "C11 explicit",
    "glib": "GLib g_atomic_int",
    "glib-old": "GLib, old value",
    "glib-refcount": "GLib refcount type",
    "kernel-like": "kernel-like names",
    "win32": "Win32 Interlocked (new value)",
    "plain": "plain ++/-- (non-atomic build)",
    "read": "atomic read",
}

# Width: the declared type of the field (qualifiers dropped) -> the type of
# the same size and alignment, and the prefix of its operations.
WIDTH32 = ("refcount_t", "refcount", "REFCOUNT")
WIDTH64 = ("refcount_long_t", "refcount_long", "REFCOUNT_LONG")
WIDTHS = {
    "int": WIDTH32, "unsigned": WIDTH32, "unsigned int": WIDTH32,
    "signed int": WIDTH32, "int32_t": WIDTH32, "uint32_t": WIDTH32,
    "atomic_int": WIDTH32, "atomic_uint": WIDTH32, "_Atomic int": WIDTH32,
    "_Atomic unsigned int": WIDTH32, "gint": WIDTH32, "guint": WIDTH32,
    "atomic_t": WIDTH32, "gatomicrefcount": WIDTH32, "LONG": WIDTH32,
    "long": WIDTH64, "unsigned long": WIDTH64, "long int": WIDTH64,
    "size_t": WIDTH64, "ssize_t": WIDTH64, "int64_t": WIDTH64,
    "uint64_t": WIDTH64, "atomic_long": WIDTH64, "atomic_ulong": WIDTH64,
    "atomic_size_t": WIDTH64, "_Atomic long": WIDTH64,
    "_Atomic size_t": WIDTH64, "glong": WIDTH64, "gsize": WIDTH64,
}
QUALIFIERS = ("volatile", "const", "register")
# Project typedef names that say their width (dbus_int32_t, git_atomic32...).
WIDTH_NAMES = ((r"^\w*u?int32(_t)?$", WIDTH32), (r"^\w*u?int64(_t)?$", WIDTH64))
# Project types of WIDTHS as plain C, for the layout check's probe.
CTYPES = {"gint": "int", "guint": "unsigned int", "gatomicrefcount": "int",
          "atomic_t": "struct { int counter; }", "glong": "long",
          "gsize": "unsigned long",
          # Win32's LONG is 32 bits on every Windows ABI (LLP64 included)
          "LONG": "int"}

# Sentinel ("immortal") values: compared for (in)equality and stored, they
# mean "constant object".  Matched on the expression's text, spaces removed.
SENTINEL_RE = re.compile(
    r"^(\(\w+(\s\w+)*\)-1|-1|~0[uU]?[lL]*|\(\w+\)~0|SIZE_MAX|UINT_MAX|"
    r"UINT32_MAX|ULONG_MAX|\w*REF_CONSTANT\w*)$")

# Allocators that return zeroed memory (a count of 0 until the first get).
ZALLOC = ("calloc", "g_new0", "g_malloc0", "g_slice_new0", "zalloc", "kzalloc",
          "dbus_malloc0")
# (Macros whose body is one call of these, dbus_new0, are found as well; so
# are functions that return only such objects, or only objects whose count
# they assert is 0: model.zero_sources().)

# Assertion macros: a comparison inside one is a check, not a branch
# (dbus's _dbus_assert (_dbus_atomic_get (&m->refcount) == 0)).
ASSERT_RE = r"^([A-Za-z0-9_]*_)?assert[A-Za-z0-9_]*$"

# The type a kept old value may have: what the library's __refcount_*()
# forms write through their oldp argument (int *, long *), by the declared
# type of the variable as scan.resolve() names it.  int32_t is int on every
# Linux ABI (glibc, musl), and a project's int32 name resolves to it.
OLDP_TYPES = {
    "refcount_t": ("int", "signed int", "signed", "int32_t", "gint"),
    "refcount_long_t": ("long", "long int", "signed long", "signed long int", "glong"),
}

# A call that releases the object after the final put (kernel r1's list,
# plus userspace names).
RELEASE_WORDS = r"free|destroy|delete|del|release|dispose|finali[sz]e|unref|cleanup|dealloc"
RELEASE_RE = r".*(%s).*" % RELEASE_WORDS

# The library's names the rewrite emits (convert/README.md, the contract).
INCLUDE = "#include <refcount/refcount.h>"
NONATOMIC_BREED = "#define REFCOUNT_BREED REFCOUNT_BREED_NONATOMIC"

# What a dec-and-test becomes, by meaning, and the other operations.
def lib_names(prefix, macro):
    return {
        "last": prefix + "_dec_and_test(%s)",
        "notlast": "!" + prefix + "_dec_and_test(%s)",
        "inc": prefix + "_inc(%s)",
        "create": prefix + "_set(%s, 1)",
        # a result kept in a variable V (the old value, for a trace): the
        # __refcount_*() forms write it through oldp.  A dec-and-test's
        # result must be used; it is true exactly when V == 1, so V keeps
        # the old value either way.
        "inc_old": "__" + prefix + "_inc(%s, &%s)",
        "put_old": "%s = __" + prefix + "_dec_and_test(%s, &%s) ? 1 : %s",
        "create_old": "(" + prefix + "_set(%s, 1), 0)",
        # ... and a kept NEW value (`v = add_and_fetch(...)`): the old
        # value through oldp, then the step, so that V still holds the new
        "inc_new": "(__" + prefix + "_inc(%s, &%s), %s += 1)",
        "put_new": "%s = __" + prefix + "_dec_and_test(%s, &%s) ? 0 : %s - 1",
        "dec": prefix + "_dec(%s)",
        "read": prefix + "_read(%s)",
        "set": prefix + "_set(%s, %s)",
        "set_immortal": prefix + "_set_immortal(%s)",
        "is_immortal": prefix + "_is_immortal(%s)",
        "init": macro + "_INIT(%s)",
        "init_immortal": macro + "_INIT_IMMORTAL",
    }
