/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files of an E2B sandbox, below its work dir /home/user, as the kit's
 * table (lib/sbxu/remote.h: the kit resolves every path in the
 * sandbox first and refuses one that leads out). Contents go through
 * envd's /files, streamed both ways (POST with application/octet-stream
 * and ?path=, GET ?path=; envd.yaml), never held whole; list, mkdir and
 * remove through the filesystem RPCs (ListDir, MakeDir, Remove); helper
 * scripts through process.Process/Start.
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>
#include <sandboxio/files.h>

#include <sbxu/time.h>

static const char *home(void *sandbox)
{
    (void)sandbox;
    return E2B_HOME;
}

/* argv run quietly; its status, 128+N for signal N. */
static int run(void *sandbox, const char *const *argv, sbxu_buf *out, int *code)
{
    sbx_plugin_exit x = {.struct_size = sizeof(x)};
    int rc = e2b_run_quiet(sandbox, argv, out, &x);
    *code = x.exited ? x.exit_code : 128 + x.signal;
    return rc;
}

/* "/files?path=<escaped>" into out: both ways. */
static int files_path(void *sandbox, const char *path, char *out, size_t size)
{
    e2b_sandbox *sb = sandbox;
    char *esc = sbxu_http_escape(&sb->envd, path);
    if (!esc)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int n = snprintf(out, size, "/files?path=%s", esc);
    curl_free(esc);
    if (n < 0 || (size_t)n >= size)
        return sb->host->set_error(SBX_E_BAD_PATH, "e2b: the path %s is too long", path);
    return SBX_OK;
}

/* On the sandbox's envd session. */
static int send_rq(void *sandbox, const sbxu_http_request *rq, sbxu_http_response *rs)
{
    return sbxu_http_send(&((e2b_sandbox *)sandbox)->envd, rq, rs);
}

static int fail(void *sandbox, const sbxu_http_response *rs, const char *context)
{
    return e2b_envd_fail(sandbox, rs->status, rs->body.data, context);
}

/* envd's upload has no mode (0644, or the replaced file's): chmod, one command. */
static int set_mode(void *sandbox, const char *path, const char *resolved, uint32_t mode)
{
    e2b_sandbox *sb = sandbox;
    char octal[8];
    snprintf(octal, sizeof(octal), "%04o", (unsigned)(mode & 07777));
    const char *argv[] = {"chmod", octal, "--", resolved, NULL};
    sbxu_buf out = {0};
    sbx_plugin_exit x = {.struct_size = sizeof(x)};
    int rc = e2b_run_quiet(sb, argv, &out, &x);
    sbxu_buf_clear(&out);
    if (rc == SBX_OK && (!x.exited || x.exit_code != 0))
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "e2b: cannot set mode %s on %s (chmod failed)",
                                 octal, path);
    return rc;
}

static char *path_body(const char *path, int depth)
{
    json_object *o = json_object_new_object();
    int bad = !o || sbxu_json_add_str(o, "path", path);
    if (!bad && depth)
        bad = sbxu_json_add(o, "depth", json_object_new_int(depth));
    char *text = bad ? NULL : sbxu_json_text(o);
    json_object_put(o);
    return text;
}

/* The entries of the directory at the resolved path (ListDir, depth 1). */
static int list_dir(e2b_sandbox *sb, const char *path, json_object **root, json_object **entries)
{
    char *body = path_body(path, 1);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int rc = e2b_rpc(sb, "filesystem.Filesystem/ListDir", body, true, "listing a directory", root);
    free(body);
    *entries = rc == SBX_OK ? sbxu_json_at(*root, "entries") : NULL;
    if (rc == SBX_OK && *entries && !json_object_is_type(*entries, json_type_array))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: ListDir's entries are not a list");
    return rc;
}

static int entry_type(const char *t)
{
    if (!t)
        return 4;
    if (strcmp(t, "FILE_TYPE_FILE") == 0)
        return 1;
    if (strcmp(t, "FILE_TYPE_DIRECTORY") == 0)
        return 2;
    if (strcmp(t, "FILE_TYPE_SYMLINK") == 0)
        return 3;
    return 4;
}

static int list(void *sandbox, const char *path, const char *resolved,
                int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    e2b_sandbox *sb = sandbox;
    json_object *root = NULL, *entries = NULL;
    int rc = list_dir(sb, resolved, &root, &entries);
    size_t n = rc == SBX_OK && entries ? json_object_array_length(entries) : 0;
    /* The answer's size is bounded by the HTTP layer's; its entries by the core's. */
    if (n > SBX_FILE_LIST_MAX_ENTRIES)
        rc = sb->host->set_error(SBX_E_LIST_TOO_LARGE, "e2b: %s has %zu entries", path, n);
    for (size_t i = 0; rc == SBX_OK && i < n; i++) {
        json_object *e = json_object_array_get_idx(entries, i);
        const char *name = sbxu_json_str(e, "name");
        json_object *size = sbxu_json_at(e, "size");
        if (!name || !name[0] || strchr(name, '/')) {
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: ListDir gave an entry without a name");
            break;
        }
        /* proto3 JSON writes an int64 as a string. */
        sbx_plugin_dirent d = {
            .struct_size = sizeof(d),
            .name = name,
            .type = entry_type(sbxu_json_str(e, "type")),
            .size = size ? (uint64_t)strtoull(json_object_get_string(size), NULL, 10) : 0,
            .mode = (uint32_t)sbxu_json_int(e, "mode", 0) & 07777,
            .link_target = sbxu_json_str(e, "symlinkTarget"),
        };
        if (d.type == 3 && !d.link_target)
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: ListDir gave the symlink %s "
                                     "no target", name);
        else if (sbxu_json_str(e, "modifiedTime") &&
                 sbxu_rfc3339_parse(sbxu_json_str(e, "modifiedTime"), &d.mtime,
                                   &d.mtime_nsec) != 0)
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "e2b: ListDir gave %s a bad "
                                     "modifiedTime", name);
        if (rc != SBX_OK)
            break;
        if (entry(userdata, &d) != 0)
            break;
    }
    json_object_put(root);
    return rc;
}

static int make_dir(void *sandbox, const char *resolved)
{
    e2b_sandbox *sb = sandbox;
    char *body = path_body(resolved, 0);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int rc = e2b_rpc(sb, "filesystem.Filesystem/MakeDir", body, true, "making a directory", NULL);
    free(body);
    /* A retry after a lost answer finds it made. */
    return rc == SBX_E_EXISTS ? SBX_OK : rc;
}

/* envd's Remove is RemoveAll: the kit refuses a directory with entries first. */
static int has_entries(void *sandbox, const char *resolved, bool *any)
{
    json_object *root = NULL, *entries = NULL;
    int rc = list_dir(sandbox, resolved, &root, &entries);
    *any = rc == SBX_OK && entries && json_object_array_length(entries) > 0;
    json_object_put(root);
    return rc;
}

static int remove_path(void *sandbox, const char *resolved, bool dir)
{
    e2b_sandbox *sb = sandbox;
    (void)dir;
    char *body = path_body(resolved, 0);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int rc = e2b_rpc(sb, "filesystem.Filesystem/Remove", body, true, "removing", NULL);
    free(body);
    return rc;
}

const sbxu_remote_fs e2b_fs = {
    .plugin = E2B_NAME, .sh = "/bin/sh", .unlink_script = "rm -f -- \"$1\"",
    .home = home, .run = run, .upload_path = files_path, .download_path = files_path,
    .send = send_rq, .fail = fail, .set_mode = set_mode,
    .list = list, .has_entries = has_entries, .mkdir = make_dir, .remove = remove_path,
};
