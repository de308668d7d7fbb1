/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal declarations shared by the core's files. Nothing here is exported.
 */
#ifndef SBX_INTERNAL_H
#define SBX_INTERNAL_H

#include "config.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sandboxio/sandboxio.h>
#include <sandboxio/plugin.h>

#define SBX_HIDDEN __attribute__((visibility("hidden")))

/* --- errors (error.c) --------------------------------------------------- */

/* Record code with a printf message on this thread; returns code. */
SBX_HIDDEN int sbx__error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
SBX_HIDDEN int sbx__error_setv(int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Same, with a DSN byte offset. */
SBX_HIDDEN int sbx__error_set_pos(int code, long position, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, with errno's text appended and kept. */
SBX_HIDDEN int sbx__error_set_errno(int code, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* If the last error on this thread is not for code, set a generic message. */
SBX_HIDDEN int sbx__error_ensure(int code, const char *context);
#ifdef __clang_analyzer__
/* These return their code, never SBX_OK; clang's analyzer does not look into
 * error.c from the other files, so tell it (see plugins/analyzer-model.h). */
#define sbx__error_set(code, ...) (sbx__error_set((code), __VA_ARGS__), (code))
#define sbx__error_set_pos(code, ...) (sbx__error_set_pos((code), __VA_ARGS__), (code))
#define sbx__error_set_errno(code, ...) (sbx__error_set_errno((code), __VA_ARGS__), (code))
#endif

/* Send a message to the log handler (sbx_log_set_handler). */
SBX_HIDDEN void sbx__logv(int level, const char *origin, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* The catalog entry of a code (error_catalog.c); NULL for non-codes. */
typedef struct sbx_catalog_entry {
    int code;
    const char *id;       /* "SBX_E1001" */
    const char *summary;  /* one line */
} sbx_catalog_entry;
SBX_HIDDEN const sbx_catalog_entry *sbx__catalog_find(int code);
SBX_HIDDEN const sbx_catalog_entry *sbx__catalog_at(size_t i);

/* --- memory and strings (alloc.c, strvec.c) ----------------------------- */

SBX_HIDDEN void *sbx__calloc(size_t n, size_t size);
SBX_HIDDEN char *sbx__strdup(const char *s);

/* A growable NULL-terminated vector of owned strings. */
typedef struct sbx_strvec {
    char **v;
    size_t n;
    size_t cap;
} sbx_strvec;
SBX_HIDDEN int sbx__strvec_push(sbx_strvec *sv, const char *s);
SBX_HIDDEN int sbx__strvec_push_kv(sbx_strvec *sv, const char *name, const char *value);
SBX_HIDDEN int sbx__strvec_copy(sbx_strvec *dst, const sbx_strvec *src);
SBX_HIDDEN void sbx__strvec_clear(sbx_strvec *sv);

/* A growable byte buffer. */
typedef struct sbx_buf {
    char *data;
    size_t len;
    size_t cap;
} sbx_buf;
SBX_HIDDEN int sbx__buf_append(sbx_buf *b, const void *data, size_t len);
SBX_HIDDEN void sbx__buf_clear(sbx_buf *b);

/* --- DSN (dsn.c) --------------------------------------------------------- */

/* The parsed DSN, laid out so the plugin view needs no copy. */
struct sbx_dsn {
    char *text;                /* the original */
    char *scheme;
    char *authority;
    char *path;
    size_t query_count;
    sbx_plugin_kv *query;      /* owned keys/values */
    sbx_plugin_dsn view;       /* what plugins receive; points into the above */
};

/* Length of sbx_dsn_to_string()'s text for dsn, without the NUL (dsn_print.c). */
SBX_HIDDEN size_t sbx__dsn_printed_len(const sbx_dsn *dsn);

/* --- policy (policy.c) --------------------------------------------------- */

struct sbx_policy {
    int min_tier;
    int network;
    sbx_strvec allow;
    uint64_t memory;
    uint32_t cpu_millis;
    uint32_t pids;
    uint64_t disk;
    bool no_default_limits;    /* sbx_policy_set_default_limits(p, 0) */
    uint64_t timeout_ms;
    size_t output_cap;
    sbx_strvec env;            /* "K=V" */
};
/* Is name usable as an environment variable name? */
SBX_HIDDEN int sbx__env_name_ok(const char *name);
SBX_HIDDEN int sbx__policy_copy(sbx_policy *dst, const sbx_policy *src);
SBX_HIDDEN void sbx__policy_clear(sbx_policy *p);
SBX_HIDDEN void sbx__policy_defaults(sbx_policy *p);
/* The stored form of p (policy_store.c), without the environment; caller frees. */
SBX_HIDDEN int sbx__policy_store(const sbx_policy *p, char **out);
/* Parse a stored form into *p (cleared first); SBX_E_STORED_POLICY if it does not parse. */
SBX_HIDDEN int sbx__policy_load(sbx_policy *p, const char *text);
/*
 * The policy an attached handle runs under: stored, or asked where asked
 * is no wider (SBX_E_POLICY_WIDER) and changes no sandbox-wide control
 * (SBX_E_POLICY_FIXED). caps: for the default limits.
 */
SBX_HIDDEN int sbx__policy_narrow(sbx_policy *out, const sbx_policy *stored,
                                  const sbx_policy *asked, uint64_t caps);
/* Refuse (SBX_E3xxx) what caps/tier cannot guarantee. No side effects. */
SBX_HIDDEN int sbx__policy_check(const sbx_policy *p, uint64_t caps, int tier, const char *backend);

/* --- loader (loader.c) --------------------------------------------------- */

typedef struct sbx_loaded_plugin {
    char *scheme;
    char *path;
    const sbx_plugin *desc;
    void *state;                /* from desc->init */
    struct sbx_loaded_plugin *next;
} sbx_loaded_plugin;

/* Find, load, check and init the plugin for scheme (cached on the client). */
SBX_HIDDEN int sbx__loader_get(sbx_client *c, const char *scheme, sbx_loaded_plugin **out);
SBX_HIDDEN const sbx_host *sbx__host_table(void);
/* Initialise libltdl once per process (sbx_client_new calls it). */
SBX_HIDDEN int sbx__loader_init(void);
/* fini the client's plugin state; the module itself stays resident. */
SBX_HIDDEN void sbx__loader_unload(sbx_loaded_plugin *lp);
/* The file that would serve scheme (caller frees), NULL if none. */
SBX_HIDDEN char *sbx__loader_find(const sbx_client *c, const char *scheme);
/* Calls each(ud, dir) for every search directory in order, the installed one
 * last, under the client's dirs_lock, until each returns non-zero (returned). */
SBX_HIDDEN int sbx__client_each_dir(const sbx_client *c, int (*each)(void *ud, const char *dir),
                                    void *ud);
/* Is scheme a name a plugin file may carry? */
SBX_HIDDEN int sbx__scheme_ok(const char *scheme);
/*
 * The package providing scheme's plugin, from pattern (its one "%s" is the
 * scheme) into buf: 1 when written, 0 with no usable pattern or no room.
 */
SBX_HIDDEN int sbx__plugin_package(char *buf, size_t size, const char *pattern,
                                   const char *scheme);

/* Does desc have member m (struct_size covers it and it is non-NULL)? */
#define SBX_PLUGIN_HAS(desc, m) (SBX_STRUCT_HAS(desc, m) && (desc)->m != NULL)

/* --- client (client.c) --------------------------------------------------- */

struct sbx_client {
    pthread_mutex_t lock;      /* guards plugins */
    /* Guards dirs. Taken alone or inside lock, never the other way round,
     * so the loader can search the path while it holds lock. */
    pthread_mutex_t dirs_lock;
    sbx_strvec dirs;           /* SANDBOXIO_PLUGIN_PATH's, then added ones */
    size_t env_dirs;
    sbx_loaded_plugin *plugins;
};

/* --- sandbox (sandbox.c) ------------------------------------------------- */

struct sbx_sandbox {
    sbx_client *client;
    sbx_loaded_plugin *plugin;
    void *handle;              /* the plugin's */
    bool destroyed;
    uint64_t caps;
    int tier;
    sbx_policy policy;
    sbx_dsn *dsn;              /* kept: plugins may hold on to its strings */
    char *dsn_redacted;
    char *name;                /* NULL if none */
    int64_t expires_ms;        /* Unix ms when the TTL ends; 0 = none */
};
/* SBX_E_SANDBOX_DESTROYED etc. for a handle about to be used. */
SBX_HIDDEN int sbx__sandbox_usable(const sbx_sandbox *sb);
/* SBX_E3xxx naming cap if sb lacks it. */
SBX_HIDDEN int sbx__sandbox_need(const sbx_sandbox *sb, uint64_t cap);
/*
 * Everything an open does short of creating: DSN parsed, plugin loaded,
 * effective capabilities known, policy checked. *out is a handle marked
 * destroyed, for sbx_run(); free it with sbx_sandbox_free().
 */
SBX_HIDDEN int sbx__sandbox_prepare(sbx_sandbox **out, sbx_client *client, const char *dsn,
                                    const sbx_policy *policy);
/* sbx__sandbox_prepare() short of the policy check (attach checks the stored one). */
SBX_HIDDEN int sbx__sandbox_load(sbx_sandbox **out, sbx_client *client, const char *dsn,
                                 const sbx_policy *policy);
/* The backend's capabilities for dsn on this machine: declared & probed. */
SBX_HIDDEN int sbx__effective_caps(sbx_loaded_plugin *lp, const sbx_dsn *dsn, uint64_t *caps);
/* Have the plugin create a prepared sandbox; on success sb is open. */
SBX_HIDDEN int sbx__sandbox_create(sbx_sandbox *sb);
/* The policy's limits as the plugin sees them (strings borrowed from sb). */
SBX_HIDDEN void sbx__sandbox_limits(const sbx_sandbox *sb, sbx_plugin_limits *limits);

/* --- lifecycle (lifecycle.c) ------------------------------------------- */

/* SBX_E_PLUGIN_NO_ATTACH / SBX_E_CAP_ATTACH unless lp can name, attach, list. */
SBX_HIDDEN int sbx__attach_ready(const sbx_loaded_plugin *lp, uint64_t caps);

/* --- cancel (cancel.c) -------------------------------------------------- */

/* The descriptor that becomes readable once c is triggered; -1 for NULL. */
SBX_HIDDEN int sbx__cancel_fd(const sbx_cancel *c);

/* --- paths (path.c) ------------------------------------------------------ */

/* Normalise a user path ("a//b/./c") into *out; refuse absolute and "..". */
SBX_HIDDEN int sbx__path_clean(const char *path, bool allow_empty, char **out);

#endif
