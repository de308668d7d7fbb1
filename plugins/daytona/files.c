/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files of a Daytona sandbox, below the daemon's work dir, as the kit's
 * table (lib/sbxu/remote.h: the kit resolves every path in the
 * sandbox first, and refuses one that leads out, since the daemon follows
 * symlinks). Contents go through the toolbox's /files/upload-v2
 * (multipart, the only body the spec declares, framed here around the
 * streamed bytes) and /files/download, streamed both ways, never held
 * whole; list by a command, mkdir and remove through POST /files/folder
 * and DELETE /files; helper scripts through /process/execute.
 */
#include "daytona.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>
#include <sandboxio/files.h>

#include <sbxu/metascript.h>


static const char *home(void *sandbox)
{
    return ((daytona_sandbox *)sandbox)->home;
}

/* argv as a command line through /process/execute; its output and status. */
static int run(void *sandbox, const char *const *argv, sbxu_buf *out, int *code)
{
    daytona_sandbox *sb = sandbox;
    char *line = daytona_quote_argv(argv);
    if (!line)
        return sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    int rc = daytona_shell(sb, line, out, code);
    free(line);
    return rc;
}

static int check_answer(void *sandbox, const sbxu_http_response *rs, const char *context)
{
    return daytona_tb_fail(sandbox, rs->status, rs->body.data, rs->body.len, context);
}

static int send_rq(void *sandbox, const sbxu_http_request *rq, sbxu_http_response *rs)
{
    return daytona_tb_send(sandbox, rq, rs);
}

/* The toolbox's paths of the file at resolved: up (multipart) and down. */
static int upload_path(void *sandbox, const char *resolved, char *out, size_t size)
{
    return daytona_tb_path(sandbox, out, size, "/files/upload-v2", "path", resolved);
}

static int download_path(void *sandbox, const char *resolved, char *out, size_t size)
{
    return daytona_tb_path(sandbox, out, size, "/files/download", "path", resolved);
}

/* The upload has no mode (0644, or the replaced file's): POST /files/permissions. */
static int set_mode(void *sandbox, const char *path, const char *resolved, uint32_t mode)
{
    daytona_sandbox *sb = sandbox;
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

/*
 * The daemon's list (GET /files?path=) of a resolved directory, its
 * entries (FileInfo): kept for remove's emptiness check.
 */
static int has_entries(void *sandbox, const char *path, bool *any)
{
    daytona_sandbox *sb = sandbox;
    json_object *list = NULL;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = daytona_tb_path(sb, url, sizeof(url), "/files", "path", path);
    if (rc == SBX_OK)
        rc = daytona_tb_call(sb, "GET", url, NULL, SBXU_HTTP_RETRY_AUTO, "listing a directory",
                             &list, NULL);
    if (rc == SBX_OK && !json_object_is_type(list, json_type_array))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the file list is not a list");
    *any = rc == SBX_OK && json_object_array_length(list) > 0;
    json_object_put(list);
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

static int list(void *sandbox, const char *path, const char *resolved,
                int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    daytona_sandbox *sb = sandbox;
    sbxu_buf out = {0};
    int code = -1;
    char max[24];
    snprintf(max, sizeof max, "%zu", (size_t)SBX_FILE_LIST_MAX_ENTRIES);
    const char *argv[] = {"sh", "-c", list_script, "sh", resolved, max, NULL};
    int rc = run(sb, argv, &out, &code);
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

static int make_dir(void *sandbox, const char *resolved)
{
    daytona_sandbox *sb = sandbox;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = daytona_tb_path(sb, url, sizeof(url), "/files/folder", "path", resolved);
    if (rc == SBX_OK && strlen(url) + 10 < sizeof(url))
        strcat(url, "&mode=755");
    /* mkdir -p: a retry after a lost answer finds it made. */
    return rc ? rc : daytona_tb_call(sb, "POST", url, NULL, SBXU_HTTP_RETRY_ALWAYS,
                                     "making a directory", NULL, NULL);
}

static int remove_path(void *sandbox, const char *resolved, bool dir)
{
    daytona_sandbox *sb = sandbox;
    char url[SBXU_HTTP_PATH_MAX];
    int rc = daytona_tb_path(sb, url, sizeof(url), "/files", "path", resolved);
    if (rc == SBX_OK && dir && strlen(url) + 16 < sizeof(url))
        strcat(url, "&recursive=true");
    return rc ? rc : daytona_tb_call(sb, "DELETE", url, NULL, SBXU_HTTP_RETRY_AUTO, "removing",
                                     NULL, NULL);
}

const sbxu_remote_fs daytona_fs = {
    .plugin = DAYTONA_NAME, .sh = "sh", .unlink_script = "rm -f -- \"$1\" || exit 4",
    /* The probe only reads: one that failed to run is run once more. */
    .probe_tries = 2,
    .home = home, .run = run, .upload_path = upload_path, .download_path = download_path,
    .multipart = true, .send = send_rq, .fail = check_answer, .set_mode = set_mode,
    .list = list, .has_entries = has_entries, .mkdir = make_dir, .remove = remove_path,
};
