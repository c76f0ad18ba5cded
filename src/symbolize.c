// SPDX-License-Identifier: MIT
/*
 * symbolize.c - a return address as text, only when a report prints
 *
 * Capture stores bare addresses; this turns one into
 *
 *	sym+0xoff/0xsize (module+0xoff) file.c:line
 *
 * with what can be found: the symbol from libdw (which also reads .symtab,
 * so static functions have names) or else dladdr(); the module and the
 * offset into it, which `addr2line -e module 0xoff` resolves offline; the
 * file and line from libdw's DWARF reader.  For a call that was inlined
 * (the tracked wrappers are static inline), the line is the one of the
 * outermost inlined call, in the function that sym names.
 *
 * libdw is loaded with dlopen("libdw.so.1") on the first report, so the
 * library's link line is unchanged and a program without it (or without
 * debug information) still gets symbol+offset and module+offset.  Its
 * headers (Debian's libdw-dev) are needed at build time for file:line; a
 * build without them (the qemu cross builds) leaves file:line out.
 * Symbolising takes a mutex: reports are rare and libdw is not thread safe.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <refcount/impl/stackdepot.h>

#if defined(__has_include)
#if __has_include(<elfutils/libdwfl.h>) && __has_include(<dwarf.h>)
#define HAVE_LIBDW 1
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#endif
#endif

static pthread_mutex_t sym_lock = PTHREAD_MUTEX_INITIALIZER;

#ifdef HAVE_LIBDW
/* The libdw functions used, looked up once. */
static struct {
	bool tried, ok;
	Dwfl *dwfl;
	Dwfl_Callbacks cb;
	__typeof__(dwfl_begin) *begin;
	__typeof__(dwfl_end) *end;
	__typeof__(dwfl_linux_proc_report) *proc_report;
	__typeof__(dwfl_report_begin) *report_begin;
	__typeof__(dwfl_report_end) *report_end;
	__typeof__(dwfl_addrmodule) *addrmodule;
	__typeof__(dwfl_module_addrinfo) *addrinfo;
	__typeof__(dwfl_module_getsrc) *getsrc;
	__typeof__(dwfl_lineinfo) *lineinfo;
	__typeof__(dwfl_module_addrdie) *addrdie;
	__typeof__(dwarf_getscopes) *getscopes;
	__typeof__(dwarf_getscopes_die) *getscopes_die;
	__typeof__(dwarf_tag) *tag;
	__typeof__(dwarf_attr) *attr;
	__typeof__(dwarf_formudata) *formudata;
	__typeof__(dwarf_getsrcfiles) *getsrcfiles;
	__typeof__(dwarf_filesrc) *filesrc;
} dw;

#define DW_SYM(h, field, name)                                                 \
	(*(void **)&dw.field = dlsym(h, name), dw.field != NULL)

static bool dw_load(void)
{
	void *h;

	if (dw.tried)
		return dw.ok;
	dw.tried = true;
	h = dlopen("libdw.so.1", RTLD_LAZY | RTLD_LOCAL);
	if (!h)
		return false;
	dw.ok = DW_SYM(h, begin, "dwfl_begin") && DW_SYM(h, end, "dwfl_end") &&
		DW_SYM(h, proc_report, "dwfl_linux_proc_report") &&
		DW_SYM(h, report_begin, "dwfl_report_begin") &&
		DW_SYM(h, report_end, "dwfl_report_end") &&
		DW_SYM(h, addrmodule, "dwfl_addrmodule") &&
		DW_SYM(h, addrinfo, "dwfl_module_addrinfo") &&
		DW_SYM(h, getsrc, "dwfl_module_getsrc") &&
		DW_SYM(h, lineinfo, "dwfl_lineinfo") &&
		DW_SYM(h, addrdie, "dwfl_module_addrdie") &&
		DW_SYM(h, getscopes, "dwarf_getscopes") &&
		DW_SYM(h, getscopes_die, "dwarf_getscopes_die") &&
		DW_SYM(h, tag, "dwarf_tag") && DW_SYM(h, attr, "dwarf_attr") &&
		DW_SYM(h, formudata, "dwarf_formudata") &&
		DW_SYM(h, getsrcfiles, "dwarf_getsrcfiles") &&
		DW_SYM(h, filesrc, "dwarf_filesrc") &&
		DW_SYM(h, cb.find_elf, "dwfl_linux_proc_find_elf") &&
		DW_SYM(h, cb.find_debuginfo, "dwfl_standard_find_debuginfo");
	if (!dw.ok)
		return false;
	dw.dwfl = dw.begin(&dw.cb);
	if (!dw.dwfl)
		return dw.ok = false;
	dw.report_begin(dw.dwfl);
	if (dw.proc_report(dw.dwfl, getpid()) ||
	    dw.report_end(dw.dwfl, NULL, NULL)) {
		dw.end(dw.dwfl);
		return dw.ok = false;
	}
	return true;
}

/* The module of @pc, re-reading the process map once for a new module. */
static Dwfl_Module *dw_module(Dwarf_Addr pc)
{
	Dwfl_Module *m = dw.addrmodule(dw.dwfl, pc);

	if (!m) {
		dw.report_begin(dw.dwfl);
		dw.proc_report(dw.dwfl, getpid());
		dw.report_end(dw.dwfl, NULL, NULL);
		m = dw.addrmodule(dw.dwfl, pc);
	}
	return m;
}

/* The call site of the outermost inlined call containing @pc, if any. */
static const char *dw_inline_site(Dwfl_Module *m, Dwarf_Addr pc, int *line)
{
	Dwarf_Addr bias;
	Dwarf_Die *cu = dw.addrdie(m, pc, &bias), *scopes = NULL;
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word file = 0, ln = 0;
	const char *name = NULL;
	size_t nfiles;
	int n, outer = -1;

	if (!cu)
		return NULL;
	/*
	 * The innermost scope at @pc; its enclosing scopes in the DIE tree
	 * (dwarf_getscopes() follows the abstract origin instead).
	 */
	n = dw.getscopes(cu, pc - bias, &scopes);
	if (n > 0) {
		Dwarf_Die inner = scopes[0];

		free(scopes);
		scopes = NULL;
		n = dw.getscopes_die(&inner, &scopes);
	}
	for (int i = 0; i < n; i++)
		if (dw.tag(&scopes[i]) == DW_TAG_inlined_subroutine)
			outer = i;
	if (outer >= 0 &&
	    !dw.formudata(dw.attr(&scopes[outer], DW_AT_call_file, &a),
			  &file) &&
	    !dw.formudata(dw.attr(&scopes[outer], DW_AT_call_line, &a), &ln) &&
	    !dw.getsrcfiles(cu, &files, &nfiles) && file < nfiles) {
		name = dw.filesrc(files, file, NULL, NULL);
		*line = (int)ln;
	}
	free(scopes);
	return name;
}

/* Symbol and line from libdw; false if it knows neither. */
static bool dw_describe(uintptr_t addr, const char **sym, uintptr_t *off,
			size_t *size, const char **file, int *line)
{
	Dwarf_Addr pc = (Dwarf_Addr)addr;
	Dwfl_Module *m;
	Dwfl_Line *l;
	GElf_Sym s;
	GElf_Off o;

	if (!dw_load() || !(m = dw_module(pc)))
		return false;
	*sym = dw.addrinfo(m, pc, &o, &s, NULL, NULL, NULL);
	if (*sym) {
		*off = (uintptr_t)o;
		*size = (size_t)s.st_size;
	}
	/* A return address: the call is the instruction before it. */
	*file = dw_inline_site(m, pc - 1, line);
	if (!*file && (l = dw.getsrc(m, pc - 1)))
		*file = dw.lineinfo(l, NULL, line, NULL, NULL, NULL);
	return *sym || *file;
}
#endif /* HAVE_LIBDW */

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

int __refcount_symbolize(uintptr_t addr, char *buf, size_t size)
{
	const char *sym = NULL, *file = NULL;
	uintptr_t off = 0;
	size_t symsize = 0;
	int line = 0, n = 0;
	Dl_info info;
	bool have_dl;

	pthread_mutex_lock(&sym_lock);
	have_dl = dladdr((void *)addr, &info) != 0;
#ifdef HAVE_LIBDW
	dw_describe(addr, &sym, &off, &symsize, &file, &line);
#endif
	if (!sym && have_dl && info.dli_sname) {
		sym = info.dli_sname;
		off = addr - (uintptr_t)info.dli_saddr;
	}
	if (sym && symsize)
		n = snprintf(buf, size, "%s+%#lx/%#lx", sym, (unsigned long)off,
			     (unsigned long)symsize);
	else if (sym)
		n = snprintf(buf, size, "%s+%#lx", sym, (unsigned long)off);
	else
		n = snprintf(buf, size, "%#lx", (unsigned long)addr);
	if (have_dl && info.dli_fname && n >= 0 && (size_t)n < size)
		n += snprintf(
			buf + n, size - (size_t)n, " (%s+%#lx)",
			base_name(info.dli_fname),
			(unsigned long)(addr - (uintptr_t)info.dli_fbase));
	if (file && n >= 0 && (size_t)n < size)
		n += snprintf(buf + n, size - (size_t)n, " %s:%d",
			      base_name(file), line);
	pthread_mutex_unlock(&sym_lock);
	return n;
}
