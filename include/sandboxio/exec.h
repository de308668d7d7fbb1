/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/exec.h - run a command in a sandbox.
 *
 * The command is an argv vector, run directly (no shell unless argv names
 * one). It inherits nothing of the caller's environment: it gets the policy's
 * variables and those set on the command. A command's stdout and stderr are
 * captured up to the output cap (the smaller of the command's and the
 * policy's); past it the bytes are dropped, the stream is still drained, and
 * the result says truncated.
 */
#ifndef SANDBOXIO_EXEC_H
#define SANDBOXIO_EXEC_H

#include <sandboxio/common.h>
#include <sandboxio/sandbox.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sbx_cmd sbx_cmd;
typedef struct sbx_result sbx_result;
typedef struct sbx_cancel sbx_cancel;

/* Streams, as passed to an sbx_output_cb. */
#define SBX_STDOUT 1
#define SBX_STDERR 2

/**
 * sbx_cmd_new - a command from a NULL-terminated argv (copied; argv[0] must
 * be non-empty). Free with sbx_cmd_free(). Not thread-safe while being built;
 * may be shared read-only afterwards.
 */
SBX_API int sbx_cmd_new(sbx_cmd **out, const char *const *argv);
SBX_API void sbx_cmd_free(sbx_cmd *cmd);
/** Set NAME=VALUE for this command (copied); needs SBX_CAP_ENV. */
SBX_API int sbx_cmd_set_env(sbx_cmd *cmd, const char *name, const char *value);
/**
 * Working directory inside the sandbox, relative to its work directory
 * (copied; `..` and an absolute path are SBX_E_PATH_ESCAPE); needs
 * SBX_CAP_CWD.
 */
SBX_API int sbx_cmd_set_cwd(sbx_cmd *cmd, const char *cwd);
/**
 * An absolute working directory inside the sandbox, any directory of it
 * (copied; `..` is SBX_E_PATH_ESCAPE, a relative path SBX_E_BAD_PATH);
 * replaces sbx_cmd_set_cwd()'s (and it this). The exec needs
 * SBX_CAP_CWD_ABS (else SBX_E_CAP_CWD, nothing run). Since 0.1.0.
 */
SBX_API int sbx_cmd_set_cwd_abs(sbx_cmd *cmd, const char *cwd);
/** Bytes fed to standard input, then EOF (copied); needs SBX_CAP_STDIN. */
SBX_API int sbx_cmd_set_stdin(sbx_cmd *cmd, const void *data, size_t len);
/**
 * Stream what descriptor fd gives to standard input as it arrives, then EOF
 * when fd reaches end-of-file; needs SBX_CAP_STDIN. fd is not owned: it must
 * stay open until the exec returns and is never closed. Replaces
 * sbx_cmd_set_stdin() (and it this). A command with one may run in one exec
 * at a time. Since 0.1.0.
 */
SBX_API int sbx_cmd_set_stdin_fd(sbx_cmd *cmd, int fd);
/**
 * Run the command on a pseudo-terminal of rows x cols (0: 24 x 80), as its
 * controlling terminal, its stdin, stdout and stderr; its output arrives as
 * stdout alone. Needs SBX_CAP_PTY (else SBX_E_CAP_PTY, nothing run).
 * Since 0.1.0.
 */
SBX_API int sbx_cmd_set_pty(sbx_cmd *cmd, uint16_t rows, uint16_t cols);
/**
 * With sbx_cmd_set_pty(): descriptor fd polls readable when the caller's
 * window size changed; the backend then calls winsize(userdata, ...), which
 * gives the new size (and clears fd's readiness) and returns 0, and resizes
 * the terminal. fd is not owned. Since 0.1.0.
 */
SBX_API int sbx_cmd_set_pty_resize(sbx_cmd *cmd, int fd,
                                   int (*winsize)(void *userdata, uint16_t *rows, uint16_t *cols),
                                   void *userdata);
/** Timeout in ms (0 = the policy's); the smaller of the two applies. Needs SBX_CAP_TIMEOUT. */
SBX_API int sbx_cmd_set_timeout(sbx_cmd *cmd, uint64_t ms);
/** Per-stream capture cap in bytes; the smaller of this and the policy's applies. */
SBX_API int sbx_cmd_set_output_cap(sbx_cmd *cmd, size_t bytes);

/*
 * Cancelling a command. An sbx_cancel is a one-way switch: once triggered
 * it stays triggered. An exec of a command that carries one
 * (sbx_cmd_set_cancel()) is stopped when it is triggered: the command and
 * every process it started are killed, and sbx_exec(), sbx_exec_stream(),
 * sbx_run() and sbx_run_stream() return SBX_E_EXEC_CANCELLED with no
 * result; the sbx_run() forms also destroy their sandbox first, so nothing
 * of it remains. A cancel already triggered when the exec starts makes it
 * return SBX_E_EXEC_CANCELLED without running anything (sbx_run() creates
 * no sandbox). One cancel may serve several commands and execs at once:
 * triggering stops them all.
 *
 * How fast: a backend of plugin ABI minor 2 or later (local, docker, fake)
 * watches the cancel itself and stops a command at once, even one that
 * writes nothing. With an older plugin the core can only stop the command
 * at its next output or stdin chunk, or its timeout: a silent command then
 * runs on until it ends (sbx_run() still destroys the sandbox and returns
 * SBX_E_EXEC_CANCELLED when it does).
 */

/** sbx_cancel_new - a cancel, not triggered. Free with sbx_cancel_free(). */
SBX_API int sbx_cancel_new(sbx_cancel **out);
/** Free a cancel. NULL ignored. No exec may be using it any more. */
SBX_API void sbx_cancel_free(sbx_cancel *c);
/**
 * sbx_cancel_trigger - stop every exec using c, now and later. Async-signal-
 * safe (call it from a signal handler), thread-safe, idempotent; keeps
 * errno, and records no error detail. Returns SBX_OK, SBX_E_INVALID_ARGUMENT
 * for NULL.
 */
SBX_API int sbx_cancel_trigger(sbx_cancel *c);
/** 1 once c was triggered, else 0 (also for NULL). Async-signal-safe. */
SBX_API int sbx_cancel_triggered(const sbx_cancel *c);
/**
 * sbx_cmd_set_cancel - execs of cmd watch c (NULL: none). Not owned: c must
 * outlive every exec of cmd.
 */
SBX_API int sbx_cmd_set_cancel(sbx_cmd *cmd, sbx_cancel *c);

/**
 * sbx_exec - run cmd in sandbox, wait, and capture its output.
 *
 * Returns SBX_OK when the command ran, whatever its exit status: a timeout, a
 * signal or an OOM kill are in the result, not the return code. *out is
 * freed with sbx_result_free().
 * Errors: SBX_E_SANDBOX_DESTROYED, SBX_E_CAP_* / SBX_E_POLICY_* when the
 * command needs a capability the backend lacks, SBX_E_EXEC_NOT_FOUND (no such
 * program), SBX_E_EXEC_DENIED (not executable), SBX_E_EXEC_START (another
 * start failure, such as a missing working directory), SBX_E_EXEC_CANCELLED (see sbx_cmd_set_cancel()), 4xxx.
 */
SBX_API int sbx_exec(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd);

/**
 * Output callback of sbx_exec_stream(): stream is SBX_STDOUT or SBX_STDERR.
 * Return 0 to go on; non-zero kills the command, and sbx_exec_stream()
 * returns SBX_E_EXEC_ABORTED. Called from the thread that called
 * sbx_exec_stream(), never concurrently for one exec.
 */
typedef int (*sbx_output_cb)(void *userdata, int stream, const void *data, size_t len);

/**
 * sbx_exec_stream - like sbx_exec() but output goes to cb as it comes and is
 * not captured (no cap applies; the result's buffers are empty). Needs
 * SBX_CAP_STREAM.
 */
SBX_API int sbx_exec_stream(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd,
                            sbx_output_cb cb, void *userdata);

/**
 * sbx_run - create a sandbox from dsn and policy (NULL = defaults), run cmd
 * in it, capture its output as sbx_exec() does, and destroy it: the one-shot
 * `sandboxio run`. Same checks as sbx_sandbox_open() then sbx_exec(), before
 * anything is created. A backend may do all three in one go, faster (the
 * docker backend makes the command the container's own process instead of
 * an exec into it); otherwise the core opens, execs and destroys.
 *
 * Returns SBX_OK when the command ran, whatever its exit status, and nothing
 * of the sandbox remains. Errors: those of sbx_sandbox_open() and sbx_exec();
 * if the sandbox could not be destroyed, that error (it outranks the
 * command's: something may be left behind, see sbx_client_gc()) and no
 * result. The result's duration covers the sandbox's whole life.
 * Thread-safe for distinct commands; client may be shared.
 */
SBX_API int sbx_run(sbx_result **out, sbx_client *client, const char *dsn,
                    const sbx_policy *policy, const sbx_cmd *cmd);

/**
 * sbx_run_stream - sbx_run() with the output going to cb as it comes, as in
 * sbx_exec_stream(). Needs SBX_CAP_STREAM.
 */
SBX_API int sbx_run_stream(sbx_result **out, sbx_client *client, const char *dsn,
                           const sbx_policy *policy, const sbx_cmd *cmd, sbx_output_cb cb,
                           void *userdata);

/**
 * sbx_run_live - sbx_run_stream() where the backend streams (SBX_CAP_STREAM),
 * else sbx_run(): the output is then captured into the result and cb is never
 * called; sbx_result_streamed() says which happened. The sandbox is prepared
 * once either way (trying sbx_run_stream() then sbx_run() loads and probes the
 * backend twice). Errors: those of sbx_run(), never SBX_E_CAP_STREAM.
 */
SBX_API int sbx_run_live(sbx_result **out, sbx_client *client, const char *dsn,
                         const sbx_policy *policy, const sbx_cmd *cmd, sbx_output_cb cb,
                         void *userdata);

/*
 * The options form of an exec. The caller picks what happens to the
 * command's output: captured into the result (under the output cap, as
 * sbx_exec() does), streamed to an observer as it comes (as
 * sbx_exec_stream()), or both: the observer sees every byte, the cap
 * included, and the result holds what fits under the cap, with the
 * truncated flags set for the rest. One call, one preparation of the
 * backend, whatever the choice. Since 0.1.0.
 */

/* sbx_exec_opts.flags */
/** Capture the output into the result, up to the output cap. */
#define SBX_EXEC_CAPTURE 0x1u
/** Give the output to opts.observer as it comes. Needs SBX_CAP_STREAM. */
#define SBX_EXEC_STREAM 0x2u
/**
 * With SBX_EXEC_STREAM: a backend without SBX_CAP_STREAM captures instead
 * (the observer is never called, sbx_result_streamed() is 0) rather than
 * refuse with SBX_E_CAP_STREAM; what sbx_run_live() does.
 */
#define SBX_EXEC_STREAM_IF_ABLE 0x4u

/** The version of sbx_exec_opts this header describes. */
#define SBX_EXEC_OPTS_VERSION 1

/*
 * Options of sbx_exec_ext() and sbx_run_ext(). Initialize with
 * SBX_EXEC_OPTS_INIT or sbx_exec_opts_init(), then set members: a later
 * version only appends members, and version tells the library how many
 * the caller knows.
 */
typedef struct sbx_exec_opts {
    unsigned int version;      /* SBX_EXEC_OPTS_VERSION */
    unsigned int flags;        /* SBX_EXEC_CAPTURE, SBX_EXEC_STREAM, SBX_EXEC_STREAM_IF_ABLE */
    sbx_output_cb observer;    /* with SBX_EXEC_STREAM (required then), else NULL */
    void *userdata;            /* passed to observer */
} sbx_exec_opts;

/** Capture only, no observer: what sbx_exec() does. */
#define SBX_EXEC_OPTS_INIT {SBX_EXEC_OPTS_VERSION, SBX_EXEC_CAPTURE, NULL, NULL}

/**
 * sbx_exec_opts_init - set opts to SBX_EXEC_OPTS_INIT for the given version
 * (pass SBX_EXEC_OPTS_VERSION). Returns SBX_OK, SBX_E_INVALID_ARGUMENT for
 * NULL or a version this library does not know.
 */
SBX_API int sbx_exec_opts_init(sbx_exec_opts *opts, unsigned int version);

/**
 * sbx_exec_ext - sbx_exec() with options: capture, stream to an observer,
 * or both (see sbx_exec_opts). opts NULL means SBX_EXEC_OPTS_INIT.
 * The observer is called as sbx_exec_stream()'s callback is; non-zero
 * from it kills the command (SBX_E_EXEC_ABORTED). sbx_result_streamed()
 * is 1 when the observer got the output.
 * Errors: those of sbx_exec(); SBX_E_CAP_STREAM for SBX_EXEC_STREAM
 * without SBX_EXEC_STREAM_IF_ABLE on a backend that cannot stream;
 * SBX_E_INVALID_ARGUMENT for an unknown version or flag, neither
 * SBX_EXEC_CAPTURE nor SBX_EXEC_STREAM, SBX_EXEC_STREAM without an
 * observer, or an observer without SBX_EXEC_STREAM.
 */
SBX_API int sbx_exec_ext(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd,
                         const sbx_exec_opts *opts);

/**
 * sbx_run_ext - sbx_run() with options, as sbx_exec_ext(): one sandbox
 * made for the command and destroyed after, its backend prepared once.
 * Errors: those of sbx_run() and sbx_exec_ext().
 */
SBX_API int sbx_run_ext(sbx_result **out, sbx_client *client, const char *dsn,
                        const sbx_policy *policy, const sbx_cmd *cmd, const sbx_exec_opts *opts);

SBX_API void sbx_result_free(sbx_result *result);
/** 1 if the command exited normally (see sbx_result_exit_code()), 0 if killed by a signal. */
SBX_API int sbx_result_exited(const sbx_result *result);
/** Exit status 0..255 when exited, else -1. */
SBX_API int sbx_result_exit_code(const sbx_result *result);
/** Signal number that killed it, else 0. */
SBX_API int sbx_result_signal(const sbx_result *result);
/** 1 if the timeout killed it. */
SBX_API int sbx_result_timed_out(const sbx_result *result);
/** 1 if the backend reports it was killed for exceeding the memory limit. */
SBX_API int sbx_result_oom_killed(const sbx_result *result);
/**
 * How many connections the sandbox's network policy refused while the
 * command ran: under --network allowlist on local, each refusal of the
 * egress proxy (also logged). 0 when none, or where the backend counts
 * none. An exec running at the same time in the same sandbox is counted too.
 */
SBX_API uint64_t sbx_result_net_refused(const sbx_result *result);
/** Captured stdout; *len gets its length. Not NUL-terminated safe: binary. Valid while result lives. */
SBX_API const void *sbx_result_stdout(const sbx_result *result, size_t *len);
SBX_API const void *sbx_result_stderr(const sbx_result *result, size_t *len);
/** 1 if stream (SBX_STDOUT / SBX_STDERR) lost bytes to the output cap. */
SBX_API int sbx_result_truncated(const sbx_result *result, int stream);
/** Wall-clock duration of the exec (of the whole sandbox for sbx_run()) in nanoseconds. */
SBX_API uint64_t sbx_result_duration_ns(const sbx_result *result);
/*
 * Where it ran, as the sandbox said at the time (sbx_sandbox_backend(),
 * _tier(), _dsn()): valid while result lives, also after the sandbox and the
 * client are freed, so a caller of sbx_run() needs no second look at the DSN
 * or the backend. "" / SBX_TIER_UNKNOWN for a NULL result.
 */
/** Name of the plugin that ran it ("local"). */
SBX_API const char *sbx_result_backend(const sbx_result *result);
/** Isolation tier of the sandbox it ran in (an sbx_tier). */
SBX_API int sbx_result_tier(const sbx_result *result);
/**
 * Capabilities of the sandbox it ran in (sbx_sandbox_caps()): with the
 * policy, sbx_policy_limit() tells the limits it ran under. 0 for NULL.
 */
SBX_API uint64_t sbx_result_caps(const sbx_result *result);
/** The DSN of its sandbox, redacted (secrets never appear). */
SBX_API const char *sbx_result_dsn(const sbx_result *result);
/**
 * 1 if the output went to a callback or observer as it came, else 0. Then
 * nothing was captured, unless sbx_exec_ext() or sbx_run_ext() asked for
 * SBX_EXEC_CAPTURE too.
 */
SBX_API int sbx_result_streamed(const sbx_result *result);

#ifdef __cplusplus
}
#endif
#endif
