/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A command in an E2B sandbox: process.Process/Start of the wrapper of
 * exec_wrapper.c, its first stderr line read here: the pid of the
 * command's session, or why it did not start. At the deadline this backend
 * kills the session with a second command, `kill -KILL -- -N`. stdin goes
 * through SendInput from a thread of its own once the start event gave the
 * pid, then CloseStdin.
 */
#include "e2b.h"
#include <sbxu/clock.h>

#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/base64.h>
#include <sbxu/feed.h>

/* execvp()'s search path when PATH is unset (glibc's confstr _CS_PATH). */
#define E2B_NO_PATH_DEFAULT "/bin:/usr/bin"

enum {
    START_OK = 0,
    START_NOCWD = SBXU_REMOTE_START_NOCWD,
    START_NOEXEC = SBXU_REMOTE_START_NOEXEC,
    START_NOPERM = SBXU_REMOTE_START_NOPERM,
    START_UNKNOWN
};

typedef struct run {
    e2b_sandbox *sb;
    const sbx_plugin_cmd *cmd;
    const sbx_plugin_io *io;
    char ctl[128];          /* the wrapper's line, until its '\n' */
    size_t ctl_len;
    bool ctl_done;
    int start_fail;
    long session;
    uint32_t pid;
    bool ended;
    sbx_plugin_exit x;
    int end_rc;
    int64_t deadline;       /* CLOCK_MONOTONIC ms; 0: none */
    int cancel_fd;
    bool timed_out, cancelled, aborted;
    int feed_rc;            /* stdin could not be sent: the exec's code */
    sbxu_feed feed;          /* stdin */
} run;

static int give(run *r, int stream, const void *data, size_t len)
{
    if (!len || !r->io->output)
        return SBX_OK;
    if (r->io->output(r->io->userdata, stream, data, len) != 0) {
        r->aborted = true;
        return SBX_E_EXEC_ABORTED;
    }
    return SBX_OK;
}

/* The wrapper's line is whole: what it says. */
static void control_line(run *r)
{
    static const sbxu_remote_word lines[] = {{"\001sbx-nocwd", START_NOCWD},
                                            {"\001sbx-noexec", START_NOEXEC},
                                            {"\001sbx-noperm", START_NOPERM}};
    r->ctl[r->ctl_len] = '\0';
    if (strncmp(r->ctl, "\001sbx-pid ", 9) == 0) {
        char *end;
        long pid = strtol(r->ctl + 9, &end, 10);
        if (pid > 0 && *end == '\0') {
            r->session = pid;
            return;
        }
    }
    r->start_fail = sbxu_remote_word_value(lines, sizeof(lines) / sizeof(lines[0]), r->ctl,
                                          strlen(r->ctl), START_UNKNOWN);
}

static int on_data(void *ud, int stream, const void *data, size_t len)
{
    run *r = ud;
    const char *p = data;
    /* Lines on stderr before the wrapper's are the shell's own (no setsid?): passed on. */
    while (stream == 2 && !r->ctl_done && len) {
        const char *nl = memchr(p, '\n', len);
        size_t take = nl ? (size_t)(nl - p) + 1 : len;
        size_t room = sizeof(r->ctl) - 1 - r->ctl_len;
        size_t keep = take < room ? take : room;
        memcpy(r->ctl + r->ctl_len, p, keep);
        r->ctl_len += keep;
        p += take;
        len -= take;
        if (!nl && r->ctl_len < sizeof(r->ctl) - 1)
            return SBX_OK;
        if (r->ctl[r->ctl_len - 1] == '\n')
            r->ctl_len--;
        control_line(r);
        if (r->start_fail == START_UNKNOWN) {
            r->start_fail = START_OK;
            int rc = give(r, 2, r->ctl, r->ctl_len);
            if (rc || (nl && (rc = give(r, 2, "\n", 1))))
                return rc;
        } else {
            r->ctl_done = true;
        }
        r->ctl_len = 0;
    }
    return give(r, stream, p, len);
}

/* --- stdin ----------------------------------------------------------------------- */

static int send_input(run *r, const char *b64)
{
    char *body = NULL;
    if (b64 && asprintf(&body, "{\"process\":{\"pid\":%u},\"input\":{\"stdin\":\"%s\"}}", r->pid,
                        b64) < 0)
        return r->sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    if (!b64 && asprintf(&body, "{\"process\":{\"pid\":%u}}", r->pid) < 0)
        return r->sb->host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    int rc = e2b_rpc(r->sb, b64 ? "process.Process/SendInput" : "process.Process/CloseStdin", body,
                     !b64, b64 ? "sending stdin" : "closing stdin", NULL);
    free(body);
    return rc;
}

static int send_chunk(void *ud, const void *data, size_t n)
{
    run *r = ud;
    if (n == 0)
        return send_input(r, NULL);
    char *b64 = sbxu_base64_encode(data, n);
    int rc = b64 ? send_input(r, b64) : SBX_E_NOMEM;
    free(b64);
    return rc;
}

static int on_start(void *ud, uint32_t pid)
{
    run *r = ud;
    r->pid = pid;
    if (!r->io->input || r->feed.running)
        return SBX_OK;
    return sbxu_feed_start(&r->feed, r->sb->host, E2B_NAME, r->io, 65536, send_chunk, r);
}

/* --- the stream's end and its limits ------------------------------------------------ */

static int on_end(void *ud, json_object *end)
{
    run *r = ud;
    r->ended = true;
    r->end_rc = e2b_process_end(end, &r->x);
    return SBX_OK;
}

static int on_tick(void *ud)
{
    run *r = ud;
    if (r->cancel_fd >= 0) {
        struct pollfd p = {.fd = r->cancel_fd, .events = POLLIN};
        if (poll(&p, 1, 0) > 0) {
            r->cancelled = true;
            return SBX_E_EXEC_CANCELLED;
        }
    }
    if (r->deadline && sbxu_mono_ms() >= r->deadline && !r->ended) {
        r->timed_out = true;
        return SBX_E_EXEC_TIMEOUT;
    }
    /* Stdin that could not be sent leaves the command waiting for it for
     * ever. envd's not_found is the command having ended first (or the
     * sandbox gone, which the stream itself reports): its end comes. */
    int fed = sbxu_feed_failed(&r->feed);
    if (fed != SBX_OK && fed != SBX_E_NOT_FOUND && !r->ended) {
        r->feed_rc = fed;
        return fed;
    }
    return SBX_OK;
}

/* Kill the command's session, and its pid in case the wrapper had not said it yet. */
static void kill_tree(run *r)
{
    if (r->session > 0) {
        char sid[24];
        snprintf(sid, sizeof(sid), "%ld", r->session);
        const char *argv[] = {"/bin/sh", "-c",
                              "kill -KILL -- \"-$1\" 2>/dev/null; "
                              "pkill -KILL -s \"$1\" 2>/dev/null; exit 0",
                              "sh", sid, NULL};
        sbxu_buf out = {0};
        sbx_plugin_exit x = {.struct_size = sizeof(x)};
        if (e2b_run_quiet(r->sb, argv, &out, &x) != SBX_OK)
            r->sb->host->log(SBX_LOG_WARN, E2B_NAME, "could not kill the session of the command");
        sbxu_buf_clear(&out);
    }
    if (r->pid) {
        char body[96];
        snprintf(body, sizeof(body), "{\"process\":{\"pid\":%u},\"signal\":\"SIGNAL_SIGKILL\"}",
                 r->pid);
        /* It may be gone already (not_found): nothing more to kill then. */
        e2b_rpc(r->sb, "process.Process/SendSignal", body, true, "killing the command", NULL);
    }
}

static char *start_body(const sbx_plugin_cmd *cmd, bool with_stdin)
{
    const char *path;
    size_t nenv, nargv;
    char count[24], *cwd = NULL;
    sbxu_remote_cmd_shape(cmd, E2B_NO_PATH_DEFAULT, 0, &path, &nenv, count, &nargv);
    /* Relative to the home, or absolute (SBX_CAP_CWD_ABS). */
    if (cmd->cwd && cmd->cwd[0] && cmd->cwd[0] != '/' &&
        asprintf(&cwd, "%s/%s", E2B_HOME, cmd->cwd) < 0)
        return NULL;
    json_object *args = json_object_new_array();
    const char *head[] = {"-c", e2b_exec_wrapper, "sh", count,
                          cwd ? cwd : cmd->cwd ? cmd->cwd : "", path};
    for (size_t i = 0; args && i < sizeof(head) / sizeof(head[0]); i++)
        json_object_array_add(args, json_object_new_string(head[i]));
    for (size_t i = 0; args && i < nenv; i++)
        json_object_array_add(args, json_object_new_string(cmd->envp[i]));
    for (size_t i = 0; args && i < nargv; i++)
        json_object_array_add(args, json_object_new_string(cmd->argv[i]));
    free(cwd);
    json_object *proc = json_object_new_object(), *req = json_object_new_object();
    int bad = !args || !proc || !req;
    char *text = NULL;
    if (!bad) {
        bad |= sbxu_json_add_str(proc, "cmd", "/bin/sh");
        bad |= sbxu_json_add(proc, "args", args);
        args = NULL;
        bad |= sbxu_json_add_str(proc, "cwd", E2B_HOME);
        bad |= sbxu_json_add(req, "process", proc);
        proc = NULL;
        bad |= sbxu_json_add(req, "stdin", json_object_new_boolean(with_stdin));
        if (!bad)
            text = sbxu_json_text(req);
    }
    json_object_put(args);
    json_object_put(proc);
    json_object_put(req);
    return text;
}

static int start_failure(run *r)
{
    /* The wrapper said why; otherwise (no line, or another) the shell could not run it. */
    if (r->start_fail >= START_NOCWD && r->start_fail <= START_NOPERM)
        return sbxu_remote_start_failure(r->sb->host, E2B_NAME, r->start_fail, r->cmd);
    return r->sb->host->set_error(SBX_E_EXEC_START,
                                  "e2b: cannot run \"%s\": the sandbox's shell could not start it "
                                  "(exit status %d; does the template have setsid and env?)",
                                  r->cmd->argv[0], r->x.exit_code);
}

int e2b_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
             sbx_plugin_exit *exit_out)
{
    e2b_sandbox *sb = sandbox;
    const sbx_host *host = sb->host;
    if (strchr(cmd->argv[0], '=') && !strchr(cmd->argv[0], '/'))
        return host->set_error(SBX_E_EXEC_START,
                               "e2b: a program name with '=' (\"%s\") cannot be run; give a path "
                               "such as ./%s",
                               cmd->argv[0], cmd->argv[0]);
    run r = {.sb = sb, .cmd = cmd, .io = io, .cancel_fd = -1};
    r.x.struct_size = sizeof(r.x);
    if (SBX_STRUCT_HAS(io, cancel_fd))
        r.cancel_fd = io->cancel_fd;
    if (on_tick(&r) == SBX_E_EXEC_CANCELLED)
        return host->set_error(SBX_E_EXEC_CANCELLED, "e2b: \"%s\" was cancelled", cmd->argv[0]);
    if (cmd->timeout_ms)
        r.deadline = sbxu_mono_ms() + (int64_t)cmd->timeout_ms;
    char *body = start_body(cmd, io->input != NULL);
    if (!body)
        return host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    e2b_stream_ops ops = {.start = on_start, .data = on_data, .end = on_end, .tick = on_tick,
                          .ud = &r, .cancel_fd = r.cancel_fd, .poll_ms = 200};
    int rc = e2b_start(sb, body, cmd->timeout_ms, &ops);
    free(body);
    bool stopped = r.timed_out || r.cancelled || r.aborted || r.feed_rc;
    if (stopped)
        kill_tree(&r);
    sbxu_feed_stop(&r.feed);
    if (r.cancelled)
        return host->set_error(SBX_E_EXEC_CANCELLED, "e2b: \"%s\" was cancelled", cmd->argv[0]);
    if (r.aborted)
        return host->set_error(SBX_E_EXEC_ABORTED, "e2b: the output callback stopped \"%s\"",
                               cmd->argv[0]);
    if (r.feed_rc)
        return host->set_error(r.feed_rc, "e2b: the stdin of \"%s\" could not be sent; the "
                               "command was killed", cmd->argv[0]);
    if (r.timed_out) {
        *exit_out = (sbx_plugin_exit){.struct_size = exit_out->struct_size, .exited = 0,
                                      .signal = 9, .timed_out = 1};
        return SBX_OK;
    }
    if (rc != SBX_OK) {
        /* A stream cut mid-command, and the control plane no longer knows the sandbox. */
        if (rc != SBX_E_EXEC_START && rc != SBX_E_NOMEM && !e2b_sandbox_alive(sb))
            return host->set_error(SBX_E_EXEC_SANDBOX_GONE,
                                   "e2b: the sandbox %s ended while \"%s\" ran (its TTL, or a "
                                   "kill)",
                                   sb->id, cmd->argv[0]);
        return rc;
    }
    if (!r.ended)
        return host->set_error(SBX_E_BACKEND_PROTOCOL,
                               "e2b: the stream of \"%s\" ended without its end event",
                               cmd->argv[0]);
    if (r.end_rc)
        return host->set_error(r.end_rc, "e2b: envd's end event of \"%s\" is not one Go writes",
                               cmd->argv[0]);
    if (r.start_fail || (!r.session && r.x.exited && r.x.exit_code >= 126))
        return start_failure(&r);
    uint32_t size = exit_out->struct_size;
    *exit_out = r.x;
    exit_out->struct_size = size;
    return SBX_OK;
}
