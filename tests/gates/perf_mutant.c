/* SPDX-License-Identifier: Apache-2.0 */
/*
 * perf_mutant.c - a loop added, for tests/gates/perf-gates-turn-red.sh: put
 * in front of a measured program with LD_PRELOAD, it burns some ten million
 * instructions when the program starts and again in every sbx_exec() (which
 * it wraps), so each callgrind figure of the gate rises past its baseline;
 * and, being one more shared object, it raises the object counts too.
 */
#include "config.h"

#include <dlfcn.h>
#include <stdint.h>
#include <sandboxio/sandboxio.h>

typedef int (*exec_fn)(sbx_result **, sbx_sandbox *, const sbx_cmd *);

static void burn(void)
{
    volatile unsigned long sum = 0;

    for (unsigned long i = 0; i < 2000000; i++)
        sum += i;
}

__attribute__((constructor)) static void at_start(void)
{
    burn();
}

/* Exported through -fvisibility=hidden, so that it comes before the library's. */
__attribute__((visibility("default"))) int sbx_exec(sbx_result **out, sbx_sandbox *sandbox,
                                                    const sbx_cmd *cmd)
{
    exec_fn next = (exec_fn)(uintptr_t)dlsym(RTLD_NEXT, "sbx_exec");

    burn();
    return next ? next(out, sandbox, cmd) : SBX_E_INTERNAL;
}
