/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running a command, in an open sandbox or in a sandbox made for one
 * command (sbx_run()). The core owns what is the same on every backend:
 * the capability checks, the environment actually passed (nothing
 * inherited), the effective timeout, and the output cap with its truncated
 * flag; the plugin only runs the command and streams its output. Every
 * entry point (sbx_exec(), sbx_exec_stream(), sbx_run(), sbx_run_stream(),
 * sbx_run_live() and the options forms) comes down to run() with a
 * checked sbx_exec_opts.
 */
#include "exec_internal.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sbxu/clock.h>

/* The smaller of two limits where 0 means "none". */
static uint64_t min_limit(uint64_t a, uint64_t b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return a < b ? a : b;
}

/* Everything an exec needs once the checks have passed. */
typedef struct exec_plan {
    sbx_strvec envp;
    sbx_plugin_cmd pcmd;
    size_t cap;
} exec_plan;

/* sb not NULL; oneshot: sb is only prepared (sbx_run()), not an open sandbox. */
static int plan_exec(const sbx_sandbox *sb, const sbx_cmd *cmd, bool stream, bool oneshot,
                     exec_plan *plan)
{
    memset(plan, 0, sizeof(*plan));
    int rc = oneshot ? SBX_OK : sbx__sandbox_usable(sb);
    if (rc)
        return rc;
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "command is NULL");
    uint64_t timeout = min_limit(sb->policy.timeout_ms, cmd->timeout_ms);
    /* Refuse before anything runs when a needed capability is missing. */
    if ((rc = sbx__sandbox_need(sb, SBX_CAP_EXEC)) ||
        (stream && (rc = sbx__sandbox_need(sb, SBX_CAP_STREAM))) ||
        ((cmd->env.n || sb->policy.env.n) && (rc = sbx__sandbox_need(sb, SBX_CAP_ENV))) ||
        (cmd->cwd && (rc = sbx__sandbox_need(sb, SBX_CAP_CWD))) ||
        (cmd->cwd && cmd->cwd[0] == '/' && (rc = sbx__sandbox_need(sb, SBX_CAP_CWD_ABS))) ||
        (cmd->has_stdin && (rc = sbx__sandbox_need(sb, SBX_CAP_STDIN))) ||
        (cmd->pty && (rc = sbx__sandbox_need(sb, SBX_CAP_PTY))) ||
        (timeout && (rc = sbx__sandbox_need(sb, SBX_CAP_TIMEOUT))))
        return rc;
    if ((rc = sbx__strvec_copy(&plan->envp, &sb->policy.env)) != SBX_OK)
        return rc;
    for (size_t i = 0; i < cmd->env.n; i++) {
        char *eq = strchr(cmd->env.v[i], '=');
        *eq = '\0';
        rc = sbx__strvec_push_kv(&plan->envp, cmd->env.v[i], eq + 1);
        *eq = '=';
        if (rc) {
            sbx__strvec_clear(&plan->envp);
            return rc;
        }
    }
    static const char *const empty_env[] = {NULL};
    plan->pcmd = (sbx_plugin_cmd){
        .struct_size = sizeof(sbx_plugin_cmd),
        .argv = (const char *const *)cmd->argv.v,
        .envp = plan->envp.v ? (const char *const *)plan->envp.v : empty_env,
        .cwd = cmd->cwd,
        .timeout_ms = timeout,
        .flags = cmd->pty ? SBX_PLUGIN_CMD_PTY : 0,
        .rows = cmd->pty ? cmd->rows : 0,
        .cols = cmd->pty ? cmd->cols : 0,
    };
    plan->cap = sb->policy.output_cap;
    if (cmd->has_output_cap)
        plan->cap = min_limit(plan->cap, cmd->output_cap ? cmd->output_cap : 0);
    return SBX_OK;
}

typedef struct exec_io {
    const sbx_cmd *cmd;
    size_t stdin_off;
    sbx_result *result;
    size_t cap;               /* 0 = unlimited */
    sbx_output_cb user_cb;    /* streaming */
    void *user_ud;
    int failure;              /* an allocation failed while capturing */
} exec_io;

/*
 * The callbacks also stop the command once the cancel is triggered: that is
 * all the core can do with a plugin older than minor 2, which does not
 * watch cancel_fd.
 */
/*
 * Streamed stdin: what the descriptor has now. The plugin polls it first
 * (input_ready_fd), so a read seldom waits; one that would (a non-blocking
 * descriptor that another reader emptied) waits here rather than report a
 * false EOF.
 */
static long io_input_fd(int fd, void *buf, size_t len)
{
    for (;;) {
        ssize_t n = read(fd, buf, len);
        if (n >= 0)
            return (long)n;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            struct pollfd p = {.fd = fd, .events = POLLIN};
            if (poll(&p, 1, -1) < 0 && errno != EINTR)
                return -1;
        } else if (errno != EINTR) {
            return -1;
        }
    }
}

static long io_input(void *userdata, void *buf, size_t len)
{
    exec_io *io = userdata;
    if (sbx_cancel_triggered(io->cmd->cancel))
        return -1;
    if (io->cmd->stdin_fd >= 0)
        return io_input_fd(io->cmd->stdin_fd, buf, len);
    size_t left = io->cmd->stdin_data.len - io->stdin_off;
    size_t n = left < len ? left : len;
    if (n)
        memcpy(buf, io->cmd->stdin_data.data + io->stdin_off, n);
    io->stdin_off += n;
    return (long)n;
}

static int io_winsize(void *userdata, uint16_t *rows, uint16_t *cols)
{
    exec_io *io = userdata;
    return io->cmd->winsize(io->cmd->winsize_ud, rows, cols);
}

/* Keep what fits under the cap; past it, drop and say truncated. 1: no memory. */
static int capture(exec_io *io, int stream, const void *data, size_t len)
{
    if (stream != SBX_STDOUT && stream != SBX_STDERR)
        return 0;
    sbx_buf *b = &io->result->out[stream - 1];
    size_t take = len;
    if (io->cap && b->len + len > io->cap) {
        take = io->cap - b->len;
        io->result->truncated[stream - 1] = true;
    }
    if (sbx__buf_append(b, data, take)) {
        io->failure = SBX_E_NOMEM;
        return 1;
    }
    return 0;
}

static int io_capture(void *userdata, int stream, const void *data, size_t len)
{
    exec_io *io = userdata;
    if (sbx_cancel_triggered(io->cmd->cancel))
        return 1;
    return capture(io, stream, data, len);
}

static int io_stream(void *userdata, int stream, const void *data, size_t len)
{
    exec_io *io = userdata;
    if (sbx_cancel_triggered(io->cmd->cancel))
        return 1;
    return io->user_cb(io->user_ud, stream, data, len);
}

/* Both: the result keeps what fits, the observer sees every byte. */
static int io_capture_stream(void *userdata, int stream, const void *data, size_t len)
{
    exec_io *io = userdata;
    if (sbx_cancel_triggered(io->cmd->cancel) || capture(io, stream, data, len))
        return 1;
    return io->user_cb(io->user_ud, stream, data, len);
}

/*
 * sbx_run() without a one-shot path in the plugin: open, exec, destroy. The
 * error object keeps exec's error unless destroy fails, which outranks it:
 * the sandbox may be left behind.
 */
static int open_exec_destroy(sbx_sandbox *sb, const sbx_plugin_cmd *pcmd,
                             const sbx_plugin_io *io, const sbx_cancel *cancel,
                             sbx_plugin_exit *exit_out)
{
    int rc = sbx__sandbox_create(sb);
    if (rc)
        return rc;
    /* Cancelled while the sandbox was being made: do not start the command. */
    if (sbx_cancel_triggered(cancel))
        rc = SBX_E_EXEC_CANCELLED;
    else
        rc = sb->plugin->desc->exec(sb->handle, pcmd, io, exit_out);
    int destroyed = sb->plugin->desc->destroy(sb->handle);
    sb->handle = NULL;
    sb->destroyed = true;
    if (destroyed)
        return sbx__error_ensure(destroyed, "destroying the sandbox");
    return rc;
}

/*
 * Once the cancel was triggered the exec ends as cancelled, whatever the
 * plugin made of it: an old plugin sees only the callbacks' stop (ABORTED),
 * or lets a silent command finish (OK). Other failures keep their code.
 */
static int cancel_outcome(int rc, const sbx_cancel *cancel, const char *scheme)
{
    if (!sbx_cancel_triggered(cancel))
        return rc;
    if (rc == SBX_E_EXEC_CANCELLED)
        return sbx__error_ensure(rc, "the command was cancelled"); /* the plugin's detail */
    if (rc != SBX_OK && rc != SBX_E_EXEC_ABORTED)
        return rc;
    return sbx__error_set(SBX_E_EXEC_CANCELLED, "%s: the command was cancelled", scheme);
}

/* The plugin call that runs the planned command. */
static int call_plugin(sbx_sandbox *sb, bool oneshot, const sbx_plugin_cmd *pcmd,
                       const sbx_plugin_io *io, const sbx_cancel *cancel,
                       sbx_plugin_exit *exit_out)
{
    if (!oneshot)
        return sb->plugin->desc->exec(sb->handle, pcmd, io, exit_out);
    if (!SBX_PLUGIN_HAS(sb->plugin->desc, run))
        return open_exec_destroy(sb, pcmd, io, cancel, exit_out);
    sbx_plugin_limits limits;
    sbx__sandbox_limits(sb, &limits);
    return sb->plugin->desc->run(sb->plugin->state, &sb->dsn->view, &limits, pcmd, io, exit_out);
}

/*
 * The output choice of opts, checked: NULL is capture alone. Members a
 * later version appends would be read only when opts->version covers them.
 */
static int opts_check(const sbx_exec_opts *opts)
{
    const unsigned known = SBX_EXEC_CAPTURE | SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE;
    if (!opts)
        return SBX_OK;
    if (opts->version < 1 || opts->version > SBX_EXEC_OPTS_VERSION)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_exec_opts: version %u is not 1..%u",
                              opts->version, (unsigned)SBX_EXEC_OPTS_VERSION);
    if (opts->flags & ~known)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_exec_opts: unknown flags 0x%x",
                              opts->flags & ~known);
    if (!(opts->flags & (SBX_EXEC_CAPTURE | SBX_EXEC_STREAM)))
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_exec_opts: neither SBX_EXEC_CAPTURE nor SBX_EXEC_STREAM");
    if (!(opts->flags & SBX_EXEC_STREAM) != !opts->observer)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_exec_opts: SBX_EXEC_STREAM and an observer go together");
    return SBX_OK;
}

static const sbx_exec_opts capture_only = SBX_EXEC_OPTS_INIT;

/* opts checked (opts_check()); oneshot: sb is only prepared (sbx_run()). */
static int run(sbx_result **out, sbx_sandbox *sb, const sbx_cmd *cmd, const sbx_exec_opts *opts,
               bool oneshot)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "result out-pointer is NULL");
    *out = NULL;
    if (!sb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sandbox is NULL");
    sbx_output_cb cb = opts->observer;
    bool capture = opts->flags & SBX_EXEC_CAPTURE;
    /* A backend that cannot stream captures instead, when that is allowed. */
    if (cb && (opts->flags & SBX_EXEC_STREAM_IF_ABLE) && !(sb->caps & SBX_CAP_STREAM)) {
        cb = NULL;
        capture = true;
    }
    exec_plan plan;
    int rc = plan_exec(sb, cmd, cb != NULL, oneshot, &plan);
    if (rc)
        return rc;
    sbx_result *r = sbx__result_new(sb, cb != NULL);
    if (!r) {
        sbx__strvec_clear(&plan.envp);
        return sbx__error_set(SBX_E_NOMEM, "out of memory for the result");
    }
    exec_io eio = {.cmd = cmd, .result = r, .cap = plan.cap, .user_cb = cb, .user_ud = opts->userdata};
    sbx_plugin_io io = {
        .struct_size = sizeof(io),
        .userdata = &eio,
        .output = !cb ? io_capture : capture ? io_capture_stream : io_stream,
        .input = cmd->has_stdin ? io_input : NULL,
        .cancel_fd = sbx__cancel_fd(cmd->cancel),
        /* -1, never 0: a zero here would be a plugin polling our stdin. */
        .input_ready_fd = cmd->has_stdin ? cmd->stdin_fd : -1,
        .resize_fd = cmd->pty && cmd->winsize ? cmd->resize_fd : -1,
        .winsize = cmd->pty && cmd->winsize ? io_winsize : NULL,
    };
    r->exit.struct_size = sizeof(r->exit);
    uint64_t start = sbxu_mono_ns();
    sbx_error_clear();
    if (sbx_cancel_triggered(cmd->cancel))
        rc = SBX_E_EXEC_CANCELLED; /* nothing is started, nothing created */
    else
        rc = call_plugin(sb, oneshot, &plan.pcmd, &io, cmd->cancel, &r->exit);
    r->duration_ns = sbxu_mono_ns() - start;
    sbx__strvec_clear(&plan.envp);
    if (eio.failure)
        rc = sbx__error_set(eio.failure, "out of memory capturing the command's output");
    rc = cancel_outcome(rc, cmd->cancel, sb->plugin->scheme);
    if (rc) {
        sbx__error_ensure(rc, "running the command");
        sbx_result_free(r);
        return rc;
    }
    *out = r;
    return SBX_OK;
}

int sbx_exec_opts_init(sbx_exec_opts *opts, unsigned int version)
{
    if (!opts || version < 1 || version > SBX_EXEC_OPTS_VERSION)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_exec_opts_init: NULL or version %u", version);
    *opts = capture_only;
    return SBX_OK;
}

int sbx_exec_ext(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd,
                 const sbx_exec_opts *opts)
{
    int rc = opts_check(opts);
    if (rc) {
        if (out)
            *out = NULL;
        return rc;
    }
    return run(out, sandbox, cmd, opts ? opts : &capture_only, false);
}

int sbx_exec(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd)
{
    return run(out, sandbox, cmd, &capture_only, false);
}

int sbx_exec_stream(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd,
                    sbx_output_cb cb, void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_exec_stream: callback is NULL");
    sbx_exec_opts opts = {SBX_EXEC_OPTS_VERSION, SBX_EXEC_STREAM, cb, userdata};
    return run(out, sandbox, cmd, &opts, false);
}

/* A sandbox for one command: prepared like an open, created by the run. */
static int run_once(sbx_result **out, sbx_client *client, const char *dsn,
                    const sbx_policy *policy, const sbx_cmd *cmd, const sbx_exec_opts *opts)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "result out-pointer is NULL");
    *out = NULL;
    if (!client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_run: NULL argument");
    sbx_sandbox *sb;
    int rc = sbx__sandbox_prepare(&sb, client, dsn, policy);
    if (rc == SBX_OK)
        rc = run(out, sb, cmd, opts, true);
    sbx_sandbox_free(sb);
    return rc;
}

int sbx_run_ext(sbx_result **out, sbx_client *client, const char *dsn, const sbx_policy *policy,
                const sbx_cmd *cmd, const sbx_exec_opts *opts)
{
    int rc = opts_check(opts);
    if (rc) {
        if (out)
            *out = NULL;
        return rc;
    }
    return run_once(out, client, dsn, policy, cmd, opts ? opts : &capture_only);
}

int sbx_run(sbx_result **out, sbx_client *client, const char *dsn, const sbx_policy *policy,
            const sbx_cmd *cmd)
{
    return run_once(out, client, dsn, policy, cmd, &capture_only);
}

int sbx_run_stream(sbx_result **out, sbx_client *client, const char *dsn,
                   const sbx_policy *policy, const sbx_cmd *cmd, sbx_output_cb cb,
                   void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_run_stream: callback is NULL");
    sbx_exec_opts opts = {SBX_EXEC_OPTS_VERSION, SBX_EXEC_STREAM, cb, userdata};
    return run_once(out, client, dsn, policy, cmd, &opts);
}

/* One preparation (plugin, probe, policy) whether the backend streams or not. */
int sbx_run_live(sbx_result **out, sbx_client *client, const char *dsn, const sbx_policy *policy,
                 const sbx_cmd *cmd, sbx_output_cb cb, void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_run_live: callback is NULL");
    sbx_exec_opts opts = {SBX_EXEC_OPTS_VERSION, SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE, cb,
                          userdata};
    return run_once(out, client, dsn, policy, cmd, &opts);
}
