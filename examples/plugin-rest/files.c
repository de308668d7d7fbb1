/* SPDX-License-Identifier: Apache-2.0 */
/* example: skip: built against the installed kit (tests/plugin-rest-passes-contract.sh) */
/*
 * Files, one request each. The core has already refused "..", absolute
 * paths and empty components; the service refuses a symlink planted inside
 * that leads out (its code path_escape, SBX_E3015 here). Writes stream the
 * core's bytes up, reads stream them down to the core's sink.
 */
#include "restdemo.h"

#include <stdio.h>
#include <stdlib.h>

#include <sbxu/json.h>

/* "/v1/sandboxes/<id>/<what>?path=<path escaped><extra>" into url. */
static int file_url(rd_sandbox *sb, const char *what, const char *path, const char *extra,
                    char *url, size_t size)
{
    char *escaped = sbxu_http_escape(&sb->api.http, path);
    if (!escaped)
        return sb->host->set_error(SBX_E_NOMEM, RD_PLUGIN ": out of memory");
    int n = snprintf(url, size, "%s/%s?path=%s%s", sb->path, what, escaped, extra ? extra : "");
    curl_free(escaped);
    if (n < 0 || (size_t)n >= size)
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT, RD_PLUGIN ": the path is too long");
    return SBX_OK;
}

/* 4096 bytes of path, escaped, and the rest of a URL. */
#define URL_MAX (3 * 4096 + 128)

typedef struct upload {
    long (*read)(void *userdata, void *buf, size_t len);
    void *userdata;
} upload;

static long on_upload(void *ud, char *buf, size_t len)
{
    upload *u = ud;
    return u->read(u->userdata, buf, len);
}

/* One request whose answer is a bare status (or the bytes streamed to rq's sink). */
static int send_plain(rd_sandbox *sb, sbxu_http_request *rq, const char *context)
{
    sbxu_http_response rs = {0};
    int rc = sbxu_http_send(&sb->api.http, rq, &rs);
    if (rc == SBX_OK && (rs.status < 200 || rs.status > 299))
        rc = rd_api_fail(&sb->api, rq, &rs, context);
    sbxu_http_response_clear(&rs);
    return rc;
}

int rd_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                  long (*read)(void *userdata, void *buf, size_t len), void *userdata)
{
    rd_sandbox *sb = sandbox;
    char url[URL_MAX], extra[32];
    (void)size; /* the upload is chunked: its size need not be sent */
    snprintf(extra, sizeof(extra), "&mode=%04o", (unsigned)(mode & 07777));
    int rc = file_url(sb, "files", path, extra, url, sizeof(url));
    if (rc)
        return rc;
    upload u = {.read = read, .userdata = userdata};
    /* A streamed upload cannot be sent twice: the kit never retries it. */
    sbxu_http_request rq = {.method = "PUT", .path = url, .upload = on_upload, .upload_ud = &u,
                           .content_type = "application/octet-stream"};
    return send_plain(sb, &rq, "writing a file");
}

int rd_file_read(void *sandbox, const char *path,
                 int (*sink)(void *userdata, const void *data, size_t len), void *userdata)
{
    rd_sandbox *sb = sandbox;
    char url[URL_MAX];
    int rc = file_url(sb, "files", path, NULL, url, sizeof(url));
    if (rc)
        return rc;
    /* Retried only before any byte reached the sink (a refused connection, 429, 5xx). */
    sbxu_http_request rq = {.method = "GET", .path = url, .sink = sink, .sink_ud = userdata};
    return send_plain(sb, &rq, "reading a file");
}

int rd_file_remove(void *sandbox, const char *path, int recursive)
{
    rd_sandbox *sb = sandbox;
    char url[URL_MAX];
    int rc = file_url(sb, "files", path, recursive ? "&recursive=1" : NULL, url, sizeof(url));
    if (rc)
        return rc;
    sbxu_http_request rq = {.method = "DELETE", .path = url};
    return send_plain(sb, &rq, "removing a file");
}

int rd_file_mkdir(void *sandbox, const char *path)
{
    rd_sandbox *sb = sandbox;
    char url[URL_MAX];
    int rc = file_url(sb, "dirs", path, NULL, url, sizeof(url));
    if (rc)
        return rc;
    /* mkdir -p is idempotent: say so, and the kit retries it like a PUT. */
    sbxu_http_request rq = {.method = "POST", .path = url, .retry = SBXU_HTTP_RETRY_ALWAYS};
    return send_plain(sb, &rq, "making a directory");
}

int rd_file_list(void *sandbox, const char *path,
                 int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    rd_sandbox *sb = sandbox;
    char url[URL_MAX];
    json_object *answer = NULL, *entries = NULL;
    int rc = file_url(sb, "dirs", path, NULL, url, sizeof(url));
    if (!rc)
        rc = rd_api_call(&sb->api, "GET", url, NULL, SBXU_HTTP_RETRY_AUTO, "listing a directory",
                         &answer, NULL);
    if (!rc)
        rc = sbxu_json_get(&entries, json_type_array, sb->host, RD_PLUGIN, "listing a directory",
                          answer, "entries");
    for (size_t i = 0; !rc && i < json_object_array_length(entries); i++) {
        json_object *e = json_object_array_get_idx(entries, i);
        const char *name = sbxu_json_str(e, "name");
        if (!name)
            continue;
        sbx_plugin_dirent ent = {.struct_size = sizeof(ent), .name = name,
                                 .type = (int)sbxu_json_int(e, "type", 4),
                                 .size = (uint64_t)sbxu_json_int(e, "size", 0),
                                 .mode = (uint32_t)sbxu_json_int(e, "mode", 0)};
        if (entry(userdata, &ent) != 0)
            break;
    }
    json_object_put(answer);
    return rc;
}
