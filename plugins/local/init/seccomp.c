/*
 * The sandbox's seccomp filter: allow by default, deny what Docker's default
 * profile and bubblewrap deny to unprivileged code. Capabilities are already
 * gone, so most of these would fail anyway; the filter closes the paths that
 * do not need a capability (new user namespaces, bpf, userfaultfd, keyrings,
 * io_uring, TIOCSTI) and keeps kernel attack surface small.
 *
 * Only the native architecture is allowed: a syscall made through another
 * ABI (int 0x80, x32) kills the process (libseccomp's bad-arch action).
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>

#include "init.h"

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

int init_seccomp_load(void)
{
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = 0;

    if (!ctx)
        return -ENOMEM;
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
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    return rc < 0 ? rc : 0;
}
