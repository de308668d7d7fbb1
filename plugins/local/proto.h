/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The wire protocol between the local plugin (in the client process) and the
 * sandbox's init (pid 1 inside).
 *
 * Both ends use a SOCK_SEQPACKET socketpair, so every message is one record:
 * a fixed header followed by a payload, with file descriptors riding along
 * as SCM_RIGHTS. Output never travels through this channel: the plugin hands
 * the command its own pipe ends, so bytes flow from the command straight to
 * the client without a copy through init.
 *
 * Control socket (plugin <-> init):
 *   LP_CONFIG  plugin -> init   tagged strings (see below), once, first
 *   LP_FILTER  plugin -> init   the seccomp filter, raw BPF (struct sock_filter[]), once
 *   LP_READY   init -> plugin   fds: the work dir (O_PATH)[, the proxy's socket]
 *   LP_FAIL    init -> plugin   lp_fail + message: a setup step failed
 *   LP_EXEC    plugin -> init   lp_exec + argv/envp/cwd strings;
 *                               fds: stdin, stdout, stderr, status socket
 * Status socket (one per exec, plugin <-> that exec's supervisor):
 *   LP_KILL    plugin -> supervisor   kill the command's whole tree
 *   LP_STATUS  supervisor -> plugin   lp_status: how it ended
 * Closing the control socket destroys the sandbox; closing a status socket
 * kills that exec's tree.
 *
 * A sandbox opened with a TTL (detach.c) has more: its init outlives the
 * creator's control socket, and its keeper (init/keeper.c, outside the
 * namespaces) accepts connections on the sandbox's unix socket, checks the
 * peer's uid and hands each one to init, where it is a control socket like
 * the creator's:
 *   LP_LINK    plugin -> init   the sandbox's info (tagged strings 'i' id,
 *                               'n' name, 'c' creation Unix ms, 'P' policy);
 *                               fd: init's end of the link to the keeper; once
 *   LP_CLIENT  keeper -> init   fd: an accepted connection of the owner's uid
 *   LP_READY   init -> client   as above, with the info of LP_LINK, unchanged,
 *                               and 'T' the expiry as it is now
 *   LP_DESTROY client -> init   end the sandbox for every client
 *   LP_TTL     client -> init   uint64 ms from now; init answers LP_TTL with
 *                               the new expiry, int64 Unix ms, and sends the
 *                               keeper the same (init -> keeper)
 * Closing one of these sockets ends nothing: the TTL or LP_DESTROY does.
 */
#ifndef SBX_LOCAL_PROTO_H
#define SBX_LOCAL_PROTO_H

#include <stddef.h>
#include <stdint.h>

/* Largest record either side sends (argv + environment of one exec). */
#define LP_MAX_MSG (192 * 1024)

enum lp_type {
    LP_CONFIG = 1,
    LP_READY = 2,
    LP_FAIL = 3,
    LP_EXEC = 4,
    LP_KILL = 5,
    LP_STATUS = 6,
    LP_FILTER = 7,
    LP_LINK = 8,
    LP_CLIENT = 9,
    LP_DESTROY = 10,
    LP_TTL = 11,
    LP_PTY = 12      /* supervisor -> client, on the status socket: the terminal's master */
};

typedef struct lp_hdr {
    uint32_t type;
    uint32_t len;   /* payload bytes after the header */
} lp_hdr;

/*
 * LP_CONFIG payload: NUL-terminated strings, each starting with a tag byte:
 *   'w' work dir inside ("w/work")
 *   's' tmpfs size in bytes for the work dir and /tmp ("s1073741824")
 *   'p' process limit, RLIMIT_NPROC ("p64")
 *   'R' / 'W' a read-only / read-write bind: this string is the host path,
 *       the next string (tag '>') the path inside.
 *   'T' for a sandbox opened with a TTL: its expiry, Unix time in ms; init
 *       outlives its creator and ends the sandbox then
 *   'n' an open network: slirp4netns will attach; write /etc/resolv.conf
 *   'x' a host IPv4 address the sandbox must not reach ("x192.0.2.2")
 *   'P' allowlist: listen on 127.0.0.1:PORT for the proxy ("P3128"); the
 *       socket rides along with LP_READY, after the work dir
 */

/* Setup steps, reported by LP_FAIL so the client can name what broke. */
enum lp_step {
    LP_STEP_CONFIG = 1,
    LP_STEP_MOUNT_PRIVATE,
    LP_STEP_ROOT_TMPFS,
    LP_STEP_PIVOT,
    LP_STEP_BIND_SYSTEM,
    LP_STEP_BIND_USER,
    LP_STEP_DEV,
    LP_STEP_PROC,
    LP_STEP_TMPFS,
    LP_STEP_ROOT_READONLY,
    LP_STEP_HOSTNAME,
    LP_STEP_LOOPBACK,
    LP_STEP_RLIMIT,
    LP_STEP_CAPS,
    LP_STEP_NO_NEW_PRIVS,
    LP_STEP_SECCOMP,
    LP_STEP_WORKDIR,
    LP_STEP_NET_BLOCK,
    LP_STEP_PROXY
};

typedef struct lp_fail {
    int32_t step;   /* enum lp_step */
    int32_t err;    /* errno */
    /* followed by a NUL-terminated message naming the object */
} lp_fail;

#define LP_EXEC_PTY 1u /* run on a pseudo-terminal of rows x cols */

typedef struct lp_exec {
    uint32_t argc;
    uint32_t envc;
    uint32_t flags;   /* LP_EXEC_* */
    uint16_t rows, cols;
    /* followed by argc + envc + 1 (cwd, "" = work dir) NUL-terminated strings */
} lp_exec;

enum lp_status_kind {
    LP_RAN = 0,          /* wstatus is valid */
    LP_START_FAILED = 1, /* err says why the command could not start */
    LP_CWD_FAILED = 2,   /* err says why chdir(cwd) failed */
    LP_SUPERVISOR_FAILED = 3 /* err: the supervisor could not fork */
};

typedef struct lp_status {
    int32_t kind;     /* enum lp_status_kind */
    int32_t err;
    int32_t wstatus;
} lp_status;

/*
 * Send one record (header + payload) with up to nfds descriptors.
 * Returns 0 or -1 with errno set. Never raises SIGPIPE.
 */
int lp_send(int sock, uint32_t type, const void *payload, size_t len, const int *fds,
            size_t nfds);

/*
 * Receive one record into buf (cap bytes, header included). *nfds is the
 * room in fds on entry and the count received on return; received
 * descriptors are close-on-exec. Returns the payload length, 0 at EOF
 * (with hdr->type == 0), or -1 with errno set (EBADMSG for a malformed or
 * truncated record, whose descriptors are closed).
 */
long lp_recv(int sock, lp_hdr *hdr, void *buf, size_t cap, int *fds, size_t *nfds);

#endif
