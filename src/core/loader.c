/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Finding, loading and checking plugins. Every check that can refuse a
 * plugin runs before any of its functions other than the entry point, and
 * each refusal has its own code; a bad plugin never takes the host down.
 * Modules that pass are made resident and shared by every client: a plugin
 * is never unloaded. Each client gets its own init()/fini() state.
 */
#include "internal.h"

#include <dlfcn.h>
#include <ltdl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The package naming pattern a distribution set (configure --with-plugin-package). */
#ifdef SBX_PLUGIN_PACKAGE
static const char *const plugin_package_pattern = SBX_PLUGIN_PACKAGE;
#else
static const char *const plugin_package_pattern = NULL;
#endif

/* libltdl keeps global state and is not thread-safe. */
static pthread_mutex_t ltdl_lock = PTHREAD_MUTEX_INITIALIZER;

static void host_log(int level, const char *plugin, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbx__logv(level, plugin ? plugin : "plugin", fmt, ap);
    va_end(ap);
}

static int host_set_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbx__error_setv(code, fmt, ap);
    va_end(ap);
    return code;
}

static const sbx_host host_table = {
    .struct_size = sizeof(sbx_host),
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .log = host_log,
    .set_error = host_set_error,
    .alloc = malloc,
    .realloc = realloc,
    .free = free,
};

const sbx_host *sbx__host_table(void)
{
    return &host_table;
}

int sbx__scheme_ok(const char *scheme)
{
    if (!scheme || !(*scheme >= 'a' && *scheme <= 'z'))
        return 0;
    for (const char *p = scheme; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '+' ||
              *p == '.'))
            return 0;
    return strlen(scheme) <= 64;
}

/* Which file would serve scheme: the first existing one on the search path. */
struct find {
    const char *scheme;
    char *path;
};

/* Non-zero (stop) when dir holds the plugin file, or when out of memory. */
static int find_in(void *ud, const char *dir)
{
    struct find *f = ud;
    if (asprintf(&f->path, "%s/sandboxio-%s.so", dir, f->scheme) < 0) {
        f->path = NULL;
        return 1;
    }
    if (access(f->path, F_OK) == 0)
        return 1;
    free(f->path);
    f->path = NULL;
    return 0;
}

char *sbx__loader_find(const sbx_client *c, const char *scheme)
{
    struct find f = {scheme, NULL};
    sbx__client_each_dir(c, find_in, &f);
    return f.path;
}

static int refuse(int code, lt_dlhandle h, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int refuse(int code, lt_dlhandle h, const char *path, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof(why), fmt, ap);
    va_end(ap);
    if (h)
        lt_dlclose(h);
    return sbx__error_set(code, "plugin %s: %s", path, why);
}
#ifdef __clang_analyzer__
/* refuse() returns its code, never SBX_OK; the analyzer does not follow a
 * variadic call, so tell it (see plugins/analyzer-model.h). */
#define refuse(code, ...) (refuse((code), __VA_ARGS__), (code))
#endif

/* The major a module was built for, when it lacks our entry point. */
static int other_abi_major(lt_dlhandle h)
{
    for (int major = 0; major <= 99; major++) {
        char sym[64];
        if (major == SBX_PLUGIN_ABI_MAJOR)
            continue;
        snprintf(sym, sizeof(sym), "sandboxio_plugin_v%d", major);
        if (lt_dlsym(h, sym))
            return major;
    }
    return -1;
}

/* Descriptor checks, in the order that keeps every read in bounds. */
static int check_descriptor(const sbx_plugin *d, lt_dlhandle h, const char *path,
                            const char *scheme)
{
    if (!SBX_STRUCT_HAS(d, abi_minor))
        return refuse(SBX_E_PLUGIN_SHORT_DESCRIPTOR, h, path,
                      "descriptor is %u bytes, too short to hold its ABI version",
                      d->struct_size);
    if (d->abi_major != SBX_PLUGIN_ABI_MAJOR)
        return refuse(SBX_E_PLUGIN_ABI_MAJOR, h, path,
                      "descriptor says plugin ABI major %u, this library speaks %d",
                      d->abi_major, SBX_PLUGIN_ABI_MAJOR);
    if (d->struct_size < SBX_PLUGIN_V1_0_SIZE)
        return refuse(SBX_E_PLUGIN_SHORT_DESCRIPTOR, h, path,
                      "descriptor is %u bytes, ABI 1.0 needs at least %u", d->struct_size,
                      SBX_PLUGIN_V1_0_SIZE);
    if (d->abi_minor > SBX_PLUGIN_ABI_MINOR)
        return refuse(SBX_E_PLUGIN_ABI_MINOR, h, path,
                      "plugin needs ABI 1.%u but this library offers 1.%d: upgrade sandboxio",
                      d->abi_minor, SBX_PLUGIN_ABI_MINOR);
    if (!d->name || strcmp(d->name, scheme) != 0)
        return refuse(SBX_E_PLUGIN_NAME_MISMATCH, h, path,
                      "descriptor names itself '%s' but the file is for scheme '%s'",
                      d->name ? d->name : "(null)", scheme);
    if (d->tier < SBX_TIER_UNKNOWN || d->tier > SBX_TIER_MICROVM)
        return refuse(SBX_E_PLUGIN_BAD_DESCRIPTOR, h, path, "unknown isolation tier %d", d->tier);
    if (d->caps & ~SBX_CAP_ALL_KNOWN)
        return refuse(SBX_E_PLUGIN_BAD_DESCRIPTOR, h, path,
                      "declares unknown capability bits 0x%llx",
                      (unsigned long long)(d->caps & ~SBX_CAP_ALL_KNOWN));
    if (!d->init || !d->open || !d->destroy)
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path,
                      "required function %s is missing",
                      !d->init ? "init" : !d->open ? "open" : "destroy");
    /* A declared capability is a promise; its functions must exist. */
    if ((d->caps & SBX_CAP_EXEC) && !d->exec)
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path, "declares 'exec' but has no exec");
    if ((d->caps & SBX_CAP_FILES) && (!d->file_write || !d->file_read || !d->file_list ||
                                      !d->file_remove || !d->file_mkdir))
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path,
                      "declares 'files' but lacks a file function");
    if ((d->caps & SBX_CAP_FILE_META) &&
        (!(d->caps & SBX_CAP_FILES) || !SBX_PLUGIN_HAS(d, file_symlink) ||
         !SBX_PLUGIN_HAS(d, file_set_meta)))
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path,
                      "declares 'file-meta' but lacks 'files' or a minor-3 file member");
    if ((d->caps & SBX_CAP_NATIVE) && !d->native)
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path, "declares 'native' but has no native");
    if ((d->caps & SBX_CAP_ATTACH) &&
        (!SBX_PLUGIN_HAS(d, open_named) || !SBX_PLUGIN_HAS(d, attach) ||
         !SBX_PLUGIN_HAS(d, detach) || !SBX_PLUGIN_HAS(d, list) || !SBX_PLUGIN_HAS(d, set_ttl)))
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path,
                      "declares 'attach' but lacks a minor-2 lifecycle member");
    if ((d->caps & SBX_CAP_PAUSE) && (!SBX_PLUGIN_HAS(d, pause) || !SBX_PLUGIN_HAS(d, resume)))
        return refuse(SBX_E_PLUGIN_INCOMPLETE, h, path, "declares 'pause' but lacks pause or resume");
    return SBX_OK;
}

/*
 * libltdl reports every failure as "file not found"; the dynamic linker's
 * own message says what is wrong (not ELF, missing dependency, ...).
 */
static const char *why_not_loadable(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h) {
        dlclose(h);
        return "libltdl refused it";
    }
    const char *why = dlerror();
    return why ? why : "unknown reason";
}

/*
 * Modules that passed every check, shared by all clients of the process and
 * never unloaded (plugin code may still run on another thread, and libraries
 * plugins use may have registered exit handlers). Guarded by ltdl_lock.
 */
typedef struct module {
    char *path;
    const sbx_plugin *desc;
    struct module *next;
} module;
static module *modules;

/* Open path and check it; on success the module is resident and cached. */
static int open_module(const char *path, const char *scheme, const sbx_plugin **desc)
{
    for (module *m = modules; m; m = m->next) {
        if (strcmp(m->path, path) == 0) {
            *desc = m->desc;
            return SBX_OK;
        }
    }
    lt_dladvise advise;
    if (lt_dladvise_init(&advise) || lt_dladvise_local(&advise))
        return sbx__error_set(SBX_E_INTERNAL, "libltdl: %s", lt_dlerror());
    lt_dlhandle h = lt_dlopenadvise(path, advise);
    lt_dladvise_destroy(&advise);
    if (!h)
        return refuse(SBX_E_PLUGIN_NOT_LOADABLE, NULL, path, "cannot be loaded: %s",
                      why_not_loadable(path));
    sbx_plugin_entry_fn entry = (sbx_plugin_entry_fn)(uintptr_t)lt_dlsym(h, SBX_PLUGIN_ENTRY);
    if (!entry) {
        int major = other_abi_major(h);
        if (major >= 0)
            return refuse(SBX_E_PLUGIN_ABI_MAJOR, h, path,
                          "built for plugin ABI major %d, this library speaks %d", major,
                          SBX_PLUGIN_ABI_MAJOR);
        return refuse(SBX_E_PLUGIN_NO_ENTRY, h, path, "no entry point %s", SBX_PLUGIN_ENTRY);
    }
    const sbx_plugin *d = entry();
    if (!d)
        return refuse(SBX_E_PLUGIN_NULL_DESCRIPTOR, h, path, "%s returned NULL",
                      SBX_PLUGIN_ENTRY);
    int rc = check_descriptor(d, h, path, scheme);
    if (rc)
        return rc;
    module *m = calloc(1, sizeof(*m));
    if (!m || !(m->path = strdup(path))) {
        free(m);
        return refuse(SBX_E_NOMEM, h, path, "out of memory");
    }
    if (lt_dlmakeresident(h)) {
        free(m->path);
        free(m);
        return refuse(SBX_E_INTERNAL, h, path, "cannot make resident: %s", lt_dlerror());
    }
    m->desc = d;
    m->next = modules;
    modules = m;
    *desc = d;
    return SBX_OK;
}

/* A checked module, initialised for one client. */
static int load_file(const char *path, const char *scheme, sbx_loaded_plugin **out)
{
    const sbx_plugin *d = NULL;
    int rc = open_module(path, scheme, &d);
    if (rc)
        return rc;
    sbx_loaded_plugin *lp = calloc(1, sizeof(*lp));
    char *s = strdup(scheme), *p = strdup(path);
    if (!lp || !s || !p) {
        free(lp);
        free(s);
        free(p);
        return sbx__error_set(SBX_E_NOMEM, "out of memory loading plugin %s", path);
    }
    sbx_error_clear();
    rc = d->init(&host_table, &lp->state);
    if (rc) {
        const sbx_error *e = sbx_error_last();
        char detail[600];
        snprintf(detail, sizeof(detail), "%s", e ? e->message : sbx_strerror(rc));
        free(lp);
        free(s);
        free(p);
        return sbx__error_set(SBX_E_PLUGIN_INIT_FAILED, "plugin %s: init failed with %s: %s",
                              path, sbx_error_id(rc), detail);
    }
    lp->scheme = s;
    lp->path = p;
    lp->desc = d;
    *out = lp;
    return SBX_OK;
}

int sbx__loader_get(sbx_client *c, const char *scheme, sbx_loaded_plugin **out)
{
    if (!sbx__scheme_ok(scheme))
        return sbx__error_set(SBX_E_PLUGIN_BAD_NAME,
                              "'%s' is not a usable plugin name ([a-z][a-z0-9+.-]*, at most "
                              "64 bytes)", scheme ? scheme : "(null)");
    pthread_mutex_lock(&c->lock);
    for (sbx_loaded_plugin *lp = c->plugins; lp; lp = lp->next) {
        if (strcmp(lp->scheme, scheme) == 0) {
            *out = lp;
            pthread_mutex_unlock(&c->lock);
            return SBX_OK;
        }
    }
    int rc;
    char *path = sbx__loader_find(c, scheme);
    if (!path) {
        char package[256];
        if (sbx__plugin_package(package, sizeof(package), plugin_package_pattern, scheme))
            rc = sbx__error_set(SBX_E_PLUGIN_NOT_FOUND,
                                "no plugin for scheme '%s': sandboxio-%s.so is in none of the "
                                "%zu plugin directories; the package %s provides it",
                                scheme, scheme, sbx_client_plugin_dir_count(c), package);
        else
            rc = sbx__error_set(SBX_E_PLUGIN_NOT_FOUND,
                                "no plugin for scheme '%s': sandboxio-%s.so is in none of the "
                                "%zu plugin directories (see `sandboxio doctor`)",
                                scheme, scheme, sbx_client_plugin_dir_count(c));
    } else {
        sbx_loaded_plugin *lp = NULL;
        pthread_mutex_lock(&ltdl_lock);
        rc = load_file(path, scheme, &lp);
        pthread_mutex_unlock(&ltdl_lock);
        if (rc == SBX_OK) {
            lp->next = c->plugins;
            c->plugins = lp;
            *out = lp;
        }
        free(path);
    }
    pthread_mutex_unlock(&c->lock);
    return rc;
}

int sbx__loader_init(void)
{
    /* libltdl is initialised once and never shut down: modules stay resident. */
    static bool ready;
    int failed = 0;
    pthread_mutex_lock(&ltdl_lock);
    if (!ready) {
        failed = lt_dlinit();
        ready = !failed;
    }
    pthread_mutex_unlock(&ltdl_lock);
    if (failed)
        return sbx__error_set(SBX_E_INTERNAL, "libltdl failed to initialise: %s", lt_dlerror());
    return SBX_OK;
}

void sbx__loader_unload(sbx_loaded_plugin *lp)
{
    if (lp->desc->fini)
        lp->desc->fini(lp->state);
    free(lp->scheme);
    free(lp->path);
    free(lp);
}

