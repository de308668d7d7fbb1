/* SPDX-License-Identifier: Apache-2.0 */
/*
 * restdemo://, an out-of-tree backend for a small REST service
 * (restdemo-double.py), built against the installed plugin kit:
 * `pkg-config sandboxio-plugin-kit`. What a cloud backend would otherwise
 * write again comes from the kit: the HTTP session with retry, backoff and
 * header redaction (sbxu/http.h), the map of HTTP statuses to sandboxio
 * codes, credentials and the endpoint from the environment (sbxu/cred.h,
 * sbxu/url.h), DSN options as a table (sbxu/opts.h), owner labels and the gc
 * sweep over them (sbxu/owner.h), JSON (sbxu/json.h).
 */
#ifndef RESTDEMO_H
#define RESTDEMO_H

#include <json-c/json.h>
#include <sandboxio/plugin.h>

#include <sbxu/http.h>

#define RD_PLUGIN "restdemo"
/* Where the service is, and the key it wants; from the environment only. */
#define RD_URL_VAR "RESTDEMO_API_URL"
#define RD_KEY_VAR "RESTDEMO_API_KEY"

/* A session with the service. It must not move once open: the session's
 * config points into it. */
typedef struct rd_api {
    sbxu_http http;
    char base[512];
    char auth[512];               /* "Authorization: Bearer <key>", redacted by the kit */
    const char *headers[2];
} rd_api;

typedef struct rd_sandbox {
    const sbx_host *host;
    rd_api api;
    char id[64];
    char path[96];                /* "/v1/sandboxes/<id>" */
} rd_sandbox;

/* api.c: the session and one call. */
int rd_api_open(rd_api *api, const sbx_host *host);
void rd_api_close(rd_api *api);
/*
 * rd_api_call - send method path with body (JSON text or NULL); a 2xx
 * answer's JSON in *out when out is not NULL (json_object_put() it). Any
 * other answer is mapped to its code with the error set, context naming
 * what was being done. *status (may be NULL) gets the HTTP status.
 */
int rd_api_call(rd_api *api, const char *method, const char *path, const char *body,
                int retry, const char *context, json_object **out, long *status);
/* rd_api_fail - the code of a non-2xx answer: the service's own "code" if it
 * names one, else the kit's status map; sets the error. */
int rd_api_fail(rd_api *api, const sbxu_http_request *rq, const sbxu_http_response *rs,
                const char *context);

/* exec.c */
int rd_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
            sbx_plugin_exit *exit_out);

/* files.c */
int rd_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                  long (*read)(void *userdata, void *buf, size_t len), void *userdata);
int rd_file_read(void *sandbox, const char *path,
                 int (*sink)(void *userdata, const void *data, size_t len), void *userdata);
int rd_file_list(void *sandbox, const char *path,
                 int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata);
int rd_file_remove(void *sandbox, const char *path, int recursive);
int rd_file_mkdir(void *sandbox, const char *path);

/* gc.c */
int rd_gc(void *state, const sbx_plugin_dsn *dsn,
          int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
          size_t *removed);

#endif
