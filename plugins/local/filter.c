/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandbox's seccomp filter, as BPF built with libseccomp at build time
 * (filter-gen.c says what it allows and denies), handed to each init by
 * LP_FILTER. Init loads it last, after dropping its capabilities.
 */
#include "config.h"

#include "local.h"
#include "plugins/local/filter-bpf.h" /* generated in the build tree */

int local_filter(const sbx_host *host, const void **bpf, size_t *len)
{
    (void)host;
    *bpf = local_filter_bpf;
    *len = sizeof local_filter_bpf;
    return SBX_OK;
}
