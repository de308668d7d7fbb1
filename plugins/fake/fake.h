/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal declarations of the fake backend: commands run as ordinary host
 * processes in a private temporary directory. Nothing here is exported; the
 * module's only public symbol is sandboxio_plugin_v1.
 */
#ifndef SBX_FAKE_H
#define SBX_FAKE_H

#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <sandboxio/plugin.h>
#include <sbxu/clock.h>
#include "../analyzer-model.h"

#define FAKE_NAME "fake"
/*
 * Roots are "<tmpdir>/sandboxio-fake-<owner pid>-<owner pid namespace>-XXXXXX":
 * gc reads the owner back.
 */
#define FAKE_ROOT_PREFIX "sandboxio-fake-"
/*
 * Sandboxes made by open_named live in "<tmpdir>/sandboxio-fake.<uid>", a
 * 0700 directory of their user, where any of the user's processes finds
 * them: "<id>" is the root, "<id>.meta" what attach and list report, and
 * "n.<name>" a symlink to "<id>" (made with symlink(), so a name is taken
 * once). Ids are 12 hex digits.
 */
#define FAKE_STATE_PREFIX "sandboxio-fake."
#define FAKE_ID_LEN 12

/* What "<id>.meta" holds. */
typedef struct fake_meta {
    char name[64];              /* "" if none */
    int64_t created_ms;
    int64_t expires_ms;         /* 0 = no TTL: removed by gc once the owner is gone */
    long owner_pid;
    unsigned long owner_ns;
    bool paused;
    char *policy;               /* malloc'd; NULL if none */
} fake_meta;

/* Plugin-wide state: only the host table, valid from init() to fini(). */
typedef struct fake_state {
    const sbx_host *host;
} fake_state;

/* One sandbox: a root directory and the command trees running in it. */
typedef struct fake_sandbox {
    const sbx_host *host;
    char *root;                 /* absolute path of the private root */
    const char *id;             /* basename of root, points into it */
    int root_fd;                /* O_RDONLY|O_DIRECTORY on root */
    char *statedir;             /* open_named/attach: the user's state dir; NULL otherwise */
    fake_meta meta;             /* for statedir's: as last read or written; else paused only */

    pthread_mutex_t lock;       /* guards everything below */
    pthread_cond_t idle;        /* signalled when active drops to 0 */
    unsigned active;            /* operations running right now */
    bool destroying;            /* destroy() started: refuse new work */
    pid_t *groups;              /* process groups of running execs */
    size_t group_count;
    size_t group_cap;
} fake_sandbox;

/* --- sandbox.c: life cycle and bookkeeping ------------------------------- */

int fake_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
              void **sandbox);
int fake_destroy(void *sandbox);
/* Refuse unknown DSN parts: the fake takes no authority, path or option. */
int fake_dsn_check(const sbx_host *host, const sbx_plugin_dsn *dsn);
/* The directory roots are created in: $TMPDIR if absolute, else /tmp. */
const char *fake_tmpdir(void);
/* Mark an operation as running; SBX_E_SANDBOX_DESTROYED once destroy began. */
int fake_enter(fake_sandbox *sb);
/* fake_enter, and SBX_E_BACKEND_CONFLICT while the sandbox is paused. */
int fake_enter_exec(fake_sandbox *sb);
void fake_leave(fake_sandbox *sb);
/* Kill the command trees this handle runs, wait for their execs; refuse new work. */
void fake_end_commands(fake_sandbox *sb);
/* Free the handle alone: nothing on disk is touched. */
void fake_handle_free(fake_sandbox *sb);
/* A handle on the root directory root (taken over, freed on failure). */
int fake_handle_new(const sbx_host *host, char *root, fake_sandbox **out);

/* --- spawn.c: starting a command ----------------------------------------- */

typedef struct fake_child {
    pid_t pid;                  /* also its process group and session id */
    int pidfd;                  /* readable when the leader exits */
    int in_fd;                  /* write end of stdin, -1 if none */
    int out_fd;                 /* read end of stdout */
    int err_fd;                 /* read end of stderr */
} fake_child;

/*
 * Start cmd as the leader of a new session in sb, registered as a live
 * process group. want_stdin: give it a pipe, else /dev/null.
 */
int fake_spawn(fake_sandbox *sb, const sbx_plugin_cmd *cmd, bool want_stdin, fake_child *child);
/* Kill the child's group, forget it, reap the leader into *status. */
int fake_reap(fake_sandbox *sb, fake_child *child, int *status);

/* --- exec.c -------------------------------------------------------------- */

int fake_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
              sbx_plugin_exit *exit_out);

/* --- beneath.c: path resolution that cannot leave the root --------------- */

/* openat2(dirfd, path, flags, mode, RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS): fd, or -1 and errno. */
int fake_openat2(int dirfd, const char *path, int flags, mode_t mode);
/* openat2(root_fd, path, flags, mode, RESOLVE_BENEATH|RESOLVE_NO_MAGICLINKS); "" is the root. */
int fake_open_beneath(fake_sandbox *sb, const char *path, int flags, mode_t mode, int *fd_out);
/* Like fake_open_beneath but from dirfd, for one component already checked. */
int fake_openat_beneath(fake_sandbox *sb, int dirfd, const char *name, int flags,
                        mode_t mode, int *fd_out);
/* Report errno err for path as the matching SBX code; returns the code. */
int fake_errno_error(const sbx_host *host, int err, const char *what, const char *path);
/* mkdir -p path beneath the root; *fd_out (if not NULL) gets an O_PATH fd of it. */
int fake_mkdir_beneath(fake_sandbox *sb, const char *path, int *fd_out);
/* Remove name (under dirfd) and all it holds, never following a symlink. */
int fake_remove_tree(int dirfd, const char *name);

/* --- files.c ------------------------------------------------------------- */

int fake_file_write(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                    long (*read)(void *userdata, void *buf, size_t len), void *userdata);
int fake_file_read(void *sandbox, const char *path,
                   int (*sink)(void *userdata, const void *data, size_t len), void *userdata);
int fake_file_list(void *sandbox, const char *path,
                   int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata);
int fake_file_remove(void *sandbox, const char *path, int recursive);
int fake_file_mkdir(void *sandbox, const char *path);
int fake_file_symlink(void *sandbox, const char *path, const char *target);
int fake_file_set_meta(void *sandbox, const char *path, const sbx_plugin_file_meta *meta);

/* --- state.c: the per-user state directory and its meta files ------------ */

/* The user's state dir (malloc'd); create: make it if missing. Refuses one not 0700 and ours. */
int fake_statedir(const sbx_host *host, bool create, char **out);
int fake_meta_read(const sbx_host *host, const char *statedir, const char *id, fake_meta *m);
int fake_meta_write(const sbx_host *host, const char *statedir, const char *id,
                    const fake_meta *m);
void fake_meta_clear(fake_meta *m);
/* Remove sandbox id of statedir: root tree, name link, meta (in that order). */
int fake_named_remove(const sbx_host *host, const char *statedir, const char *id,
                      const char *name);
/* Is id 12 lower-case hex digits? */
bool fake_id_ok(const char *id);

/* --- named.c: minor-2 members ----------------------------------------------- */

int fake_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                    const sbx_plugin_sandbox_opts *opts, void **sandbox);
int fake_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name,
                void **sandbox, sbx_plugin_sandbox_info *info);
int fake_detach(void *sandbox);
int fake_set_ttl(void *sandbox, uint64_t ttl_ms);
int fake_pause(void *sandbox);
int fake_resume(void *sandbox);
/* Fill info from sb's meta (strings point into sb). */
void fake_info(const fake_sandbox *sb, sbx_plugin_sandbox_info *info);

/* --- list.c ----------------------------------------------------------------- */

int fake_list(void *state, const sbx_plugin_dsn *dsn,
              int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata);
/* gc's share of the state dir: expired sandboxes, and TTL-less ones whose owner is gone. */
int fake_gc_named(const sbx_host *host,
                  int (*report)(void *userdata, const char *id, const char *reason),
                  void *userdata, size_t *removed);

/* --- gc.c ---------------------------------------------------------------- */

/* Inode of our pid namespace, 0 if unknown. */
unsigned long fake_pidns(void);
/* Is the process pid of pid namespace ns surely gone (same namespace, ESRCH)? */
bool fake_owner_gone(long pid, unsigned long ns);
int fake_gc(void *state, const sbx_plugin_dsn *dsn,
            int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
            size_t *removed);

#endif
