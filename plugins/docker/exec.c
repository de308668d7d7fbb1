/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Commands, through the exec endpoints. Each command runs under a small
 * /bin/sh wrapper that:
 *   - changes to the working directory and looks the program up in the
 *     command's own PATH, so a missing program is reported as
 *     SBX_E_EXEC_NOT_FOUND, one not executable as SBX_E_EXEC_DENIED and a
 *     missing directory as SBX_E_EXEC_START, not as a shell's 126/127;
 *   - prints its pid on stderr: the engine makes every exec a session
 *     leader, so that pid names the session of the command's whole tree;
 *   - runs it as `docker-init -s -v -- env -i -- K=V... ARGV...`: env -i
 *     gives exactly the environment asked for (the engine would add the
 *     image's and HOSTNAME), and docker-init (tini, mounted by the engine
 *     in every container made with Init) says on exit whether the command
 *     exited or was killed by a signal; the engine's exit code alone
 *     cannot tell `exit 137` from SIGKILL.
 * control.c takes those lines out of the output the caller sees.
 * A command on a terminal (SBX_PLUGIN_CMD_PTY) is an exec made with Tty:
 * its stream is the terminal's raw output, not multiplexed; the wrapper
 * sets the terminal's size with stty before the command starts (the
 * engine's pty starts at 0 x 0, and an exec can only be resized once it
 * runs), and the plugin sets it again through the resize endpoint once
 * the wrapper said its pid (for images without stty), then on every
 * change of the caller's window.
 * The engine has no call to kill an exec: on a timeout, an abort or a
 * cancel (the caller's cancel_fd turned readable) a second exec kills
 * every process of the session, which takes the whole tree
 * (a process that called setsid() itself has left it, as with any kill
 * by session or group).
 */
#include "docker.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * $1 = number of K=V words, $2 = cwd ("" = work dir), $3 = PATH for lookup,
 * $4 = stty's size arguments on a terminal ("rows R cols C"), else "",
 * $5 = the work dir, HOME unless a K=V word sets it (env takes the last).
 * A missing cwd is made with its parents first, as `docker run -w` does.
 */
static const char wrapper[] =
    "n=$1 c=$2 P=$3 T=$4 H=$5; shift 5; eval \"x=\\${$((n + 1))}\"\n"
    "if [ -n \"$c\" ]; then mkdir -p -- \"$c\" 2>/dev/null; cd -- \"$c\" 2>/dev/null || { printf '\\001sbx-nocwd\\n' >&2; exit 126; }; fi\n"
    "f=\n"
    "case $x in\n"
    "*/*) f=$x ;;\n"
    "*) set -f; IFS=:; for d in $P; do d=${d:-.}\n"
    "   if [ -f \"$d/$x\" ] && [ -x \"$d/$x\" ]; then f=$d/$x; break; fi; done; unset IFS; set +f ;;\n"
    "esac\n"
    "if [ -z \"$f\" ] || [ ! -f \"$f\" ]; then printf '\\001sbx-noexec\\n' >&2; exit 127; fi\n"
    "if [ ! -x \"$f\" ]; then printf '\\001sbx-noperm\\n' >&2; exit 126; fi\n"
    "if [ -n \"$T\" ]; then stty $T 2>/dev/null; fi\n"
    "printf '\\001sbx-pid %s\\n' \"$$\" >&2\n"
    "if [ -x /sbin/docker-init ]; then exec /sbin/docker-init -s -v -- env -i -- HOME=\"$H\" \"$@\"; fi\n"
    "exec env -i -- HOME=\"$H\" \"$@\"\n";

/* glibc's execvp() search path when PATH is unset, which `env -i` uses. */
#define DK_NO_PATH_DEFAULT "/bin:/usr/bin"
/* After a kill, how long to wait for the stream to end before giving up on it. */
#define DK_KILL_GRACE_MS 10000
/*
 * One-shot: once docker-init has said the command ended, how long the
 * container's own PID 1 may take to exit before it is killed. It exits at
 * once unless something stopped it (a ptrace of PID 1 from inside): the
 * command has ended, and that is reported whatever PID 1 does.
 */
#define DK_ENDED_GRACE_MS 2000
/*
 * The engine's detach keys end the stream of an exec with Tty and hold back
 * every typed byte that begins them (ctrl-p by default). The engine cannot
 * turn them off: this sequence is one nobody types.
 */
#define DK_TTY_DETACH_KEYS "ctrl-^,ctrl-@,ctrl-^,ctrl-@,ctrl-^,ctrl-@,ctrl-^,ctrl-@"
/* A terminal's size when the caller gave none. */
#define DK_TTY_ROWS 24
#define DK_TTY_COLS 80
/* Output kept to explain a command that never started. */
#define DK_DIAG_MAX 512

typedef struct run {
    dk_sandbox *sb;
    const sbx_plugin_io *io;   /* the user's I/O, or NULL */
    sbxu_buf *capture;           /* dk_exec_simple's stdout */
    size_t capture_cap;
    bool wrapped;              /* stderr carries control lines */
    bool whole_container;      /* one-shot: the container is the command's, kill it whole */
    bool tty;                  /* on a terminal: one raw stream, resized */
    bool sized;                /* the terminal's size was set through the engine */
    uint16_t rows, cols;       /* the size asked for */
    char exec_id[80];          /* of an exec (not one-shot) */
    dk_control ctl;
    sbxu_buf diag;               /* the first output bytes, for start failures */
    bool aborted;              /* the output callback asked to stop */
    bool cancelled;            /* the caller's cancel_fd became readable */
    bool timed_out;
    bool kill_sent;
    int failure;               /* an error code set while streaming */
    dk_demux dm;
} run;

static int user_output(run *r, int stream, const void *data, size_t len)
{
    if (!len)
        return 0;
    if (r->diag.len < DK_DIAG_MAX)
        sbxu_buf_append(&r->diag, data, len < DK_DIAG_MAX ? len : DK_DIAG_MAX);
    if (r->aborted || r->timed_out || r->cancelled)
        return 0;
    if (r->capture) {
        if (stream == SBX_STDOUT) {
            size_t room = r->capture_cap > r->capture->len ? r->capture_cap - r->capture->len : 0;
            if (sbxu_buf_append(r->capture, data, len < room ? len : room))
                r->failure = SBX_E_NOMEM;
        }
        return 0;
    }
    if (r->io && r->io->output && r->io->output(r->io->userdata, stream, data, len) != 0)
        r->aborted = true;
    return 0;
}

static int filtered_output(void *ud, int stream, const void *data, size_t len)
{
    return user_output(ud, stream, data, len);
}

static int on_frame(void *ud, int stream, const void *data, size_t len)
{
    run *r = ud;
    if (!r->wrapped)
        return user_output(r, stream, data, len);
    if (dk_control_feed(&r->ctl, stream, data, len) < 0)
        r->failure = SBX_E_NOMEM;
    return 0;
}

/* The session of the command's tree, once known. */
static long command_session(const run *r)
{
    return r->wrapped ? r->ctl.session : 0;
}

/* Nothing more will start: the command runs, or the wrapper gave up. */
static bool start_settled(const run *r)
{
    return !r->wrapped || r->ctl.session || r->ctl.start_fail;
}

int dk_exec_create(dk_sandbox *sb, json_object *body, char *id, size_t id_size)
{
    char path[160];
    json_object *answer = NULL;
    snprintf(path, sizeof(path), "/containers/%s/exec", sb->id);
    const char *text = json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN);
    int rc = text ? dk_api_json(&sb->conn, "POST", path, text, "creating an exec", &answer)
                  : sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    const char *eid = rc == SBX_OK ? sbxu_json_str(answer, "Id") : NULL;
    if (rc == SBX_OK && (!eid || !eid[0] || strlen(eid) >= id_size ||
                         strspn(eid, "0123456789abcdef") != strlen(eid)))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: the exec create answer has no Id");
    if (rc == SBX_OK)
        snprintf(id, id_size, "%s", eid);
    json_object_put(answer);
    return rc;
}

static int exec_exit_code(dk_sandbox *sb, const char *id, int *code)
{
    char path[160];
    snprintf(path, sizeof(path), "/exec/%s/json", id);
    /* The stream can end a moment before the engine records the exit. */
    for (int attempt = 0; attempt < 200; attempt++) {
        json_object *o = NULL;
        int rc = dk_api_json(&sb->conn, "GET", path, NULL, "inspecting an exec", &o);
        if (rc)
            return rc;
        bool running = sbxu_json_bool(o, "Running");
        int64_t ec = sbxu_json_int(o, "ExitCode", -1);
        json_object_put(o);
        if (!running && ec >= 0) {
            *code = (int)ec;
            return SBX_OK;
        }
        struct timespec ts = {0, (attempt < 20 ? 2 : 25) * 1000000L};
        nanosleep(&ts, NULL);
    }
    return sb->host->set_error(SBX_E_BACKEND_FAILED,
                               "docker: exec %.12s still runs after its output ended", id);
}

/* The caller's cancel descriptor, -1 if none. */
static int cancel_fd_of(const sbx_plugin_io *io)
{
    return io && SBX_STRUCT_HAS(io, cancel_fd) ? io->cancel_fd : -1;
}

/* Is the caller's cancel descriptor readable now? */
static bool cancel_readable(const sbx_plugin_io *io)
{
    struct pollfd p = {.fd = cancel_fd_of(io), .events = POLLIN};
    return p.fd >= 0 && poll(&p, 1, 0) > 0 && (p.revents & POLLIN);
}

/* The command must die: timed out, aborted by the output callback, or cancelled. */
/* -1, or the descriptor that says input() has something (ABI minor 2). */
static int input_ready_fd_of(const sbx_plugin_io *io)
{
    return io && SBX_STRUCT_HAS(io, input_ready_fd) ? io->input_ready_fd : -1;
}

static bool fd_readable(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, 0) > 0 && p.revents;
}

static bool must_stop(const run *r)
{
    return r->timed_out || r->aborted || r->cancelled;
}

/* -1, or the descriptor that says the caller's window changed (ABI minor 2). */
static int resize_fd_of(const sbx_plugin_io *io)
{
    if (!io || !SBX_STRUCT_HAS(io, winsize) || !io->winsize)
        return -1;
    return io->resize_fd;
}

/*
 * Set the exec's terminal to rows x cols. Not fatal when it fails: the
 * command may have ended a moment ago, and it runs on at the old size.
 */
static void resize_exec(run *r, uint16_t rows, uint16_t cols)
{
    char path[200];
    snprintf(path, sizeof(path), "/exec/%s/resize?h=%u&w=%u", r->exec_id, (unsigned)rows,
             (unsigned)cols);
    sbxu_http_request rq = {.method = "POST", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_http(&r->sb->conn, &rq, &rs);
    if (rc || rs.status / 100 != 2)
        r->sb->host->log(SBX_LOG_DEBUG, "docker", "exec %.12s not resized to %u x %u (%s %ld)",
                         r->exec_id, (unsigned)rows, (unsigned)cols,
                         rc ? "transport error" : "HTTP", rc ? (long)rc : rs.status);
    sbxu_http_response_clear(&rs);
}

/* Pump the stream: output in, stdin out, kill on the deadline, an abort or a cancel. */
static int stream_loop(run *r, dk_hijack *hj, uint64_t deadline)
{
    const sbx_plugin_io *io = r->io;
    bool want_input = io && SBX_STRUCT_HAS(io, input) && io->input;
    int cancel_fd = cancel_fd_of(io), ready_fd = want_input ? input_ready_fd_of(io) : -1;
    char inbuf[65536], outbuf[65536];
    size_t in_len = 0, in_off = 0;
    bool in_eof = !want_input, write_closed = !want_input;
    uint64_t kill_at = 0, ended_at = 0;

    for (;;) {
        long n = dk_hijack_recv(hj, outbuf, sizeof(outbuf));
        if (n == -2)
            return SBX_E_BACKEND_TRANSPORT;
        if (n == 0)
            break;
        if (n > 0 && r->tty) {
            on_frame(r, SBX_STDOUT, outbuf, (size_t)n);
            if (r->failure)
                return r->failure;
            continue;
        }
        if (n > 0) {
            if (dk_demux_feed(&r->dm, outbuf, (size_t)n) < 0)
                return r->sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                              "docker: malformed frame in an exec's output");
            if (r->failure)
                return r->failure;
            continue;
        }
        /* input() only when it will not block, where the caller says when that is. */
        if (!in_eof && in_off == in_len && !must_stop(r) && (ready_fd < 0 || fd_readable(ready_fd))) {
            long got = io->input(io->userdata, inbuf, sizeof(inbuf));
            if (got <= 0)
                in_eof = true;
            else {
                in_len = (size_t)got;
                in_off = 0;
            }
        }
        if (in_off < in_len) {
            long sent = dk_hijack_send(hj, inbuf + in_off, in_len - in_off);
            if (sent == -2) {
                /* The command closed stdin without reading it all: not fatal. */
                in_off = in_len = 0;
                in_eof = true;
            } else if (sent > 0) {
                in_off += (size_t)sent;
            }
        }
        if (in_eof && in_off == in_len && !write_closed) {
            write_closed = true;
            /*
             * On a terminal the engine ends the output with the input:
             * stdin just stops, as a terminal's does when nobody types.
             */
            int rc = r->tty ? SBX_OK : dk_hijack_close_write(hj);
            if (rc)
                return rc;
        }
        /* The wrapper has set the size: from now on the engine's resize works. */
        if (r->tty && !r->sized && r->ctl.session) {
            r->sized = true;
            resize_exec(r, r->rows, r->cols);
        }
        uint64_t now = sbxu_mono_ms();
        if (deadline && now >= deadline && !must_stop(r))
            r->timed_out = true;
        if (must_stop(r) && !r->kill_sent && start_settled(r)) {
            r->kill_sent = true;
            kill_at = now;
            int rc = SBX_OK;
            if (r->whole_container)
                rc = dk_container_kill(r->sb);
            else if (command_session(r) > 0)
                rc = dk_exec_kill_session(r->sb, command_session(r));
            if (rc)
                return rc;
        }
        if (r->whole_container && r->ctl.ended && !ended_at)
            ended_at = now;
        if (ended_at && !r->kill_sent && now - ended_at >= DK_ENDED_GRACE_MS) {
            r->kill_sent = true;
            kill_at = now;
            int rc = dk_container_kill(r->sb);
            if (rc)
                return rc;
        }
        if (r->kill_sent && now - kill_at > DK_KILL_GRACE_MS)
            return r->sb->host->set_error(SBX_E_BACKEND_FAILED,
                                          "docker: the command's output did not end %d s after "
                                          "it was killed (a process left its session?)",
                                          DK_KILL_GRACE_MS / 1000);
        int wait = -1;
        if (deadline && !r->timed_out)
            wait = (int)(deadline > now ? deadline - now : 0);
        if (must_stop(r) && !r->kill_sent)
            wait = 20;    /* the control line is still to come */
        else if (r->kill_sent)
            wait = 1000;
        else if (ended_at && (wait < 0 || (uint64_t)wait > ended_at + DK_ENDED_GRACE_MS - now))
            wait = (int)(ended_at + DK_ENDED_GRACE_MS - now);
        bool await_input = !in_eof && in_off == in_len && !must_stop(r);
        int resize_fd = r->sized && !must_stop(r) ? resize_fd_of(io) : -1;
        struct pollfd p[4] = {
            {.fd = hj->fd, .events = POLLIN},
            /* It stays readable once cancelled: watched until then only. */
            {.fd = r->cancelled ? -1 : cancel_fd, .events = POLLIN},
            /* Interactive stdin: wake when the user typed, not before. */
            {.fd = await_input ? ready_fd : -1, .events = POLLIN},
            /* The caller's window changed size. */
            {.fd = resize_fd, .events = POLLIN},
        };
        /* More stdin to send, made or still to take: wake when it can go. */
        if (in_off < in_len || (await_input && ready_fd < 0))
            p[0].events |= POLLOUT;
        if (poll(p, 4, wait) < 0 && errno != EINTR)
            return r->sb->host->set_error(SBX_E_SYSTEM, "docker: poll: %s", strerror(errno));
        if (p[1].revents & POLLIN)
            r->cancelled = true;
        if (io && resize_fd >= 0 && (p[3].revents & POLLIN)) {
            uint16_t rows = 0, cols = 0;
            if (io->winsize(io->userdata, &rows, &cols) == 0 && rows && cols)
                resize_exec(r, rows, cols);
        }
    }
    if (!dk_demux_idle(&r->dm))
        return r->sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                      "docker: an exec's output ended inside a frame");
    if (r->wrapped)
        dk_control_flush(&r->ctl);
    return r->failure;
}

/* Create, start, stream and reap one exec. */
static int run_exec(run *r, json_object *body, uint64_t timeout_ms, int *exit_code)
{
    dk_sandbox *sb = r->sb;
    char path[160];
    char *id = r->exec_id;
    int rc = dk_exec_create(sb, body, id, sizeof(r->exec_id));
    if (rc)
        return rc;
    dk_demux_init(&r->dm, on_frame, r);
    dk_control_init(&r->ctl, filtered_output, r);
    r->ctl.tty = r->tty;
    dk_hijack hj;
    snprintf(path, sizeof(path), "/exec/%s/start", id);
    rc = dk_hijack_open(&sb->conn, path,
                        r->tty ? "{\"Detach\":false,\"Tty\":true}" : "{\"Detach\":false,\"Tty\":false}",
                        "starting an exec", &hj);
    if (rc)
        return rc;
    uint64_t deadline = timeout_ms ? sbxu_mono_ms() + timeout_ms : 0;
    rc = stream_loop(r, &hj, deadline);
    if (rc && command_session(r) > 0 && !r->kill_sent)
        /* Leave no command running behind a failure. */
        (void)dk_exec_kill_session(sb, command_session(r));
    dk_hijack_close(&hj);
    if (rc == SBX_OK)
        rc = exec_exit_code(sb, id, exit_code);
    return rc;
}

static json_object *exec_body(json_object *cmd, bool attach_stdin, const char *workdir, bool tty)
{
    json_object *b = json_object_new_object();
    json_object_object_add(b, "AttachStdin", json_object_new_boolean(attach_stdin));
    json_object_object_add(b, "AttachStdout", json_object_new_boolean(1));
    json_object_object_add(b, "AttachStderr", json_object_new_boolean(1));
    json_object_object_add(b, "Tty", json_object_new_boolean(tty));
    if (tty)
        json_object_object_add(b, "DetachKeys", json_object_new_string(DK_TTY_DETACH_KEYS));
    json_object_object_add(b, "Cmd", cmd);
    json_object_object_add(b, "WorkingDir", json_object_new_string(workdir));
    return b;
}

int dk_exec_simple(dk_sandbox *sb, const char *const *argv, sbxu_buf *out, size_t cap,
                   int *exit_code)
{
    sbxu_buf sink = {0};
    run r = {.sb = sb, .capture = out ? out : &sink, .capture_cap = out ? cap : 0};
    json_object *body = exec_body(sbxu_json_str_array(argv), false, sb->opt.workdir, false);
    int rc = run_exec(&r, body, 0, exit_code);
    json_object_put(body);
    sbxu_buf_clear(&sink);
    sbxu_buf_clear(&r.diag);
    dk_control_clear(&r.ctl);
    return rc;
}

bool dk_cmd_pty(const sbx_plugin_cmd *cmd)
{
    return SBX_STRUCT_HAS(cmd, cols) && (cmd->flags & SBX_PLUGIN_CMD_PTY);
}

/* The terminal's size asked for, defaulted. */
static void pty_size(const sbx_plugin_cmd *cmd, uint16_t *rows, uint16_t *cols)
{
    *rows = cmd->rows ? cmd->rows : DK_TTY_ROWS;
    *cols = cmd->cols ? cmd->cols : DK_TTY_COLS;
}

json_object *dk_exec_sh_args(const char *workdir, const sbx_plugin_cmd *cmd)
{
    const char *lookup = DK_NO_PATH_DEFAULT;
    size_t nenv = 0;
    for (; cmd->envp && cmd->envp[nenv]; nenv++)
        if (strncmp(cmd->envp[nenv], "PATH=", 5) == 0)
            lookup = cmd->envp[nenv] + 5;
    char count[24], size[48] = "", *cwd = NULL;
    snprintf(count, sizeof(count), "%zu", nenv);
    if (dk_cmd_pty(cmd)) {
        uint16_t rows, cols;
        pty_size(cmd, &rows, &cols);
        snprintf(size, sizeof(size), "rows %u cols %u", (unsigned)rows, (unsigned)cols);
    }
    /* Relative to the work dir, or absolute (SBX_CAP_CWD_ABS). */
    if (cmd->cwd && cmd->cwd[0] && cmd->cwd[0] != '/' &&
        asprintf(&cwd, "%s/%s", workdir, cmd->cwd) < 0)
        return NULL;
    json_object *a = json_object_new_array();
    const char *head[] = {"-c", wrapper, "sbx", count,
                          cwd ? cwd : cmd->cwd ? cmd->cwd : "", lookup, size, workdir};
    for (size_t i = 0; i < sizeof(head) / sizeof(head[0]); i++)
        json_object_array_add(a, json_object_new_string(head[i]));
    free(cwd);
    for (size_t i = 0; i < nenv; i++)
        json_object_array_add(a, json_object_new_string(cmd->envp[i]));
    for (size_t i = 0; cmd->argv[i]; i++)
        json_object_array_add(a, json_object_new_string(cmd->argv[i]));
    return a;
}

/* The exec's argv: /bin/sh and the wrapper's arguments. */
static json_object *wrapped_cmd(dk_sandbox *sb, const sbx_plugin_cmd *cmd)
{
    json_object *args = dk_exec_sh_args(sb->opt.workdir, cmd);
    if (!args)
        return NULL;
    json_object *a = json_object_new_array();
    json_object_array_add(a, json_object_new_string("/bin/sh"));
    for (size_t i = 0; i < json_object_array_length(args); i++)
        json_object_array_add(a, json_object_get(json_object_array_get_idx(args, i)));
    json_object_put(args);
    return a;
}

int dk_exec_refuse_program(const sbx_host *host, const sbx_plugin_cmd *cmd)
{
    if (strchr(cmd->argv[0], '=') && !strchr(cmd->argv[0], '/'))
        return host->set_error(SBX_E_EXEC_START,
                               "docker: a program name with '=' (\"%s\") cannot be run; "
                               "give a path such as ./%s",
                               cmd->argv[0], cmd->argv[0]);
    return SBX_OK;
}

static int start_failure(dk_sandbox *sb, const run *r, const sbx_plugin_cmd *cmd, int code)
{
    switch (r->ctl.start_fail) {
    case DK_START_NOCWD:
        return sb->host->set_error(SBX_E_EXEC_START,
                                   "docker: cannot run \"%s\": working directory %s does not exist",
                                   cmd->argv[0], cmd->cwd);
    case DK_START_NOEXEC:
        return sb->host->set_error(SBX_E_EXEC_NOT_FOUND, "docker: cannot run \"%s\": no such program",
                                   cmd->argv[0]);
    case DK_START_NOPERM:
        return sb->host->set_error(SBX_E_EXEC_DENIED, "docker: cannot run \"%s\": not executable",
                                   cmd->argv[0]);
    default:
        if (r->ctl.fatal[0])
            return sb->host->set_error(SBX_E_EXEC_START, "docker: cannot run \"%s\": %s",
                                       cmd->argv[0], r->ctl.fatal);
        return sb->host->set_error(SBX_E_EXEC_START,
                                   "docker: the exec wrapper did not start (status %d; the image "
                                   "needs /bin/sh): %.*s",
                                   code, (int)r->diag.len, r->diag.data ? r->diag.data : "");
    }
}

/*
 * From a finished stream to the caller's answer: a start failure, an abort,
 * or how the command ended (code: the exec's or the container's status).
 */
static int report_end(run *r, const sbx_plugin_cmd *cmd, int rc, int code,
                      sbx_plugin_exit *exit_out)
{
    dk_sandbox *sb = r->sb;
    /* Cancelled: how the killed command ended does not matter any more. */
    if (rc == SBX_OK && r->cancelled)
        return sb->host->set_error(SBX_E_EXEC_CANCELLED, "docker: \"%s\" was cancelled",
                                   cmd->argv[0]);
    if (rc == SBX_OK && !r->ctl.session)
        rc = start_failure(sb, r, cmd, code);
    else if (rc == SBX_OK && r->ctl.fatal[0] && r->ctl.ended == DK_END_UNKNOWN && !r->timed_out)
        rc = start_failure(sb, r, cmd, code);    /* docker-init could not exec env */
    if (rc == SBX_OK && r->aborted)
        rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "docker: the output callback stopped \"%s\"",
                                 cmd->argv[0]);
    if (rc)
        return rc;
    sbx_plugin_exit e = {.struct_size = exit_out->struct_size};
    if (r->timed_out) {
        e.signal = 9;
        e.timed_out = 1;
    } else if (r->ctl.ended == DK_END_EXITED) {
        e.exited = 1;
        e.exit_code = r->ctl.status;
    } else if (r->ctl.ended == DK_END_SIGNALED || (code > 128 && code <= 128 + 64)) {
        /*
         * docker-init exits 128+N after a signal N. Without its word (no
         * docker-init), 128+N is read as a signal, as shells do.
         */
        e.signal = code > 128 && code <= 128 + 64 ? code - 128 : 9;
        e.oom_killed = e.signal == 9 && sb->memory_limited &&
                       (r->whole_container ? dk_container_oom_killed(sb)
                                           : dk_exec_oom_happened(sb));
    } else {
        e.exited = 1;
        e.exit_code = code;
    }
    size_t n = exit_out->struct_size < sizeof(e) ? exit_out->struct_size : sizeof(e);
    memcpy(exit_out, &e, n);
    return SBX_OK;
}

int dk_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
            sbx_plugin_exit *exit_out)
{
    dk_sandbox *sb = sandbox;
    int rc = dk_exec_refuse_program(sb->host, cmd);
    if (rc)
        return rc;
    json_object *argv = wrapped_cmd(sb, cmd);
    if (!argv)
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    bool want_input = io && SBX_STRUCT_HAS(io, input) && io->input;
    run r = {.sb = sb, .io = io, .wrapped = true, .tty = dk_cmd_pty(cmd)};
    if (r.tty)
        pty_size(cmd, &r.rows, &r.cols);
    json_object *body = exec_body(argv, want_input, sb->opt.workdir, r.tty);
    int code = -1;
    rc = run_exec(&r, body, cmd->timeout_ms, &code);
    json_object_put(body);
    rc = report_end(&r, cmd, rc, code, exit_out);
    sbxu_buf_clear(&r.diag);
    dk_control_clear(&r.ctl);
    return rc;
}

int dk_exec_oneshot(dk_sandbox *sb, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                    sbx_plugin_exit *exit_out)
{
    bool want_input = io && SBX_STRUCT_HAS(io, input) && io->input;
    run r = {.sb = sb, .io = io, .wrapped = true, .whole_container = true};
    dk_demux_init(&r.dm, on_frame, &r);
    dk_control_init(&r.ctl, filtered_output, &r);
    char path[200];
    /* Attached before the start: no byte of output can be missed. */
    snprintf(path, sizeof(path), "/containers/%s/attach?stream=1&stdout=1&stderr=1%s", sb->id,
             want_input ? "&stdin=1" : "");
    dk_hijack hj;
    int code = -1;
    int rc = dk_hijack_open(&sb->conn, path, NULL, "attaching to the container", &hj);
    /* Cancelled while the container was made: it never starts (dk_run removes it). */
    if (rc == SBX_OK && cancel_readable(io)) {
        dk_hijack_close(&hj);
        return sb->host->set_error(SBX_E_EXEC_CANCELLED, "docker: \"%s\" was cancelled",
                                   cmd->argv[0]);
    }
    if (rc == SBX_OK) {
        rc = dk_container_start(sb);
        if (rc == SBX_OK)
            rc = stream_loop(&r, &hj, cmd->timeout_ms ? sbxu_mono_ms() + cmd->timeout_ms : 0);
        dk_hijack_close(&hj);
    }
    if (rc == SBX_OK && r.ctl.ended == DK_END_EXITED)
        code = r.ctl.status; /* docker-init's word: no need to wait for the engine */
    else if (rc == SBX_OK)
        rc = dk_container_wait(sb, &code);
    rc = report_end(&r, cmd, rc, code, exit_out);
    sbxu_buf_clear(&r.diag);
    dk_control_clear(&r.ctl);
    return rc;
}
