/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio-local-init: pid 1 of a local sandbox. Shared declarations.
 */
#ifndef SBX_LOCAL_INIT_H
#define SBX_LOCAL_INIT_H

#include <stdint.h>
#include <stddef.h>

#define INIT_MAX_BINDS 64
#define INIT_MAX_BLOCKED 64

typedef struct init_bind {
    const char *src;   /* host path, absolute, already resolved by the plugin */
    const char *dst;   /* path inside, absolute */
    int writable;
} init_bind;

typedef struct init_config {
    const char *workdir;
    uint64_t tmpfs_size;
    uint32_t pids;          /* 0 = no process limit */
    init_bind binds[INIT_MAX_BINDS];
    size_t nbinds;
    /* A sandbox opened with a TTL: its expiry, Unix ms; 0 = it dies with
     * its creator. */
    int64_t expires_ms;
    int net_open;           /* slirp4netns attaches after setup */
    uint32_t blocked[INIT_MAX_BLOCKED]; /* host IPv4 addresses (network order) to prohibit */
    size_t nblocked;
    uint16_t proxy_port;    /* allowlist: listen on 127.0.0.1:port for the proxy; 0 = none */
} init_config;

/* Why setup stopped: the step (enum lp_step), errno and the object. */
typedef struct init_failure {
    int step;
    int err;
    char what[512];
} init_failure;

/* Record a failure of step (printf message); returns -1. */
int init_fail(init_failure *why, int step, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Build the root file system and pivot into it (rootfs.c); cwd is "/" after. */
int init_build_root(const init_config *cfg, init_failure *why);

/*
 * Install a "prohibit" route for each blocked address (net.c): a connect()
 * to one fails with EACCES instead of leaving through the open network.
 */
int init_net_block(const init_config *cfg, init_failure *why);

/*
 * The allowlist proxy's listening socket, 127.0.0.1:cfg->proxy_port in the
 * sandbox's namespace (net.c), for the plugin to hand to the proxy on the
 * host. The descriptor, or -1 with *why.
 */
int init_net_proxy_listen(const init_config *cfg, init_failure *why);

/* Parse an LP_CONFIG payload (strings point into buf). -1 on a bad one. */
int init_parse_config(init_config *cfg, char *buf, size_t len, init_failure *why);

/*
 * Build the sandbox around the calling process: mounts, hostname, loopback,
 * limits, capabilities, no_new_privs, and last the seccomp filter bpf (raw
 * struct sock_filter array of bpflen bytes, built by the plugin). Either every step succeeds
 * (returns 0, cwd = the work dir) or it stops at the first failure
 * (returns -1 with *why filled in); the caller must then exit.
 */
int init_setup(const init_config *cfg, const void *bpf, size_t bpflen, init_failure *why);

struct lp_exec;

/*
 * Serve the sandbox's clients until it ends (serve.c): the creator's
 * control socket ctl and, for a sandbox with a TTL, every client the keeper
 * hands over. workfd is sent to each new client; sigfd reaps orphans.
 * Returns init's exit status.
 */
int init_serve(int ctl, int workfd, int sigfd, const init_config *cfg);

/* The keeper of a sandbox with a TTL (keeper.c): main() of "keeper" mode. */
int init_keeper(int argc, char **argv);

/*
 * Run one exec as a supervisor (a forked child of init): never returns.
 * fds: stdin, stdout, stderr, status socket; how: the request's flags
 * (LP_EXEC_PTY: a terminal of how->rows x how->cols instead of fds 0-2).
 */
__attribute__((noreturn)) void init_supervise(char *const *argv, char *const *envp,
                                              const char *cwd, const int fds[4],
                                              const struct lp_exec *how);

#endif
