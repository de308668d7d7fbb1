/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The record beside a detached sandbox's socket, "<id>.rec" in the runtime
 * directory (rundir.c): what list() shows without asking the sandbox.
 *
 *     id=local-1234-0badcafe
 *     name=build
 *     created=1764590000000
 *     expires=1764590600000
 *     state=running
 *     policy=<the core's policy string, to the end of the file>
 *
 * Written whole to a temporary file and renamed over the old one, so a
 * reader sees the old record or the new one, never half of either. A record
 * is read only when it is a regular file of the caller's own, not a
 * symlink, not writable by others: one planted by anybody else is ignored.
 * The policy an attached handle runs under never comes from here: init
 * hands it back (detach.c).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sbxu/file.h>

#include "local.h"

#define RECORD_MAX (64 * 1024)

static const char *state_name(int state)
{
    return state == SBX_PLUGIN_STATE_PAUSED ? "paused" : "running";
}

int local_record_write(int dirfd, const local_record *r)
{
    char tmp[64], name[64];
    snprintf(tmp, sizeof tmp, ".%s.tmp", r->id);
    snprintf(name, sizeof name, "%s.rec", r->id);
    char *text = NULL;
    int len = asprintf(&text, "id=%s\nname=%s\ncreated=%" PRId64 "\nexpires=%" PRId64
                       "\nstate=%s\npolicy=%s", r->id, r->name, r->created_ms, r->expires_ms,
                       state_name(r->state), r->policy ? r->policy : "");
    if (len < 0)
        return -1;
    int err = sbxu_file_replace(dirfd, tmp, name, text, (size_t)len, 0600);
    free(text);
    if (err) {
        errno = err;
        return -1;
    }
    return 0;
}

/* Split text into its lines' values, in place; the policy runs to the end. */
static void parse(char *text, char **id, char **name, char **created, char **expires,
                  char **state, char **policy)
{
    static const char *const keys[] = { "id=", "name=", "created=", "expires=", "state=" };
    char **slots[] = { id, name, created, expires, state };
    for (char *line = text; line && *line;) {
        if (!strncmp(line, "policy=", 7)) {
            *policy = line + 7;
            return;
        }
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (!strncmp(line, keys[k], strlen(keys[k])))
                *slots[k] = line + strlen(keys[k]);
        line = nl ? nl + 1 : NULL;
    }
}

int local_record_read(int dirfd, const char *id, local_record *r)
{
    char name[64], *buf = NULL;
    struct stat st;
    memset(r, 0, sizeof *r);
    if (!local_id_valid(id)) {
        errno = ENOENT;
        return -1;
    }
    snprintf(name, sizeof name, "%s.rec", id);
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0)
        goto fail;
    if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 022)
        || st.st_size >= RECORD_MAX) {
        errno = EPERM; /* not one this code wrote for this user */
        goto fail;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf)
        goto fail;
    ssize_t n = pread(fd, buf, (size_t)st.st_size, 0);
    if (n < 0)
        goto fail;
    buf[n] = '\0';
    close(fd);
    char *rid = NULL, *rname = NULL, *created = NULL, *expires = NULL, *state = NULL;
    char *policy = NULL;
    parse(buf, &rid, &rname, &created, &expires, &state, &policy);
    r->policy = strdup(policy ? policy : "");
    if (!r->policy || !rid || strcmp(rid, id) || !rname || strlen(rname) >= sizeof r->name
        || !created || !expires) {
        local_record_free(r);
        free(buf);
        errno = EBADMSG;
        return -1;
    }
    snprintf(r->id, sizeof r->id, "%s", rid);
    snprintf(r->name, sizeof r->name, "%s", rname);
    r->created_ms = strtoll(created, NULL, 10);
    r->expires_ms = strtoll(expires, NULL, 10);
    r->state = state && !strcmp(state, "paused") ? SBX_PLUGIN_STATE_PAUSED : SBX_PLUGIN_STATE_RUNNING;
    free(buf);
    return 0;
fail:;
    int e = errno;
    if (fd >= 0)
        close(fd);
    free(buf);
    errno = e;
    return -1;
}

void local_record_free(local_record *r)
{
    free(r->policy);
    r->policy = NULL;
}

void local_record_remove(int dirfd, const char *id)
{
    char name[64];
    snprintf(name, sizeof name, "%s.rec", id);
    unlinkat(dirfd, name, 0);
    unlinkat(dirfd, id, 0);
}
