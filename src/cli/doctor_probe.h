/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_probe.h - the kernel facts `sandboxio doctor` reports. Reads files
 * under /proc and /sys only; opens no socket.
 */
#ifndef SBX_CLI_DOCTOR_PROBE_H
#define SBX_CLI_DOCTOR_PROBE_H

#include <sys/utsname.h>

/* A value read from a file: -1 when the file is absent or unreadable. */
struct sbx_cli_kernel_facts {
    int uname_ok;
    struct utsname uts;
    long userns_clone;              /* /proc/sys/kernel/unprivileged_userns_clone */
    long max_user_namespaces;       /* /proc/sys/user/max_user_namespaces */
    long apparmor_restrict_userns;  /* /proc/sys/kernel/apparmor_restrict_unprivileged_userns */
    int cgroup2;                    /* /sys/fs/cgroup is a cgroup2 mount */
    char cgroup_controllers[512];   /* its cgroup.controllers, "" if none */
    int seccomp_available;          /* prctl(PR_GET_SECCOMP) did not fail with EINVAL */
    long seccomp_mode;              /* "Seccomp:" of /proc/self/status */
    long no_new_privs;              /* "NoNewPrivs:" of /proc/self/status */
    long euid;
};

void sbx_cli_kernel_probe(struct sbx_cli_kernel_facts *facts);

#endif
