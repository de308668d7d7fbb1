/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local backend: Linux namespaces + seccomp, no daemon, no root needed.
 * Declarations shared by the plugin's files (never exported).
 */
#ifndef SBX_LOCAL_H
#define SBX_LOCAL_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>
#include <sandboxio/plugin.h>
#include <sandboxio/policy.h> /* sbx_network */
#include "../analyzer-model.h"

#define LOCAL_MAX_BINDS 32
#define LOCAL_DEFAULT_WORKDIR "/work"
#define LOCAL_DEFAULT_SIZE ((uint64_t)1 << 30)

typedef struct local_bind {
    char *src;      /* host path, resolved (realpath) */
    char *dst;      /* path inside */
    int writable;
} local_bind;

/* The plugin-wide state (init()). */
typedef struct local_state {
    const sbx_host *host;
} local_state;

/* What the DSN asked for (options.c). */
typedef struct local_options {
    char *workdir;
    uint64_t tmpfs_size;
    local_bind binds[LOCAL_MAX_BINDS];
    size_t nbinds;
    unsigned given;             /* LOCAL_GIVEN_*: the keys the query held */
} local_options;
#define LOCAL_GIVEN_RO 1u
#define LOCAL_GIVEN_RW 2u
#define LOCAL_GIVEN_WORKDIR 4u

/* The sandbox's cgroups (cgroup.c); empty paths when no limit needs one. */
typedef struct local_cgroup {
    int v2;
    char mem[4096];
    char cpu[4096];
} local_cgroup;

typedef struct local_sandbox {
    const sbx_host *host;
    int ctl;          /* control socket to init; closing it ends the sandbox */
    int pidfd;        /* init, as seen from the host */
    pid_t pid;
    int workfd;       /* O_PATH descriptor of the work dir, from init */
    uid_t owner_uid;  /* host uid that files created for the sandbox get, or -1 */
    gid_t owner_gid;
    local_cgroup cg;
    pid_t net_pid;    /* slirp4netns under --network open, else 0 */
    int net_exit;     /* its exit descriptor: closing it ends it; -1 if none */
    /* Under --network allowlist: the egress proxy (net-proxy.c). */
    pid_t proxy_pid;
    int proxy_listen; /* the listening socket init made in the sandbox's namespace */
    int proxy_exit;   /* the proxy's exit pipe, as net_exit */
    struct local_proxy_log *proxy_log; /* its refusals (net-proxy.c); NULL if none */
    char id[32];
    /* A sandbox opened with a TTL (detach.c); rundir is -1 for the others. */
    int rundir;       /* the runtime directory holding its socket and record */
    int64_t created_ms, expires_ms;
    char name[64];
    char *policy;     /* as stored with the sandbox; NULL if none */
} local_sandbox;

/* record.c: the record of a sandbox with a TTL, "<id>.rec" in the runtime dir. */
typedef struct local_record {
    char id[32];
    char name[64];
    int64_t created_ms, expires_ms;
    int state;        /* sbx_plugin_state */
    char *policy;     /* malloc'd */
} local_record;

/* options.c */
int local_options_parse(const sbx_host *host, const sbx_plugin_dsn *dsn, local_options *out);
void local_options_free(local_options *opt);

/* plugin.c: a new sandbox (expires_ms as for local_spawn). */
int local_new_sandbox(const sbx_host *host, const sbx_plugin_dsn *dsn,
                      const sbx_plugin_limits *limits, int64_t expires_ms, int freezable,
                      local_sandbox **out);

/* spawn.c: start init in new namespaces and wait for READY. expires_ms
 * non-zero: init outlives its control socket and ends the sandbox then.
 * freezable: give it a cgroup of its own for pause() where one can be made. */
int local_spawn(const sbx_host *host, const local_options *opt, const sbx_plugin_limits *limits,
                int64_t expires_ms, int freezable, local_sandbox *sb);
/* Kill init (and so every process of the sandbox) and wait until it is gone. */
void local_reap(local_sandbox *sb);

/* cgroup.c */
uint64_t local_cgroup_caps(void);
int local_cgroup_create(const sbx_host *host, const sbx_plugin_limits *limits, local_cgroup *cg);
int local_cgroup_attach(const local_cgroup *cg, pid_t pid);
/* The group's OOM counter, as a descriptor (-1 without a memory group) ... */
int local_cgroup_open_oom(const local_cgroup *cg);
/* ... and its current value (0 for -1). */
uint64_t local_cgroup_oom_kills(int fd);
void local_cgroup_remove(local_cgroup *cg);
/* Pausing (the v2 freezer): SBX_CAP_PAUSE where it works here, ... */
uint64_t local_cgroup_pause_caps(void);
/* ... a v2 group of its own for a sandbox that has none (nothing where it cannot), ... */
int local_cgroup_create_freezer(const sbx_host *host, local_cgroup *cg);
/* ... the v2 group of a sandbox's init pid (-1 unless one of ours), and freezing it. */
int local_cgroup_of(pid_t pid, char *out, size_t cap);
int local_cgroup_freeze(const char *group, int frozen);
/* Remove groups left by dead clients; report each; returns 1 if report asked to stop. */
int local_cgroup_gc(int (*report)(void *userdata, const char *id, const char *reason),
                    void *userdata, size_t *removed);

/* net-open.c: --network open through slirp4netns. */
struct in_addr;
/* Whether it can work here; if not, why (a sentence) in why. */
int local_net_open_available(char *why, size_t cap);
/* The host's own IPv4 addresses (loopback left out), at most cap. */
size_t local_net_host_addrs(struct in_addr *out, size_t cap);
/* Start it for the sandbox (init READY) and wait until its interface is up. */
int local_net_open_start(const sbx_host *host, local_sandbox *sb);
void local_net_open_stop(local_sandbox *sb);

/* net-proxy.c: --network allowlist through the egress proxy (proxy/). */
#define LOCAL_PROXY_PORT 3128   /* 127.0.0.1:PORT inside the sandbox */
/* Whether the proxy program is there to run. */
int local_net_proxy_available(void);
/* SBX_OK if every entry is one the proxy enforces, else SBX_E_BAD_POLICY. */
int local_net_proxy_check(const sbx_host *host, const char *const *allow);
/* Start the proxy on sb->proxy_listen for the entries. */
int local_net_proxy_start(const sbx_host *host, local_sandbox *sb, const char *const *allow);
/*
 * The proxy's refusals, one line each on a pipe: shared by the sandbox and
 * its running execs, which may outlive the handle (a destroy from another
 * thread), so each exec holds a reference. NULL stands for no proxy.
 */
typedef struct local_proxy_log local_proxy_log;
local_proxy_log *local_net_proxy_log_ref(local_sandbox *sb);
void local_net_proxy_log_unref(local_proxy_log *log);
/* Log the refusals so far through the host: how many there were in all. */
uint64_t local_net_proxy_drain(local_proxy_log *log);
void local_net_proxy_stop(local_sandbox *sb);
/* Whether an environment entry is one the proxy's own replace (HTTP_PROXY=...). */
int local_net_proxy_env_replaced(const char *kv);
/* The proxy's environment entries, NULL-terminated. */
extern const char *const local_net_proxy_env[];

/* helper.c: start a helper with /dev/null, err_fd (or /dev/null) as 2 and
 * fds as 3, 4, ...: 0 or an errno; and end one (exit pipe, SIGKILL, reap). */
int local_helper_spawn(pid_t *pid, const char *path, char *const *argv, int err_fd,
                       const int *fds, int nfds);
void local_helper_stop(pid_t *pid, int *exit_fd);

/* spawn.c: a helper program's path ($env_name, beside a build-tree plugin, or installed). */
const char *local_helper_path(const char *env_name, const char *name, const char *installed,
                              char *buf, size_t cap);

/*
 * ids.c: the host uid and gid a root client's sandboxes run as. check_free:
 * refuse ids the user database knows (getpwuid_r, getgrgid_r: the NSS
 * modules load), which a new sandbox needs; a sandbox that exists already
 * runs as the ids it was checked with, and an attach only needs to know them.
 */
int local_root_ids(const sbx_host *host, int check_free, uid_t *uid, gid_t *gid);

/* filter.c: the seccomp filter as BPF, generated at build time (filter-bpf.h):
 * static data, nothing to free. */
int local_filter(const sbx_host *host, const void **bpf, size_t *len);

/* exec.c */
int local_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
               sbx_plugin_exit *exit_out);

/* rundir.c: the private runtime directory, checked (SBX_E_RUNTIME_DIR_UNSAFE). */
struct sockaddr_un;
int local_rundir_open(const sbx_host *host, int *dirfd_out);
/* The address of name in the directory dirfd; -1 if too long. */
int local_rundir_addr(int dirfd, const char *name, struct sockaddr_un *addr);
/* A connection to sandbox id's socket, or -1 with errno. */
int local_rundir_connect(int dirfd, const char *id);
/* 1 if something listens on id's socket, 0 if nothing does, -1 if unknown. */
int local_rundir_alive(int dirfd, const char *id);
/* Whether id has the form of a local sandbox's id (so is a safe file name). */
int local_id_valid(const char *id);

/* record.c; -1 with errno (EPERM: not a record of this user's). */
int local_record_write(int dirfd, const local_record *r);
int local_record_read(int dirfd, const char *id, local_record *r);
void local_record_free(local_record *r);
/* Unlink id's record and socket. */
void local_record_remove(int dirfd, const char *id);

/* detach.c: the minor-2 life cycle (SBX_CAP_ATTACH). */
int local_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                     const sbx_plugin_sandbox_opts *opts, void **sandbox);
int local_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name,
                 void **sandbox, sbx_plugin_sandbox_info *info);
int local_detach(void *sandbox);
int local_list(void *state, const sbx_plugin_dsn *dsn,
               int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata);
int local_set_ttl(void *sandbox, uint64_t ttl_ms);
/* pause.c */
int local_pause(void *sandbox);
int local_resume(void *sandbox);
/* destroy() of a sandbox with a TTL, through any handle: ends it for all. */
void local_end_published(local_sandbox *sb);
/* Remove the records and sockets of sandboxes whose init is gone. */
int local_sweep_stale(const sbx_host *host,
                      int (*report)(void *userdata, const char *id, const char *reason),
                      void *userdata, size_t *removed);

/* files.c */
int local_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                     long (*read)(void *userdata, void *buf, size_t len), void *userdata);
int local_file_read(void *sandbox, const char *path,
                    int (*sink)(void *userdata, const void *data, size_t len), void *userdata);
int local_file_list(void *sandbox, const char *path,
                    int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata);
int local_file_remove(void *sandbox, const char *path, int recursive);
int local_file_mkdir(void *sandbox, const char *path);
int local_file_symlink(void *sandbox, const char *path, const char *target);
int local_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta);

#endif
