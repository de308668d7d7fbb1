/*
 * The sandbox's seccomp filter, built with libseccomp once per client process
 * and handed to each init as BPF (LP_FILTER), so no sandbox pays for the
 * compilation and init needs no libseccomp.
 *
 * Allow by default, deny what Docker's default profile and bubblewrap deny
 * to unprivileged code. Capabilities are already
 * gone, so most of these would fail anyway; the filter closes the paths that
 * do not need a capability (new user namespaces, bpf, userfaultfd, keyrings,
 * io_uring, TIOCSTI) and keeps kernel attack surface small.
 *
 * Only the native architecture is allowed: a syscall made through another
 * ABI (int 0x80, x32) kills the process (libseccomp's bad-arch action).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "local.h"

static const char *const denied[] = {
    "acct", "add_key", "bpf", "clock_adjtime", "clock_settime", "create_module",
    "delete_module", "finit_module", "fsconfig", "fsmount", "fsopen", "fspick",
    "get_kernel_syms", "init_module", "io_uring_enter", "io_uring_register",
    "io_uring_setup", "ioperm", "iopl", "kexec_file_load", "kexec_load", "keyctl",
    "lookup_dcookie", "mount", "mount_setattr", "move_mount", "name_to_handle_at",
    "nfsservctl", "open_by_handle_at", "open_tree", "perf_event_open", "pivot_root",
    "quotactl", "quotactl_fd", "reboot", "request_key", "setns", "settimeofday",
    "stime", "swapoff", "swapon", "sysfs", "_sysctl", "syslog", "umount", "umount2",
    "unshare", "uselib", "userfaultfd", "ustat", "vhangup", "vm86", "vm86old",
};

/* clone() may not create namespaces: that is what unshare() would do. */
static const unsigned long ns_flags[] = {
    CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC,
    CLONE_NEWCGROUP,
};

/* Build the filter into ctx; 0 or a negative errno. */
static int build(scmp_filter_ctx ctx)
{
    int rc = 0;

    for (size_t i = 0; i < sizeof denied / sizeof *denied && rc == 0; i++) {
        int nr = seccomp_syscall_resolve_name(denied[i]);
        if (nr == __NR_SCMP_ERROR || nr < 0)
            continue; /* not a syscall of this architecture */
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
    }
    for (size_t i = 0; i < sizeof ns_flags / sizeof *ns_flags && rc == 0; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                              SCMP_A0(SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i]));
    /* clone3 passes its flags in memory a filter cannot read: make libc fall back to clone. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
    /* Pushing bytes into the terminal's input queue would run them outside. */
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                              SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI));
    if (rc == 0)
        rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                              SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX));
    return rc < 0 ? rc : 0;
}

static struct {
    pthread_once_t once;
    int err;            /* positive errno when building failed */
    char *bpf;
    size_t len;
} filter = { .once = PTHREAD_ONCE_INIT };

/* libseccomp 2.5 exports BPF only to a descriptor: a memfd, read back. */
static void compile(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int fd = -1, rc;
    struct stat st;

    if (!ctx) {
        filter.err = ENOMEM;
        return;
    }
    rc = build(ctx);
    if (rc == 0 && (fd = memfd_create("sandboxio-seccomp", MFD_CLOEXEC)) < 0)
        rc = -errno;
    if (rc == 0)
        rc = seccomp_export_bpf(ctx, fd);
    if (rc == 0 && fstat(fd, &st) < 0)
        rc = -errno;
    if (rc == 0 && (st.st_size <= 0 || st.st_size % 8 || !(filter.bpf = malloc((size_t)st.st_size))))
        rc = -ENOMEM;
    if (rc == 0 && pread(fd, filter.bpf, (size_t)st.st_size, 0) != st.st_size)
        rc = -EIO;
    if (rc == 0)
        filter.len = (size_t)st.st_size;
    else {
        free(filter.bpf);
        filter.bpf = NULL;
        filter.err = -rc;
    }
    if (fd >= 0)
        close(fd);
    seccomp_release(ctx);
}

int local_filter(const sbx_host *host, const void **bpf, size_t *len)
{
    pthread_once(&filter.once, compile);
    if (!filter.bpf)
        return host->set_error(SBX_E_KERNEL_FEATURE, "local: building the seccomp filter: %s",
                               strerror(filter.err));
    *bpf = filter.bpf;
    *len = filter.len;
    return SBX_OK;
}
