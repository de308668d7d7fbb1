/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A TCP socket bound to 127.0.0.1 on a free port, for the scripted servers
 * of the lib/ tests.
 */
#ifndef SBXU_TEST_LOOPBACK_H
#define SBXU_TEST_LOOPBACK_H

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* The bound socket (not listening yet); its port in *port. */
static inline int loopback_bind(int *port)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ck_assert_int_ge(fd, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof(a);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    *port = ntohs(a.sin_port);
    return fd;
}

#endif
