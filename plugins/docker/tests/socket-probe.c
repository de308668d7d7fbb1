/* SPDX-License-Identifier: Apache-2.0 */
/*
 * socket-probe: makes one socket call and prints "RESULT ERRNO", for the
 * docker tests, which copy it (linked statically: the test image has no
 * libc) into a container and assert the exact errno the seccomp profile
 * must give.
 *
 *   socket-probe socket FAMILY TYPE PROTOCOL
 *   socket-probe socketpair FAMILY TYPE
 *   socket-probe add_key       (a call the engine's default profile refuses)
 *
 * Numbers are read with strtoull, base 0: 0x100000028 passes a family with
 * a bit above the low 32 (the kernel drops it; a filter must not).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned long num(const char *s)
{
    return strtoull(s, NULL, 0);
}

int main(int argc, char **argv)
{
    long ret;
    int fds[2];
    if (argc == 5 && strcmp(argv[1], "socket") == 0)
        ret = syscall(SYS_socket, num(argv[2]), num(argv[3]), num(argv[4]));
    else if (argc == 4 && strcmp(argv[1], "socketpair") == 0)
        ret = syscall(SYS_socketpair, num(argv[2]), num(argv[3]), 0UL, fds);
    else if (argc == 2 && strcmp(argv[1], "add_key") == 0)
        ret = syscall(SYS_add_key, "user", "sbx", "x", 1UL, -2L);
    else {
        fprintf(stderr, "usage: socket-probe socket F T P | socketpair F T | add_key\n");
        return 2;
    }
    printf("%ld %d\n", ret < 0 ? -1L : 0L, ret < 0 ? errno : 0);
    return 0;
}
