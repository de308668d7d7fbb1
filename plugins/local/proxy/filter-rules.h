/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy's seccomp filter, as libseccomp rules. filter-gen
 * --proxy compiles them at build time into proxy/filter-bpf.h, which the
 * proxy loads (confine.h) once it is set up: nothing at run time links
 * libseccomp.
 */
#ifndef SBX_PROXY_FILTER_RULES_H
#define SBX_PROXY_FILTER_RULES_H

#include <seccomp.h>

/* Add the rules to ctx, made with seccomp_init(SCMP_ACT_KILL_PROCESS): 0 or a negative errno. */
int px_filter_rules(scmp_filter_ctx ctx);

#endif
