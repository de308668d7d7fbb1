/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A remote backend's files, below the daemon's work dir. The core hands
 * over paths free of "..", but a symlink planted by a command may still
 * lead out of the work dir, and daemons follow links. So every operation
 * first resolves the path inside the sandbox (the path probe: `realpath
 * -m`, the leaf left unresolved where the operation acts on a link
 * itself) and learns what is there; a path that resolves outside is
 * refused with SBX_E_PATH_ESCAPE, and the backend is then handed the
 * resolved path. How bytes move, and how a directory is listed, made and
 * removed, is the backend's (sbxu_remote_fs).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sandboxio/errors.h>

#include <sbxu/metascript.h>
#include <sbxu/pathprobe.h>
#include <sbxu/remote.h>

void sbxu_remote_sandbox_init(sbxu_remote_sandbox *s, const sbxu_remote_state *st)
{
    s->fs = st->be->fs;
    s->host = st->host;
}

static const sbxu_remote_fs *fs_of(void *sandbox)
{
    return ((sbxu_remote_sandbox *)sandbox)->fs;
}

static const sbx_host *host_of(void *sandbox)
{
    return ((sbxu_remote_sandbox *)sandbox)->host;
}

static int probe(void *sb, const char *rel, bool leaf, sbxu_probe *pr)
{
    const sbxu_remote_fs *fs = fs_of(sb);
    const sbx_host *host = host_of(sb);
    const char *home = fs->home(sb);
    char full[1024];
    pr->type = -1;
    pr->path[0] = '\0';
    if ((size_t)snprintf(full, sizeof(full), "%s/%s", home, rel) >= sizeof(full))
        return host->set_error(SBX_E_BAD_PATH, "%s: the path %s is too long", fs->plugin, rel);
    const char *argv[] = {fs->sh, "-c", SBXU_PROBE_SCRIPT, "sh", full, leaf ? "leaf" : "", NULL};
    sbxu_buf out = {0};
    int code = -1, rc = SBX_OK;
    /* The probe only reads: where the backend says so, one that failed to run runs again. */
    for (int i = 0; rc == SBX_OK && i < (fs->probe_tries ? fs->probe_tries : 1); i++) {
        sbxu_buf_clear(&out);
        rc = fs->run(sb, argv, &out, &code);
        if (rc == SBX_OK && code == 0 && out.data)
            break;
    }
    if (rc == SBX_OK && (code != 0 || !out.data))
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "%s: cannot resolve %s in the sandbox (the probe exited %d: %.200s)",
                             fs->plugin, rel, code, out.data ? out.data : "no output");
    if (rc == SBX_OK)
        rc = sbxu_probe_parse(pr, host, fs->plugin, home, rel, out.data);
    sbxu_buf_clear(&out);
    return rc;
}

/* `sh -c script sh abs [a2 [a3]]`; its status mapped by sbxu_meta_status(). */
static int run_script(void *sb, const char *script, const char *abs, const char *a2,
                      const char *a3, const char *rel, const char *what)
{
    const sbxu_remote_fs *fs = fs_of(sb);
    const char *argv[] = {fs->sh, "-c", script, "sh", abs, a2, a3, NULL};
    sbxu_buf out = {0};
    int code = -1;
    int rc = fs->run(sb, argv, &out, &code);
    sbxu_buf_clear(&out);
    return rc ? rc : sbxu_meta_status(host_of(sb), fs->plugin, code, what, rel);
}

static int wrong(void *sb, const char *rel, int type, bool want_dir)
{
    return sbxu_probe_wrong_type(host_of(sb), fs_of(sb)->plugin, rel, type, want_dir);
}

/* The path resolved (leaf too) where it must be of type want (a file or a directory). */
static int probe_as(void *sb, const char *rel, int want, sbxu_probe *pr)
{
    int rc = probe(sb, rel, false, pr);
    if (rc == SBX_OK && pr->type != want)
        rc = wrong(sb, rel, pr->type, want == SBXU_PROBE_DIR);
    return rc;
}

/* The upload's body: the caller's bytes, between a head and a tail when multipart. */
typedef struct upload {
    long (*read)(void *userdata, void *buf, size_t len);
    void *userdata;
    uint64_t left;
    char head[256], tail[64];
    size_t head_len, head_off, tail_len, tail_off;
} upload;

static long pull(void *ud, char *buf, size_t len)
{
    upload *u = ud;
    if (u->head_off < u->head_len) {
        size_t n = u->head_len - u->head_off < len ? u->head_len - u->head_off : len;
        memcpy(buf, u->head + u->head_off, n);
        u->head_off += n;
        return (long)n;
    }
    if (u->left) {
        if (len > u->left)
            len = (size_t)u->left;
        long n = u->read(u->userdata, buf, len);
        if (n > 0)
            u->left -= (uint64_t)n;
        return n == 0 ? -1 : n;
    }
    size_t n = u->tail_len - u->tail_off < len ? u->tail_len - u->tail_off : len;
    memcpy(buf, u->tail + u->tail_off, n);
    u->tail_off += n;
    return (long)n;
}

/* One multipart/form-data part "file" around the bytes; its Content-Type into type. */
static void multipart(upload *u, char type[96])
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char boundary[48];
    snprintf(boundary, sizeof(boundary), "sandboxio-%lx%lx", (long)ts.tv_sec, (long)ts.tv_nsec);
    snprintf(type, 96, "multipart/form-data; boundary=%s", boundary);
    u->head_len = (size_t)snprintf(u->head, sizeof(u->head),
                                   "--%s\r\nContent-Disposition: form-data; name=\"file\"; "
                                   "filename=\"file\"\r\nContent-Type: application/octet-stream"
                                   "\r\n\r\n", boundary);
    u->tail_len = (size_t)snprintf(u->tail, sizeof(u->tail), "\r\n--%s--\r\n", boundary);
}

/*
 * rq (an upload or a download) on the daemon's session: the caller's data
 * ending early, or its sink stopping, and the daemon's non-200 answer are
 * errors (the latter mapped by the backend).
 */
static int transfer(void *sb, const sbxu_http_request *rq, const char *rel)
{
    const sbxu_remote_fs *fs = fs_of(sb);
    sbxu_http_response rs = {0};
    int rc = fs->send(sb, rq, &rs);
    if (rc == SBX_OK && rs.upload_aborted)
        rc = host_of(sb)->set_error(SBX_E_BAD_PATH, "%s: writing %s: the data ended early",
                                    fs->plugin, rel);
    else if (rc == SBX_OK && rs.sink_stopped)
        rc = host_of(sb)->set_error(SBX_E_EXEC_ABORTED, "%s: reading %s: the sink stopped",
                                    fs->plugin, rel);
    else if (rc == SBX_OK && rs.status != 200)
        rc = fs->fail(sb, &rs, rq->upload ? "writing a file" : "reading a file");
    sbxu_http_response_clear(&rs);
    return rc;
}

/* The bytes streamed to the daemon, never held whole, never retried. */
static int send_file(void *sb, const char *rel, const char *resolved, uint64_t size,
                     long (*read)(void *userdata, void *buf, size_t len), void *userdata)
{
    const sbxu_remote_fs *fs = fs_of(sb);
    char url[SBXU_HTTP_PATH_MAX], type[96] = "application/octet-stream";
    int rc = fs->upload_path(sb, resolved, url, sizeof(url));
    if (rc)
        return rc;
    upload u = {.read = read, .userdata = userdata, .left = size};
    if (fs->multipart)
        multipart(&u, type);
    sbxu_http_request rq = {
        .method = "POST",
        .path = url,
        .content_type = type,
        .upload = pull,
        .upload_ud = &u,
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    return transfer(sb, &rq, rel);
}

int sbxu_remote_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                          long (*read)(void *userdata, void *buf, size_t len), void *userdata)
{
    const sbxu_remote_fs *fs = fs_of(sandbox);
    sbxu_probe pr;
    /*
     * The leaf unresolved: daemons' uploads follow a symlink, so one at the
     * path (once known not to lead out) is removed and replaced by the
     * file, never written through.
     */
    int rc = probe(sandbox, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_LINK) {
        sbxu_probe through;
        if ((rc = probe(sandbox, path, false, &through)) != SBX_OK ||
            (rc = run_script(sandbox, fs->unlink_script, pr.path, NULL, NULL, path,
                             "replacing the symlink")) != SBX_OK)
            return rc;
        pr.type = SBXU_PROBE_NONE;
    }
    if (pr.type != SBXU_PROBE_FILE && pr.type != SBXU_PROBE_NONE)
        return wrong(sandbox, path, pr.type, false);
    rc = send_file(sandbox, path, pr.path, size, read, userdata);
    /*
     * Uploads have no mode: daemons make a file 0644 and keep the mode of
     * one they replace. Any other outcome is set after, paid only by such
     * writes.
     */
    if (rc == SBX_OK && ((mode & 07777) != 0644 || pr.type == SBXU_PROBE_FILE))
        rc = fs->set_mode(sandbox, path, pr.path, mode);
    return rc;
}

int sbxu_remote_file_read(void *sandbox, const char *path,
                         int (*sink)(void *userdata, const void *data, size_t len),
                         void *userdata)
{
    sbxu_probe pr;
    int rc = probe_as(sandbox, path, SBXU_PROBE_FILE, &pr);
    if (rc)
        return rc;
    const sbxu_remote_fs *fs = fs_of(sandbox);
    char url[SBXU_HTTP_PATH_MAX];
    if ((rc = fs->download_path(sandbox, pr.path, url, sizeof(url))))
        return rc;
    sbxu_http_request rq = {
        .method = "GET",
        .path = url,
        .sink = sink,
        .sink_ud = userdata,
        /* A retry would repeat bytes the sink already has. */
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    return transfer(sandbox, &rq, path);
}

int sbxu_remote_file_list(void *sandbox, const char *path,
                         int (*entry)(void *userdata, const sbx_plugin_dirent *ent),
                         void *userdata)
{
    sbxu_probe pr;
    int rc = probe_as(sandbox, path, SBXU_PROBE_DIR, &pr);
    return rc ? rc : fs_of(sandbox)->list(sandbox, path, pr.path, entry, userdata);
}

int sbxu_remote_file_mkdir(void *sandbox, const char *path)
{
    const sbxu_remote_fs *fs = fs_of(sandbox);
    sbxu_probe pr;
    int rc = probe(sandbox, path, false, &pr);
    if (rc || pr.type == SBXU_PROBE_DIR)
        return rc;
    if (pr.type != SBXU_PROBE_NONE)
        return pr.type == SBXU_PROBE_NOTDIR
                   ? wrong(sandbox, path, pr.type, true)
                   : host_of(sandbox)->set_error(SBX_E_EXISTS, "%s: %s exists", fs->plugin, path);
    return fs->mkdir(sandbox, pr.path);
}

int sbxu_remote_file_remove(void *sandbox, const char *path, int recursive)
{
    const sbxu_remote_fs *fs = fs_of(sandbox);
    const sbx_host *host = host_of(sandbox);
    sbxu_probe pr;
    int rc = probe(sandbox, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_NONE || pr.type == SBXU_PROBE_NOTDIR)
        return host->set_error(SBX_E_NOT_FOUND, "%s: %s does not exist", fs->plugin, path);
    if (pr.type == SBXU_PROBE_DIR && !recursive) {
        /* Daemons remove a directory only recursively: refuse one with entries here. */
        bool any = false;
        rc = fs->has_entries(sandbox, pr.path, &any);
        if (rc == SBX_OK && any)
            rc = host->set_error(SBX_E_NOT_EMPTY, "%s: %s is not empty", fs->plugin, path);
        if (rc)
            return rc;
    }
    return fs->remove(sandbox, pr.path, pr.type == SBXU_PROBE_DIR);
}

int sbxu_remote_file_symlink(void *sandbox, const char *path, const char *target)
{
    sbxu_probe pr;
    int rc = probe(sandbox, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_NOTDIR)
        return wrong(sandbox, path, pr.type, false);
    return run_script(sandbox, SBXU_SYMLINK_SCRIPT, pr.path, target, NULL, path,
                      "making the symlink");
}

int sbxu_remote_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta)
{
    sbxu_probe pr;
    char mode[16], mtime[32];
    int rc = probe(sandbox, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_NONE || pr.type == SBXU_PROBE_NOTDIR)
        return wrong(sandbox, path, pr.type, false);
    sbxu_meta_args(meta, mode, mtime);
    return run_script(sandbox, SBXU_META_SCRIPT, pr.path, mode, mtime, path,
                      "setting the metadata of");
}
