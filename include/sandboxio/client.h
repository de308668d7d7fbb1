/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/client.h - the client: finds, loads and lists backend plugins.
 *
 * Plugins are shared objects "sandboxio-<scheme>.so", searched in order in
 * each directory of SANDBOXIO_PLUGIN_PATH (colon-separated), then in
 * directories added with sbx_client_add_plugin_dir(), then in the installed
 * plugin directory. The first match wins. Loading or listing plugins opens no
 * network socket. A plugin, once loaded, stays loaded until the client is
 * freed (never unloaded while sandboxes may use it).
 *
 * Thread-safety: a client may be used from several threads at once.
 */
#ifndef SANDBOXIO_CLIENT_H
#define SANDBOXIO_CLIENT_H

#include <sandboxio/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_client sbx_client;

/**
 * sbx_client_new - a new client. Reads SANDBOXIO_PLUGIN_PATH once, here.
 * Errors: SBX_E_INVALID_ARGUMENT, SBX_E_NOMEM, SBX_E_INTERNAL (libltdl).
 */
SBX_API int sbx_client_new(sbx_client **out);

/**
 * sbx_client_free - release the client's state in each plugin it loaded (the
 * plugin's fini()) and free the client. The plugin modules themselves are
 * never unloaded: a loaded module stays resident in the process (and is
 * shared with every other client), so no code or static data of a plugin
 * ever goes away under another thread. Every sandbox opened through the
 * client must have been freed first. NULL is ignored.
 */
SBX_API void sbx_client_free(sbx_client *client);

/** Search dir after SANDBOXIO_PLUGIN_PATH and before the installed dir (copied). */
SBX_API int sbx_client_add_plugin_dir(sbx_client *client, const char *dir);

/** The installed plugin directory compiled into the library (static string). */
SBX_API const char *sbx_plugin_dir_default(void);

/** What is known of one plugin file: its load result, and if it loaded, its descriptor. */
typedef struct sbx_plugin_info {
    const char *scheme;       /* from the file name */
    const char *path;         /* file that was tried, NULL if none was found */
    int load_code;            /* SBX_OK, or the SBX_E2xxx that loading gave */
    const char *load_message; /* detail of load_code, NULL when SBX_OK */
    /* Below: valid only when load_code == SBX_OK. */
    const char *version;      /* the plugin's own version */
    const char *description;
    uint32_t abi_major;
    uint32_t abi_minor;
    uint64_t caps;            /* declared capabilities, SBX_CAP_* */
    int tier;                 /* sbx_tier */
    /* The environment variables the plugin reads credentials from,
     * NULL-terminated; NULL when it names none (or predates plugin ABI 1.4).
     * Since 0.1.0. */
    const char *const *credential_env;
} sbx_plugin_info;

typedef struct sbx_plugin_list sbx_plugin_list;

/**
 * sbx_client_plugins - load every plugin found on the search path and report
 * each one's result, sorted by scheme; a scheme found in several directories
 * is reported once, for the file that wins. A plugin that fails to load is
 * listed with its error, never fatal. Free with sbx_plugin_list_free().
 */
SBX_API int sbx_client_plugins(sbx_client *client, sbx_plugin_list **out);
SBX_API size_t sbx_plugin_list_count(const sbx_plugin_list *list);
/** Entry i, valid while the list lives; NULL if i is out of range. */
SBX_API const sbx_plugin_info *sbx_plugin_list_get(const sbx_plugin_list *list, size_t i);
SBX_API void sbx_plugin_list_free(sbx_plugin_list *list);

/**
 * sbx_client_plugin_info - load the plugin for one scheme and describe it.
 * Returns the load code; *out (free with sbx_plugin_list_free()) is a
 * one-entry list filled in either way when out is not NULL.
 */
SBX_API int sbx_client_plugin_info(sbx_client *client, const char *scheme, sbx_plugin_list **out);

/**
 * sbx_client_probe - what the backend named by dsn can guarantee on this
 * machine: its declared capabilities narrowed by its own probe (a backend may
 * enforce limits only where, say, a cgroup is writable), and its tier. This
 * is the set sbx_sandbox_open() checks a policy against. Loads the plugin but
 * creates no sandbox. caps and tier may each be NULL.
 * Errors: DSN errors (1xxx), plugin errors (2xxx), or the backend's probe error.
 */
SBX_API int sbx_client_probe(sbx_client *client, const char *dsn, uint64_t *caps, int *tier);

/**
 * sbx_client_ping - contact the service behind the backend named by dsn
 * (a daemon ping, an API credential check) without creating anything.
 * *reached gets 1 when the backend answered, 0 when it has nothing to
 * contact (a backend that runs in this process: SBX_OK then too); *detail
 * (may be NULL) gets one line about what answered, or NULL; free it with
 * sbx_free(). Opens a network or unix socket for backends that have a
 * service. Errors: DSN errors (1xxx), plugin errors (2xxx), or what a
 * sandbox would meet (SBX_E4001 unreachable, SBX_E4002 refused credential...).
 * Since 0.1.0.
 */
SBX_API int sbx_client_ping(int *reached, char **detail, sbx_client *client, const char *dsn);

/** Called by sbx_client_gc() for each leaked sandbox removed; non-zero stops. */
typedef int (*sbx_gc_cb)(void *userdata, const char *sandbox_id, const char *reason);

/**
 * sbx_client_gc - remove the backend's sandboxes whose owner process is gone
 * or whose TTL passed (the backend named by dsn). *removed (may be NULL) gets
 * how many. A backend with nothing to collect returns SBX_OK with 0.
 */
SBX_API int sbx_client_gc(sbx_client *client, const char *dsn, sbx_gc_cb cb, void *userdata,
                          size_t *removed);

/**
 * Log handler for messages of the library and its plugins. level is one of
 * SBX_LOG_ERROR (0), SBX_LOG_WARN (1), SBX_LOG_INFO (2), SBX_LOG_DEBUG (3);
 * origin is "core" or a plugin name. Messages never carry secrets.
 */
typedef void (*sbx_log_cb)(void *userdata, int level, const char *origin, const char *message);

/**
 * sbx_log_set_handler - process-wide: send messages of level <= max_level to
 * cb (NULL restores the default: levels <= SBX_LOG_WARN to stderr).
 * Call before opening clients; not thread-safe against concurrent logging.
 */
SBX_API void sbx_log_set_handler(sbx_log_cb cb, void *userdata, int max_level);

/** The search directories in order, for diagnostics; valid while client lives. */
SBX_API size_t sbx_client_plugin_dir_count(const sbx_client *client);
SBX_API const char *sbx_client_plugin_dir_at(const sbx_client *client, size_t i);

#ifdef __cplusplus
}
#endif
#endif
