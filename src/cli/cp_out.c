/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cp_out.c - what `sandboxio cp` may write on the host when it copies out of
 * a sandbox. A file's size is not what it costs the sandbox: `truncate -s 2T`
 * makes a sparse file on a disk of megabytes. So blocks of zeros become holes
 * in the host file (it costs the host what it cost the sandbox, not its
 * size), and one copy writes at most a bound of bytes, holes included
 * (--max-size), refused past it with SBX_E_COPY_TOO_LARGE: streaming
 * terabytes of zeros would still take hours, and a tar stream has no holes.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sbxu/file.h>

#include "cp.h"
#include "common/output.h"

/* The bound of this process's copy, and what it wrote so far (one copy per process). */
static uint64_t bound = SBX_CLI_CP_MAX_DEFAULT;
static uint64_t taken;

void cp_bound_set(uint64_t max)
{
    bound = max;
    taken = 0;
}

int cp_bound_take(uint64_t n)
{
    if (bound && n > bound - taken) {
        fprintf(stderr, "sandboxio: cp: stopped at %llu bytes: the copy would pass its bound of "
                "%llu bytes (raise it with --max-size, 0 for none)\n",
                (unsigned long long)taken, (unsigned long long)bound);
        return SBX_E_COPY_TOO_LARGE;
    }
    taken += n;
    return SBX_OK;
}

/* Holes are made a block at a time: the file system's allocation unit, or less. */
#define HOLE_BLOCK 4096

typedef struct sparse_out {
    int fd;
    bool seekable;      /* a regular file: a zero block can be skipped */
    off_t pos;          /* where the next byte goes */
    off_t written;      /* where the file's written bytes end (its size so far) */
    int failure;        /* the SBX code that stopped the sink */
    int err;            /* its errno, for SBX_E_SYSTEM */
} sparse_out;

static bool all_zero(const unsigned char *p, size_t n)
{
    return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* Write n bytes at o->pos: seek over the hole left since the last write first. */
static int put(sparse_out *o, const unsigned char *p, size_t n)
{
    if (!n)
        return 0;
    if (o->pos != o->written && lseek(o->fd, o->pos, SEEK_SET) < 0)
        return -1;
    if (sbxu_write_all(o->fd, p, n) != 0)
        return -1;
    o->pos += (off_t)n;
    o->written = o->pos;
    return 0;
}

static int sparse_sink(void *userdata, const void *data, size_t len)
{
    sparse_out *o = userdata;
    const unsigned char *p = data, *run = p;   /* run: the data not yet written */
    if ((o->failure = cp_bound_take(len)) != SBX_OK)
        return 1;
    if (!o->seekable) {
        if (put(o, p, len) != 0)
            goto failed;
        return 0;
    }
    while (len) {
        /* Up to the next block boundary of the file, so holes align with blocks. */
        off_t at = o->pos + (off_t)(p - run);
        size_t n = HOLE_BLOCK - (size_t)(at % HOLE_BLOCK);
        if (n > len)
            n = len;
        if (n == HOLE_BLOCK && all_zero(p, n)) {
            if (put(o, run, (size_t)(p - run)) != 0)
                goto failed;
            o->pos += (off_t)n;
            run = p + n;
        }
        p += n;
        len -= n;
    }
    if (put(o, run, (size_t)(p - run)) != 0)
        goto failed;
    return 0;
failed:
    o->failure = SBX_E_SYSTEM;
    o->err = errno;
    return 1;
}

int cp_out_file(sbx_sandbox *sb, const char *src, int fd)
{
    struct stat st;
    sparse_out o = {.fd = fd};
    o.seekable = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0;
    int rc = sbx_file_read_to(sb, src, sparse_sink, &o);
    /* The sink's stop is reported by the library as a callback's: say what stopped it. */
    if (o.failure != SBX_OK)
        rc = o.failure;
    /* A file that ends in a hole: its size is set, no block is written. */
    if (rc == SBX_OK && o.pos != o.written && ftruncate(fd, o.pos) != 0) {
        rc = o.failure = SBX_E_SYSTEM;
        o.err = errno;
    }
    if (o.failure == SBX_E_SYSTEM)
        fprintf(stderr, "sandboxio: cp: writing %s: %s\n", src, strerror(o.err));
    return rc;
}
