/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host ids a root client's sandboxes run as.
 *
 * Never host root (root is exempt from RLIMIT_NPROC and owns everything),
 * and never an id a host process may have: with uid 65534 (nobody) every
 * host daemon running as nobody could signal or ptrace a sandbox's
 * processes, and they its. So the sandbox gets the first id of the range
 * reserved for "sandboxio" in /etc/subuid and /etc/subgid (newuidmap's
 * database: an administrator's reservation no account uses), or, where
 * there is none, a fixed id high above every ordinary and subordinate
 * range. Not root's own range: LXC and other container managers run root's
 * unprivileged containers there. Either way the id is checked against
 * /etc/subuid and /etc/subgid (no other entry's range holds it, root's
 * included) and the user and group databases (no account has it); an id
 * that fails a check is refused, never used. Root writes it into uid_map
 * itself: no helper runs.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local.h"

#ifndef LOCAL_SUBUID_FILE
#define LOCAL_SUBUID_FILE "/etc/subuid"
#endif
#ifndef LOCAL_SUBGID_FILE
#define LOCAL_SUBGID_FILE "/etc/subgid"
#endif

/*
 * Where no range is reserved: 2^31 - 2. Above the ranges useradd hands out
 * (100000 to 600100000) and systemd's container and foreign ranges, below
 * 2^31 (some tools treat ids as signed), and not (uid_t)-2 or -1.
 */
#define LOCAL_ROOT_FALLBACK_ID 2147483646u

/* The name of the reservation in /etc/subuid and /etc/subgid. */
#define LOCAL_SUBID_OWNER "sandboxio"

typedef struct range_scan {
    unsigned long own_start;  /* the reservation's first id, or ULONG_MAX if none */
    const char *other;        /* a user whose range holds want, or NULL */
    char other_buf[64];
} range_scan;

/*
 * Read a subordinate id file ("name:start:count" lines): sandboxio's range,
 * and whether another entry's range holds want. A missing file has none.
 */
static void scan_ranges(const char *path, unsigned long want, range_scan *s)
{
    char line[512];
    FILE *f = fopen(path, "re");
    s->own_start = ULONG_MAX;
    s->other = NULL;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        char *name = line, *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL, *end;
        if (!c2 || line[0] == '#')
            continue;
        *c1 = '\0';
        errno = 0;
        unsigned long start = strtoul(c1 + 1, &end, 10);
        if (end != c2 || errno)
            continue;
        unsigned long count = strtoul(c2 + 1, &end, 10);
        if (errno || count == 0)
            continue;
        int own = !strcmp(name, LOCAL_SUBID_OWNER);
        if (own && s->own_start == ULONG_MAX) {
            s->own_start = start;
            continue;
        }
        if (!own && want >= start && want - start < count && !s->other) {
            snprintf(s->other_buf, sizeof s->other_buf, "%.63s", name);
            s->other = s->other_buf;
        }
    }
    fclose(f);
}

/* 1 if the user (or group) database has an entry for id. */
static int id_taken(unsigned long id, int group)
{
    char buf[16384];
    if (group) {
        struct group g, *res = NULL;
        return getgrgid_r((gid_t)id, &g, buf, sizeof buf, &res) == 0 && res;
    }
    struct passwd p, *res = NULL;
    return getpwuid_r((uid_t)id, &p, buf, sizeof buf, &res) == 0 && res;
}

/*
 * The id of one kind (uid or gid) for root's sandboxes, or an error;
 * check_free: also refuse an id the user database has an entry for.
 */
static int pick(const sbx_host *host, const char *path, int group, int check_free,
                unsigned long *out)
{
    range_scan s;
    scan_ranges(path, 0, &s);
    unsigned long id = s.own_start != ULONG_MAX ? s.own_start : LOCAL_ROOT_FALLBACK_ID;
    const char *from = s.own_start != ULONG_MAX ? "the " LOCAL_SUBID_OWNER " range in"
                                                : "the fallback id, no " LOCAL_SUBID_OWNER
                                                  " range in";
    if (id == 0 || id >= 0xfffffffeul)
        return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                               "local: %s: the " LOCAL_SUBID_OWNER " range starts at %lu, which "
                               "is no private id", path, id);
    scan_ranges(path, id, &s);
    if (s.other)
        return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                               "local: the id %lu for root's sandboxes (%s %s) is in %s's range "
                               "too: reserve a free range for " LOCAL_SUBID_OWNER " in %s", id, from, path, s.other,
                               path);
    if (check_free && id_taken(id, group))
        return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                               "local: the id %lu for root's sandboxes (%s %s) belongs to a %s "
                               "of this host: reserve a free range for " LOCAL_SUBID_OWNER " in %s", id, from, path,
                               group ? "group" : "user", path);
    *out = id;
    return SBX_OK;
}

int local_root_ids(const sbx_host *host, int check_free, uid_t *uid, gid_t *gid)
{
    unsigned long u, g;
    int rc = pick(host, LOCAL_SUBUID_FILE, 0, check_free, &u);
    if (rc == SBX_OK)
        rc = pick(host, LOCAL_SUBGID_FILE, 1, check_free, &g);
    if (rc != SBX_OK)
        return rc;
    *uid = (uid_t)u;
    *gid = (gid_t)g;
    return SBX_OK;
}
