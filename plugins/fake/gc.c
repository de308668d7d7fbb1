/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Garbage collection of roots left behind by processes that died before
 * destroying their sandboxes. A root's name carries its owner's pid and pid
 * namespace; it is removed only when both say, for sure, that the owner is
 * gone: same namespace as ours (a pid means nothing across namespaces) and
 * kill(pid, 0) answers ESRCH. A reused pid keeps a stale root alive, which
 * errs on the safe side.
 */
#include "fake.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned long fake_pidns(void)
{
    struct stat st;

    /* 0 = unknown: such roots are never collected. */
    return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

bool fake_owner_gone(long pid, unsigned long ns)
{
    /* A pid means nothing across namespaces; 0 = unknown: never collected. */
    if (ns == 0 || ns != fake_pidns() || pid <= 0)
        return false;
    return (pid_t)pid != getpid() && kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

/* Parse "sandboxio-fake-<pid>-<pidns>-XXXXXX". */
static bool parse_root_name(const char *name, long *pid, unsigned long *pidns)
{
    const char *p = name + strlen(FAKE_ROOT_PREFIX);
    char *end;

    if (strncmp(name, FAKE_ROOT_PREFIX, strlen(FAKE_ROOT_PREFIX)) != 0)
        return false;
    if (*p < '1' || *p > '9')
        return false;
    errno = 0;
    *pid = strtol(p, &end, 10);
    if (errno != 0 || *end != '-' || *pid <= 0)
        return false;
    p = end + 1;
    if (*p < '1' || *p > '9')
        return false;
    *pidns = strtoul(p, &end, 10);
    if (errno != 0 || *end != '-')
        return false;
    return strlen(end + 1) == 6;  /* mkdtemp's XXXXXX */
}

/* Is the root named name (under dir_fd) one we may remove? reason gets why. */
static bool is_stale(int dir_fd, const char *name, unsigned long our_ns, char *reason,
                     size_t reason_size)
{
    struct stat st;
    unsigned long ns;
    long pid;

    if (!parse_root_name(name, &pid, &ns) || ns == 0 || ns != our_ns)
        return false;
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != geteuid())
        return false;
    if (!fake_owner_gone(pid, ns))
        return false;
    snprintf(reason, reason_size, "owner process %ld is gone", pid);
    return true;
}

int fake_gc(void *state, const sbx_plugin_dsn *dsn,
            int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
            size_t *removed)
{
    const sbx_host *host = ((fake_state *)state)->host;
    const char *tmpdir = fake_tmpdir();
    unsigned long our_ns = fake_pidns();
    struct dirent *de;
    size_t count = 0;
    DIR *dir;
    int fd, rc;

    if (removed != NULL)
        *removed = 0;
    rc = fake_dsn_check(host, dsn);
    if (rc != SBX_OK)
        return rc;
    fd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return host->set_error(SBX_E_SYSTEM, "fake: gc cannot open %s: %s", tmpdir,
                               strerror(errno));
    dir = fdopendir(fd);
    if (dir == NULL) {
        rc = host->set_error(SBX_E_SYSTEM, "fake: gc cannot read %s: %s", tmpdir, strerror(errno));
        close(fd);
        return rc;
    }
    while ((errno = 0, de = readdir(dir)) != NULL) {
        char reason[64];
        int err;

        if (!is_stale(fd, de->d_name, our_ns, reason, sizeof(reason)))
            continue;
        err = fake_remove_tree(fd, de->d_name);
        if (err == ENOENT)
            continue;  /* another gc was quicker */
        if (err != 0) {
            rc = host->set_error(SBX_E_SYSTEM, "fake: gc cannot remove %s/%s: %s", tmpdir,
                                 de->d_name, strerror(err));
            break;
        }
        count++;
        if (host->log != NULL)
            host->log(SBX_LOG_INFO, FAKE_NAME, "gc removed %s/%s: %s", tmpdir, de->d_name,
                      reason);
        if (report != NULL && report(userdata, de->d_name, reason) != 0)
            break;
    }
    if (de == NULL && errno != 0 && rc == SBX_OK)
        rc = host->set_error(SBX_E_SYSTEM, "fake: gc cannot read %s: %s", tmpdir, strerror(errno));
    closedir(dir);
    if (rc == SBX_OK && de == NULL)  /* de: report() stopped the sweep */
        rc = fake_gc_named(host, report, userdata, &count);
    if (removed != NULL)
        *removed = count;
    return rc;
}
