/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files in a sandbox. The core cleans every path lexically (relative, no
 * "..") and checks the capability; the plugin refuses symlink escapes.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Common preamble: usable sandbox, files capability, clean path. */
static int prepare(sbx_sandbox *sb, const char *path, bool allow_empty, char **clean)
{
    int rc = sbx__sandbox_usable(sb);
    if (rc == SBX_OK)
        rc = sbx__sandbox_need(sb, SBX_CAP_FILES);
    if (rc == SBX_OK)
        rc = sbx__path_clean(path, allow_empty, clean);
    if (rc == SBX_OK)
        sbx_error_clear();
    return rc;
}

typedef struct mem_reader {
    const char *data;
    size_t len;
    size_t off;
} mem_reader;

static long mem_read(void *userdata, void *buf, size_t len)
{
    mem_reader *m = userdata;
    size_t n = m->len - m->off < len ? m->len - m->off : len;
    memcpy(buf, m->data + m->off, n);
    m->off += n;
    return (long)n;
}

int sbx_file_write_from(sbx_sandbox *sandbox, const char *path, uint64_t size, uint32_t mode,
                        sbx_read_cb cb, void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_file_write_from: callback is NULL");
    if (mode & ~07777u)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "file mode 0%o has bits beyond 07777", mode);
    char *clean = NULL;
    int rc = prepare(sandbox, path, false, &clean);
    if (rc)
        return rc;
    rc = sandbox->plugin->desc->file_write(sandbox->handle, clean, size, mode, cb, userdata);
    free(clean);
    return sbx__error_ensure(rc, "writing the file");
}

int sbx_file_write(sbx_sandbox *sandbox, const char *path, const void *data, size_t len,
                   uint32_t mode)
{
    if (!data && len)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_file_write: data is NULL");
    mem_reader m = {data, len, 0};
    return sbx_file_write_from(sandbox, path, len, mode, mem_read, &m);
}

int sbx_file_read_to(sbx_sandbox *sandbox, const char *path, sbx_write_cb cb, void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_file_read_to: callback is NULL");
    char *clean = NULL;
    int rc = prepare(sandbox, path, false, &clean);
    if (rc)
        return rc;
    rc = sandbox->plugin->desc->file_read(sandbox->handle, clean, cb, userdata);
    free(clean);
    return sbx__error_ensure(rc, "reading the file");
}

/* What sbx_file_read collects, and why it stopped if it did. */
typedef struct collect {
    sbx_buf b;
    size_t max;
    int failure;        /* set when the sink stopped the read */
} collect;

/*
 * The cap is checked before the bytes are kept: the client never holds more
 * than max (+ the NUL), however large the file claims or turns out to be.
 */
static int buf_sink(void *userdata, const void *data, size_t len)
{
    collect *c = userdata;
    if (len > c->max - c->b.len) {
        c->failure = SBX_E_FILE_TOO_LARGE;
        return 1;
    }
    if (sbx__buf_append(&c->b, data, len)) {
        c->failure = SBX_E_NOMEM;
        return 1;
    }
    return 0;
}

int sbx_file_read(sbx_sandbox *sandbox, const char *path, void **data, size_t *len)
{
    if (!data || !len)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_file_read: data and len are required");
    *data = NULL;
    *len = 0;
    collect c = {.max = SBX_FILE_READ_MAX};
    int rc = sbx_file_read_to(sandbox, path, buf_sink, &c);
    /* The plugin reports the stop as its own abort: say what stopped it. */
    if (c.failure == SBX_E_FILE_TOO_LARGE)
        rc = sbx__error_set(SBX_E_FILE_TOO_LARGE,
                            "'%s' is larger than %zu MiB, the most sbx_file_read() collects in "
                            "memory: stream it with sbx_file_read_to()", path,
                            SBX_FILE_READ_MAX >> 20);
    else if (c.failure == SBX_E_NOMEM)
        rc = sbx__error_set(SBX_E_NOMEM, "out of memory reading '%s' (%zu bytes so far)", path,
                            c.b.len);
    sbx_buf b = c.b;
    if (rc == SBX_OK && !b.data) { /* empty file: still a NUL-terminated buffer */
        b.data = sbx__calloc(1, 1);
        rc = b.data ? SBX_OK : SBX_E_NOMEM;
    }
    if (rc) {
        sbx__buf_clear(&b);
        return rc;
    }
    *data = b.data;
    *len = b.len;
    return SBX_OK;
}

int sbx_file_mkdir(sbx_sandbox *sandbox, const char *path)
{
    char *clean = NULL;
    int rc = prepare(sandbox, path, false, &clean);
    if (rc)
        return rc;
    rc = sandbox->plugin->desc->file_mkdir(sandbox->handle, clean);
    free(clean);
    return sbx__error_ensure(rc, "creating the directory");
}

/* Preamble of the metadata calls: the files preamble, then file-meta. */
static int prepare_meta(sbx_sandbox *sb, const char *path, char **clean)
{
    int rc = sbx__sandbox_usable(sb);
    if (rc == SBX_OK)
        rc = sbx__sandbox_need(sb, SBX_CAP_FILES);
    if (rc == SBX_OK)
        rc = sbx__sandbox_need(sb, SBX_CAP_FILE_META);
    return rc ? rc : prepare(sb, path, false, clean);
}

static int set_meta(sbx_sandbox *sb, const char *path, const sbx_plugin_file_meta *meta)
{
    char *clean = NULL;
    int rc = prepare_meta(sb, path, &clean);
    if (rc)
        return rc;
    rc = sb->plugin->desc->file_set_meta(sb->handle, clean, meta);
    free(clean);
    return sbx__error_ensure(rc, "setting the file's metadata");
}

int sbx_file_chmod(sbx_sandbox *sandbox, const char *path, uint32_t mode)
{
    if (mode & ~07777u)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "file mode 0%o has bits beyond 07777", mode);
    sbx_plugin_file_meta m = {.struct_size = sizeof(m), .what = SBX_PLUGIN_META_MODE,
                              .mode = mode};
    return set_meta(sandbox, path, &m);
}

int sbx_file_set_mtime(sbx_sandbox *sandbox, const char *path, int64_t sec, uint32_t nsec)
{
    if (nsec >= 1000000000u)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "nanoseconds %u out of range", nsec);
    sbx_plugin_file_meta m = {.struct_size = sizeof(m), .what = SBX_PLUGIN_META_MTIME,
                              .mtime = sec, .mtime_nsec = nsec};
    return set_meta(sandbox, path, &m);
}

int sbx_file_symlink(sbx_sandbox *sandbox, const char *path, const char *target)
{
    if (!target || !*target || strlen(target) >= 4096)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "a symlink's target must be 1 to 4095 bytes");
    char *clean = NULL;
    int rc = prepare_meta(sandbox, path, &clean);
    if (rc)
        return rc;
    rc = sandbox->plugin->desc->file_symlink(sandbox->handle, clean, target);
    free(clean);
    return sbx__error_ensure(rc, "creating the symlink");
}

int sbx_file_remove(sbx_sandbox *sandbox, const char *path, int recursive)
{
    char *clean = NULL;
    int rc = prepare(sandbox, path, false, &clean);
    if (rc)
        return rc;
    rc = sandbox->plugin->desc->file_remove(sandbox->handle, clean, recursive != 0);
    free(clean);
    return sbx__error_ensure(rc, "removing the file");
}

struct sbx_dirlist {
    size_t n;
    size_t cap;
    size_t name_bytes;  /* the names' lengths summed */
    int failure;        /* set when list_entry stopped the listing */
    sbx_dirent *items;
};

/*
 * The bounds are checked before an entry is kept: the client never holds
 * more than SBX_FILE_LIST_MAX_ENTRIES entries and SBX_FILE_LIST_MAX_NAME_BYTES
 * of names, whatever the backend sends (it may send more than it should).
 */
static int list_entry(void *userdata, const sbx_plugin_dirent *ent)
{
    sbx_dirlist *l = userdata;
    if (!ent || !ent->name)
        return 0;
    size_t len = strlen(ent->name);
    if (l->n == SBX_FILE_LIST_MAX_ENTRIES || len > SBX_FILE_LIST_MAX_NAME_BYTES - l->name_bytes) {
        l->failure = SBX_E_LIST_TOO_LARGE;
        return 1;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        sbx_dirent *items = realloc(l->items, cap * sizeof(*items));
        if (!items) {
            l->failure = SBX_E_NOMEM;
            return 1;
        }
        l->items = items;
        l->cap = cap;
    }
    char *name = strdup(ent->name);
    if (!name) {
        l->failure = SBX_E_NOMEM;
        return 1;
    }
    sbx_dirent d = {name, ent->type, ent->size, ent->mode, 0, 0, NULL};
    /* A plugin older than minor 3 has none of these: they stay 0 and NULL. */
    if (SBX_STRUCT_HAS(ent, link_target)) {
        d.mtime = ent->mtime;
        d.mtime_nsec = ent->mtime_nsec;
        if (ent->type == SBX_FILE_SYMLINK && ent->link_target) {
            /* A link's target is held too: it counts as name bytes. */
            size_t tlen = strlen(ent->link_target);
            if (tlen > SBX_FILE_LIST_MAX_NAME_BYTES - l->name_bytes - len) {
                free(name);
                l->failure = SBX_E_LIST_TOO_LARGE;
                return 1;
            }
            if (!(d.link_target = strdup(ent->link_target))) {
                free(name);
                l->failure = SBX_E_NOMEM;
                return 1;
            }
            len += tlen;
        }
    }
    l->items[l->n++] = d;
    l->name_bytes += len;
    /* cppcheck-suppress memleak ; name is the list's now: sbx_dirlist_free() frees it
       (cppcheck does not follow a pointer into a member of a struct copied into the list) */
    return 0;
}

static int cmp_dirent(const void *a, const void *b)
{
    return strcmp(((const sbx_dirent *)a)->name, ((const sbx_dirent *)b)->name);
}

int sbx_file_list(sbx_sandbox *sandbox, const char *path, sbx_dirlist **out)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_file_list: out is NULL");
    *out = NULL;
    char *clean = NULL;
    int rc = prepare(sandbox, path, true, &clean);
    if (rc)
        return rc;
    sbx_dirlist *l = sbx__calloc(1, sizeof(*l));
    if (!l) {
        free(clean);
        return SBX_E_NOMEM;
    }
    rc = sandbox->plugin->desc->file_list(sandbox->handle, clean, list_entry, l);
    free(clean);
    /* The plugin reports the stop as its own abort, or not at all: say what stopped it. */
    const char *shown = path ? path : "";
    if (l->failure == SBX_E_LIST_TOO_LARGE || rc == SBX_E_LIST_TOO_LARGE)
        rc = sbx__error_set(SBX_E_LIST_TOO_LARGE,
                            "'%s' has more than %zu entries or %zu MiB of names, the most "
                            "sbx_file_list() returns: list it with a command (find, ls)",
                            shown, SBX_FILE_LIST_MAX_ENTRIES, SBX_FILE_LIST_MAX_NAME_BYTES >> 20);
    else if (l->failure == SBX_E_NOMEM)
        rc = sbx__error_set(SBX_E_NOMEM, "out of memory listing '%s' (%zu entries so far)",
                            shown, l->n);
    if (rc) {
        sbx_dirlist_free(l);
        return sbx__error_ensure(rc, "listing the directory");
    }
    if (l->n)
        qsort(l->items, l->n, sizeof(*l->items), cmp_dirent);
    *out = l;
    return SBX_OK;
}

size_t sbx_dirlist_count(const sbx_dirlist *list)
{
    return list ? list->n : 0;
}

const sbx_dirent *sbx_dirlist_get(const sbx_dirlist *list, size_t i)
{
    return list && i < list->n ? &list->items[i] : NULL;
}

void sbx_dirlist_free(sbx_dirlist *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->n; i++) {
        free((char *)list->items[i].name);
        free((char *)list->items[i].link_target);
    }
    free(list->items);
    free(list);
}
