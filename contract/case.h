/* SPDX-License-Identifier: Apache-2.0 */
/*
 * case.h - what a contract case is and the helpers cases are written with.
 *
 * Every case runs in its own forked process (see runner.c). It reaches the
 * backend only through the public API, so the suite holds for any plugin.
 * A case ends in one of three ways:
 *   - it returns: PASS;
 *   - sbxc_fail(): FAIL with a reason;
 *   - sbxc_skip(): SKIP with a reason.
 * sbxc_fail() and sbxc_skip() destroy every sandbox the case opened through
 * sbxc_open() and end the process: a failing case leaves nothing behind.
 */
#ifndef SBX_CONTRACT_CASE_H
#define SBX_CONTRACT_CASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sandboxio/sandboxio.h>

#define SBXC_NORETURN __attribute__((noreturn))
#define SBXC_PRINTF(a, b) __attribute__((format(printf, a, b)))

enum sbxc_level { SBXC_MUST = 0, SBXC_SHOULD = 1 };

/* Outcome of a case, as the runner reports it. */
enum sbxc_status { SBXC_PASS = 0, SBXC_FAIL = 1, SBXC_SKIP = 2 };

/* What the runner learnt about the backend before running any case. */
typedef struct sbxc_backend {
    char name[64];          /* plugin name */
    char version[64];       /* plugin version */
    uint64_t declared;      /* caps in the descriptor */
    uint64_t caps;          /* caps in force for a sandbox of this DSN */
    int tier;               /* sbx_tier */
    uint32_t abi_minor;     /* the plugin's ABI minor (cancel_fd from 2) */
} sbxc_backend;

#define SBXC_MAX_SANDBOXES 64

/* State of the running case (one per case process). */
typedef struct sbxc_ctx {
    const char *dsn;
    const sbxc_backend *backend;
    int result_fd;          /* where the outcome goes */
    sbx_client *client;
    sbx_sandbox *sandboxes[SBXC_MAX_SANDBOXES];
    char note[256];         /* appended to a PASS line ("(3 of 4 tools)") */
    char host_dir[128];     /* sbxc_host_tmpdir(), removed when the case ends */
} sbxc_ctx;

typedef void (*sbxc_case_fn)(sbxc_ctx *ctx);

/* Case needs a tier above none (its point is isolation from the host). */
#define SBXC_NEEDS_ISOLATION 1u

typedef struct sbxc_case {
    const char *id;         /* "SBX-EXEC-003": stable, never reused */
    const char *name;       /* what it proves, one line */
    int level;              /* enum sbxc_level */
    uint64_t caps;          /* SBX_CAP_* it needs */
    unsigned flags;         /* SBXC_NEEDS_* */
    unsigned limit_s;       /* wall-clock limit of the whole case */
    sbxc_case_fn fn;
} sbxc_case;

/* The table (registry.c), ends with a zeroed entry. */
extern const sbxc_case sbxc_cases[];

/* --- ending a case ---------------------------------------------------- */

SBXC_NORETURN void sbxc_fail(sbxc_ctx *ctx, const char *fmt, ...) SBXC_PRINTF(2, 3);
SBXC_NORETURN void sbxc_skip(sbxc_ctx *ctx, const char *fmt, ...) SBXC_PRINTF(2, 3);
/* FAIL naming the call and the library's last error for rc. */
SBXC_NORETURN void sbxc_fail_rc(sbxc_ctx *ctx, const char *what, int rc);
/* Host prerequisite missing: SKIP, or FAIL when SANDBOXIO_MUST_WORK=1. */
SBXC_NORETURN void sbxc_host_skip(sbxc_ctx *ctx, const char *fmt, ...) SBXC_PRINTF(2, 3);
/* Used by the runner: report the outcome and end the case process. */
SBXC_NORETURN void sbxc_finish(sbxc_ctx *ctx, int status, const char *reason);

/* FAIL unless rc is SBX_OK. */
#define SBXC_OK(ctx, what, rc)                                   \
    do {                                                         \
        int sbxc_rc_ = (rc);                                     \
        if (sbxc_rc_ != SBX_OK) sbxc_fail_rc((ctx), (what), sbxc_rc_); \
    } while (0)

/* FAIL with the message unless cond holds. */
#define SBXC_CHECK(ctx, cond, ...)                 \
    do {                                           \
        if (!(cond)) sbxc_fail((ctx), __VA_ARGS__); \
    } while (0)

/* FAIL unless rc is exactly want. */
void sbxc_expect_code(sbxc_ctx *ctx, const char *what, int rc, int want);

/* --- sandboxes ------------------------------------------------------------ */

bool sbxc_has(const sbxc_ctx *ctx, uint64_t cap);
/* A policy for ordinary cases: network none when the backend can promise it. */
sbx_policy *sbxc_policy(sbxc_ctx *ctx);
/* Open a sandbox (tracked for cleanup) or FAIL. */
sbx_sandbox *sbxc_open(sbxc_ctx *ctx, const sbx_policy *policy);
/* Open with sbxc_policy() and an output cap (0 = the default). */
sbx_sandbox *sbxc_open_default(sbxc_ctx *ctx, size_t output_cap);
/* Open with a name (NULL: none) and a TTL (tracked: destroyed if the case fails) or FAIL. */
sbx_sandbox *sbxc_open_named(sbxc_ctx *ctx, const sbx_policy *policy, const char *name,
                             uint64_t ttl_ms);
/* Untrack and detach (the sandbox lives on to its TTL) or FAIL. */
void sbxc_detach(sbxc_ctx *ctx, sbx_sandbox *sb);
/* Destroy and free a tracked sandbox; FAIL if destroy fails. */
void sbxc_close(sbxc_ctx *ctx, sbx_sandbox *sb);
/* Forget a tracked sandbox without freeing it (the case frees it). */
void sbxc_untrack(sbxc_ctx *ctx, sbx_sandbox *sb);

/* --- commands ------------------------------------------------------------- */

/* A command from argv or FAIL. */
sbx_cmd *sbxc_cmd(sbxc_ctx *ctx, const char *const *argv);
/* sh -c script [args...] (NULL-terminated list of args after $0). */
sbx_cmd *sbxc_sh(sbxc_ctx *ctx, const char *script, ...);
/* Run cmd, FAIL unless sbx_exec returns SBX_OK. Frees cmd. */
sbx_result *sbxc_run(sbxc_ctx *ctx, sbx_sandbox *sb, sbx_cmd *cmd);
/* Run a script, FAIL unless it exits 0; returns its stdout (NUL-terminated, malloc'd). */
char *sbxc_sh_ok(sbxc_ctx *ctx, sbx_sandbox *sb, const char *script);
/* FAIL unless r exited with code. */
void sbxc_expect_exit(sbxc_ctx *ctx, const sbx_result *r, int code, const char *what);

/* Does a file exist in the sandbox? Uses the files API or `test -e`. */
bool sbxc_sandbox_has_file(sbxc_ctx *ctx, sbx_sandbox *sb, const char *path);

/* --- host side ------------------------------------------------------------ */

double sbxc_now(void);
/* A random token of hex digits for names nobody else uses (out: 17 bytes). */
void sbxc_token(char out[17]);
/* Does any host process have needle in its command line? */
bool sbxc_host_process_with(const char *needle, pid_t *pid_out);
/*
 * Does a host process with needle in its command line still run after
 * waiting up to grace_s for it to go? *pid_out names it when it does.
 */
bool sbxc_host_process_lingers(const char *needle, double grace_s, pid_t *pid_out);
/* Is the host process gone (no such pid, or a zombie)? */
bool sbxc_host_pid_gone(pid_t pid);
/* A fresh directory in the host's /tmp, removed with its files when the case ends. */
const char *sbxc_host_tmpdir(sbxc_ctx *ctx);
/* memmem that tolerates empty haystacks. */
bool sbxc_contains(const void *hay, size_t hay_len, const char *needle);

#endif
