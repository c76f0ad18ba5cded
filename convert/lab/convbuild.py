"""check-convert's builds: a project's Debian source and build
dependencies, its build system (cmake or autotools), its own test suite run
and read test by test, and the programs of convert/lab/projects/.

Every build and test runs under `nice -n 15` (benchmarks keep priority).
The baseline and the converted build share one build tree and one set of
flags: the baseline is configured with -I LIB/include and LIB's
librefcount.a on the link line, which it does not use (nothing of the
library is linked in: checked with nm), so that the converted build is an
incremental `make` of what the conversion changed, not a second configure
and full build."""

import glob
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
NICE = ["nice", "-n", "15"]
SUDO = [] if os.getuid() == 0 else ["sudo"]


def sh(cmd, cwd=None, env=None, log=None, check=True, nice=True):
    """Run CMD (appending its output to LOG); raise if it fails and CHECK."""
    with open(log or os.devnull, "a") as out:
        r = subprocess.run((NICE if nice else []) + cmd, cwd=cwd, env=env, stdout=out,
                           stderr=subprocess.STDOUT)
    if check and r.returncode:
        raise RuntimeError("%s failed (%d)%s" % (" ".join(cmd), r.returncode,
                                                 ", see " + log if log else ""))
    return r.returncode


def apt(args, log):
    """apt-get under the machine's apt lock (helpers share dpkg's lock)."""
    sh(["flock", "/tmp/apt.lock"] + SUDO + ["env", "DEBIAN_FRONTEND=noninteractive",
                                            "apt-get"] + APT_WAIT + args, log=log, nice=False)


# wait for dpkg's own lock too (an apt run of another program)
APT_WAIT = ["-o", "DPkg::Lock::Timeout=900"]


def fetch(pkg, version, srcdir, log, deps=None):
    """The Debian source of PKG, extracted once under SRCDIR (pristine:
    the report reads it, the builds copy it); its build dependencies
    installed, or only DEPS when the row's configuration names them (a
    build with the optional libraries off).  Returns the directory."""
    dest = os.path.join(srcdir, pkg)
    if not os.path.isdir(dest):
        sh(["flock", "/tmp/apt.lock", os.path.join(HERE, "fetch-src.sh"), pkg, version, dest],
           log=log, nice=False)
    if deps is not None:
        if subprocess.run(["dpkg", "-s"] + deps, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode:
            apt(["install", "-y", "-qq"] + deps, log)
    elif subprocess.run(["dpkg-checkbuilddeps"], cwd=dest, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode:
        apt(["build-dep", "-y", "-qq", pkg], log)
    return dest


def remove(path):
    """PATH gone, a directory or a link to one (Mklove's build directory)."""
    if os.path.islink(path):
        os.unlink(path)
    else:
        shutil.rmtree(path, ignore_errors=True)


def copy_tree(src, dst):
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)


def copy_changed(pristine, conv, tree, base=None):
    """The files the tool changed or added in CONV (a copy of PRISTINE)
    copied into TREE with a new mtime, so that make rebuilds what depends
    on them; returns their paths.  BASE: CONV as it was before the tool ran
    (configured, for a row whose tool reads a compile database): compared
    with it instead, and what configure generated is not copied."""
    import filecmp
    out = []
    for d, _, files in os.walk(conv):
        for f in files:
            c = os.path.join(d, f)
            rel = os.path.relpath(c, conv)
            o = os.path.join(base or pristine, rel)
            if base and not os.path.lexists(os.path.join(pristine, rel)):
                continue
            if os.path.islink(c) or (os.path.exists(o) and filecmp.cmp(o, c, shallow=False)):
                continue
            os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
            shutil.copyfile(c, os.path.join(tree, rel))
            out.append(rel)
    return sorted(out)


def lib_flags(lib):
    return "-I%s/include" % lib, "%s/build/librefcount.a -pthread" % lib


def test_env(p, src, bdir, env):
    """ENV with the project's test environment (as its debian/rules runs
    the tests); @src and @build stand for the two trees, None unsets."""
    env = dict(env or os.environ)
    for k, v in p.get("test_env", {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v.replace("@src", src).replace("@build", bdir)
    return env


class CMake:
    def configure(self, p, src, bdir, lib, log):
        inc, link = lib_flags(lib)
        sh(["cmake", src] + p["configure"] + ["-DCMAKE_C_FLAGS=" + inc,
                                              "-DCMAKE_C_STANDARD_LIBRARIES=" + link],
           cwd=bdir, log=log)

    def build(self, bdir, jobs, log):
        sh(["make", "-j%d" % jobs], cwd=bdir, log=log)

    def rebuild(self, bdir, jobs, log):
        """cmake again first (its cache keeps the checks): a file(COPY) of a
        header (jansson.h into build/include) is made at configure time and
        is not a dependency make knows."""
        sh(["cmake", "."], cwd=bdir, log=log)
        self.build(bdir, jobs, log)

    def test(self, p, src, bdir, env, jobs, log, only=None):
        """{test name: passed?} from ctest's own lines."""
        open(log, "w").close()
        env = test_env(p, src, bdir, env)
        sh(["ctest", "-j%d" % jobs] + (["-R", "^(%s)$" % "|".join(only)] if only else []),
           cwd=bdir, env=env, log=log, check=False)
        res = {}
        for m in re.finditer(r"Test\s+#\d+: (\S+) \.+\**\s*([^\n]*?)\s+[\d.]+ sec",
                             open(log, errors="replace").read()):
            res[m.group(1)] = m.group(2) == "Passed"
        return res


class Autotools:
    """A VPATH build: configure runs in the build directory."""

    def configure(self, p, src, bdir, lib, log):
        inc, link = lib_flags(lib)
        sh([os.path.join(src, "configure")] + p["configure"] +
           ["CPPFLAGS=" + inc, "LIBS=" + link], cwd=bdir, log=log)

    def build(self, bdir, jobs, log):
        sh(["make", "-j%d" % jobs], cwd=bdir, log=log)

    # make's own rules regenerate what config.status made from a changed .in
    rebuild = build

    def test(self, p, src, bdir, env, jobs, log, only=None):
        """{test name: passed?} from the automake harness's .trs files
        (PASS and XFAIL pass; SKIP, FAIL, XPASS, ERROR do not); a TAP
        test's cases are NAME#1, NAME#2...  ONLY: rerun those tests."""
        open(log, "w").close()
        env = test_env(p, src, bdir, env)
        if only:
            for t in sorted({t.split("#")[0] for t in only}):
                d, n = os.path.split(t)
                sh(["make", "check", "TESTS=" + n], cwd=os.path.join(bdir, d), env=env,
                   log=log, check=False)
        else:
            for trs in glob.glob(os.path.join(bdir, "**", "*.trs"), recursive=True):
                os.unlink(trs)
            sh(["make", "-k", "-j%d" % jobs, "check"], cwd=bdir, env=env, log=log,
               check=False)
        res = {}
        for trs in glob.glob(os.path.join(bdir, "**", "*.trs"), recursive=True):
            found = re.findall(r"^:test-result: (\w+)", open(trs, errors="replace").read(),
                               re.M)
            name = os.path.relpath(trs, bdir)[:-4]
            # a TAP test's results, one per test case, in its order
            for i, r in enumerate(found or ["ERROR"]):
                t = name if len(found) == 1 else "%s#%d" % (name, i + 1)
                if not only or t in only:
                    res[t] = r in ("PASS", "XFAIL")
        return res


class Meson:
    """meson setup, ninja, meson test (its testlog.json read test by test)."""

    def configure(self, p, src, bdir, lib, log):
        inc, link = lib_flags(lib)
        sh(["meson", "setup", bdir, src] + p["configure"] +
           ["-Dc_args=" + inc, "-Dc_link_args=" + link], log=log)

    def build(self, bdir, jobs, log):
        sh(["ninja", "-j%d" % jobs], cwd=bdir, log=log)

    rebuild = build  # ninja reruns meson when a meson.build changed

    def test(self, p, src, bdir, env, jobs, log, only=None):
        """{test name: passed?}: OK and EXPECTEDFAIL pass; SKIP, FAIL,
        TIMEOUT, UNEXPECTEDPASS, ERROR do not."""
        open(log, "w").close()
        env = test_env(p, src, bdir, env)
        tl = os.path.join(bdir, "meson-logs", "testlog.json")
        if os.path.exists(tl):
            os.unlink(tl)
        sh(["meson", "test", "--no-rebuild", "--print-errorlogs", "--num-processes",
            str(jobs)] + (sorted(only) if only else []) + p.get("test_args", []),
           cwd=bdir, env=env, log=log, check=False)
        res = {}
        if os.path.exists(tl):
            import json
            for l in open(tl, errors="replace"):
                if l.strip():
                    t = json.loads(l)
                    res[t["name"]] = t["result"] in ("OK", "EXPECTEDFAIL")
        return res


class Configure:
    """A hand-written ./configure (ffmpeg's): run in the build directory,
    flags through --extra-cflags and --extra-libs; the tests are make
    targets (TEST_TARGETS) whose results are report files, one a test
    (TEST_REPORTS, a glob under the build directory: `name:status:...`,
    status 0 passes)."""

    def configure(self, p, src, bdir, lib, log):
        inc, link = lib_flags(lib)
        sh([os.path.join(src, "configure")] + p["configure"] +
           ["--extra-cflags=" + inc, "--extra-libs=" + link], cwd=bdir, log=log)

    build = Autotools.build
    rebuild = Autotools.build

    def test(self, p, src, bdir, env, jobs, log, only=None):
        open(log, "w").close()
        env = test_env(p, src, bdir, env)
        for rep in glob.glob(os.path.join(bdir, p["test_reports"])):
            os.unlink(rep)
        targets = ["fate-" + t for t in sorted(only)] if only else p["test_targets"]
        sh(["make", "-k", "-j%d" % jobs] + targets, cwd=bdir, env=env, log=log, check=False)
        res = {}
        for rep in glob.glob(os.path.join(bdir, p["test_reports"])):
            w = open(rep, errors="replace").read().split(":")
            if len(w) >= 2:
                res[w[0]] = w[1] == "0"
        return res


class Mklove:
    """A configure that builds in the source tree (librdkafka's mklove):
    the build directory becomes a link to the tree.  Its flags through
    --CPPFLAGS and --LDFLAGS (LIBS: the environment); BUILD_TARGETS are
    built (the library and the test program); the tests are one program
    (TEST_PROGRAM, run in TEST_DIR with TEST_ARGS, -p JOBS) whose JSON
    report (TEST_REPORT, a glob) gives each test's state."""

    targets = {}  # build directory -> the row's BUILD_TARGETS

    def configure(self, p, src, bdir, lib, log):
        inc, link = lib_flags(lib)
        remove(bdir)
        os.symlink(src, bdir)
        self.targets[bdir] = p["build_targets"]
        env = dict(os.environ, LIBS=link)
        sh(["./configure"] + p["configure"] + ["--CPPFLAGS=" + inc], cwd=src, env=env,
           log=log)

    def build(self, bdir, jobs, log):
        for t in self.targets[bdir]:
            sh(["make", "-j%d" % jobs] + t, cwd=bdir, log=log)

    rebuild = build

    def test(self, p, src, bdir, env, jobs, log, only=None):
        """{test name: PASSED?} from the runner's JSON report (SKIPPED and
        the runner's own <MAIN> line are not tests)."""
        import json
        open(log, "w").close()
        env = test_env(p, src, bdir, env)
        d = os.path.join(bdir, p["test_dir"])
        for rep in glob.glob(os.path.join(d, p["test_report"])):
            os.unlink(rep)
        if only:  # the runner selects by test number
            env["TESTS"] = ",".join(sorted({t[:4] for t in only}))
        sh([p["test_program"]] + p["test_args"] + ["-p%d" % jobs], cwd=d, env=env,
           log=log, check=False)
        res = {}
        for rep in glob.glob(os.path.join(d, p["test_report"])):
            try:
                tests = json.load(open(rep, errors="replace")).get("tests", {})
            except ValueError:
                continue
            for name, t in tests.items():
                if name != "<MAIN>" and t.get("state") != "SKIPPED":
                    res[name] = t.get("state") == "PASSED"
        return res


SYSTEMS = {"cmake": CMake(), "autotools": Autotools(), "meson": Meson(),
           "configure": Configure(), "mklove": Mklove()}


def foreign_symbols(path, lib):
    """The library's global symbols that PATH defines: none in a baseline."""
    ours = set()
    for l in subprocess.run(["nm", "-g", "--defined-only", os.path.join(lib, "build",
                                                                       "librefcount.a")],
                            stdout=subprocess.PIPE, universal_newlines=True).stdout.split("\n"):
        w = l.split()
        if len(w) == 3 and w[1] in "TDBR":
            ours.add(w[2])
    out = subprocess.run(["nm", "-D" if ".so" in path else "-g", "--defined-only", path],
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    return sorted(ours & {l.split()[-1] for l in out.split("\n") if l.strip()})


def program(p, name, src, bdir, lib, out, log):
    """convert/lab/projects/NAME.c against the project's library as built
    in BDIR now: a static one is linked in; a shared one is first copied
    next to OUT (the converted build replaces it in BDIR)."""
    incs = []
    for i in p["inc"]:
        incs += ["-I", src + i[4:] if i.startswith("@src") else os.path.join(bdir, i)]
    libpath = os.path.join(bdir, p["lib"])
    if libpath.endswith(".a"):
        libs = [libpath]
    elif p.get("libroot"):  # the shared objects under it, their layout kept
        d = out + ".lib"    # (a library's $ORIGIN-relative run path still holds)
        shutil.rmtree(d, ignore_errors=True)
        root = os.path.join(bdir, p["libroot"])
        for dd, _, files in os.walk(root):
            for f in files:
                if re.search(r"\.so(\.|$)", f) and ".p" not in os.path.relpath(dd, root):
                    t = os.path.join(d, os.path.relpath(dd, root))
                    os.makedirs(t, exist_ok=True)
                    shutil.copy(os.path.join(dd, f), t, follow_symlinks=False)
        ld = os.path.join(d, os.path.relpath(os.path.dirname(libpath), root))
        libs = ["-L" + ld, "-l" + os.path.basename(libpath)[3:].split(".so")[0],
                "-Wl,-rpath," + ld]
    else:
        d = out + ".lib"
        copy_tree(os.path.dirname(libpath), d)
        libs = ["-L" + d, "-l" + os.path.basename(libpath)[3:].split(".so")[0],
                "-Wl,-rpath," + d]
    if p.get("prog_libs_from"):  # the libraries the build found: (file, variable)
        f, var = p["prog_libs_from"]
        for l in open(os.path.join(bdir, f), errors="replace"):
            m = re.match(r"%s\s*\+?=\s*(.*)" % re.escape(var), l)
            if m:
                libs += m.group(1).split()
    incs += ["-I", os.path.join(lib, "include")]
    libs += [os.path.join(lib, "build", "librefcount.a")]
    sh(["cc", "-O2", "-g", "-std=gnu11"] + incs +
       [os.path.join(HERE, "projects", name + ".c"), "-o", out] + libs +
       ["-pthread", "-lm", "-ldl"], log=log)
