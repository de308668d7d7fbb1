/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy confines itself once set up: no_new_privs, then its
 * seccomp filter (filter-rules.c says what it allows; anything else kills
 * the proxy). For good: there is no way back.
 */
#ifndef SBX_PROXY_CONFINE_H
#define SBX_PROXY_CONFINE_H

/* 0, or -1 with errno (the proxy must then not go on). */
int px_confine(void);

#endif
