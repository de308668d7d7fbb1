/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files of an E2B sandbox, below its work dir /home/user. Contents go
 * through envd's /files, streamed both ways (POST with
 * application/octet-stream and ?path=, GET ?path=; envd.yaml), never held
 * whole; list, mkdir and remove through the filesystem RPCs (ListDir,
 * MakeDir, Remove).
 *
 * The core hands over paths free of "..", but a symlink planted by a
 * command may still lead out of the work dir, and envd follows links. So
 * every operation first resolves the path inside the sandbox (`realpath
 * -m`, the leaf left unresolved for remove) and learns what is there; a
 * path that resolves outside /home/user is refused with SBX_E_PATH_ESCAPE,
 * and the call then names the resolved path (sbxu's path probe).
 */
#include "e2b.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>
#include <sandboxio/files.h>

#include <sbxu/metascript.h>
#include <sbxu/pathprobe.h>
#include <sbxu/time.h>

typedef sbxu_probe probe;
enum { T_NONE = SBXU_PROBE_NONE, T_FILE = SBXU_PROBE_FILE, T_DIR = SBXU_PROBE_DIR,
       T_LINK = SBXU_PROBE_LINK, T_NOTDIR = SBXU_PROBE_NOTDIR };

static int probe_path(e2b_sandbox *sb, const char *rel, bool leaf, probe *pr)
{
    const sbx_host *host = sb->host;
    char full[1024];
    pr->type = -1;
    pr->path[0] = '\0';
    if ((size_t)snprintf(full, sizeof(full), "%s/%s", E2B_HOME, rel) >= sizeof(full))
        return host->set_error(SBX_E_BAD_PATH, "e2b: the path %s is too long", rel);
    const char *argv[] = {"/bin/sh", "-c", SBXU_PROBE_SCRIPT, "sh", full, leaf ? "leaf" : "", NULL};
    sbxu_buf out = {0};
    sbx_plugin_exit x = {.struct_size = sizeof(x)};
    int rc = e2b_run_quiet(sb, argv, &out, &x);
    if (rc == SBX_OK && (!x.exited || x.exit_code != 0 || !out.data))
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "e2b: cannot resolve %s in the sandbox (realpath failed)", rel);
    if (rc == SBX_OK)
        rc = sbxu_probe_parse(pr, host, E2B_NAME, E2B_HOME, rel, out.data);
    sbxu_buf_clear(&out);
    return rc;
}

/* `sh -c script sh abs [a2 [a3]]`; its status mapped by sbxu_meta_status(). */
static int run_script(e2b_sandbox *sb, const char *script, const char *abs, const char *a2,
                      const char *a3, const char *rel, const char *what)
{
    const char *argv[] = {"/bin/sh", "-c", script, "sh", abs, a2, a3, NULL};
    sbxu_buf out = {0};
    sbx_plugin_exit x = {.struct_size = sizeof(x)};
    int rc = e2b_run_quiet(sb, argv, &out, &x);
    sbxu_buf_clear(&out);
    if (rc == SBX_OK)
        rc = sbxu_meta_status(sb->host, E2B_NAME, x.exited ? x.exit_code : 128 + x.signal, what,
                             rel);
    return rc;
}

static int wrong_type(e2b_sandbox *sb, const char *rel, int type, bool want_dir)
{
    return sbxu_probe_wrong_type(sb->host, E2B_NAME, rel, type, want_dir);
}

/* "/files?path=<escaped>" into out. */
static int files_path(e2b_sandbox *sb, const char *path, char *out, size_t size)
{
    char *esc = sbxu_http_escape(&sb->envd, path);
    if (!esc)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int n = snprintf(out, size, "/files?path=%s", esc);
    curl_free(esc);
    if (n < 0 || (size_t)n >= size)
        return sb->host->set_error(SBX_E_BAD_PATH, "e2b: the path %s is too long", path);
    return SBX_OK;
}

typedef struct upload {
    long (*read)(void *userdata, void *buf, size_t len);
    void *userdata;
    uint64_t left;
} upload;

static long pull(void *ud, char *buf, size_t len)
{
    upload *u = ud;
    if (u->left == 0)
        return 0;
    if (len > u->left)
        len = (size_t)u->left;
    long n = u->read(u->userdata, buf, len);
    if (n > 0)
        u->left -= (uint64_t)n;
    return n == 0 && u->left ? -1 : n;
}

/*
 * envd's upload has no mode: it creates a file 0644 and keeps the mode of
 * one it replaces. Any other outcome is set with chmod, which costs one
 * command, paid only by such writes.
 */
static int set_mode(e2b_sandbox *sb, const char *path, const char *resolved, uint32_t mode)
{
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

int e2b_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                   long (*read)(void *userdata, void *buf, size_t len), void *userdata)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    char url[SBXU_HTTP_PATH_MAX];
    /*
     * The leaf unresolved: envd's upload follows a symlink, so one at the
     * path (once known not to lead out) is removed and replaced by the
     * file, never written through.
     */
    int rc = probe_path(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == T_LINK) {
        probe through;
        if ((rc = probe_path(sb, path, false, &through)) != SBX_OK ||
            (rc = run_script(sb, "rm -f -- \"$1\"", pr.path, NULL, NULL, path, "replacing the "
                             "symlink")) != SBX_OK)
            return rc;
        pr.type = T_NONE;
    }
    if (pr.type != T_FILE && pr.type != T_NONE)
        return wrong_type(sb, path, pr.type, false);
    if ((rc = files_path(sb, pr.path, url, sizeof(url))))
        return rc;
    upload u = {.read = read, .userdata = userdata, .left = size};
    sbxu_http_request rq = {
        .method = "POST",
        .path = url,
        .content_type = "application/octet-stream",
        .upload = pull,
        .upload_ud = &u,
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    sbxu_http_response rs = {0};
    rc = sbxu_http_send(&sb->envd, &rq, &rs);
    if (rc == SBX_OK && rs.upload_aborted)
        rc = sb->host->set_error(SBX_E_BAD_PATH, "e2b: writing %s: the data ended early", path);
    else if (rc == SBX_OK && rs.status != 200)
        rc = e2b_envd_fail(sb, rs.status, rs.body.data, "writing a file");
    sbxu_http_response_clear(&rs);
    if (rc == SBX_OK && ((mode & 07777) != 0644 || pr.type == T_FILE))
        rc = set_mode(sb, path, pr.path, mode);
    return rc;
}

int e2b_file_read(void *sandbox, const char *path,
                  int (*sink)(void *userdata, const void *data, size_t len), void *userdata)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = probe_path(sb, path, false, &pr);
    if (rc)
        return rc;
    if (pr.type != T_FILE)
        return wrong_type(sb, path, pr.type, false);
    if ((rc = files_path(sb, pr.path, url, sizeof(url))))
        return rc;
    sbxu_http_request rq = {
        .method = "GET",
        .path = url,
        .sink = sink,
        .sink_ud = userdata,
        /* A retry would repeat bytes the sink already has. */
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    sbxu_http_response rs = {0};
    rc = sbxu_http_send(&sb->envd, &rq, &rs);
    if (rc == SBX_OK && rs.sink_stopped)
        rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "e2b: reading %s: the sink stopped", path);
    else if (rc == SBX_OK && rs.status != 200)
        rc = e2b_envd_fail(sb, rs.status, rs.body.data, "reading a file");
    sbxu_http_response_clear(&rs);
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

int e2b_file_list(void *sandbox, const char *path,
                  int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    int rc = probe_path(sb, path, false, &pr);
    if (rc)
        return rc;
    if (pr.type != T_DIR)
        return wrong_type(sb, path, pr.type, true);
    json_object *root = NULL, *entries = NULL;
    rc = list_dir(sb, pr.path, &root, &entries);
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

int e2b_file_mkdir(void *sandbox, const char *path)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    int rc = probe_path(sb, path, false, &pr);
    if (rc || pr.type == T_DIR)
        return rc;
    if (pr.type != T_NONE)
        return pr.type == T_NOTDIR ? wrong_type(sb, path, pr.type, true)
                                   : sb->host->set_error(SBX_E_EXISTS, "e2b: %s exists", path);
    char *body = path_body(pr.path, 0);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    rc = e2b_rpc(sb, "filesystem.Filesystem/MakeDir", body, true, "making a directory", NULL);
    free(body);
    /* A retry after a lost answer finds it made. */
    return rc == SBX_E_EXISTS ? SBX_OK : rc;
}

int e2b_file_remove(void *sandbox, const char *path, int recursive)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    int rc = probe_path(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == T_NONE || pr.type == T_NOTDIR)
        return sb->host->set_error(SBX_E_NOT_FOUND, "e2b: %s does not exist", path);
    if (pr.type == T_DIR && !recursive) {
        /* envd's Remove is RemoveAll: refuse a directory with entries here. */
        json_object *root = NULL, *entries = NULL;
        rc = list_dir(sb, pr.path, &root, &entries);
        if (rc == SBX_OK && entries && json_object_array_length(entries) > 0)
            rc = sb->host->set_error(SBX_E_NOT_EMPTY, "e2b: %s is not empty", path);
        json_object_put(root);
        if (rc)
            return rc;
    }
    char *body = path_body(pr.path, 0);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    rc = e2b_rpc(sb, "filesystem.Filesystem/Remove", body, true, "removing", NULL);
    free(body);
    return rc;
}

int e2b_file_symlink(void *sandbox, const char *path, const char *target)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    int rc = probe_path(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == T_NOTDIR)
        return wrong_type(sb, path, pr.type, false);
    return run_script(sb, SBXU_SYMLINK_SCRIPT, pr.path, target, NULL, path, "making the symlink");
}

int e2b_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta)
{
    e2b_sandbox *sb = sandbox;
    probe pr;
    char mode[16], mtime[32];
    int rc = probe_path(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == T_NONE || pr.type == T_NOTDIR)
        return wrong_type(sb, path, pr.type, false);
    sbxu_meta_args(meta, mode, mtime);
    return run_script(sb, SBXU_META_SCRIPT, pr.path, mode, mtime, path,
                      "setting the metadata of");
}
