/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test harness for the local plugin: load the module with dlopen and drive
 * its descriptor through a small host table, without the core.
 */
#ifndef LOCAL_TEST_HARNESS_H
#define LOCAL_TEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sandboxio/plugin.h>
#include <sbxu/clock.h>

extern const sbx_plugin *th_plugin;
extern void *th_state;
/* The last error the plugin reported on this thread. */
extern __thread int th_code;
extern __thread char th_msg[1024];

/*
 * Exit 77 (automake SKIP) with the reason when this machine cannot create
 * user namespaces at all (e.g. inside a container whose seccomp profile
 * forbids it), unless SANDBOXIO_MUST_WORK=1 asks to fail instead.
 */
void th_skip_without_userns(void);

/* Load and init the plugin (aborts the test on failure); sets the init path. */
void th_load(void);
void th_unload(void);

/* Open with query "k1=v1&k2=v2" (no URL escapes; NULL = none) and optional limits. */
int th_open(const char *query, const sbx_plugin_limits *limits, void **sb);

/* open_named with a name (NULL = none), a TTL and a stored policy (NULL = none). */
int th_open_named(const char *name, uint64_t ttl_ms, const char *policy,
                  const sbx_plugin_limits *limits, void **sb);
/* attach by id or name; info may be NULL. */
int th_attach(const char *id_or_name, void **sb, sbx_plugin_sandbox_info *info);

/* Fixture halves: load the plugin and open a sandbox (the test fails if it
 * cannot), and destroy *sb if open (asserting success), then unload. */
void *th_fixture_open(const char *query, const sbx_plugin_limits *limits);
void th_fixture_close(void **sb);

typedef struct th_result {
    int rc;
    sbx_plugin_exit ex;
    char *out, *err;
    size_t out_len, err_len;
    uint64_t ms;
} th_result;

/* Run argv (envp NULL = PATH only); stdin_data may be NULL. */
void th_exec(void *sb, const char *const *argv, const char *const *envp, const char *cwd,
             const void *stdin_data, size_t stdin_len, uint64_t timeout_ms, th_result *r);
/* th_exec of "sh -c script" with a default environment. */
void th_sh(void *sb, const char *script, uint64_t timeout_ms, th_result *r);
void th_result_free(th_result *r);

int th_write(void *sb, const char *path, const void *data, size_t len, uint32_t mode);
int th_read(void *sb, const char *path, char **data, size_t *len);

/* Copy the escape probe into the sandbox as /work/probe. */
void th_install_probe(void *sb);

/* The init's host pid and its pid-namespace inode (from the sandbox id). */
pid_t th_init_pid(void *sb);
/* The same from an id string (a sandbox with a TTL: "local-PID-RANDOM"). */
pid_t th_init_pid_of_id(const char *id);
unsigned long th_pidns_of(pid_t pid);
/* 1 if pid is a live process (not gone, not a zombie waiting for its reaper). */
int th_alive(pid_t pid);
/* Host processes whose pid namespace is ns. */
int th_count_in_pidns(unsigned long ns);
/* The first host process of pid namespace ns whose comm is comm; 0 if none. */
pid_t th_find_in_pidns(unsigned long ns, const char *comm);
/* The real uid and gid a host process runs as (from /proc/PID/status). */
void th_host_ids(pid_t pid, uid_t *uid, gid_t *gid);
/* Host processes whose command line holds text (a keeper names its sandbox);
 * *first (if not NULL) gets the pid of one of them. */
int th_count_cmdline(const char *text, pid_t *first);

/* Wait up to 5 s for the count to drop to at most want; returns the last count. */
int th_settle_pidns(unsigned long ns, int want);

#endif
