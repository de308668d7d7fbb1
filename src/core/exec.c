/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Commands and their results, in an open sandbox or in a sandbox made for
 * one command (sbx_run()). The core owns what is the same on every
 * backend: the capability checks, the environment actually passed (nothing
 * inherited), the effective timeout, and the output cap with its truncated
 * flag; the plugin only runs the command and streams its output.
 */
#include "internal.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct sbx_cmd {
    sbx_strvec argv;
    sbx_strvec env;
    char *cwd;
    sbx_buf stdin_data;
    bool has_stdin;
    int stdin_fd;             /* streamed stdin (not owned); -1 = stdin_data */
    bool pty;                 /* run on a pseudo-terminal of rows x cols */
    uint16_t rows, cols;
    int resize_fd;            /* readable when the size changed (not owned); -1 = fixed */
    int (*winsize)(void *userdata, uint16_t *rows, uint16_t *cols);
    void *winsize_ud;
    uint64_t timeout_ms;
    size_t output_cap;
    bool has_output_cap;
    sbx_cancel *cancel;       /* not owned; NULL = none */
};

struct sbx_result {
    sbx_plugin_exit exit;
    sbx_buf out[2];        /* stdout, stderr */
    bool truncated[2];
    uint64_t duration_ns;
    /* Where it ran, copied: the result may outlive its sandbox and client. */
    char *backend;
    char *dsn;             /* redacted */
    int tier;
    uint64_t caps;         /* of the sandbox, as probed when it was made */
    bool streamed;         /* output went to the callback, not captured */
};

int sbx_cmd_new(sbx_cmd **out, const char *const *argv)
{
    if (!out || !argv || !argv[0] || !argv[0][0])
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "sbx_cmd_new: argv must hold a non-empty program name");
    sbx_cmd *cmd = sbx__calloc(1, sizeof(*cmd));
    if (!cmd)
        return SBX_E_NOMEM;
    cmd->stdin_fd = -1;
    cmd->resize_fd = -1;
    for (size_t i = 0; argv[i]; i++) {
        int rc = sbx__strvec_push(&cmd->argv, argv[i]);
        if (rc) {
            sbx_cmd_free(cmd);
            return rc;
        }
    }
    *out = cmd;
    return SBX_OK;
}

void sbx_cmd_free(sbx_cmd *cmd)
{
    if (!cmd)
        return;
    sbx__strvec_clear(&cmd->argv);
    sbx__strvec_clear(&cmd->env);
    free(cmd->cwd);
    sbx__buf_clear(&cmd->stdin_data);
    free(cmd);
}

int sbx_cmd_set_env(sbx_cmd *cmd, const char *name, const char *value)
{
    if (!cmd || !sbx__env_name_ok(name) || !value)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT,
                              "environment name must be non-empty without '=', value non-NULL");
    return sbx__strvec_push_kv(&cmd->env, name, value);
}

int sbx_cmd_set_cwd(sbx_cmd *cmd, const char *cwd)
{
    if (!cmd || !cwd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_cwd: NULL argument");
    char *clean = NULL;
    int rc = sbx__path_clean(cwd, true, &clean);
    if (rc)
        return rc;
    free(cmd->cwd);
    cmd->cwd = clean;
    return SBX_OK;
}

int sbx_cmd_set_cwd_abs(sbx_cmd *cmd, const char *cwd)
{
    if (!cmd || !cwd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_cwd_abs: NULL argument");
    if (cwd[0] != '/')
        return sbx__error_set(SBX_E_BAD_PATH,
                              "working directory '%s' is not absolute (sbx_cmd_set_cwd() "
                              "takes one relative to the work directory)", cwd);
    /* The same cleaning as a relative one: no '..', no '.', no empty parts. */
    char *rel = NULL;
    int rc = sbx__path_clean(cwd + strspn(cwd, "/"), true, &rel);
    if (rc)
        return rc;
    size_t n = strlen(rel);
    char *clean = malloc(n + 2);
    if (!clean) {
        free(rel);
        return sbx__error_set(SBX_E_NOMEM, "out of memory");
    }
    clean[0] = '/';
    memcpy(clean + 1, rel, n + 1);
    free(rel);
    free(cmd->cwd);
    cmd->cwd = clean;
    return SBX_OK;
}

int sbx_cmd_set_stdin(sbx_cmd *cmd, const void *data, size_t len)
{
    if (!cmd || (!data && len))
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_stdin: bad argument");
    sbx__buf_clear(&cmd->stdin_data);
    cmd->has_stdin = true;
    cmd->stdin_fd = -1;
    return sbx__buf_append(&cmd->stdin_data, data, len);
}

int sbx_cmd_set_stdin_fd(sbx_cmd *cmd, int fd)
{
    if (!cmd || fd < 0)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_stdin_fd: bad argument");
    sbx__buf_clear(&cmd->stdin_data);
    cmd->has_stdin = true;
    cmd->stdin_fd = fd;
    return SBX_OK;
}

int sbx_cmd_set_pty(sbx_cmd *cmd, uint16_t rows, uint16_t cols)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_pty: cmd is NULL");
    cmd->pty = true;
    cmd->rows = rows;
    cmd->cols = cols;
    return SBX_OK;
}

int sbx_cmd_set_pty_resize(sbx_cmd *cmd, int fd,
                           int (*winsize)(void *userdata, uint16_t *rows, uint16_t *cols),
                           void *userdata)
{
    if (!cmd || fd < 0 || !winsize)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_pty_resize: bad argument");
    cmd->resize_fd = fd;
    cmd->winsize = winsize;
    cmd->winsize_ud = userdata;
    return SBX_OK;
}

int sbx_cmd_set_timeout(sbx_cmd *cmd, uint64_t ms)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_timeout: cmd is NULL");
    cmd->timeout_ms = ms;
    return SBX_OK;
}

int sbx_cmd_set_output_cap(sbx_cmd *cmd, size_t bytes)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_output_cap: cmd is NULL");
    cmd->output_cap = bytes;
    cmd->has_output_cap = true;
    return SBX_OK;
}

int sbx_cmd_set_cancel(sbx_cmd *cmd, sbx_cancel *c)
{
    if (!cmd)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cmd_set_cancel: cmd is NULL");
    cmd->cancel = c;
    return SBX_OK;
}

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

/* oneshot: sb is only prepared (sbx_run()), not an open sandbox. */
static int plan_exec(const sbx_sandbox *sb, const sbx_cmd *cmd, bool stream, bool oneshot,
                     exec_plan *plan)
{
    memset(plan, 0, sizeof(*plan));
    if (!sb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sandbox is NULL");
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

static int io_capture(void *userdata, int stream, const void *data, size_t len)
{
    exec_io *io = userdata;
    if (sbx_cancel_triggered(io->cmd->cancel))
        return 1;
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

static int io_stream(void *userdata, int stream, const void *data, size_t len)
{
    exec_io *io = userdata;
    if (sbx_cancel_triggered(io->cmd->cancel))
        return 1;
    return io->user_cb(io->user_ud, stream, data, len);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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

/* A result that knows where it ran: backend, tier and redacted DSN. */
static sbx_result *result_new(const sbx_sandbox *sb, bool streamed)
{
    sbx_result *r = sbx__calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    r->tier = sb->tier;
    r->caps = sb->caps;
    r->streamed = streamed;
    r->backend = sbx__strdup(sbx_sandbox_backend(sb));
    r->dsn = sbx__strdup(sbx_sandbox_dsn(sb));
    if (!r->backend || !r->dsn) {
        sbx_result_free(r);
        return NULL;
    }
    return r;
}

/* capture_fallback: a backend that cannot stream captures instead (sbx_run_live()). */
static int run(sbx_result **out, sbx_sandbox *sb, const sbx_cmd *cmd, sbx_output_cb cb, void *ud,
               bool oneshot, bool capture_fallback)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "result out-pointer is NULL");
    *out = NULL;
    if (capture_fallback && sb && !(sb->caps & SBX_CAP_STREAM))
        cb = NULL;
    exec_plan plan;
    int rc = plan_exec(sb, cmd, cb != NULL, oneshot, &plan);
    if (rc)
        return rc;
    sbx_result *r = result_new(sb, cb != NULL);
    if (!r) {
        sbx__strvec_clear(&plan.envp);
        return sbx__error_set(SBX_E_NOMEM, "out of memory for the result");
    }
    exec_io eio = {.cmd = cmd, .result = r, .cap = plan.cap, .user_cb = cb, .user_ud = ud};
    sbx_plugin_io io = {
        .struct_size = sizeof(io),
        .userdata = &eio,
        .output = cb ? io_stream : io_capture,
        .input = cmd->has_stdin ? io_input : NULL,
        .cancel_fd = sbx__cancel_fd(cmd->cancel),
        /* -1, never 0: a zero here would be a plugin polling our stdin. */
        .input_ready_fd = cmd->has_stdin ? cmd->stdin_fd : -1,
        .resize_fd = cmd->pty && cmd->winsize ? cmd->resize_fd : -1,
        .winsize = cmd->pty && cmd->winsize ? io_winsize : NULL,
    };
    r->exit.struct_size = sizeof(r->exit);
    uint64_t start = now_ns();
    sbx_error_clear();
    if (sbx_cancel_triggered(cmd->cancel))
        rc = SBX_E_EXEC_CANCELLED; /* nothing is started, nothing created */
    else
        rc = call_plugin(sb, oneshot, &plan.pcmd, &io, cmd->cancel, &r->exit);
    r->duration_ns = now_ns() - start;
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

int sbx_exec(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd)
{
    return run(out, sandbox, cmd, NULL, NULL, false, false);
}

int sbx_exec_stream(sbx_result **out, sbx_sandbox *sandbox, const sbx_cmd *cmd,
                    sbx_output_cb cb, void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_exec_stream: callback is NULL");
    return run(out, sandbox, cmd, cb, userdata, false, false);
}

/* A sandbox for one command: prepared like an open, created by the run. */
static int run_once(sbx_result **out, sbx_client *client, const char *dsn,
                    const sbx_policy *policy, const sbx_cmd *cmd, sbx_output_cb cb, void *ud,
                    bool capture_fallback)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "result out-pointer is NULL");
    *out = NULL;
    if (!client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_run: NULL argument");
    sbx_sandbox *sb;
    int rc = sbx__sandbox_prepare(&sb, client, dsn, policy);
    if (rc == SBX_OK)
        rc = run(out, sb, cmd, cb, ud, true, capture_fallback);
    sbx_sandbox_free(sb);
    return rc;
}

int sbx_run(sbx_result **out, sbx_client *client, const char *dsn, const sbx_policy *policy,
            const sbx_cmd *cmd)
{
    return run_once(out, client, dsn, policy, cmd, NULL, NULL, false);
}

int sbx_run_stream(sbx_result **out, sbx_client *client, const char *dsn,
                   const sbx_policy *policy, const sbx_cmd *cmd, sbx_output_cb cb,
                   void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_run_stream: callback is NULL");
    return run_once(out, client, dsn, policy, cmd, cb, userdata, false);
}

/* One preparation (plugin, probe, policy) whether the backend streams or not. */
int sbx_run_live(sbx_result **out, sbx_client *client, const char *dsn, const sbx_policy *policy,
                 const sbx_cmd *cmd, sbx_output_cb cb, void *userdata)
{
    if (!cb)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_run_live: callback is NULL");
    return run_once(out, client, dsn, policy, cmd, cb, userdata, true);
}

void sbx_result_free(sbx_result *result)
{
    if (!result)
        return;
    sbx__buf_clear(&result->out[0]);
    sbx__buf_clear(&result->out[1]);
    free(result->backend);
    free(result->dsn);
    free(result);
}

int sbx_result_exited(const sbx_result *r)
{
    return r ? r->exit.exited : 0;
}

int sbx_result_exit_code(const sbx_result *r)
{
    return r && r->exit.exited ? r->exit.exit_code : -1;
}

int sbx_result_signal(const sbx_result *r)
{
    return r && !r->exit.exited ? r->exit.signal : 0;
}

int sbx_result_timed_out(const sbx_result *r)
{
    return r ? r->exit.timed_out : 0;
}

int sbx_result_oom_killed(const sbx_result *r)
{
    return r ? r->exit.oom_killed : 0;
}

uint64_t sbx_result_net_refused(const sbx_result *r)
{
    return r ? r->exit.net_refused : 0;
}

static const void *stream_data(const sbx_result *r, int i, size_t *len)
{
    if (len)
        *len = r ? r->out[i].len : 0;
    return r && r->out[i].data ? r->out[i].data : "";
}

const void *sbx_result_stdout(const sbx_result *r, size_t *len)
{
    return stream_data(r, 0, len);
}

const void *sbx_result_stderr(const sbx_result *r, size_t *len)
{
    return stream_data(r, 1, len);
}

int sbx_result_truncated(const sbx_result *r, int stream)
{
    if (!r || (stream != SBX_STDOUT && stream != SBX_STDERR))
        return 0;
    return r->truncated[stream - 1];
}

uint64_t sbx_result_duration_ns(const sbx_result *r)
{
    return r ? r->duration_ns : 0;
}

const char *sbx_result_backend(const sbx_result *r)
{
    return r && r->backend ? r->backend : "";
}

int sbx_result_tier(const sbx_result *r)
{
    return r ? r->tier : SBX_TIER_UNKNOWN;
}

uint64_t sbx_result_caps(const sbx_result *r)
{
    return r ? r->caps : 0;
}

const char *sbx_result_dsn(const sbx_result *r)
{
    return r && r->dsn ? r->dsn : "";
}

int sbx_result_streamed(const sbx_result *r)
{
    return r ? r->streamed : 0;
}
