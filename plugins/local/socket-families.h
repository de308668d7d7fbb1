/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The socket families (and netlink protocols) a sandbox with network
 * "none" may create: the one list, kept here for every backend that
 * enforces the rule with a seccomp filter (local's filter-gen.c builds its
 * filter from it; a backend that sends a seccomp profile can build the
 * profile's socket rules from it too). Everything else is refused:
 * socket() and socketpair() of another family fail with EAFNOSUPPORT, a
 * netlink socket of another protocol with EPROTONOSUPPORT, as if the kernel
 * had no such family. docs/backends/local.md says why each is kept or not.
 *
 * An allow list, not a deny list: a family a later kernel adds is refused
 * until it is reviewed. Plain data, no dependency: include it anywhere.
 */
#ifndef SBX_LOCAL_SOCKET_FAMILIES_H
#define SBX_LOCAL_SOCKET_FAMILIES_H

#include <linux/netlink.h>
#include <sys/socket.h>

/*
 * AF_UNIX: local IPC inside the sandbox (its own files, abstract names of
 * its own network namespace). AF_INET, AF_INET6: the loopback of the
 * sandbox's own network namespace, nothing else exists there. AF_NETLINK:
 * NETLINK_ROUTE only (below), which libc's getaddrinfo/getifaddrs use.
 */
static const int sbx_socket_families_allowed[] = { AF_UNIX, AF_INET, AF_INET6, AF_NETLINK };

/* Netlink protocols allowed (with AF_NETLINK). */
static const int sbx_netlink_protocols_allowed[] = { NETLINK_ROUTE };

/*
 * Every family number below this is checked one by one; any number at or
 * above it (and any with bits set above the low 32, which the kernel
 * would truncate) is refused whole. Above every AF_* Linux defines today.
 */
#define SBX_SOCKET_FAMILY_LIMIT 64
/* The same for netlink protocols (the kernel has MAX_LINKS = 32). */
#define SBX_NETLINK_PROTOCOL_LIMIT 32

#endif
