/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/plugin.h - the plugin ABI, version 1.
 *
 * A backend is a shared object "sandboxio-<scheme>.so" exporting one symbol:
 *
 *     const sbx_plugin *sandboxio_plugin_v1(void);
 *
 * The ABI major version is in the symbol's name, so a plugin built for
 * another major is never called through the wrong signature. The function
 * returns a descriptor with static storage duration; it must run no code with
 * side effects (the core calls it to list plugins). Work starts in init().
 *
 * Rules (the SQLite VFS pattern):
 *  - Every struct crossing the boundary starts with uint32_t struct_size and
 *    only ever grows at the end; a new member bumps SBX_PLUGIN_ABI_MINOR.
 *    Whoever reads a struct checks struct_size covers a member before using
 *    it, and treats a NULL function pointer as "not supported".
 *  - The core refuses a plugin whose abi_minor is newer than its own.
 *  - A plugin never calls a host function newer than host->abi_minor.
 *  - Functions return SBX_OK (0) or an SBX_E code (sandboxio/errors.h), with
 *    the detail given through host->set_error(). A plugin never prints,
 *    never exits, never raises a signal in the host.
 *  - Memory handed across (native JSON answers) is allocated with
 *    host->alloc(); the core frees it with its own free.
 *  - The plugin never parses the DSN text: it gets the core's parse.
 *  - The core has already refused any policy the plugin's capabilities
 *    cannot meet; the plugin applies the limits it receives.
 *
 * Build out of tree with `pkg-config --cflags sandboxio-plugin` and install
 * into `pkg-config --variable=plugindir sandboxio-plugin`.
 */
#ifndef SANDBOXIO_PLUGIN_H
#define SANDBOXIO_PLUGIN_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sandboxio/errors.h>
#include <sandboxio/caps.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SBX_PLUGIN_ABI_MAJOR 1
#define SBX_PLUGIN_ABI_MINOR 4
#define SBX_PLUGIN_ENTRY "sandboxio_plugin_v1"

#if defined(__GNUC__)
#define SBX_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SBX_PLUGIN_EXPORT
#endif

/**
 * SBX_STRUCT_HAS(ptr, member) - whether the struct *ptr, as its writer built
 * it, contains member: its struct_size covers the member's last byte. Read a
 * member appended after minor 0 only where this holds (and, for a function,
 * where the pointer is non-NULL); a reader built against an older header
 * never sees the member at all. Works on every struct of this header.
 */
#define SBX_STRUCT_HAS(ptr, member)                                                  \
    ((ptr)->struct_size >=                                                          \
     offsetof(__typeof__(*(ptr)), member) + sizeof((ptr)->member))

/** What the core offers every plugin. Valid from init() until fini() returns. */
typedef struct sbx_host {
    uint32_t struct_size;
    uint32_t abi_minor;     /* highest minor whose host members exist */
    /* --- minor 0 --- */
    /** Log a line (no trailing newline needed). Never pass secrets. */
    void (*log)(int level, const char *plugin, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));
    /** Record the detail of a failure; returns code so a plugin can `return host->set_error(...)`. */
    int (*set_error)(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
    void *(*alloc)(size_t size);
    void *(*realloc)(void *ptr, size_t size);
    void (*free)(void *ptr);
} sbx_host;

/** One decoded DSN query parameter. */
typedef struct sbx_plugin_kv {
    const char *key;
    const char *value;
} sbx_plugin_kv;

/** The core's parse of the DSN. */
typedef struct sbx_plugin_dsn {
    uint32_t struct_size;
    const char *scheme;      /* == the plugin's name */
    const char *authority;   /* decoded, "" if none */
    const char *path;        /* decoded, "" if none */
    size_t query_count;
    const sbx_plugin_kv *query;
} sbx_plugin_dsn;

/** The policy's limits, already checked against the plugin's capabilities. */
typedef struct sbx_plugin_limits {
    uint32_t struct_size;
    int network;                  /* sbx_network */
    const char *const *net_allow; /* NULL-terminated; for SBX_NET_ALLOWLIST */
    uint64_t memory_bytes;        /* 0 = none */
    uint32_t cpu_millis;          /* 0 = none */
    uint32_t pids;                /* 0 = none */
    /* --- minor 2 --- */
    uint64_t disk_bytes;          /* 0 = none: cap on what the work dir holds */
    /**
     * The SBX_CAP_LIMIT_* bits of the limits above that are the core's
     * defaults rather than the caller's: a plugin that finds at run time it
     * cannot enforce one of these leaves it out (and logs it) where it
     * would refuse a limit the caller asked for.
     */
    uint64_t defaulted;
} sbx_plugin_limits;

/** A command to run. */
typedef struct sbx_plugin_cmd {
    uint32_t struct_size;
    const char *const *argv;  /* NULL-terminated, argv[0] non-empty; no shell */
    const char *const *envp;  /* NULL-terminated "K=V": the WHOLE environment */
    /*
     * NULL = the sandbox's work dir; else relative to it, cleaned (no
     * "..", no "." or empty parts); absolute ("/...") only for a plugin
     * declaring SBX_CAP_CWD_ABS. With that capability a missing one is
     * made with its parents.
     */
    const char *cwd;
    uint64_t timeout_ms;      /* 0 = none; else kill the whole tree then */
    /* --- minor 2 --- */
    /**
     * SBX_PLUGIN_CMD_PTY: run the command on a pseudo-terminal of rows x
     * cols (SBX_CAP_PTY only; the core never sets it otherwise). Its
     * output arrives as SBX_STDOUT alone, stdin is the terminal's input.
     */
    uint32_t flags;
    uint16_t rows, cols;      /* the terminal's size; 0 = 24 x 80 */
} sbx_plugin_cmd;

#define SBX_PLUGIN_CMD_PTY UINT32_C(1)

/** The core's side of an exec's I/O. */
typedef struct sbx_plugin_io {
    uint32_t struct_size;
    void *userdata;
    /**
     * Output as it comes; stream is SBX_STDOUT (1) or SBX_STDERR (2). A
     * non-zero return means: kill the command, finish, and return
     * SBX_E_EXEC_ABORTED. Never called concurrently for one exec.
     */
    int (*output)(void *userdata, int stream, const void *data, size_t len);
    /**
     * Standard input: NULL means none (the command sees EOF at once); else
     * fills up to len bytes of buf, returns the count, 0 at EOF.
     */
    long (*input)(void *userdata, void *buf, size_t len);
    /* --- minor 2 --- */
    /**
     * -1, or a descriptor that becomes readable (POLLIN) when the caller
     * cancels the exec: poll it with the command's own descriptors, and
     * once it is readable kill the command's whole tree at once and return
     * SBX_E_EXEC_CANCELLED (for run(), after destroying the sandbox). It
     * stays readable; never read, write or close it. Read only where
     * SBX_STRUCT_HAS(io, cancel_fd): a core older than minor 2 has none.
     */
    int cancel_fd;
    /**
     * -1, or a descriptor that polls readable (POLLIN) when input() has
     * bytes (or EOF) to give without blocking: a plugin that sees one calls
     * input() only once it is readable, so an interactive client's stdin
     * is forwarded as it is typed while output keeps flowing. With -1,
     * input() may block until it has data. Never read, write or close it.
     */
    int input_ready_fd;
    /**
     * For SBX_PLUGIN_CMD_PTY: -1, or a descriptor that polls readable when
     * the client's window size changed; the plugin then calls winsize()
     * (which also clears the readiness) and resizes the terminal.
     */
    int resize_fd;
    int (*winsize)(void *userdata, uint16_t *rows, uint16_t *cols);
} sbx_plugin_io;

/** How a command ended; the plugin fills it in when exec returns SBX_OK. */
typedef struct sbx_plugin_exit {
    uint32_t struct_size;
    int exited;       /* 1 = normal exit, 0 = killed by a signal */
    int exit_code;    /* when exited */
    int signal;       /* when killed */
    int timed_out;    /* the timeout killed it */
    int oom_killed;   /* the memory limit killed it */
    /* --- minor 2 --- */
    /**
     * Connections the sandbox's network policy refused while the command
     * ran (local: the allowlist proxy's refusals); 0 where the backend
     * counts none. Write only where SBX_STRUCT_HAS(exit, net_refused): a
     * core older than minor 2 has none.
     */
    uint64_t net_refused;
} sbx_plugin_exit;

/** One directory entry, as given to a list callback. */
typedef struct sbx_plugin_dirent {
    uint32_t struct_size;
    const char *name;
    int type;          /* sbx_file_type, from sandboxio/files.h values: 1 reg, 2 dir, 3 link, 4 other */
    uint64_t size;
    uint32_t mode;
    /* --- minor 3 (filled by a plugin declaring SBX_CAP_FILE_META) --- */
    int64_t mtime;            /* last modification, Unix seconds (the entry itself, never a link's target) */
    uint32_t mtime_nsec;      /* and nanoseconds, 0 where the backend keeps none */
    const char *link_target;  /* for a symlink: its target, verbatim, never resolved; else NULL */
} sbx_plugin_dirent;

/** What file_set_meta() sets (minor 3). */
typedef struct sbx_plugin_file_meta {
    uint32_t struct_size;
    uint32_t what;            /* SBX_PLUGIN_META_* bits: the members below to apply */
    uint32_t mode;            /* permission bits (07777); never on a symlink */
    int64_t mtime;            /* Unix seconds */
    uint32_t mtime_nsec;
} sbx_plugin_file_meta;

#define SBX_PLUGIN_META_MODE  UINT32_C(1)
#define SBX_PLUGIN_META_MTIME UINT32_C(2)

/** What open_named() is asked for besides the limits (minor 2). */
typedef struct sbx_plugin_sandbox_opts {
    uint32_t struct_size;
    /** NULL, or a name the core checked: [a-z0-9][a-z0-9_.-]{0,62}, unique per backend. */
    const char *name;
    /**
     * 0: the sandbox dies with its handle (free, destroy, or its owner's
     * death), as open() makes it. Else it outlives the handle after
     * detach() and the backend itself removes it ttl_ms after creation,
     * whether or not any client is left.
     */
    uint64_t ttl_ms;
    /**
     * The core's serialization of the policy the sandbox is created with:
     * opaque to the plugin, stored with the sandbox and handed back by
     * attach() and list(), so that an attached handle runs under the same
     * policy and never a wider one.
     */
    const char *policy;
} sbx_plugin_sandbox_opts;

/** A sandbox's life state, as list() and attach() report it. */
typedef enum sbx_plugin_state {
    SBX_PLUGIN_STATE_UNKNOWN = 0,
    SBX_PLUGIN_STATE_RUNNING = 1,
    SBX_PLUGIN_STATE_PAUSED = 2,
    SBX_PLUGIN_STATE_STOPPED = 3  /* exists, cannot run commands until resumed or removed */
} sbx_plugin_state;

/** One sandbox as the backend knows it (minor 2). Strings live until the callback or call returns. */
typedef struct sbx_plugin_sandbox_info {
    uint32_t struct_size;
    const char *id;          /* the backend's id, as sandbox_id() gives it */
    const char *name;        /* "" if none */
    int64_t created_ms;      /* Unix time in ms; 0 = unknown */
    int64_t expires_ms;      /* Unix time in ms when the TTL ends; 0 = no TTL */
    const char *owner;       /* the owner label (lib/ owner.h form), "" if none */
    int state;               /* sbx_plugin_state */
    const char *policy;      /* as given in sbx_plugin_sandbox_opts.policy; NULL if none stored */
} sbx_plugin_sandbox_info;

/**
 * The descriptor. Members up to and including `gc` form minor 0 and
 * must be present (struct_size >= SBX_PLUGIN_V1_0_SIZE); of the functions,
 * init, open, destroy are required, the rest may be NULL when the
 * corresponding capability is not declared. Minor 1 appends `run`; minor
 * 2 the lifecycle members from `open_named` to `ping`; minor 3
 * `file_symlink` and `file_set_meta`; minor 4 `credential_env`. The core
 * uses a member only where struct_size covers it.
 */
typedef struct sbx_plugin {
    uint32_t struct_size;   /* sizeof(sbx_plugin) the plugin was built with */
    uint32_t abi_major;     /* SBX_PLUGIN_ABI_MAJOR */
    uint32_t abi_minor;     /* SBX_PLUGIN_ABI_MINOR */
    const char *name;       /* == scheme == the file's "sandboxio-<name>.so" */
    const char *version;    /* the plugin's own version */
    const char *description;
    uint64_t caps;          /* SBX_CAP_* it can honour at most */
    int tier;               /* sbx_tier */

    /** Set up plugin-wide state in *state. Must open no network socket. */
    int (*init)(const sbx_host *host, void **state);
    /** Release plugin-wide state. Called once, after every sandbox is destroyed. */
    void (*fini)(void *state);
    /**
     * Optional: the capabilities really available for this DSN on this
     * machine (e.g. limits only where cgroups are delegated). The core
     * uses caps & *caps_out. NULL = the declared caps. Opens no socket.
     */
    int (*probe)(void *state, const sbx_plugin_dsn *dsn, uint64_t *caps_out);
    /** Create a sandbox; *sandbox is the plugin's handle for it. */
    int (*open)(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                void **sandbox);
    /** Destroy it and free the handle: nothing of it may remain, here or in the backend. */
    int (*destroy)(void *sandbox);
    /** Run a command; may be called concurrently on one sandbox. */
    int (*exec)(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                sbx_plugin_exit *exit_out);
    /**
     * Files. Paths are relative to the work dir, already free of "..",
     * absolute form and empty components; the plugin must still refuse a
     * symlink that leads out (SBX_E_PATH_ESCAPE).
     */
    int (*file_write)(void *sandbox, const char *path, uint64_t size, uint32_t mode,
                      long (*read)(void *userdata, void *buf, size_t len), void *userdata);
    int (*file_read)(void *sandbox, const char *path,
                     int (*sink)(void *userdata, const void *data, size_t len), void *userdata);
    int (*file_list)(void *sandbox, const char *path,
                     int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata);
    int (*file_remove)(void *sandbox, const char *path, int recursive);
    int (*file_mkdir)(void *sandbox, const char *path);
    /** Escape hatch; *json_out allocated with host->alloc. */
    int (*native)(void *sandbox, const char *op, const char *json_in, char **json_out);
    /** Optional: a short id naming the sandbox in the backend (container id...). */
    const char *(*sandbox_id)(void *sandbox);
    /**
     * Optional: remove sandboxes of this backend left by clients that died
     * (owner gone) or whose TTL passed. report() is called once for each one
     * removed, with its id and the reason; a non-zero return stops the sweep.
     * *removed gets the count. May contact the backend.
     */
    int (*gc)(void *state, const sbx_plugin_dsn *dsn,
              int (*report)(void *userdata, const char *id, const char *reason), void *userdata,
              size_t *removed);
    /* --- minor 1 --- */
    /**
     * Optional: create a sandbox, run one command in it and destroy it, as
     * one call (sbx_run()), for a backend that can do that faster than
     * open, exec and destroy (the docker backend makes the command the
     * container's own process). The arguments and duties are those of the
     * three: the same isolation and limits as open, the same command, I/O
     * and exit report as exec; and when it returns, whatever happened,
     * nothing of the sandbox remains, as after destroy. NULL: the core calls
     * open, exec and destroy.
     */
    int (*run)(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
               const sbx_plugin_cmd *cmd, const sbx_plugin_io *io, sbx_plugin_exit *exit_out);
    /* --- minor 2 (SBX_CAP_ATTACH unless said otherwise) --- */
    /**
     * Like open(), with a name and a TTL (see sbx_plugin_sandbox_opts).
     * A name already in use fails with SBX_E_BACKEND_CONFLICT and creates nothing.
     * NULL: the core uses open() and refuses a name or a TTL.
     */
    int (*open_named)(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                      const sbx_plugin_sandbox_opts *opts, void **sandbox);
    /**
     * Reconnect to an existing sandbox of this user by its backend id or
     * name, from any process; fills *info (id, name, expiry, state, the
     * stored policy). A sandbox that does not exist, or is not this user's,
     * fails with SBX_E_NOT_FOUND. The handle is freed by destroy() or
     * detach() like any other.
     */
    int (*attach)(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name,
                  void **sandbox, sbx_plugin_sandbox_info *info);
    /**
     * Free the handle and keep the sandbox (made with ttl_ms > 0): it
     * lives on until its TTL or a destroy() through another handle.
     */
    int (*detach)(void *sandbox);
    /** Call entry() for each sandbox of this backend sandboxio made for this user; non-zero stops. */
    int (*list)(void *state, const sbx_plugin_dsn *dsn,
                int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata);
    /** Move the TTL's end to ttl_ms from now (extend or shorten); 0 is refused. */
    int (*set_ttl)(void *sandbox, uint64_t ttl_ms);
    /** SBX_CAP_PAUSE: freeze every process (files and memory kept) / thaw them. */
    int (*pause)(void *sandbox);
    int (*resume)(void *sandbox);
    /**
     * Optional (any backend): contact the service behind dsn without
     * creating anything (a daemon ping, an API key check) and return
     * SBX_OK if it answers, else the error a sandbox would meet
     * (SBX_E_BACKEND_UNAVAILABLE naming the endpoint, SBX_E_BACKEND_AUTH,
     * ...). *detail (never NULL) may get one line about what answered
     * ("Docker Engine 27.1.1, API 1.46"), allocated with host->alloc.
     * NULL: the backend has nothing to contact (it runs in this process).
     * Only `sandboxio doctor --online` and sbx_client_ping() call it.
     */
    int (*ping)(void *state, const sbx_plugin_dsn *dsn, char **detail);
    /* --- minor 3 (SBX_CAP_FILE_META) --- */
    /**
     * Create path as a symbolic link holding target verbatim (never
     * resolved, never checked: it may point anywhere, even out). An
     * existing file or link at path is replaced, never written through; a
     * directory there fails with SBX_E_IS_DIRECTORY. The parent is resolved
     * as for file_write (a symlink leading out is SBX_E_PATH_ESCAPE);
     * missing parents are created.
     */
    int (*file_symlink)(void *sandbox, const char *path, const char *target);
    /**
     * Set the mode and/or the modification time of path itself: its last
     * component is never followed. A mode on a symlink fails with
     * SBX_E_NOT_REGULAR; a time on a symlink is the link's own. Leading
     * components resolve as for file_read.
     */
    int (*file_set_meta)(void *sandbox, const char *path, const sbx_plugin_file_meta *meta);
    /* --- minor 4 --- */
    /**
     * The environment variables the plugin reads a credential from, or
     * that point at one (a certificate directory), NULL-terminated, with
     * static storage duration; NULL: none. Only the names are ever shown
     * (`sandboxio doctor` says whether each is set); a value never is.
     */
    const char *const *credential_env;
    /* --- end of minor 4: append new members below, bump the minor --- */
} sbx_plugin;

#define SBX_PLUGIN_V1_0_SIZE \
    ((uint32_t)(offsetof(sbx_plugin, gc) + sizeof(((sbx_plugin *)0)->gc)))

/** The entry point each plugin defines. */
typedef const sbx_plugin *(*sbx_plugin_entry_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
