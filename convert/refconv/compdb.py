"""A tree's compile database, found, or made the way its build would make
it, without building and without configuring:

- DIR's own compile_commands.json (at its top, or in a build directory one
  level down whose name starts with "build");
- a meson build directory under DIR (meson-info/): its
  compile_commands.json, else `ninja -t compdb`;
- a CMake build directory under DIR (CMakeCache.txt): its
  compile_commands.json, else `ninja -t compdb` (Ninja generator), else
  cmake run again on the same source and cache entries into a scratch
  directory with CMAKE_EXPORT_COMPILE_COMMANDS=ON;
- a configured make tree (a Makefile, and config.status or config.log when
  there is a configure script): make's dry run, `make -nkw`, every source
  taken as just modified (-W) and no makefile remade (-o), read line by
  line.

A database the tool makes is written under the cache directory
($REFCONV_CACHE, else $XDG_CACHE_HOME/refcount-convert, else
~/.cache/refcount-convert), never into DIR; each run makes it again.  A
tree that is not configured is never configured here (configure writes
into the tree): the tool says so and reads the spelled source.  Every
decision is said on standard error, once per tree and run, except that
the tree has no build system at all (the report's discovery says it)."""

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

MAKEFILES = ("GNUmakefile", "makefile", "Makefile")
# what a configure script leaves in the tree it configured: autoconf's
# config.status and config.log, ffmpeg's ffbuild/config.mak, mklove's
# Makefile.config
CONFIGURED = ("config.status", "config.log", os.path.join("ffbuild", "config.mak"),
              "Makefile.config", "config.mak")
# the files that say how to configure a tree that is not
UNCONFIGURED = (("configure", "./configure"), ("CMakeLists.txt", "cmake"),
                ("meson.build", "meson setup"), ("configure.ac", "autoreconf, ./configure"))
NO_BUILD = "no build system found (no Makefile, meson or CMake build directory)"
TIMEOUT = int(os.environ.get("REFCONV_DRY_RUN_TIMEOUT", 600))
W_BYTES = 60000  # the -W list stays within one environment string (128 KiB)
COMPILER = re.compile(r"^(\S*/)?(\S+-)?(gcc|cc|clang)(-\d+(\.\d+)*)?$")
_FOUND = {}


def say(root, msg):
    sys.stderr.write("refcount-convert: %s: %s\n" % (root, msg))
    sys.stderr.flush()


def existing(root):
    """DIR's own compile_commands.json (at its top or in a build directory
    one level down), or None."""
    cands = [os.path.join(root, "compile_commands.json")]
    cands += sorted(os.path.join(root, d, "compile_commands.json")
                    for d in os.listdir(root) if d.startswith("build"))
    return next((p for p in cands if os.path.exists(p)), None)


def locate(root):
    """(the compile database of tree ROOT or None, a note): DIR's own, or
    one made as the module's comment says (said on standard error once a
    run), or None with the reason the build could not be read."""
    root = os.path.abspath(root)
    own = existing(root)
    if own:
        return own, None
    if root not in _FOUND:
        _FOUND[root] = make(root, cache_dir(root))
        if NO_BUILD not in _FOUND[root][1]:  # else the report's discovery says it
            say(root, _FOUND[root][1])
    return _FOUND[root]


def forget():
    _FOUND.clear()


def cache_dir(root):
    base = os.environ.get("REFCONV_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "refcount-convert")
    real = os.path.realpath(root)
    return os.path.join(base, "%s-%s" % (os.path.basename(real) or "root",
                                         hashlib.sha1(real.encode()).hexdigest()[:12]))


def build_dirs(root, depth=2):
    """[(system, directory)]: the meson and CMake build directories within
    DEPTH levels of ROOT."""
    out = []
    for d, dirs, files in os.walk(root):
        level = os.path.relpath(d, root).count(os.sep) + (d != root)
        dirs[:] = sorted(x for x in dirs if not x.startswith(".") and level < depth)
        if os.path.isdir(os.path.join(d, "meson-info")):
            out.append(("meson", d))
            dirs[:] = []
        elif "CMakeCache.txt" in files:
            out.append(("cmake", d))
            dirs[:] = []
    return out


def make(root, dest):
    """A compile database for ROOT made into directory DEST: (path or None,
    the note that says how, or why not)."""
    why = []
    for system, b in build_dirs(root):
        made = (from_meson if system == "meson" else from_cmake)(root, b, dest)
        if made[0]:
            return made
        why.append(made[1])
    mk = next((f for f in MAKEFILES if os.path.isfile(os.path.join(root, f))), None)
    if mk and (not os.path.exists(os.path.join(root, "configure")) or any(
            os.path.exists(os.path.join(root, c)) for c in CONFIGURED)):
        made = dry_run(root, [], dest)
        if made[0]:
            return made
        why.append(made[1])
    elif not why:
        how = [(f, h) for f, h in UNCONFIGURED if os.path.exists(os.path.join(root, f))]
        if how:
            why.append("not configured (%s, but no build directory%s): the tool "
                       "never configures a tree (that writes into it); run %s first" % (
                           how[0][0], " nor config.status" if mk or how[0][0] == "configure"
                           else "", how[0][1]))
        else:
            why.append(NO_BUILD)
    return None, "no compile database: %s; spatch on the spelled source only, " \
        "every #if variant considered" % "; ".join(why)


def _write(dest, entries):
    os.makedirs(dest, exist_ok=True)
    out = os.path.join(dest, "compile_commands.json")
    with open(out, "w") as f:
        json.dump(entries, f, indent=1)
    return out


def _run(cmd, cwd, timeout=TIMEOUT, env=None):
    """CMD's (exit status, output); a missing program or a timeout is a
    status of its own (127, 124) with the reason as the output."""
    try:
        r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, errors="surrogateescape",
                           timeout=timeout, env=dict(env or os.environ, LC_ALL="C"))
    except FileNotFoundError:
        return 127, "%s: not installed" % cmd[0]
    except subprocess.TimeoutExpired:
        return 124, "%s timed out after %d s" % (" ".join(cmd[:3]), timeout)
    return r.returncode, r.stdout


def from_ninja(b, dest, what):
    """The C compile commands of build.ninja in B (`ninja -t compdb`)."""
    rc, out = _run(["ninja", "-C", b, "-t", "compdb"], b)
    if rc:
        return None, "%s: ninja -t compdb failed: %s" % (what, out.strip()[-200:])
    try:
        entries = [e for e in json.loads(out[out.find("["):]) if e["file"].endswith(".c")
                   and " -c " in " %s " % (e.get("command") or " ".join(e.get("arguments", [])))]
    except ValueError as e:
        return None, "%s: ninja -t compdb is not JSON (%s)" % (what, e)
    if not entries:
        return None, "%s: ninja -t compdb lists no C unit" % what
    return _write(dest, entries), "%s: compile database made by `ninja -t compdb` " \
        "at %s" % (what, os.path.join(dest, "compile_commands.json"))


def from_meson(root, b, dest):
    what = "meson build directory %s" % os.path.relpath(b, root)
    db = os.path.join(b, "compile_commands.json")
    if os.path.exists(db):
        return db, "%s: its compile_commands.json" % what
    return from_ninja(b, dest, what)


def _cache_entries(cache):
    """CMakeCache.txt's entries: [(name, type, value)]."""
    out = []
    for line in open(cache, errors="replace"):
        m = re.match(r"^([A-Za-z_][\w.+-]*):(\w+)=(.*)$", line.rstrip("\n"))
        if m:
            out.append(m.groups())
    return out


def from_cmake(root, b, dest):
    """B's compile_commands.json, else `ninja -t compdb`, else cmake run
    again with B's cache entries into DEST/cmake (B is left as it is)."""
    what = "CMake build directory %s" % os.path.relpath(b, root)
    db = os.path.join(b, "compile_commands.json")
    if os.path.exists(db):
        return db, "%s: its compile_commands.json" % what
    if os.path.exists(os.path.join(b, "build.ninja")):
        return from_ninja(b, dest, what)
    cache = os.path.join(b, "CMakeCache.txt")
    entries = _cache_entries(cache)
    home = [v for n, _t, v in entries if n == "CMAKE_HOME_DIRECTORY"]
    src = home[0] if home else root
    if not os.path.realpath(src).startswith(os.path.realpath(root)):
        return None, "%s: configured for %s, another copy of the tree" % (what, src)
    scratch = os.path.join(dest, "cmake")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    init = os.path.join(dest, "cache-entries.cmake")
    with open(init, "w") as f:
        # the entries a user or a preset set, not the ones cmake computes
        for n, t, v in entries:
            if t not in ("INTERNAL", "STATIC") and n != "CMAKE_EXPORT_COMPILE_COMMANDS":
                f.write('set(%s "%s" CACHE %s "")\n' % (
                    n, v.replace("\\", "\\\\").replace('"', '\\"'), t))
    rc, out = _run(["cmake", "-S", src, "-B", scratch, "-C", init,
                    "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], scratch)
    made = os.path.join(scratch, "compile_commands.json")
    if rc or not os.path.exists(made):
        return None, "%s: cmake with its cache entries into %s failed: %s" % (
            what, scratch, (out.strip().splitlines() or ["?"])[-1][:200])
    return made, "%s: compile database made by cmake with its cache entries and " \
        "CMAKE_EXPORT_COMPILE_COMMANDS=ON in the scratch directory %s (the build " \
        "directory untouched)" % (what, scratch)


def what_if(root):
    """make's -W options for every C source under ROOT, as the makefiles of
    each directory between it and ROOT name it (`a.c`, `src/a.c`): every
    unit is printed, built or not.  None when the list would not fit in
    the environment string make passes it on in."""
    names = set()
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if not x.startswith(".")]
        for f in files:
            if f.endswith(".c"):
                p = os.path.relpath(os.path.join(d, f), root).split(os.sep)
                names |= {"/".join(p[i:]) for i in range(len(p))}
    opts = [o for n in sorted(names) for o in ("-W", n)]
    return opts if sum(len(o) + 1 for o in opts) < W_BYTES else None


def dry_run(d, args, dest, timeout=TIMEOUT, note=None):
    """A compile database from make's dry run in D (ARGS: its targets and
    variables) written into DEST: (path or None, note).  -n prints and
    runs nothing but recursive makes; -W (each source as just modified)
    prints the units of a tree already built; -o keeps every makefile as
    it is (a dry run still remakes an out-of-date makefile); MAKE carries
    both into the recursive makes."""
    make = shutil.which("make") or "make"
    keep = [o for m in MAKEFILES for o in ("-o", m)]
    wif = what_if(d)
    opts = keep + (wif or [])
    rc, out = _run([make, "-nkw"] + opts + ["MAKE=" + " ".join([make] + opts)] + args, d,
                   timeout)
    if rc in (124, 127):
        return None, "make's dry run in %s: %s" % (d, out)
    cmds = dry_run_commands(out, d)
    if not cmds:
        last = [l for l in out.strip().splitlines() if "rror" in l or "***" in l]
        return None, "make's dry run in %s printed no C compile command%s" % (
            d, " (%s)" % last[-1][:200] if last else "")
    return _write(dest, cmds), note or (
        "no compile_commands.json: made one from make's dry run (make -n, nothing "
        "built%s) at %s" % ("" if wif else "; the units of a tree already built are "
                           "not all printed: too many sources for -W",
                           os.path.join(dest, "compile_commands.json")))


ENTER = re.compile(r"^\S*make(?:\[\d+\])?: (Entering|Leaving) directory [`'\"](.*)['\"]$")


def recipe_lines(text):
    """make's output, one line per recipe line: a line continued with a
    backslash is printed as it is written."""
    return re.sub(r"\\\n\s*", " ", text).splitlines()


def shell_words(line):
    """LINE's words, the shell's separators words of their own (automake's
    silent rules print `echo "  CC      " x.o;gcc ...`)."""
    # automake's `test -f 'x.c' || echo './'`x.c
    line = re.sub(r"`test -f '[^']*' \|\| echo '[^']*'`", "", line)
    return re.sub(r"(;|&&|\|\|)", r" \1 ", line).split()


def dry_run_commands(text, top):
    """compile_commands entries from `make -nkw` output: every recipe line
    with a C compiler, -c and a .c file, in the directory make says it
    entered."""
    cwd, out, stack = top, [], []
    for line in recipe_lines(text):
        m = ENTER.match(line)
        if m:
            if m.group(1) == "Entering":
                stack.append(cwd)
                cwd = m.group(2)
            elif stack:
                cwd = stack.pop()  # back where the parent make runs
            continue
        words = shell_words(line)
        cc = [i for i, w in enumerate(words) if COMPILER.match(w)]
        if not cc or "-c" not in words:
            continue
        args = words[cc[0]:]
        ends = [i for i, w in enumerate(args) if w in ("&&", ";", "||", "|")]
        args = [w.strip("'\"") for w in args[:ends[0] if ends else len(args)]]
        srcs = [w for w in args if w.endswith(".c")]
        if srcs:
            out.append(dict(directory=cwd, arguments=args, file=srcs[-1]))
    return out
