/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The private runtime directory of a user's local sandboxes with a TTL:
 * each one's socket (named by the sandbox's id) and record (detach.c).
 *
 * $SANDBOXIO_LOCAL_RUNDIR if set (ignored in setuid programs); else
 * /run/sandboxio for root; else $XDG_RUNTIME_DIR/sandboxio, or, where no
 * session gives one, ~/.cache/sandboxio/run: a directory of the user's
 * own, not one in a world-writable directory such as /tmp, whose name
 * another user could take first and so block the user's sandboxes (the
 * fallback was /tmp/sandboxio-UID). Whoever can write there could
 * point a client at a socket of theirs, so the directory is only used when
 * it is exactly what this code would have made: a directory (never a
 * symlink, which lstat and O_NOFOLLOW refuse), owned by the caller, with
 * no access for group or others. It is made 0700 when missing. Sockets are
 * reached through /proc/self/fd/DIRFD/ID, so the checked directory is the
 * one used, whatever happens to its path meanwhile.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "local.h"

/* Below the user's home: the directories made on the way, if missing. */
#define HOME_RUNDIR_PARENTS { "/.cache", "/.cache/sandboxio" }
#define HOME_RUNDIR "/.cache/sandboxio/run"

/* $HOME, else the account's home; NULL if neither is an absolute path. */
static const char *home_dir(void)
{
    const char *home = secure_getenv("HOME");
    struct passwd *pw;

    if (home && home[0] == '/')
        return home;
    pw = getpwuid(geteuid());
    return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

/* The path, and *home set when it is the fallback under the home. */
static int rundir_path(char *buf, size_t cap, const char **home)
{
    const char *env = secure_getenv("SANDBOXIO_LOCAL_RUNDIR");
    const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
    int n;

    *home = NULL;
    if (env && *env)
        n = snprintf(buf, cap, "%s", env);
    else if (geteuid() == 0)
        n = snprintf(buf, cap, "/run/sandboxio");
    else if (xdg && xdg[0] == '/')
        n = snprintf(buf, cap, "%s/sandboxio", xdg);
    else if ((*home = home_dir()))
        n = snprintf(buf, cap, "%s" HOME_RUNDIR, *home);
    else
        n = -1;
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/*
 * The fallback's parents, made 0700 when missing. Nothing here is trusted:
 * the run directory itself is checked as always, and only its owner could
 * have made one that passes.
 */
static void make_home_parents(const char *home)
{
    static const char *const below[] = HOME_RUNDIR_PARENTS;
    char path[4096];

    for (size_t i = 0; i < sizeof below / sizeof *below; i++) {
        int n = snprintf(path, sizeof path, "%s%s", home, below[i]);
        if (n > 0 && (size_t)n < sizeof path)
            (void)mkdir(path, 0700);
    }
}

static int unsafe(const sbx_host *host, const char *path, const char *why)
{
    return host->set_error(SBX_E_RUNTIME_DIR_UNSAFE,
                           "local: refusing the runtime directory '%s': %s", path, why);
}

int local_rundir_open(const sbx_host *host, int *dirfd_out)
{
    char path[4096];
    struct stat st, fst;
    const char *home;
    int created = 0;

    if (rundir_path(path, sizeof path, &home) < 0)
        return host->set_error(SBX_E_INVALID_ARGUMENT,
                               "local: no runtime directory: its path is too long, or neither "
                               "XDG_RUNTIME_DIR nor a home directory is set "
                               "(set SANDBOXIO_LOCAL_RUNDIR)");
    if (lstat(path, &st) < 0) {
        if (errno != ENOENT)
            return host->set_error(SBX_E_SYSTEM, "local: %s: %s", path, strerror(errno));
        if (home)
            make_home_parents(home);
        if (mkdir(path, 0700) < 0 && errno != EEXIST)
            return host->set_error(SBX_E_SYSTEM, "local: creating %s: %s%s", path, strerror(errno),
                                   home ? " (without XDG_RUNTIME_DIR the runtime directory is under "
                                          "the home: set XDG_RUNTIME_DIR or SANDBOXIO_LOCAL_RUNDIR)" : "");
        created = 1;
        if (lstat(path, &st) < 0)
            return host->set_error(SBX_E_SYSTEM, "local: %s: %s", path, strerror(errno));
    }
    if (S_ISLNK(st.st_mode))
        return unsafe(host, path, "it is a symbolic link");
    if (!S_ISDIR(st.st_mode))
        return unsafe(host, path, "it is not a directory");
    if (st.st_uid != geteuid())
        return unsafe(host, path, "another user owns it");
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ELOOP ? unsafe(host, path, "it is a symbolic link")
                              : host->set_error(SBX_E_SYSTEM, "local: %s: %s", path, strerror(errno));
    /* The umask may have cut the owner's bits of a fresh one; never widens. */
    if (created && fchmod(fd, 0700) < 0) {
        close(fd);
        return host->set_error(SBX_E_SYSTEM, "local: chmod %s: %s", path, strerror(errno));
    }
    if (fstat(fd, &fst) < 0 || fst.st_dev != st.st_dev || fst.st_ino != st.st_ino) {
        close(fd);
        return unsafe(host, path, "it was replaced while being checked");
    }
    if (fst.st_mode & 077) {
        close(fd);
        return unsafe(host, path, "group or others have access (it must be mode 0700)");
    }
    *dirfd_out = fd;
    return SBX_OK;
}

int local_rundir_addr(int dirfd, const char *name, struct sockaddr_un *addr)
{
    memset(addr, 0, sizeof *addr);
    addr->sun_family = AF_UNIX;
    int n = snprintf(addr->sun_path, sizeof addr->sun_path, "/proc/self/fd/%d/%s", dirfd, name);
    return n > 0 && (size_t)n < sizeof addr->sun_path ? 0 : -1;
}

int local_rundir_connect(int dirfd, const char *id)
{
    struct sockaddr_un addr;
    if (local_rundir_addr(dirfd, id, &addr) < 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int local_rundir_alive(int dirfd, const char *id)
{
    int fd = local_rundir_connect(dirfd, id);
    if (fd >= 0) {
        close(fd);
        return 1;
    }
    /* Nobody listens (or no socket): the sandbox's init is gone. */
    return errno == ECONNREFUSED || errno == ENOENT ? 0 : -1;
}

int local_id_valid(const char *id)
{
    size_t n = strlen(id);
    if (n < 7 || n >= sizeof ((local_sandbox *)0)->id || strncmp(id, "local-", 6))
        return 0;
    return strspn(id + 6, "0123456789abcdef-") == n - 6;
}
