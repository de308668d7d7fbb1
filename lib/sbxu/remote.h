/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The remote-backend kit: what a cloud backend that makes sandboxes through
 * a REST control plane and runs commands through a daemon in each sandbox
 * shares with every other such backend. A backend is then its wire format
 * and quirks, given as tables and callbacks:
 *
 *   sbxu_remote_backend  the control plane: its error rules, where sandboxes
 *                       are, how a listed sandbox names its id and labels,
 *                       how to list by label, what ping asks
 *   sbxu_remote_fs       files: how to run a command in the sandbox, move
 *                       bytes and list, make and remove through the daemon
 *
 * and the kit does the rest: the plugin's state (init/fini and the pool of
 * HTTP sessions), one control-plane call with the status and error-body
 * rules, create without blind retries, delete, gc and ping, and file
 * operations that resolve every path in the sandbox first (path probe).
 */
#ifndef SBXU_REMOTE_H
#define SBXU_REMOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <json-c/json.h>
#include <sandboxio/plugin.h>

#include <sbxu/buf.h>
#include <sbxu/http.h>
#include <sbxu/http_pool.h>

/* The label naming one create call, so a create whose answer was lost can be found. */
#define SBXU_REMOTE_LABEL_CREATE "io.sandboxio.create-id"
/* Bytes of a control-plane base URL, with room for a path after it. */
#define SBXU_REMOTE_URL_MAX 512

typedef struct sbxu_remote_backend sbxu_remote_backend;
typedef struct sbxu_remote_fs sbxu_remote_fs;

/* --- the plugin's state (remote_plugin.c) ----------------------------------------- */

/*
 * HTTP sessions are the plugin's, not a sandbox's: calls take an idle
 * session of their endpoint and credentials from the pool and give it back.
 */
typedef struct sbxu_remote_state {
    const sbx_host *host;
    sbxu_http_pool pool;
    const sbxu_remote_backend *be;
} sbxu_remote_state;

/*
 * The backend a plugin built on the kit is: the plugin defines it, and its
 * own copy of the kit (a convenience library linked into the plugin's
 * module) refers to it.
 */
extern const sbxu_remote_backend sbxu_remote_this_backend;

/*
 * sbxu_remote_init - the plugin's state (of sbxu_remote_this_backend) in
 * *state. It sets up only libcurl's global state: listing plugins must not
 * reach the provider, so the first request is made when a sandbox is
 * opened, gc runs or ping is asked.
 */
int sbxu_remote_init(const sbx_host *host, void **state);
void sbxu_remote_fini(void *state);

/* --- the control plane (remote_api.c) ---------------------------------------------- */

/*
 * One error rule: an answer whose status is one of status[] (0-terminated)
 * and whose message names (case-insensitively) one of any[] and all of
 * all[] (NULL-terminated, either may be empty) is code. A table ends with a
 * rule of code 0; what no rule takes gets the toolkit's status map.
 */
typedef struct sbxu_remote_rule {
    long status[4];
    const char *any[4];
    const char *all[2];
    int code;
} sbxu_remote_rule;

/* sbxu_remote_code - the code rules (may be NULL) give status and message. */
int sbxu_remote_code(const sbxu_remote_rule *rules, long status, const char *message);

/* A control plane for one DSN: the backend's API object starts with it. */
typedef struct sbxu_remote_api {
    const sbx_host *host;
    sbxu_remote_state *st;
    const char *base_url;           /* no final '/' */
    const char *const *headers;     /* the credentials, NULL-terminated */
    long retry_after_ms;            /* the last answer's Retry-After, -1 if none */
} sbxu_remote_api;

/*
 * sbxu_remote_api_open - the backend's API object (it starts with a
 * sbxu_remote_api) for a DSN: zeroed, its endpoint parsed, its credentials
 * read (which bind it); cleared again on failure. Free with the backend's
 * api_clear.
 */
int sbxu_remote_api_open(void *api, sbxu_remote_state *st, const sbx_plugin_dsn *dsn);
/* sbxu_remote_api_bind - a's calls go to base_url with headers (both kept by pointer). */
void sbxu_remote_api_bind(sbxu_remote_api *a, sbxu_remote_state *st, const char *base_url,
                         const char *const *headers);
/*
 * sbxu_remote_call - method path with body (JSON text or NULL); a 2xx
 * answer's JSON in *out when out is non-NULL (json_object_put() it). A
 * failure sets the error with the provider's own message (its error body's
 * message), mapped by the backend's rules. retry: enum
 * sbxu_http_retry_mode. *status (may be NULL) gets the HTTP status.
 */
int sbxu_remote_call(sbxu_remote_api *a, const char *method, const char *path, const char *body,
                    int retry, const char *context, json_object **out, long *status);
/* text URL-encoded (curl_free() it), NULL when out of memory (the error set). */
char *sbxu_remote_escape(sbxu_remote_api *a, const char *text);

/* A request with a JSON body (or none) of at most 120 s. */
sbxu_http_request sbxu_remote_json_request(const char *method, const char *path, const char *body,
                                         int retry);
/*
 * sbxu_remote_json_answer - after rc = a send of a JSON request: *status
 * (may be NULL) set; a non-2xx answer through fail(ud, rs, context); a 2xx
 * one's JSON in *out (what names the service in messages). Clears rs.
 */
int sbxu_remote_json_answer(int rc, sbxu_http_response *rs, const sbx_host *host,
                           const char *plugin, const char *what, const char *context,
                           json_object **out, long *status,
                           int (*fail)(void *ud, const sbxu_http_response *rs,
                                       const char *context),
                           void *ud);

/* --- sandboxes (remote_sandbox.c) -------------------------------------------------- */

struct sbxu_remote_backend {
    const char *plugin;              /* in messages: "e2b" */
    const char *service;             /* the control plane, in messages */
    const sbxu_remote_rule *rules;    /* its error rules, before the status map */
    const sbxu_remote_fs *fs;         /* its files */
    struct {
        /* One sandbox is at {path}/{id}; a listed one names its id and labels so. */
        const char *path, *id_key, *labels_key;
        bool (*id_ok)(const char *id);
    } sandboxes;
    struct {
        /*
         * The sandboxes labelled key=value: GET path + the filter made by
         * filter (malloc'd, NULL when out of memory), URL-encoded, + limit.
         * The answer keeps its array in items (NULL: it is the array).
         */
        const char *path, *limit, *items;
        char *(*filter)(const char *key, const char *value);
    } list;
    struct {
        /* The call (a list cut to one entry), its context; the line "who at URL (accepted)". */
        const char *path, *context, *who, *accepted;
    } ping;
    struct {
        /*
         * The backend's API object (it starts with a sbxu_remote_api): its
         * size; its endpoint from a DSN; then its credentials, which bind
         * it (sbxu_remote_api_bind); what clears both (secrets wiped).
         */
        size_t size;
        int (*parse)(void *api, const sbx_host *host, const sbx_plugin_dsn *dsn);
        int (*credentials)(void *api, sbxu_remote_state *st);
        void (*clear)(void *api);
    } api;
};

/*
 * sbxu_remote_created_id - the id in a create's answer (out), checked by
 * the backend, into id: SBX_OK, or SBX_E_BACKEND_PROTOCOL.
 */
int sbxu_remote_created_id(sbxu_remote_api *a, json_object *out, char id[64]);
/* A create id no other call shares: pid, time and a counter. */
void sbxu_remote_create_id(char out[64]);
/*
 * sbxu_remote_create - POST body to the sandboxes, tried again only where no
 * second sandbox can come of it (sbxu/create.h): after an unclear answer the
 * sandboxes labelled SBXU_REMOTE_LABEL_CREATE=create_id are deleted first.
 * The answer's JSON in *out.
 */
int sbxu_remote_create(sbxu_remote_api *a, const char *body, const char *create_id,
                      json_object **out);
/* DELETE {sandboxes}/{id}; one already gone is no failure. */
int sbxu_remote_delete(sbxu_remote_api *a, const char *id, const char *context);
/* Whether the control plane still knows the sandbox (false after a delete or its TTL). */
bool sbxu_remote_alive(sbxu_remote_api *a, const char *id);
/* The sandboxes labelled key=value: the array in *list (json_object_put() it). */
int sbxu_remote_find(sbxu_remote_api *a, const char *key, const char *value, json_object **list);
/* A listed sandbox's id, if it is well-formed (NULL: not). */
const char *sbxu_remote_item_id(const sbxu_remote_backend *be, json_object *item);

/* --- gc and ping (remote_gc.c): plugin descriptor members ------------------------- */

int sbxu_remote_gc(void *state, const sbx_plugin_dsn *dsn,
                  int (*report)(void *userdata, const char *id, const char *reason),
                  void *userdata, size_t *removed);
/* An authenticated list of one sandbox; *detail names the endpoint. */
int sbxu_remote_ping(void *state, const sbx_plugin_dsn *dsn, char **detail);

/* --- files (remote_files.c): plugin descriptor members ----------------------------- */

/*
 * A backend's files. The kit resolves each path inside the sandbox first
 * (sbxu/pathprobe.h: a symlink may lead out of the work dir, and daemons
 * follow links), refuses what is outside or of the wrong type, then calls
 * these with the resolved path (rel: the caller's, for messages).
 */
struct sbxu_remote_fs {
    const char *plugin;
    const char *sh;                  /* the shell helper scripts run in */
    int probe_tries;                 /* a probe that failed to run is tried this often (0: 1) */
    const char *unlink_script;       /* `sh -c S sh PATH` removes the symlink a write replaces */
    const char *(*home)(void *sandbox);
    /* Run argv; its stdout in out, its status (128+N for signal N) in *code. */
    int (*run)(void *sandbox, const char *const *argv, sbxu_buf *out, int *code);
    /* The daemon's paths (URL building) that upload and download the file at resolved. */
    int (*upload_path)(void *sandbox, const char *resolved, char *out, size_t size);
    int (*download_path)(void *sandbox, const char *resolved, char *out, size_t size);
    /* The upload's body: one multipart/form-data part "file", else the bytes alone. */
    bool multipart;
    /* rq on a session of the sandbox's daemon: sbxu_http_send()'s codes. */
    int (*send)(void *sandbox, const sbxu_http_request *rq, sbxu_http_response *rs);
    /* Error mapping: the code (error set) for the daemon's non-200 answer. */
    int (*fail)(void *sandbox, const sbxu_http_response *rs, const char *context);
    int (*set_mode)(void *sandbox, const char *rel, const char *resolved, uint32_t mode);
    int (*list)(void *sandbox, const char *rel, const char *resolved,
                int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata);
    /* Whether the directory has entries (remove refuses one without recursive). */
    int (*has_entries)(void *sandbox, const char *resolved, bool *any);
    int (*mkdir)(void *sandbox, const char *resolved);
    int (*remove)(void *sandbox, const char *resolved, bool dir);
};

/* The start of a backend's sandbox: the kit's file members find the table there. */
typedef struct sbxu_remote_sandbox {
    const sbxu_remote_fs *fs;
    const sbx_host *host;
} sbxu_remote_sandbox;
/* sbxu_remote_sandbox_init - the start of a new sandbox of state's backend. */
void sbxu_remote_sandbox_init(sbxu_remote_sandbox *s, const sbxu_remote_state *st);

int sbxu_remote_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                          long (*read)(void *userdata, void *buf, size_t len), void *userdata);
int sbxu_remote_file_read(void *sandbox, const char *path,
                         int (*sink)(void *userdata, const void *data, size_t len),
                         void *userdata);
int sbxu_remote_file_list(void *sandbox, const char *path,
                         int (*entry)(void *userdata, const sbx_plugin_dirent *ent),
                         void *userdata);
int sbxu_remote_file_remove(void *sandbox, const char *path, int recursive);
int sbxu_remote_file_mkdir(void *sandbox, const char *path);
int sbxu_remote_file_symlink(void *sandbox, const char *path, const char *target);
int sbxu_remote_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta);

/*
 * The capabilities every backend on the kit has: its files (and their
 * metadata) are the kit's; commands with a stream, stdin, env, a cwd
 * (relative or absolute) and a timeout, no network, and sandboxes that
 * persist between calls are what a remote backend is made for. A backend
 * adds its own.
 */
#define SBXU_REMOTE_CAPS                                                                   \
    (SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV |        \
     SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_NET_NONE | SBX_CAP_PERSIST | SBX_CAP_FILE_META |  \
     SBX_CAP_CWD_ABS)

/*
 * The descriptor members of a backend on the kit (its descriptor lists them
 * first): the kit's, and the backend's PREFIX_open, PREFIX_destroy,
 * PREFIX_exec and PREFIX_sandbox_id.
 */
#define SBXU_REMOTE_MEMBERS(prefix)                                                        \
    .struct_size = sizeof(sbx_plugin), .abi_major = SBX_PLUGIN_ABI_MAJOR,                 \
    .abi_minor = SBX_PLUGIN_ABI_MINOR, .init = sbxu_remote_init, .fini = sbxu_remote_fini,  \
    .open = prefix##_open, .destroy = prefix##_destroy, .exec = prefix##_exec,            \
    .sandbox_id = prefix##_sandbox_id,                                                    \
    .file_write = sbxu_remote_file_write, .file_read = sbxu_remote_file_read,               \
    .file_list = sbxu_remote_file_list, .file_remove = sbxu_remote_file_remove,             \
    .file_mkdir = sbxu_remote_file_mkdir, .file_symlink = sbxu_remote_file_symlink,         \
    .file_set_meta = sbxu_remote_file_set_meta, .gc = sbxu_remote_gc, .ping = sbxu_remote_ping

/* The plugin's entry point, returning descriptor. */
#define SBXU_REMOTE_EXPORT(descriptor)                                                     \
    SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);                        \
    SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void) { return &(descriptor); }

/* --- small shared parts (remote_util.c) -------------------------------------------- */

/* A word a daemon or a wrapper says, and what it means. */
typedef struct sbxu_remote_word {
    const char *word;
    int value;
} sbxu_remote_word;

/* The value of the word text[0..len) in table (n words), dflt when it is none of them. */
static inline int sbxu_remote_word_value(const sbxu_remote_word *table, size_t n, const char *text,
                                        size_t len, int dflt)
{
    for (size_t i = 0; text && i < n; i++)
        if (strlen(table[i].word) == len && memcmp(table[i].word, text, len) == 0)
            return table[i].value;
    return dflt;
}

/* Why a command did not start, as exec wrappers say it. */
enum { SBXU_REMOTE_START_NOCWD = 1, SBXU_REMOTE_START_NOEXEC, SBXU_REMOTE_START_NOPERM };
/* The error (set) for a command that did not start (why: SBXU_REMOTE_START_*). */
int sbxu_remote_start_failure(const sbx_host *host, const char *plugin, int why,
                             const sbx_plugin_cmd *cmd);

/*
 * sbxu_remote_cmd_shape - of a command: its PATH (from envp, else dflt) in
 * *path, the count of its envp entries in *nenv and, with extra more (the
 * words a backend adds), as text in count, its argc in *nargv.
 */
void sbxu_remote_cmd_shape(const sbx_plugin_cmd *cmd, const char *dflt, size_t extra,
                          const char **path, size_t *nenv, char count[24], size_t *nargv);

#endif
