/* SPDX-License-Identifier: Apache-2.0 */
/*
 * confine.h: the filter is BPF compiled at build time (filter-gen --proxy),
 * loaded as the sandbox's init loads its own.
 */
#include "config.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine.h"
#include "plugins/local/proxy/filter-bpf.h" /* generated in the build tree */

int px_confine(void)
{
    struct sock_fprog prog = {
        .len = (unsigned short)(sizeof px_filter_bpf / sizeof(struct sock_filter)),
        .filter = (struct sock_filter *)px_filter_bpf,
    };
    /* A filter needs no_new_privs (or CAP_SYS_ADMIN, which the proxy must not rely on). */
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
        return -1;
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}
