/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files of a Daytona sandbox, below the daemon's work dir. Contents go
 * through the toolbox's /files/upload-v2 (multipart, the only body the spec
 * declares, framed here around the streamed bytes) and /files/download,
 * streamed both ways, never held whole; list, mkdir and remove through
 * GET /files, POST /files/folder and DELETE /files.
 *
 * The daemon follows symlinks, so every operation first resolves the path
 * inside the sandbox with sbxu's path probe (run through
 * /process/execute) and refuses one that leads out of the work dir.
 */
#include "daytona.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sandboxio/errors.h>
#include <sandboxio/files.h>

#include <sbxu/metascript.h>
#include <sbxu/pathprobe.h>

static int probe(daytona_sandbox *sb, const char *rel, bool leaf, sbxu_probe *pr)
{
    const sbx_host *host = sb->host;
    char full[1024];
    pr->type = -1;
    if ((size_t)snprintf(full, sizeof(full), "%s/%s", sb->home, rel) >= sizeof(full))
        return host->set_error(SBX_E_BAD_PATH, "daytona: the path %s is too long", rel);
    const char *argv[] = {"sh", "-c", SBXU_PROBE_SCRIPT, "sh", full, leaf ? "leaf" : "", NULL};
    char *line = daytona_quote_argv(argv);
    if (!line)
        return host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    sbxu_buf out = {0};
    int code = -1;
    int rc = daytona_shell(sb, line, &out, &code);
    /* The probe only reads: one that failed to run is run once more. */
    if (rc == SBX_OK && (code != 0 || !out.data)) {
        sbxu_buf_clear(&out);
        rc = daytona_shell(sb, line, &out, &code);
    }
    free(line);
    if (rc == SBX_OK && (code != 0 || !out.data))
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "daytona: cannot resolve %s in the sandbox (the probe exited %d: %.200s)",
                             rel, code, out.data ? out.data : "no output");
    if (rc == SBX_OK)
        rc = sbxu_probe_parse(pr, host, DAYTONA_NAME, sb->home, rel, out.data);
    sbxu_buf_clear(&out);
    return rc;
}

/* `sh -c script sh a1 [a2 [a3]]` through /process/execute; its output (if out) and status. */
static int shell(daytona_sandbox *sb, const char *script, const char *a1, const char *a2,
                 const char *a3, sbxu_buf *out, int *code)
{
    const char *argv[] = {"sh", "-c", script, "sh", a1, a2, a3, NULL};
    char *line = daytona_quote_argv(argv);
    sbxu_buf ignored = {0};
    if (!line)
        return sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    int rc = daytona_shell(sb, line, out ? out : &ignored, code);
    free(line);
    sbxu_buf_clear(&ignored);
    return rc;
}

/* A helper script's status as sbxu_meta_status() maps it. */
static int meta_script(daytona_sandbox *sb, const char *script, const char *a1, const char *a2,
                       const char *a3, const char *rel, const char *what)
{
    int code = -1, rc = shell(sb, script, a1, a2, a3, NULL, &code);
    return rc ? rc : sbxu_meta_status(sb->host, DAYTONA_NAME, code, what, rel);
}

static int wrong(daytona_sandbox *sb, const char *rel, int type, bool want_dir)
{
    return sbxu_probe_wrong_type(sb->host, DAYTONA_NAME, rel, type, want_dir);
}

/* --- write: one multipart part ("file") around the caller's bytes ------------------- */

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

static int check_answer(daytona_sandbox *sb, const sbxu_http_response *rs, const char *context)
{
    return daytona_tb_fail(sb, rs->status, rs->body.data, rs->body.len, context);
}

/*
 * The upload has no mode: the daemon creates a file 0644 and keeps the mode
 * of one it replaces. Any other outcome is set with POST /files/permissions,
 * one more round trip, paid only by such writes.
 */
static int set_mode(daytona_sandbox *sb, const char *path, const char *resolved, uint32_t mode)
{
    char url[SBXU_HTTP_PATH_MAX];
    int rc = daytona_tb_path(sb, url, sizeof(url), "/files/permissions", "path", resolved);
    if (rc)
        return rc;
    size_t n = strlen(url);
    if (n + 16 > sizeof(url))
        return sb->host->set_error(SBX_E_BAD_PATH, "daytona: the path %s is too long", path);
    snprintf(url + n, sizeof(url) - n, "&mode=%04o", (unsigned)(mode & 07777));
    /* A chmod to a given mode can be repeated: retried as idempotent. */
    sbxu_http_request rq = {.method = "POST", .path = url, .retry = SBXU_HTTP_RETRY_ALWAYS};
    sbxu_http_response rs = {0};
    rc = daytona_tb_send(sb, &rq, &rs);
    if (rc == SBX_OK && rs.status != 200)
        rc = check_answer(sb, &rs, "setting a file's mode");
    sbxu_http_response_clear(&rs);
    return rc;
}

int daytona_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                       long (*read)(void *userdata, void *buf, size_t len), void *userdata)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    char url[SBXU_HTTP_PATH_MAX], type[96];
    /*
     * The leaf unresolved: the daemon's upload follows a symlink, so one at
     * the path (once known not to lead out) is removed and replaced by the
     * file, never written through.
     */
    int rc = probe(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_LINK) {
        sbxu_probe through;
        if ((rc = probe(sb, path, false, &through)) != SBX_OK ||
            (rc = meta_script(sb, "rm -f -- \"$1\" || exit 4", pr.path, NULL, NULL, path,
                              "replacing the symlink")) != SBX_OK)
            return rc;
        pr.type = SBXU_PROBE_NONE;
    }
    if (pr.type != SBXU_PROBE_FILE && pr.type != SBXU_PROBE_NONE)
        return wrong(sb, path, pr.type, false);
    if ((rc = daytona_tb_path(sb, url, sizeof(url), "/files/upload-v2", "path", pr.path)))
        return rc;
    upload u = {.read = read, .userdata = userdata, .left = size};
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char boundary[48];
    snprintf(boundary, sizeof(boundary), "sandboxio-%lx%lx", (long)ts.tv_sec, (long)ts.tv_nsec);
    snprintf(type, sizeof(type), "multipart/form-data; boundary=%s", boundary);
    u.head_len = (size_t)snprintf(u.head, sizeof(u.head),
                                  "--%s\r\nContent-Disposition: form-data; name=\"file\"; "
                                  "filename=\"file\"\r\nContent-Type: application/octet-stream"
                                  "\r\n\r\n", boundary);
    u.tail_len = (size_t)snprintf(u.tail, sizeof(u.tail), "\r\n--%s--\r\n", boundary);
    sbxu_http_request rq = {
        .method = "POST",
        .path = url,
        .content_type = type,
        .upload = pull,
        .upload_ud = &u,
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    sbxu_http_response rs = {0};
    rc = daytona_tb_send(sb, &rq, &rs);
    if (rc == SBX_OK && rs.upload_aborted)
        rc = sb->host->set_error(SBX_E_BAD_PATH, "daytona: writing %s: the data ended early", path);
    else if (rc == SBX_OK && rs.status != 200)
        rc = check_answer(sb, &rs, "writing a file");
    sbxu_http_response_clear(&rs);
    if (rc == SBX_OK && ((mode & 07777) != 0644 || pr.type == SBXU_PROBE_FILE))
        rc = set_mode(sb, path, pr.path, mode);
    return rc;
}

int daytona_file_read(void *sandbox, const char *path,
                      int (*sink)(void *userdata, const void *data, size_t len), void *userdata)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = probe(sb, path, false, &pr);
    if (rc)
        return rc;
    if (pr.type != SBXU_PROBE_FILE)
        return wrong(sb, path, pr.type, false);
    if ((rc = daytona_tb_path(sb, url, sizeof(url), "/files/download", "path", pr.path)))
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
    rc = daytona_tb_send(sb, &rq, &rs);
    if (rc == SBX_OK && rs.sink_stopped)
        rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "daytona: reading %s: the sink stopped", path);
    else if (rc == SBX_OK && rs.status != 200)
        rc = check_answer(sb, &rs, "reading a file");
    sbxu_http_response_clear(&rs);
    return rc;
}

/* GET /files?path= of a resolved directory: its entries (FileInfo) in *list. */
/* The daemon's list of directory path (resolved): kept for remove's emptiness check. */
static int list_dir(daytona_sandbox *sb, const char *path, json_object **list)
{
    char url[SBXU_HTTP_PATH_MAX];
    int rc = daytona_tb_path(sb, url, sizeof(url), "/files", "path", path);
    if (rc == SBX_OK)
        rc = daytona_tb_call(sb, "GET", url, NULL, SBXU_HTTP_RETRY_AUTO, "listing a directory",
                             list, NULL);
    if (rc == SBX_OK && !json_object_is_type(*list, json_type_array))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the file list is not a list");
    return rc;
}

/*
 * The daemon's list follows symlinks (a dangling one is left out) and gives
 * no link's target, so a directory is listed by a command. It prints the
 * count; then the names, each followed by a NUL, as one line of hex (the
 * answer is a JSON string: hex keeps every byte, NUL too); then
 * "hexmode size mtime" per name; then the symlinks' targets in the names'
 * order, each followed by a NUL, as one line of hex (read with a sentinel
 * so a target's trailing newlines are kept). Past $2 (the core's bound) it
 * prints only the count, without reading further. Every tool runs a fixed
 * number of times, not once per entry: 32,768 entries take a second, not
 * minutes (SBXU_LIST_NAMES_SH gathers the names; xargs splits them for stat).
 */
static const char list_script[] =
    SBXU_LIST_NAMES_SH
    " printf '%s\\0' \"$@\" | od -An -tx1 -v | tr -d ' \\n'; echo;"
    " printf '%s\\0' \"$@\" | xargs -0 stat -c '%f %s %Y' -- || exit 4;"
    SBXU_LIST_TARGETS_SH " | od -An -tx1 -v | tr -d ' \\n'; echo";

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/*
 * Decode the line of hex at *p in place; *len gets the bytes decoded, *p
 * moves past the line's newline. NULL for bad hex.
 */
static char *unhex_line(char **p, size_t *len)
{
    char *start = *p, *w = start, *r = start;
    if (!start)
        return NULL;
    /* By hand: sscanf measures the whole rest of the string at every call. */
    while (*r && *r != '\n') {
        int hi = hex_digit(r[0]), lo = hi < 0 ? -1 : hex_digit(r[1]);
        if (lo < 0)
            return NULL;
        *w++ = (char)(hi << 4 | lo);
        r += 2;
    }
    *p = *r ? r + 1 : r;
    *len = (size_t)(w - start);
    return start;
}

/* The next NUL-terminated string of the decoded bytes [*at, end): NULL if none. */
static char *next_string(char **at, char *end)
{
    char *s = *at, *nul = s && end && s < end ? memchr(s, '\0', (size_t)(end - s)) : NULL;
    if (!nul)
        return NULL;
    *at = nul + 1;
    return s;
}

static int sbx_type_of(unsigned long mode)
{
    switch (mode & 0170000) {
    case 0100000: return 1;
    case 0040000: return 2;
    case 0120000: return 3;
    default: return 4;
    }
}

static int bad_listing(daytona_sandbox *sb, const char *path)
{
    return sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: bad listing of \"%s\"", path);
}

int daytona_file_list(void *sandbox, const char *path,
                      int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    sbxu_buf out = {0};
    int code = -1;
    char max[24];
    int rc = probe(sb, path, false, &pr);
    if (rc)
        return rc;
    if (pr.type != SBXU_PROBE_DIR)
        return wrong(sb, path, pr.type, true);
    snprintf(max, sizeof max, "%zu", (size_t)SBX_FILE_LIST_MAX_ENTRIES);
    rc = shell(sb, list_script, pr.path, max, NULL, &out, &code);
    if (rc == SBX_OK && code != 0)
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "daytona: listing \"%s\" failed (status %d)",
                                 path, code);
    char *p = out.data;
    unsigned long count = rc == SBX_OK && p ? strtoul(p, &p, 10) : 0;
    if (rc == SBX_OK && (!p || *p != '\n'))
        rc = bad_listing(sb, path);
    /* The answer's size is bounded by the HTTP layer's; its entries by the core's. */
    if (rc == SBX_OK && count > SBX_FILE_LIST_MAX_ENTRIES)
        rc = sb->host->set_error(SBX_E_LIST_TOO_LARGE, "daytona: %s has more than %zu entries",
                                 path, (size_t)SBX_FILE_LIST_MAX_ENTRIES);
    if (rc != SBX_OK || count == 0) {
        sbxu_buf_clear(&out);
        return rc;
    }
    p++;
    size_t names_len = 0, targets_len = 0;
    char *names = unhex_line(&p, &names_len), *names_end = names ? names + names_len : NULL;
    char *stats = p;
    /* The stat lines, then the targets' line. */
    for (unsigned long i = 0; names && i < count; i++) {
        char *nl = strchr(p, '\n');
        if (!nl) {
            names = NULL;
            break;
        }
        p = nl + 1;
    }
    char *targets = names ? unhex_line(&p, &targets_len) : NULL;
    char *targets_end = targets ? targets + targets_len : NULL;
    if (!names || !targets)
        rc = bad_listing(sb, path);
    for (unsigned long i = 0; rc == SBX_OK && i < count; i++) {
        unsigned long mode = 0;
        unsigned long long size = 0;
        long long mtime = 0;
        int used = 0;
        char *name = next_string(&names, names_end), *target = NULL;
        /* Its line alone: sscanf measures the whole of what it is given. */
        char *nl = stats ? strchr(stats, '\n') : NULL;
        if (nl)
            *nl = '\0';
        if (!nl || !name || !*name || strchr(name, '/') ||
            sscanf(stats, "%lx %llu %lld%n", &mode, &size, &mtime, &used) != 3 || stats[used]) {
            rc = bad_listing(sb, path);
            break;
        }
        stats = nl + 1;
        if (sbx_type_of(mode) == 3 && !(target = next_string(&targets, targets_end))) {
            rc = bad_listing(sb, path);
            break;
        }
        sbx_plugin_dirent d = {
            .struct_size = sizeof(d), .name = name, .type = sbx_type_of(mode), .size = size,
            .mode = (uint32_t)(mode & 07777), .mtime = mtime, .link_target = target,
        };
        if (entry(userdata, &d) != 0)
            break;
    }
    sbxu_buf_clear(&out);
    return rc;
}

int daytona_file_mkdir(void *sandbox, const char *path)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = probe(sb, path, false, &pr);
    if (rc || pr.type == SBXU_PROBE_DIR)
        return rc;
    if (pr.type != SBXU_PROBE_NONE)
        return pr.type == SBXU_PROBE_NOTDIR
                   ? wrong(sb, path, pr.type, true)
                   : sb->host->set_error(SBX_E_EXISTS, "daytona: %s exists", path);
    rc = daytona_tb_path(sb, url, sizeof(url), "/files/folder", "path", pr.path);
    if (rc == SBX_OK && strlen(url) + 10 < sizeof(url))
        strcat(url, "&mode=755");
    /* mkdir -p: a retry after a lost answer finds it made. */
    return rc ? rc : daytona_tb_call(sb, "POST", url, NULL, SBXU_HTTP_RETRY_ALWAYS,
                                     "making a directory", NULL, NULL);
}

int daytona_file_remove(void *sandbox, const char *path, int recursive)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = probe(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_NONE || pr.type == SBXU_PROBE_NOTDIR)
        return sb->host->set_error(SBX_E_NOT_FOUND, "daytona: %s does not exist", path);
    if (pr.type == SBXU_PROBE_DIR && !recursive) {
        /* The daemon removes a directory only recursively: refuse one with entries here. */
        json_object *list = NULL;
        rc = list_dir(sb, pr.path, &list);
        if (rc == SBX_OK && json_object_array_length(list) > 0)
            rc = sb->host->set_error(SBX_E_NOT_EMPTY, "daytona: %s is not empty", path);
        json_object_put(list);
        if (rc)
            return rc;
    }
    rc = daytona_tb_path(sb, url, sizeof(url), "/files", "path", pr.path);
    if (rc == SBX_OK && pr.type == SBXU_PROBE_DIR && strlen(url) + 16 < sizeof(url))
        strcat(url, "&recursive=true");
    return rc ? rc : daytona_tb_call(sb, "DELETE", url, NULL, SBXU_HTTP_RETRY_AUTO, "removing",
                                     NULL, NULL);
}

int daytona_file_symlink(void *sandbox, const char *path, const char *target)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    int rc = probe(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_NOTDIR)
        return wrong(sb, path, pr.type, false);
    return meta_script(sb, SBXU_SYMLINK_SCRIPT, pr.path, target, NULL, path,
                       "making the symlink");
}

int daytona_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta)
{
    daytona_sandbox *sb = sandbox;
    sbxu_probe pr;
    char mode[16], mtime[32];
    int rc = probe(sb, path, true, &pr);
    if (rc)
        return rc;
    if (pr.type == SBXU_PROBE_NONE || pr.type == SBXU_PROBE_NOTDIR)
        return wrong(sb, path, pr.type, false);
    sbxu_meta_args(meta, mode, mtime);
    return meta_script(sb, SBXU_META_SCRIPT, pr.path, mode, mtime, path,
                       "setting the metadata of");
}
