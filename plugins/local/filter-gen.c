/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filter-gen: builds the local sandbox's seccomp filter with libseccomp at
 * build time and prints it as a C array (filter-bpf.h), which the plugin
 * hands to each init as BPF (LP_FILTER). No client process links or runs
 * libseccomp: compiling the filter at run time was the larger part of the
 * client's own work in a one-shot `sandboxio run`.
 *
 * Allow by default, deny what Docker's default profile and bubblewrap deny
 * to unprivileged code, and the socket families "no network" does not
 * cover (socket-families.h; docs/backends/local.md reviews them). Capabilities are already
 * gone, so most of these would fail anyway; the filter closes the paths that
 * do not need a capability (new user namespaces, bpf, userfaultfd, keyrings,
 * io_uring, TIOCSTI) and keeps kernel attack surface small.
 *
 * Only the native architecture (the build's) is allowed: a syscall made
 * through another ABI (int 0x80, x32) kills the process (libseccomp's
 * bad-arch action), and a filter built for another architecture would kill
 * every command rather than let one through unfiltered.
 *
 * Any failure fails the build: there is no filterless plugin.
 *
 * With --proxy it builds the allowlist proxy's filter instead
 * (proxy/filter-rules.c: deny by default), for proxy/filter-bpf.h.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socket-families.h"
#include "proxy/filter-rules.h"

static const char *const denied[] = {
    "acct", "add_key", "bpf", "clock_adjtime", "clock_settime", "create_module",
    "delete_module", "fanotify_init", "finit_module", "fsconfig", "fsmount", "fsopen", "fspick",
    "get_kernel_syms", "init_module", "io_uring_enter", "io_uring_register",
    "io_uring_setup", "ioperm", "iopl", "kexec_file_load", "kexec_load", "keyctl",
    "lookup_dcookie", "memfd_secret", "mount", "mount_setattr", "move_mount", "name_to_handle_at",
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

static int listed(const int *v, size_t n, int x)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/*
 * socket() and socketpair() of a family not in socket-families.h fail with
 * EAFNOSUPPORT: "no network" is a network namespace with only a loopback,
 * and it does not cover families outside the IP stack, such as AF_VSOCK
 * (the hypervisor's port space, shared with the host) or AF_ALG (the
 * kernel's crypto API). libseccomp cannot AND two tests of one argument,
 * so each refused number below the limit is a rule, and one rule refuses
 * every number above it (64-bit, so high bits the kernel would drop are
 * refused too).
 */
static int refuse_families(scmp_filter_ctx ctx, int nr)
{
    const size_t nfam = sizeof sbx_socket_families_allowed / sizeof *sbx_socket_families_allowed;
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 1,
                              SCMP_A0(SCMP_CMP_GT, SBX_SOCKET_FAMILY_LIMIT - 1));
    for (int f = 0; f < SBX_SOCKET_FAMILY_LIMIT && rc == 0; f++)
        if (!listed(sbx_socket_families_allowed, nfam, f))
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), nr, 1,
                                  SCMP_A0(SCMP_CMP_EQ, (scmp_datum_t)f));
    return rc;
}

/* A netlink socket of a protocol other than those listed: EPROTONOSUPPORT. */
static int refuse_netlink_protocols(scmp_filter_ctx ctx)
{
    const size_t n = sizeof sbx_netlink_protocols_allowed / sizeof *sbx_netlink_protocols_allowed;
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPROTONOSUPPORT), SCMP_SYS(socket), 2,
                              SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
                              SCMP_A2(SCMP_CMP_GT, SBX_NETLINK_PROTOCOL_LIMIT - 1));
    for (int p = 0; p < SBX_NETLINK_PROTOCOL_LIMIT && rc == 0; p++)
        if (!listed(sbx_netlink_protocols_allowed, n, p))
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPROTONOSUPPORT), SCMP_SYS(socket), 2,
                                  SCMP_A0(SCMP_CMP_EQ, AF_NETLINK),
                                  SCMP_A2(SCMP_CMP_EQ, (scmp_datum_t)p));
    return rc;
}

/*
 * personality() only as Docker's default profile allows it: PER_LINUX (0),
 * PER_LINUX32 (8), UNAME26 (0x20000), both (0x20008), and the query
 * 0xffffffff. Anything else (ADDR_NO_RANDOMIZE turns off ASLR for what the
 * process execs next, READ_IMPLIES_EXEC makes every readable mapping
 * executable, MMAP_PAGE_ZERO ...) fails with EPERM. As single tests:
 * a value with bit 0 clear may have no bit but 3 and 17; one with bit 0
 * set must have all 32 bits set (the query); nothing above 32 bits.
 */
static int limit_personality(scmp_filter_ctx ctx)
{
    const int nr = SCMP_SYS(personality);
    int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1,
                              SCMP_A0(SCMP_CMP_GT, 0xffffffffu));
    for (int b = 1; b < 32 && rc == 0; b++) {
        scmp_datum_t bit = (scmp_datum_t)1 << b;
        if (b != 3 && b != 17)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1,
                                  SCMP_A0(SCMP_CMP_MASKED_EQ, bit | 1, bit));
        if (rc == 0)
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1,
                                  SCMP_A0(SCMP_CMP_MASKED_EQ, bit | 1, 1));
    }
    return rc;
}

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
    if (rc == 0)
        rc = refuse_families(ctx, SCMP_SYS(socket));
    if (rc == 0)
        rc = refuse_families(ctx, SCMP_SYS(socketpair));
    if (rc == 0)
        rc = refuse_netlink_protocols(ctx);
    if (rc == 0)
        rc = limit_personality(ctx);
    return rc < 0 ? rc : 0;
}

/*
 * libseccomp 2.5 exports BPF only to a descriptor: a memfd, printed from there.
 * With --raw the BPF itself goes to stdout (bench/local gives it to bwrap's
 * --seccomp, to compare the two doing the same isolation).
 */
int main(int argc, char **argv)
{
    int raw = argc == 2 && strcmp(argv[1], "--raw") == 0;
    int proxy = argc == 2 && strcmp(argv[1], "--proxy") == 0;
    scmp_filter_ctx ctx = seccomp_init(proxy ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ALLOW);
    int fd = -1, rc;
    struct stat st;
    unsigned char *bpf = NULL;

    if (argc > 1 && !raw && !proxy) {
        fprintf(stderr, "usage: filter-gen [--raw | --proxy]\n");
        return 2;
    }
    if (!ctx) {
        fprintf(stderr, "filter-gen: seccomp_init failed\n");
        return 1;
    }
    rc = proxy ? px_filter_rules(ctx) : build(ctx);
    if (rc == 0 && (fd = memfd_create("sandboxio-seccomp", MFD_CLOEXEC)) < 0)
        rc = -errno;
    if (rc == 0)
        rc = seccomp_export_bpf(ctx, fd);
    if (rc == 0 && fstat(fd, &st) < 0)
        rc = -errno;
    if (rc == 0 && (st.st_size <= 0 || st.st_size % 8 || !(bpf = malloc((size_t)st.st_size))))
        rc = -ENOMEM;
    if (rc == 0 && pread(fd, bpf, (size_t)st.st_size, 0) != st.st_size)
        rc = -EIO;
    if (fd >= 0)
        close(fd);
    seccomp_release(ctx);
    if (rc != 0) {
        fprintf(stderr, "filter-gen: building the seccomp filter: %s\n", strerror(-rc));
        free(bpf);
        return 1;
    }
    if (raw) {
        size_t len = (size_t)st.st_size;
        rc = fwrite(bpf, 1, len, stdout) == len && fflush(stdout) == 0;
        free(bpf);
        return rc ? 0 : 1;
    }
    /* Aligned as the struct sock_filter array the kernel is given. */
    printf("/* Generated by plugins/local/filter-gen at build time: do not edit. */\n"
           "static const unsigned char %s[%lld] __attribute__((aligned(8))) = {",
           proxy ? "px_filter_bpf" : "local_filter_bpf", (long long)st.st_size);
    for (off_t i = 0; i < st.st_size; i++)
        printf("%s0x%02x,", i % 12 ? " " : "\n    ", bpf[i]);
    printf("\n};\n");
    free(bpf);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
