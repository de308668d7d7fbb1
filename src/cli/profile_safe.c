/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_safe.c - whether a profiles file is the caller's word. A profile
 * chooses the backend and the policy (fake:// runs a command unsandboxed),
 * so a file another user can change, or a directory above it where they can
 * replace it, would let them choose for the caller, root included. As ssh
 * does for its keys (safe_path): the file and every directory up to / must
 * be owned by the caller or root and writable by no one else. A directory
 * with the sticky bit (/tmp) may be writable by all: nobody but an entry's
 * owner can rename or remove that entry.
 */
#include "config.h"

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "profile.h"

static int unsafe(struct profile_error *err, const char *file, const char *what, const char *why)
{
    snprintf(err->message, sizeof(err->message),
             "%s: refused: %s %s; a profiles file and the directories above it must be owned by "
             "you or root and writable by no one else", file, what, why);
    return err->code = SBX_E_PROFILE_UNSAFE;
}

/* NULL if st is safe for the caller uid, else why not. */
static const char *flaw(const struct stat *st, uid_t uid, char *buf, size_t size)
{
    if (st->st_uid != uid && st->st_uid != 0) {
        snprintf(buf, size, "is owned by uid %lu, neither you nor root", (unsigned long)st->st_uid);
        return buf;
    }
    if ((st->st_mode & (S_IWGRP | S_IWOTH)) && !(S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX))) {
        snprintf(buf, size, "is writable by %s (mode %04o)",
                 (st->st_mode & S_IWOTH) ? "others" : "its group", (unsigned)(st->st_mode & 07777));
        return buf;
    }
    return NULL;
}

int profile_file_safe(const char *file, int fd, struct profile_error *err)
{
    uid_t uid = geteuid();
    struct stat st, at;
    char why[96], *real, *slash;
    const char *bad;
    int rc = SBX_OK;

    if (fstat(fd, &st) != 0)
        return unsafe(err, file, "the file", strerror(errno));
    if ((bad = flaw(&st, uid, why, sizeof(why))))
        return unsafe(err, file, "the file", bad);
    /* The directories of the file opened, wherever a link led. */
    if (!(real = realpath(file, NULL)))
        return unsafe(err, file, "the file", strerror(errno));
    if (stat(real, &at) != 0 || at.st_dev != st.st_dev || at.st_ino != st.st_ino) {
        free(real);
        return unsafe(err, file, "the file", "changed while it was checked");
    }
    while (rc == SBX_OK && (slash = strrchr(real, '/'))) {
        slash[slash == real] = '\0';        /* up one: "/a/b" -> "/a", "/a" -> "/" */
        if (stat(real, &at) != 0)
            rc = unsafe(err, file, real, strerror(errno));
        else if ((bad = flaw(&at, uid, why, sizeof(why))))
            rc = unsafe(err, file, real, bad);
        if (slash == real)
            break;
    }
    free(real);
    return rc;
}
