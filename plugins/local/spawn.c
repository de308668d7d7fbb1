/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starting a local sandbox: clone() into new namespaces, map the ids, exec
 * the init, hand it the configuration and wait for READY.
 *
 * The client may be multi-threaded, so between clone() and execve() the
 * child only makes async-signal-safe system calls, with everything it needs
 * prepared beforehand. For a root client the parent maps the ids (only it
 * may map a foreign uid) while the child waits on a socket; an unprivileged
 * client's child maps its own uid itself (the kernel allows that one mapping
 * from inside) and goes on at once. Either way init starts as root of its
 * namespace with its full (namespaced) capabilities, and drops them after
 * setup. If the client dies at any point, the sync or the control socket
 * reads EOF and the child or init exits.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "local.h"
#include "proto.h"

#ifndef SBX_LOCAL_INIT
#define SBX_LOCAL_INIT "/usr/libexec/sandboxio/sandboxio-local-init"
#endif

#define STACK_SIZE (64 * 1024)
#define READY_TIMEOUT_MS 30000

typedef struct child_args {
    const char *init;
    char *const *argv;
    char *const *envp;
    int sync_fd;     /* the child's end: one byte = ids mapped, go */
    int sync_w;      /* the parent's end, closed so the parent's death reads EOF */
    int ctl_fd;      /* becomes fd 3 */
    int null_fd;     /* becomes 0, 1, 2 */
    int drop_groups; /* root: clear supplementary groups */
    /* Unprivileged: the child maps its own ids (its own uid only, which the
     * kernel allows from inside), so no round trip with the parent. */
    int self_map;
    const char *uid_map, *gid_map;
} child_args;

static int write_self(const char *path, const char *text, size_t len)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, len);
    close(fd);
    return n == (ssize_t)len ? 0 : -1;
}

/* Runs in the clone()d child: async-signal-safe system calls only. */
static int child_main(void *p)
{
    const child_args *a = p;
    char go;

    close(a->sync_w);
    if (a->self_map) {
        if (write_self("/proc/self/setgroups", "deny", 4) < 0
            || write_self("/proc/self/uid_map", a->uid_map, strlen(a->uid_map)) < 0
            || write_self("/proc/self/gid_map", a->gid_map, strlen(a->gid_map)) < 0)
            _exit(123);
    } else if (read(a->sync_fd, &go, 1) != 1) {
        _exit(125); /* the parent gave up or died */
    }
    if (a->drop_groups && syscall(SYS_setgroups, 0, NULL) < 0)
        _exit(124);
    if (syscall(SYS_setresgid, 0, 0, 0) < 0 || syscall(SYS_setresuid, 0, 0, 0) < 0)
        _exit(124);
    if (setsid() < 0)
        _exit(124);
    if (dup2(a->null_fd, 0) < 0 || dup2(a->null_fd, 1) < 0 || dup2(a->null_fd, 2) < 0)
        _exit(124);
    if (a->ctl_fd == 3) {
        if (fcntl(3, F_SETFD, 0) < 0)
            _exit(124);
    } else if (dup2(a->ctl_fd, 3) < 0) {
        _exit(124);
    }
    if (syscall(SYS_close_range, 4, ~0U, 0) < 0) {
        for (int fd = 4; fd < 1024; fd++)
            close(fd);
    }
    execve(a->init, a->argv, a->envp);
    _exit(127);
}

/*
 * Which helper program to run (the init, the proxy): $env (ignored in
 * setuid programs); else, for a plugin still in its libtool build tree
 * (".../plugins/local/.libs/"), the one built beside it, so an uninstalled
 * build never runs an installed helper of another version; else the
 * installed one.
 */
const char *local_helper_path(const char *env_name, const char *name, const char *installed,
                              char *buf, size_t cap)
{
    const char *env = secure_getenv(env_name);
    Dl_info info;
    static const char tail[] = "/plugins/local/.libs/sandboxio-local.so";

    if (env && *env)
        return env;
    if (dladdr((void *)local_helper_path, &info) && info.dli_fname) {
        size_t n = strlen(info.dli_fname);
        if (n > sizeof tail - 1 && !strcmp(info.dli_fname + n - (sizeof tail - 1), tail)
            && (size_t)snprintf(buf, cap, "%.*s/plugins/local/%s",
                                (int)(n - (sizeof tail - 1)), info.dli_fname, name) < cap
            && access(buf, X_OK) == 0)
            return buf;
    }
    return installed;
}

static int write_proc(pid_t pid, const char *file, const char *text)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, file);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    errno = e;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int read_sysctl(const char *path, long *out)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    int ok = fscanf(f, "%ld", out) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

/* Name the switch that keeps user namespaces off, and how to turn it on. */
static int userns_unavailable(const sbx_host *host, int err)
{
    long v;
    if (read_sysctl("/proc/sys/kernel/unprivileged_userns_clone", &v) == 0 && v == 0)
        return host->set_error(SBX_E_KERNEL_FEATURE,
            "local: unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone=0); "
            "enable them with: sysctl -w kernel.unprivileged_userns_clone=1");
    if (read_sysctl("/proc/sys/user/max_user_namespaces", &v) == 0 && v == 0)
        return host->set_error(SBX_E_KERNEL_FEATURE,
            "local: user namespaces are disabled (user.max_user_namespaces=0); "
            "enable them with: sysctl -w user.max_user_namespaces=15000");
    if (read_sysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", &v) == 0 && v == 1)
        return host->set_error(SBX_E_KERNEL_FEATURE,
            "local: AppArmor restricts unprivileged user namespaces "
            "(kernel.apparmor_restrict_unprivileged_userns=1); allow them with: "
            "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile "
            "granting 'userns' to this program");
    return host->set_error(SBX_E_KERNEL_FEATURE,
        "local: cannot create user/pid/mount/net/ipc/uts namespaces: clone: %s; the kernel needs "
        "CONFIG_USER_NS and CONFIG_PID_NS, and user namespaces must be allowed for this user "
        "(in a container: run it with a seccomp profile that allows clone of namespaces)",
        strerror(err));
}

static const char *step_name(int step)
{
    static const char *const names[] = {
        [LP_STEP_CONFIG] = "configuration", [LP_STEP_MOUNT_PRIVATE] = "private mounts",
        [LP_STEP_ROOT_TMPFS] = "root tmpfs", [LP_STEP_PIVOT] = "pivot_root",
        [LP_STEP_BIND_SYSTEM] = "system binds", [LP_STEP_BIND_USER] = "user binds",
        [LP_STEP_DEV] = "/dev", [LP_STEP_PROC] = "/proc", [LP_STEP_TMPFS] = "/tmp",
        [LP_STEP_ROOT_READONLY] = "read-only root", [LP_STEP_HOSTNAME] = "hostname",
        [LP_STEP_LOOPBACK] = "loopback", [LP_STEP_RLIMIT] = "rlimits",
        [LP_STEP_CAPS] = "capabilities", [LP_STEP_NO_NEW_PRIVS] = "no_new_privs",
        [LP_STEP_SECCOMP] = "seccomp", [LP_STEP_WORKDIR] = "work dir",
        [LP_STEP_NET_BLOCK] = "host address routes", [LP_STEP_PROXY] = "proxy socket",
    };
    if (step > 0 && (size_t)step < sizeof names / sizeof *names && names[step])
        return names[step];
    return "unknown step";
}

static int setup_failed(const sbx_host *host, const char *payload, long len)
{
    lp_fail f;
    if (len < (long)sizeof f || payload[len - 1] != '\0')
        return host->set_error(SBX_E_BACKEND_PROTOCOL, "local: malformed failure report from init");
    memcpy(&f, payload, sizeof f);
    const char *what = payload + sizeof f;
    int code = SBX_E_SYSTEM;
    if (f.step == LP_STEP_BIND_USER)
        code = SBX_E_DSN_BAD_OPTION_VALUE;
    else if (f.err == EPERM || f.err == ENOSYS || f.err == EINVAL || f.err == EACCES)
        code = SBX_E_KERNEL_FEATURE;
    else if (f.err == ENOMEM || f.err == ENOSPC)
        code = SBX_E_BACKEND_QUOTA;
    return host->set_error(code, "local: sandbox setup failed at step '%s' (%s): %s",
                           step_name(f.step), what, strerror(f.err));
}

/*
 * The work dir's tmpfs size: the policy's disk limit replaces the DSN's
 * size. The core's default disk limit does not: the tmpfs always has a size
 * (the DSN's, 1g by default), which already protects the host.
 */
static uint64_t work_size(const local_options *opt, const sbx_plugin_limits *limits)
{
    if (!limits || !SBX_STRUCT_HAS(limits, defaulted) || !limits->disk_bytes ||
        (limits->defaulted & SBX_CAP_LIMIT_DISK))
        return opt->tmpfs_size;
    return limits->disk_bytes;
}

/* Serialize the configuration (proto.h, LP_CONFIG) into buf. */
static long build_config(const local_options *opt, const sbx_plugin_limits *limits,
                         int64_t expires_ms, char *buf, size_t cap)
{
    size_t len = 0;
#define PUT(...) do { \
        int n_ = snprintf(buf + len, cap - len, __VA_ARGS__); \
        if (n_ < 0 || (size_t)n_ + 1 > cap - len) return -1; \
        len += (size_t)n_ + 1; \
    } while (0)
    PUT("w%s", opt->workdir);
    PUT("s%llu", (unsigned long long)work_size(opt, limits));
    if (limits && SBX_STRUCT_HAS(limits, pids)
        && limits->pids)
        PUT("p%u", (unsigned)limits->pids);
    for (size_t i = 0; i < opt->nbinds; i++) {
        PUT("%c%s", opt->binds[i].writable ? 'W' : 'R', opt->binds[i].src);
        PUT(">%s", opt->binds[i].dst);
    }
    if (expires_ms)
        PUT("T%lld", (long long)expires_ms);
    if (limits && limits->network == SBX_NET_ALLOWLIST)
        PUT("P%d", LOCAL_PROXY_PORT);
    if (limits && limits->network == SBX_NET_OPEN) {
        /* The host's own addresses stay out of reach of an open network. */
        struct in_addr host[64];
        size_t n = local_net_host_addrs(host, sizeof host / sizeof *host);
        PUT("n");
        for (size_t i = 0; i < n; i++) {
            char a[INET_ADDRSTRLEN];
            PUT("x%s", inet_ntop(AF_INET, &host[i], a, sizeof a));
        }
    }
#undef PUT
    return (long)len;
}

static int wait_ready(const sbx_host *host, local_sandbox *sb, int allowlist)
{
    struct pollfd p = { .fd = sb->ctl, .events = POLLIN };
    lp_hdr hdr;
    int fds[2] = { -1, -1 };
    size_t nfds = 2;

    int r = poll(&p, 1, READY_TIMEOUT_MS);
    if (r == 0)
        return host->set_error(SBX_E_BACKEND_FAILED, "local: init did not become ready in %d s",
                               READY_TIMEOUT_MS / 1000);
    if (r < 0)
        return host->set_error(SBX_E_SYSTEM, "local: poll: %s", strerror(errno));
    char local[4096 + sizeof(lp_fail)];
    long n = lp_recv(sb->ctl, &hdr, local, sizeof local, fds, &nfds);
    if (n < 0)
        return host->set_error(SBX_E_BACKEND_PROTOCOL, "local: reading from init: %s",
                               strerror(errno));
    /* The work dir, and under an allowlist the proxy's listening socket. */
    if (hdr.type == LP_READY && nfds == 1 + (size_t)allowlist) {
        sb->workfd = fds[0];
        sb->proxy_listen = allowlist ? fds[1] : -1;
        return SBX_OK;
    }
    for (size_t i = 0; i < nfds; i++)
        close(fds[i]);
    if (hdr.type == LP_FAIL)
        return setup_failed(host, local, n);
    /* EOF: init never ran or died early; its exit status says why. */
    siginfo_t si = { 0 };
    if (waitid(P_PIDFD, (id_t)sb->pidfd, &si, WEXITED | __WALL) == 0 && si.si_code == CLD_EXITED) {
        if (si.si_status == 127)
            return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                                   "local: cannot execute the sandbox init (set "
                                   "SANDBOXIO_LOCAL_INIT or reinstall)");
        if (si.si_status == 123)
            return host->set_error(SBX_E_KERNEL_FEATURE,
                                   "local: the kernel refused the user namespace's id maps");
        if (si.si_status == 124)
            return host->set_error(SBX_E_KERNEL_FEATURE,
                                   "local: could not become root of the new user namespace "
                                   "(setresuid/setgroups refused)");
    }
    sb->pid = 0; /* already reaped */
    return host->set_error(SBX_E_BACKEND_FAILED, "local: the sandbox init exited during setup");
}

int local_spawn(const sbx_host *host, const local_options *opt, const sbx_plugin_limits *limits,
                int64_t expires_ms, int freezable, local_sandbox *sb)
{
    char init_buf[4096];
    const char *init = local_helper_path("SANDBOXIO_LOCAL_INIT", "sandboxio-local-init",
                                         SBX_LOCAL_INIT, init_buf, sizeof init_buf);
    char cfg[16384];
    char *argv[] = { (char *)"sandboxio-local-init", NULL };
    char *envp[] = { NULL };
    int sv[2] = { -1, -1 }, sync[2] = { -1, -1 }, null_fd = -1, rc;
    void *stack = MAP_FAILED;
    int root = geteuid() == 0;
    uid_t uid = geteuid();
    gid_t gid = getegid();

    sb->ctl = sb->pidfd = sb->workfd = sb->net_exit = -1;
    sb->proxy_listen = sb->proxy_exit = -1;
    sb->proxy_log = NULL;
    sb->pid = sb->net_pid = sb->proxy_pid = 0;
    memset(&sb->cg, 0, sizeof sb->cg);
    /* Root's sandboxes: a private id no host process has (ids.c). */
    if (root && (rc = local_root_ids(host, 1, &uid, &gid)) != SBX_OK)
        return rc;
    sb->owner_uid = root ? uid : (uid_t)-1;
    sb->owner_gid = root ? gid : (gid_t)-1;
    long cfglen = build_config(opt, limits, expires_ms, cfg, sizeof cfg);
    if (cfglen < 0)
        return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "local: options too long");
    const void *bpf;
    size_t bpflen;
    if ((rc = local_filter(host, &bpf, &bpflen)) != SBX_OK)
        return rc;
    if (access(init, X_OK) < 0)
        return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                               "local: the sandbox init '%s' is not executable: %s", init,
                               strerror(errno));
    if (limits && SBX_STRUCT_HAS(limits, pids)
        && (rc = local_cgroup_create(host, limits, &sb->cg)) != SBX_OK)
        return rc;
    if (freezable && (rc = local_cgroup_create_freezer(host, &sb->cg)) != SBX_OK)
        return rc;
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0
        || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sync) < 0
        || (null_fd = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: socketpair/open: %s", strerror(errno));
        goto out;
    }
    stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK,
                 -1, 0);
    if (stack == MAP_FAILED) {
        rc = host->set_error(SBX_E_NOMEM, "local: mmap: %s", strerror(errno));
        goto out;
    }
    char uid_map[32], gid_map[32];
    snprintf(uid_map, sizeof uid_map, "0 %u 1\n", (unsigned)uid);
    snprintf(gid_map, sizeof gid_map, "0 %u 1\n", (unsigned)gid);
    int self_map = !root && !sb->cg.mem[0] && !sb->cg.cpu[0];
    child_args args = { init, argv, envp, sync[0], sync[1], sv[1], null_fd, root,
                        self_map, uid_map, gid_map };
    int flags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC
                | CLONE_NEWUTS | CLONE_NEWCGROUP | CLONE_PIDFD;
    sb->pid = clone(child_main, (char *)stack + STACK_SIZE, flags, &args, &sb->pidfd);
    if (sb->pid < 0 && errno == EINVAL) /* no cgroup namespaces in this kernel */
        sb->pid = clone(child_main, (char *)stack + STACK_SIZE, flags & ~CLONE_NEWCGROUP, &args,
                        &sb->pidfd);
    if (sb->pid < 0) {
        int e = errno;
        sb->pid = 0;
        rc = (e == ENOMEM || e == EAGAIN) ? host->set_error(SBX_E_SYSTEM, "local: clone: %s",
                                                            strerror(e))
                                          : userns_unavailable(host, e);
        goto out;
    }
    close(sv[1]);
    close(sync[0]);
    sv[1] = sync[0] = -1;
    sb->ctl = sv[0];
    sv[0] = -1;

    if (!self_map && ((!root && write_proc(sb->pid, "setgroups", "deny") < 0)
                      || write_proc(sb->pid, "uid_map", uid_map) < 0
                      || write_proc(sb->pid, "gid_map", gid_map) < 0)) {
        rc = host->set_error(SBX_E_KERNEL_FEATURE, "local: writing the user namespace's id maps: %s",
                             strerror(errno));
        goto out;
    }
    /* Into its cgroup before it runs: nothing of the sandbox escapes the limits. */
    if (local_cgroup_attach(&sb->cg, sb->pid) < 0) {
        rc = host->set_error(SBX_E_KERNEL_FEATURE, "local: moving init into its cgroup: %s",
                             strerror(errno));
        goto out;
    }
    /* A socket, not a pipe: a child that died meanwhile must not SIGPIPE the client. */
    if (!self_map && send(sync[1], "g", 1, MSG_NOSIGNAL) != 1) {
        rc = host->set_error(SBX_E_SYSTEM, "local: releasing init: %s", strerror(errno));
        goto out;
    }
    if (lp_send(sb->ctl, LP_CONFIG, cfg, (size_t)cfglen, NULL, 0) < 0
        || lp_send(sb->ctl, LP_FILTER, bpf, bpflen, NULL, 0) < 0) {
        rc = host->set_error(SBX_E_BACKEND_FAILED, "local: sending configuration to init: %s",
                             strerror(errno));
        goto out;
    }
    int allowlist = limits && limits->network == SBX_NET_ALLOWLIST;
    rc = wait_ready(host, sb, allowlist);
    if (rc == SBX_OK && limits && limits->network == SBX_NET_OPEN)
        rc = local_net_open_start(host, sb);
    if (rc == SBX_OK && allowlist)
        rc = local_net_proxy_start(host, sb, limits->net_allow);
    snprintf(sb->id, sizeof sb->id, "local-%d", (int)sb->pid);
out:
    if (rc != SBX_OK)
        local_reap(sb);
    if (stack != MAP_FAILED)
        munmap(stack, STACK_SIZE);
    for (int i = 0; i < 2; i++) {
        if (sv[i] >= 0)
            close(sv[i]);
        if (sync[i] >= 0)
            close(sync[i]);
    }
    if (null_fd >= 0)
        close(null_fd);
    return rc;
}

void local_reap(local_sandbox *sb)
{
    local_net_open_stop(sb);
    local_net_proxy_stop(sb);
    if (sb->ctl >= 0)
        close(sb->ctl);
    sb->ctl = -1;
    if (sb->workfd >= 0)
        close(sb->workfd);
    sb->workfd = -1;
    if (sb->pidfd >= 0) {
        if (sb->pid > 0) {
            siginfo_t si;
            /* pid 1's death makes the kernel kill and reap its whole namespace
             * before init itself can be waited for: after waitid, nothing is left. */
            syscall(SYS_pidfd_send_signal, sb->pidfd, SIGKILL, NULL, 0);
            while (waitid(P_PIDFD, (id_t)sb->pidfd, &si, WEXITED | __WALL) < 0 && errno == EINTR)
                ;
        }
        close(sb->pidfd);
    }
    sb->pidfd = -1;
    sb->pid = 0;
    local_cgroup_remove(&sb->cg);
}
