/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files. Write, read and mkdir go through the archive endpoints with tar
 * streams made and read by libarchive: a write is produced as curl asks for
 * upload bytes and a read is consumed as libarchive asks for input, so a
 * file of any size passes through a fixed-size buffer, never whole.
 *
 * Listing and removal use a short exec instead (files_exec.c).
 */
#include "docker.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DK_CHUNK 65536

static int enomem(dk_sandbox *sb)
{
    return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
}

static char *archive_path(dk_sandbox *sb, const char *abs)
{
    char *esc = sbxu_http_escape(&sb->conn.http, abs), *path = NULL;
    if (esc && asprintf(&path, "/containers/%s/archive?path=%s", sb->id, esc) < 0)
        path = NULL;
    curl_free(esc);
    return path;
}

/* --- writing: a tar made on demand as curl pulls the upload -------------- */

typedef struct tar_out {
    dk_sandbox *sb;
    struct archive *a;
    sbxu_buf pending;            /* tar bytes made, not yet taken by curl */
    size_t pending_off;
    const char *rest;          /* components to create under the target dir */
    bool is_dir;               /* mkdir: every component is a directory */
    uint64_t size;             /* the file's announced size */
    uint64_t done;
    uint32_t mode;
    long (*read)(void *ud, void *buf, size_t len);
    void *read_ud;
    int stage;                 /* 0 headers, 1 data, 2 closed */
    int rc;                    /* error set while producing */
    char chunk[DK_CHUNK];
} tar_out;

static la_ssize_t tar_write_cb(struct archive *a, void *ud, const void *buf, size_t len)
{
    tar_out *t = ud;
    if (sbxu_buf_append(&t->pending, buf, len)) {
        archive_set_error(a, ENOMEM, "out of memory");
        return -1;
    }
    return (la_ssize_t)len;
}

static int tar_fail(tar_out *t, const char *what)
{
    t->rc = t->sb->host->set_error(SBX_E_INTERNAL, "docker: libarchive %s: %s", what,
                                   archive_error_string(t->a));
    return t->rc;
}

static int tar_header(tar_out *t, const char *name, bool dir, uint64_t size, uint32_t mode)
{
    struct archive_entry *e = archive_entry_new();
    if (!e)
        return t->rc = enomem(t->sb);
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, dir ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(e, dir ? 0755 : mode);
    archive_entry_set_size(e, dir ? 0 : (la_int64_t)size);
    archive_entry_set_mtime(e, time(NULL), 0);
    archive_entry_set_uid(e, 0);
    archive_entry_set_gid(e, 0);
    int r = archive_write_header(t->a, e);
    archive_entry_free(e);
    return r == ARCHIVE_OK ? SBX_OK : tar_fail(t, "writing a header");
}

/* Headers of every missing directory, then of the file itself. */
static int tar_headers(tar_out *t)
{
    size_t n = strlen(t->rest);
    char *name = malloc(n + 1);
    if (!name)
        return t->rc = enomem(t->sb);
    int rc = SBX_OK;
    for (size_t i = 0; rc == SBX_OK && i <= n; i++) {
        if (t->rest[i] != '/' && t->rest[i] != '\0')
            continue;
        memcpy(name, t->rest, i);
        name[i] = '\0';
        bool last = i == n;
        rc = tar_header(t, name, !last || t->is_dir, t->size, t->mode);
    }
    free(name);
    return rc;
}

/* Make more tar bytes: SBX_OK with pending filled, or at the end, or an error. */
static int tar_produce(tar_out *t)
{
    if (t->stage == 0) {
        t->stage = 1;
        return tar_headers(t);
    }
    if (t->stage == 1 && !t->is_dir && t->done < t->size) {
        size_t want = t->size - t->done < DK_CHUNK ? (size_t)(t->size - t->done) : DK_CHUNK;
        long got = t->read(t->read_ud, t->chunk, want);
        if (got < 0)
            return t->rc = t->sb->host->set_error(SBX_E_EXEC_ABORTED,
                                                  "docker: the data source of the file failed");
        if (got == 0)
            return t->rc = t->sb->host->set_error(SBX_E_INVALID_ARGUMENT,
                                                  "docker: the data source ended after %llu of "
                                                  "%llu bytes",
                                                  (unsigned long long)t->done,
                                                  (unsigned long long)t->size);
        if (archive_write_data(t->a, t->chunk, (size_t)got) != got)
            return tar_fail(t, "writing data");
        t->done += (uint64_t)got;
        return SBX_OK;
    }
    if (t->stage == 1) {
        t->stage = 2;
        if (archive_write_close(t->a) != ARCHIVE_OK)
            return tar_fail(t, "closing the tar");
    }
    return SBX_OK;
}

static long tar_upload(void *ud, char *buf, size_t len)
{
    tar_out *t = ud;
    while (t->pending_off == t->pending.len && t->stage < 2) {
        t->pending.len = t->pending_off = 0;
        if (tar_produce(t))
            return -1;
    }
    size_t n = t->pending.len - t->pending_off;
    if (n > len)
        n = len;
    if (n)
        memcpy(buf, t->pending.data + t->pending_off, n);
    t->pending_off += n;
    return (long)n;
}

/* PUT a tar of rest (directories, then a file unless is_dir) into dir. */
static int put_tree(dk_sandbox *sb, const char *dir, const char *rest, bool is_dir,
                    uint64_t size, uint32_t mode, long (*read)(void *, void *, size_t), void *ud)
{
    tar_out *t = calloc(1, sizeof(*t));
    if (!t)
        return enomem(sb);
    *t = (tar_out){.sb = sb, .rest = rest, .is_dir = is_dir, .size = size, .mode = mode,
                   .read = read, .read_ud = ud};
    t->a = archive_write_new();
    char *path = archive_path(sb, dir);
    int rc = SBX_OK;
    if (!t->a || !path)
        rc = enomem(sb);
    else if (archive_write_set_format_pax_restricted(t->a) != ARCHIVE_OK ||
             archive_write_set_bytes_per_block(t->a, 0) != ARCHIVE_OK ||
             archive_write_open2(t->a, t, NULL, tar_write_cb, NULL, NULL) != ARCHIVE_OK)
        rc = tar_fail(t, "starting a tar");
    if (rc == SBX_OK) {
        sbxu_http_request rq = {.method = "PUT", .path = path, .upload = tar_upload, .upload_ud = t};
        sbxu_http_response rs = {0};
        rc = dk_http(&sb->conn, &rq, &rs);
        if (rc == SBX_E_EXEC_ABORTED && t->rc)
            rc = t->rc;    /* the detail was set by the producer */
        else if (rc == SBX_OK && (rs.status < 200 || rs.status >= 300))
            rc = dk_api_fail(&sb->conn, &rs, "writing into the container");
        sbxu_http_response_clear(&rs);
    }
    if (t->a)
        archive_write_free(t->a);
    sbxu_buf_clear(&t->pending);
    free(path);
    free(t);
    return rc;
}

int dk_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                  long (*read)(void *userdata, void *buf, size_t len), void *userdata)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    /*
     * The last component unfollowed: a symlink there is replaced (the
     * engine removes what is at an entry's path before unpacking it), never
     * written through, once it is known not to lead out.
     */
    int rc = dk_resolve(sb, path, false, &r);
    if (rc)
        return rc;
    if (!r.rest[0] && r.st.type == 3) {
        dk_resolved through;
        if ((rc = dk_resolve(sb, path, true, &through)) != SBX_OK) {
            dk_resolved_clear(&r);
            return rc;
        }
        dk_resolved_clear(&through);
    }
    if (!r.rest[0] && r.st.type == 2) {
        rc = sb->host->set_error(SBX_E_IS_DIRECTORY, "docker: \"%s\" is a directory", path);
    } else if (r.rest[0] && r.st.type != 2) {
        rc = sb->host->set_error(SBX_E_NOT_DIRECTORY, "docker: a parent of \"%s\" is not a directory",
                                 path);
    } else if (r.rest[0]) {
        rc = put_tree(sb, r.real, r.rest, false, size, mode, read, userdata);
    } else if (r.st.type == 4) {
        /* A FIFO, socket or device: refused at once, as every backend does
         * (the engine would replace it; local would block opening it). */
        rc = sb->host->set_error(SBX_E_NOT_REGULAR, "docker: \"%s\" is not a regular file", path);
    } else {
        /* The file exists: replace it from its directory. */
        char *slash = strrchr(r.real, '/');
        *slash = '\0';
        rc = put_tree(sb, r.real[0] ? r.real : "/", slash + 1, false, size, mode, read, userdata);
    }
    dk_resolved_clear(&r);
    return rc;
}

int dk_file_mkdir(void *sandbox, const char *path)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    int rc = dk_resolve(sb, path, true, &r);
    if (rc)
        return rc;
    if (!r.rest[0] && r.st.type != 2)
        rc = sb->host->set_error(SBX_E_EXISTS, "docker: \"%s\" exists and is not a directory", path);
    else if (r.rest[0] && r.st.type != 2)
        rc = sb->host->set_error(SBX_E_NOT_DIRECTORY, "docker: a parent of \"%s\" is not a directory",
                                 path);
    else if (r.rest[0])
        rc = put_tree(sb, r.real, r.rest, true, 0, 0755, NULL, NULL);
    dk_resolved_clear(&r);
    return rc;
}

/* --- reading: libarchive pulls the GET answer as it needs it -------------- */

typedef struct tar_in {
    sbxu_http_pull *pull;
    int rc;
} tar_in;

static la_ssize_t tar_read_cb(struct archive *a, void *ud, const void **buf)
{
    tar_in *t = ud;
    size_t len = 0;
    t->rc = sbxu_http_pull_read(t->pull, buf, &len);
    if (t->rc) {
        archive_set_error(a, EIO, "transfer failed");
        return -1;
    }
    return (la_ssize_t)len;
}

static int read_tar(dk_sandbox *sb, tar_in *in, const char *path,
                    int (*sink)(void *, const void *, size_t), void *ud)
{
    struct archive *a = archive_read_new();
    struct archive_entry *e;
    if (!a)
        return enomem(sb);
    int rc = SBX_OK;
    if (archive_read_support_format_tar(a) != ARCHIVE_OK ||
        archive_read_open(a, in, NULL, tar_read_cb, NULL) != ARCHIVE_OK ||
        archive_read_next_header(a, &e) != ARCHIVE_OK) {
        rc = in->rc ? in->rc
                    : sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: bad tar for \"%s\": %s",
                                          path, archive_error_string(a));
    } else if (archive_entry_filetype(e) != AE_IFREG) {
        rc = sb->host->set_error(SBX_E_NOT_REGULAR, "docker: \"%s\" is not a regular file", path);
    } else {
        for (;;) {
            const void *block;
            size_t len;
            la_int64_t off;
            int r = archive_read_data_block(a, &block, &len, &off);
            if (r == ARCHIVE_EOF)
                break;
            if (r != ARCHIVE_OK) {
                rc = in->rc ? in->rc
                            : sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                                  "docker: bad tar data for \"%s\": %s", path,
                                                  archive_error_string(a));
                break;
            }
            if (len && sink(ud, block, len) != 0) {
                rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "docker: the reader of \"%s\" stopped",
                                         path);
                break;
            }
        }
    }
    archive_read_free(a);
    return rc;
}

int dk_file_read(void *sandbox, const char *path,
                 int (*sink)(void *userdata, const void *data, size_t len), void *userdata)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    int rc = dk_resolve(sb, path, true, &r);
    if (rc)
        return rc;
    if (r.rest[0] || r.st.type == 3)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (r.st.type == 2)
        rc = sb->host->set_error(SBX_E_IS_DIRECTORY, "docker: \"%s\" is a directory", path);
    else if (r.st.type != 1)
        rc = sb->host->set_error(SBX_E_NOT_REGULAR, "docker: \"%s\" is not a regular file", path);
    char *apath = rc == SBX_OK ? archive_path(sb, r.real) : NULL;
    if (rc == SBX_OK && !apath)
        rc = enomem(sb);
    if (rc == SBX_OK) {
        sbxu_http_request rq = {.method = "GET", .path = apath};
        sbxu_http_response rs = {0};
        tar_in in = {0};
        rc = dk_pull_begin(&sb->conn, &rq, &rs, &in.pull);
        if (rc == SBX_OK && (rs.status < 200 || rs.status >= 300))
            rc = dk_api_fail(&sb->conn, &rs, "reading from the container");
        else if (rc == SBX_OK)
            rc = read_tar(sb, &in, path, sink, userdata);
        sbxu_http_pull_end(in.pull);
        sbxu_http_response_clear(&rs);
    }
    free(apath);
    dk_resolved_clear(&r);
    return rc;
}
