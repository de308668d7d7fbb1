/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandbox's file system tree, built by init as root of its fresh user
 * and mount namespaces: one linear list of checked steps.
 *
 * The layout follows bubblewrap: a tmpfs base becomes the root for a moment
 * so that the host's tree is reachable under /oldroot while the new root is
 * assembled under /newroot; then the new root is pivoted in and the base,
 * with the whole host tree under it, detached.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/mount.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sbxu/file.h>

#include "init.h"
#include "../proto.h"

#define STEP(why, step, call, ...) \
    do { if ((call) < 0) return init_fail(why, step, errno, __VA_ARGS__); } while (0)

static int path_join(char *out, size_t cap, const char *a, const char *b)
{
    int n = snprintf(out, cap, "%s%s", a, b);
    if (n < 0 || (size_t)n >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return 0;
}

/* mkdir -p, for directories inside the root being built. */
static int mkdir_p(const char *path, mode_t mode)
{
    char buf[PATH_MAX];
    if (strlen(path) >= sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(buf, path);
    for (char *p = buf + 1; ; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, mode) < 0 && errno != EEXIST)
                return -1;
            *p = c;
            if (c == '\0')
                return 0;
        }
    }
}

/* An empty regular file to bind a file onto. */
static int touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0444);
    if (fd < 0)
        return errno == EEXIST ? 0 : -1;
    return close(fd);
}

/*
 * Make a mount read-only (and nosuid, nodev), recursively where the kernel
 * has mount_setattr(); otherwise remount it keeping the flags the kernel
 * locks in a user namespace.
 */
static int make_readonly(const char *path, int recursive)
{
    struct mount_attr attr = {
        .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
    };
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, recursive ? AT_RECURSIVE : 0, &attr,
                sizeof attr) == 0)
        return 0;
    if (errno != ENOSYS)
        return -1;
    struct statvfs sv;
    if (statvfs(path, &sv) < 0)
        return -1;
    unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV;
    if (sv.f_flag & ST_NOEXEC)
        flags |= MS_NOEXEC;
    if (sv.f_flag & ST_NOATIME)
        flags |= MS_NOATIME;
    if (sv.f_flag & ST_NODIRATIME)
        flags |= MS_NODIRATIME;
    if (sv.f_flag & ST_RELATIME)
        flags |= MS_RELATIME;
    return mount(NULL, path, NULL, flags, NULL);
}

#define BIND_RW 1
#define BIND_DEVICE 2 /* a device node: must stay usable (no nodev) */

static int nosuid_nodev(const char *path, int device)
{
    struct mount_attr attr = { .attr_set = MOUNT_ATTR_NOSUID | (device ? 0 : MOUNT_ATTR_NODEV) };
    if (syscall(SYS_mount_setattr, AT_FDCWD, path, AT_RECURSIVE, &attr, sizeof attr) == 0
        || errno == ENOSYS)
        return 0;
    return -1;
}

/* Bind host path src (seen under /oldroot) onto dst under /newroot. */
static int bind_into(const char *src, const char *dst, int flags, int step,
                     init_failure *why)
{
    char from[PATH_MAX], to[PATH_MAX];
    struct stat st;

    STEP(why, step, path_join(from, sizeof from, "/oldroot", src), "%s", src);
    STEP(why, step, path_join(to, sizeof to, "/newroot", dst), "%s", dst);
    STEP(why, step, stat(from, &st), "stat %s", src);
    if (S_ISDIR(st.st_mode))
        STEP(why, step, mkdir_p(to, 0755), "mkdir %s", dst);
    else {
        char parent[PATH_MAX];
        strcpy(parent, to);
        *strrchr(parent, '/') = '\0';
        STEP(why, step, mkdir_p(parent, 0755), "mkdir %s", dst);
        STEP(why, step, touch(to), "create %s", dst);
    }
    STEP(why, step, mount(from, to, NULL, MS_BIND | MS_REC, NULL), "bind %s on %s", src, dst);
    if (flags & (BIND_RW | BIND_DEVICE))
        STEP(why, step, nosuid_nodev(to, flags & BIND_DEVICE), "nosuid %s", dst);
    else
        STEP(why, step, make_readonly(to, 1), "read-only %s", dst);
    return 0;
}

static int mount_tmpfs(const char *path, const char *mode, uint64_t size, int step,
                       init_failure *why)
{
    char opts[128];
    snprintf(opts, sizeof opts, "mode=%s,size=%llu", mode, (unsigned long long)size);
    STEP(why, step, mkdir_p(path, 0755), "mkdir %s", path);
    STEP(why, step, mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV, opts), "tmpfs on %s",
         path);
    return 0;
}

static int write_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return -1;
    if (sbxu_write_all(fd, text, strlen(text)) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return close(fd);
}

/* /usr read-only, the /bin and /lib* links (or directories), a little /etc. */
static int setup_system(const init_config *cfg, init_failure *why)
{
    static const char *const tops[] = { "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32" };
    static const char *const etc_files[] = {
        "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
    };
    char from[PATH_MAX], to[PATH_MAX], target[PATH_MAX];
    struct stat st;

    if (bind_into("/usr", "/usr", 0, LP_STEP_BIND_SYSTEM, why) < 0)
        return -1;
    for (size_t i = 0; i < sizeof tops / sizeof *tops; i++) {
        STEP(why, LP_STEP_BIND_SYSTEM, path_join(from, sizeof from, "/oldroot", tops[i]), "%s",
             tops[i]);
        if (lstat(from, &st) < 0) {
            if (errno == ENOENT)
                continue;
            return init_fail(why, LP_STEP_BIND_SYSTEM, errno, "lstat %s", tops[i]);
        }
        if (S_ISLNK(st.st_mode)) {
            ssize_t n = readlink(from, target, sizeof target - 1);
            STEP(why, LP_STEP_BIND_SYSTEM, n, "readlink %s", tops[i]);
            target[n] = '\0';
            STEP(why, LP_STEP_BIND_SYSTEM, path_join(to, sizeof to, "/newroot", tops[i]), "%s",
                 tops[i]);
            STEP(why, LP_STEP_BIND_SYSTEM, symlink(target, to), "symlink %s", tops[i]);
        } else if (S_ISDIR(st.st_mode)) {
            if (bind_into(tops[i], tops[i], 0, LP_STEP_BIND_SYSTEM, why) < 0)
                return -1;
        }
    }
    STEP(why, LP_STEP_BIND_SYSTEM, mkdir("/newroot/etc", 0755), "mkdir /etc");
    for (size_t i = 0; i < sizeof etc_files / sizeof *etc_files; i++) {
        STEP(why, LP_STEP_BIND_SYSTEM, path_join(from, sizeof from, "/oldroot", etc_files[i]),
             "%s", etc_files[i]);
        if (stat(from, &st) < 0)
            continue; /* optional: absent on some systems */
        if (bind_into(etc_files[i], etc_files[i], 0, LP_STEP_BIND_SYSTEM, why) < 0)
            return -1;
    }
    STEP(why, LP_STEP_BIND_SYSTEM,
         write_file("/newroot/etc/passwd", "root:x:0:0:root:/work:/bin/sh\n"
                    "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"),
         "/etc/passwd");
    STEP(why, LP_STEP_BIND_SYSTEM,
         write_file("/newroot/etc/group", "root:x:0:\nnogroup:x:65534:\n"), "/etc/group");
    STEP(why, LP_STEP_BIND_SYSTEM,
         write_file("/newroot/etc/hosts", "127.0.0.1 localhost sandbox\n::1 localhost\n"),
         "/etc/hosts");
    STEP(why, LP_STEP_BIND_SYSTEM, write_file("/newroot/etc/hostname", "sandbox\n"),
         "/etc/hostname");
    /* An open network's names: slirp4netns's resolver, which asks the host's. */
    if (cfg->net_open)
        STEP(why, LP_STEP_BIND_SYSTEM, write_file("/newroot/etc/resolv.conf",
                                                  "nameserver 10.0.2.3\n"), "/etc/resolv.conf");
    return 0;
}

/* A minimal /dev: the harmless character devices, std links, a private shm. */
static int setup_dev(uint64_t size, init_failure *why)
{
    static const char *const nodes[] = { "null", "zero", "full", "random", "urandom", "tty" };
    static const char *const links[][2] = {
        { "/proc/self/fd", "/newroot/dev/fd" }, { "/proc/self/fd/0", "/newroot/dev/stdin" },
        { "/proc/self/fd/1", "/newroot/dev/stdout" }, { "/proc/self/fd/2", "/newroot/dev/stderr" },
    };
    char src[64];

    if (mount_tmpfs("/newroot/dev", "0755", 1 << 20, LP_STEP_DEV, why) < 0)
        return -1;
    for (size_t i = 0; i < sizeof nodes / sizeof *nodes; i++) {
        snprintf(src, sizeof src, "/dev/%s", nodes[i]);
        if (bind_into(src, src, BIND_DEVICE, LP_STEP_DEV, why) < 0)
            return -1;
    }
    for (size_t i = 0; i < sizeof links / sizeof *links; i++)
        STEP(why, LP_STEP_DEV, symlink(links[i][0], links[i][1]), "symlink %s", links[i][1]);
    /*
     * The sandbox's own devpts instance, for commands run on a terminal:
     * its terminals are the only ones the sandbox can see or open, none of
     * the host's. (TIOCSTI stays refused by the seccomp filter.)
     */
    STEP(why, LP_STEP_DEV, mkdir("/newroot/dev/pts", 0755), "mkdir /dev/pts");
    STEP(why, LP_STEP_DEV, mount("devpts", "/newroot/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC,
                                 "newinstance,ptmxmode=0666,mode=0620"), "devpts on /dev/pts");
    STEP(why, LP_STEP_DEV, symlink("pts/ptmx", "/newroot/dev/ptmx"), "symlink /dev/ptmx");
    return mount_tmpfs("/newroot/dev/shm", "1777", size, LP_STEP_DEV, why);
}

/* A fresh /proc of the sandbox's pid namespace, its writable knobs covered. */
static int setup_proc(init_failure *why)
{
    static const char *const covered[] = { "sys", "sysrq-trigger", "irq", "bus" };
    char path[64];

    STEP(why, LP_STEP_PROC, mkdir("/newroot/proc", 0755), "mkdir /proc");
    STEP(why, LP_STEP_PROC,
         mount("proc", "/newroot/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL),
         "mount proc");
    for (size_t i = 0; i < sizeof covered / sizeof *covered; i++) {
        snprintf(path, sizeof path, "/newroot/proc/%s", covered[i]);
        if (access(path, F_OK) < 0)
            continue;
        STEP(why, LP_STEP_PROC, mount(path, path, NULL, MS_BIND | MS_REC, NULL), "bind %s",
             path);
        STEP(why, LP_STEP_PROC, make_readonly(path, 1), "read-only %s", path);
    }
    return 0;
}

int init_build_root(const init_config *cfg, init_failure *why)
{
    char path[PATH_MAX];

    STEP(why, LP_STEP_MOUNT_PRIVATE, mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL),
         "make / private");
    STEP(why, LP_STEP_ROOT_TMPFS,
         mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=65536"),
         "tmpfs base on /tmp");
    STEP(why, LP_STEP_ROOT_TMPFS, chdir("/tmp"), "chdir base");
    STEP(why, LP_STEP_ROOT_TMPFS, mkdir("newroot", 0755), "mkdir newroot");
    STEP(why, LP_STEP_ROOT_TMPFS, mkdir("oldroot", 0755), "mkdir oldroot");
    STEP(why, LP_STEP_ROOT_TMPFS,
         mount("tmpfs", "newroot", "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=4194304"),
         "tmpfs root");
    STEP(why, LP_STEP_PIVOT, syscall(SYS_pivot_root, "/tmp", "/tmp/oldroot"), "pivot to base");
    STEP(why, LP_STEP_PIVOT, chdir("/"), "chdir /");

    if (setup_system(cfg, why) < 0 || setup_dev(cfg->tmpfs_size, why) < 0 || setup_proc(why) < 0)
        return -1;
    if (mount_tmpfs("/newroot/tmp", "1777", cfg->tmpfs_size, LP_STEP_TMPFS, why) < 0)
        return -1;
    STEP(why, LP_STEP_WORKDIR, path_join(path, sizeof path, "/newroot", cfg->workdir), "%s",
         cfg->workdir);
    if (mount_tmpfs(path, "0755", cfg->tmpfs_size, LP_STEP_WORKDIR, why) < 0)
        return -1;
    for (size_t i = 0; i < cfg->nbinds; i++)
        if (bind_into(cfg->binds[i].src, cfg->binds[i].dst, cfg->binds[i].writable ? BIND_RW : 0,
                      LP_STEP_BIND_USER, why) < 0)
            return -1;

    /*
     * Everything is private since the first step, so no unmount reaches the
     * host. Detaching the base after the second pivot takes /oldroot (the
     * whole host tree) with it: one lazy unmount, one RCU grace period.
     */
    STEP(why, LP_STEP_PIVOT, chdir("/newroot"), "chdir newroot");
    STEP(why, LP_STEP_PIVOT, syscall(SYS_pivot_root, ".", "."), "pivot to newroot");
    STEP(why, LP_STEP_PIVOT, umount2(".", MNT_DETACH), "detach base and host tree");
    STEP(why, LP_STEP_PIVOT, chdir("/"), "chdir /");
    STEP(why, LP_STEP_ROOT_READONLY, make_readonly("/", 0), "read-only /");
    return 0;
}

