/* SPDX-License-Identifier: Apache-2.0 */
/*
 * no-socket-exec PROGRAM [ARG...] - run PROGRAM under a seccomp filter that
 * kills the whole process (SIGSYS) the moment it calls socket(2) or
 * connect(2). The filter survives execve, so whatever PROGRAM loads (every
 * plugin, when PROGRAM lists them) is held to "opens no socket".
 *
 * Exit status: PROGRAM's own; 125 if the filter could not be installed (the
 * caller may treat that as "cannot test here"); 127 if PROGRAM cannot be run.
 */
#include "config.h"

#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define EXIT_NO_FILTER 125
#define EXIT_NO_EXEC 127

static int install_filter(void)
{
    static const int denied[] = {SCMP_SYS(socket), SCMP_SYS(connect)};
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    int rc = 0;

    if (!ctx) {
        fprintf(stderr, "no-socket-exec: seccomp_init failed\n");
        return -1;
    }
    for (size_t i = 0; i < sizeof(denied) / sizeof(denied[0]) && rc == 0; i++)
        rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, denied[i], 0);
    if (rc == 0)
        rc = seccomp_load(ctx);
    seccomp_release(ctx);
    if (rc < 0) {
        fprintf(stderr, "no-socket-exec: cannot install the seccomp filter: %s\n",
                strerror(-rc));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: no-socket-exec PROGRAM [ARG...]\n");
        return EXIT_NO_EXEC;
    }
    if (install_filter() != 0)
        return EXIT_NO_FILTER;
    execvp(argv[1], argv + 1);
    fprintf(stderr, "no-socket-exec: cannot run %s: %s\n", argv[1], strerror(errno));
    return EXIT_NO_EXEC;
}
