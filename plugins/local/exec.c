/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Running a command in a local sandbox.
 *
 * The plugin makes the command's stdio itself (a socket for stdin, so a
 * write to a command that closed it never raises SIGPIPE in the client;
 * pipes for stdout and stderr) and passes the far ends to init with the
 * LP_EXEC request, together with a status socket. Output then flows from
 * the command straight to this thread: init never copies a byte. Each exec
 * has its own pipes and status socket, so concurrent execs share nothing
 * but the atomic send of their request.
 *
 * Deadline, abort, cancel and the client's stdin are handled here; the supervisor in
 * the sandbox kills the whole tree on LP_KILL (or if the status socket
 * closes) and reports the main process's wait status.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sbxu/clock.h>
#include <sbxu/exec_start.h>

#include "local.h"
#include "proto.h"

#define READ_CHUNK (1 << 20)
#define STDIN_CHUNK (64 * 1024)

typedef struct exec_run {
    const sbx_plugin_io *io;
    int in, out, err, st;       /* our ends; -1 once closed */
    char *buf;
    char *inbuf;
    size_t in_off, in_len;
    int have_status, timed_out, aborted, killed, input_failed;
    int cancel_fd;              /* the caller's cancel, -1 if none */
    int input_ready_fd;         /* readable when input() will not block; -1 if none */
    int want_pty;               /* SBX_PLUGIN_CMD_PTY was asked for */
    int pty;                    /* the terminal's master, for resizing; -1 if none */
    int in_is_pty;              /* in is (a copy of) the master: write(), not send() */
    int cancelled;
    lp_status status;
} exec_run;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Payload of LP_EXEC: counts, then argv, envp and cwd as C strings. */
/* With proxy, the allowlist proxy's variables replace the command's own. */
static char *build_request(const sbx_plugin_cmd *cmd, int proxy, size_t *len_out)
{
    lp_exec h = { 0, 0, 0, 0, 0 };
    if (SBX_STRUCT_HAS(cmd, cols) && (cmd->flags & SBX_PLUGIN_CMD_PTY)) {
        h.flags = LP_EXEC_PTY;
        h.rows = cmd->rows ? cmd->rows : 24;
        h.cols = cmd->cols ? cmd->cols : 80;
    }
    size_t len = sizeof h;
    for (const char *const *a = cmd->argv; *a; a++, h.argc++)
        len += strlen(*a) + 1;
    for (const char *const *e = cmd->envp; e && *e; e++)
        if (!proxy || !local_net_proxy_env_replaced(*e))
            len += strlen(*e) + 1, h.envc++;
    for (const char *const *e = local_net_proxy_env; proxy && *e; e++, h.envc++)
        len += strlen(*e) + 1;
    len += (cmd->cwd ? strlen(cmd->cwd) : 0) + 1;
    if (len > LP_MAX_MSG) {
        errno = E2BIG;
        return NULL;
    }
    char *p = malloc(len), *w = p;
    if (!p)
        return NULL;
    memcpy(w, &h, sizeof h);
    w += sizeof h;
    for (const char *const *a = cmd->argv; *a; a++)
        w = stpcpy(w, *a) + 1;
    for (const char *const *e = cmd->envp; e && *e; e++)
        if (!proxy || !local_net_proxy_env_replaced(*e))
            w = stpcpy(w, *e) + 1;
    for (const char *const *e = local_net_proxy_env; proxy && *e; e++)
        w = stpcpy(w, *e) + 1;
    w = stpcpy(w, cmd->cwd ? cmd->cwd : "") + 1;
    *len_out = (size_t)(w - p);
    return p;
}

static void request_kill(exec_run *r)
{
    if (!r->killed && r->st >= 0)
        lp_send(r->st, LP_KILL, NULL, 0, NULL, 0);
    r->killed = 1;
}

static void drain(exec_run *r, int *fd, int stream)
{
    ssize_t n = read(*fd, r->buf, READ_CHUNK);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        close_fd(fd);
        return;
    }
    if (!r->aborted && r->io->output && r->io->output(r->io->userdata, stream, r->buf, (size_t)n)) {
        r->aborted = 1;
        request_kill(r);
    }
}

static void feed_stdin(exec_run *r)
{
    if (r->in_off == r->in_len) {
        long n = r->io->input(r->io->userdata, r->inbuf, STDIN_CHUNK);
        if (n <= 0) {
            if (n < 0) {
                r->input_failed = 1;
                request_kill(r);
            }
            close_fd(&r->in);
            return;
        }
        r->in_off = 0;
        r->in_len = (size_t)n;
    }
    ssize_t w = r->in_is_pty ? write(r->in, r->inbuf + r->in_off, r->in_len - r->in_off)
                             : send(r->in, r->inbuf + r->in_off, r->in_len - r->in_off,
                                    MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w > 0)
        r->in_off += (size_t)w;
    else if (errno != EAGAIN && errno != EINTR)
        close_fd(&r->in); /* the command closed its stdin: the rest is not wanted */
}

/*
 * The command runs on a terminal: its master replaces the pipes. Output is
 * read from one copy, input written to another (closed apart at its EOF),
 * and a third stays for resizing until the end.
 */
static int take_pty(exec_run *r, int master)
{
    int in = r->in >= 0 ? fcntl(master, F_DUPFD_CLOEXEC, 0) : -1;
    int ctl = fcntl(master, F_DUPFD_CLOEXEC, 0);

    if (ctl < 0 || (r->in >= 0 && in < 0) || fcntl(master, F_SETFL, O_NONBLOCK) < 0) {
        close(master);
        close_fd(&in);
        close_fd(&ctl);
        return -1;
    }
    close_fd(&r->out);
    close_fd(&r->err);
    r->out = master;
    if (r->in >= 0) {
        close_fd(&r->in);
        r->in = in;
        r->in_is_pty = 1;
    }
    r->pty = ctl;
    return 0;
}

static void resize(exec_run *r)
{
    struct winsize ws = { 0 };
    uint16_t rows = 0, cols = 0;

    if (r->io->winsize(r->io->userdata, &rows, &cols) != 0 || !rows || !cols)
        return;
    ws.ws_row = rows, ws.ws_col = cols;
    /* The terminal sends the command SIGWINCH itself. */
    (void)ioctl(r->pty, TIOCSWINSZ, &ws);
}

static int read_status(exec_run *r)
{
    lp_hdr hdr;
    int fds[1];
    size_t nfds = 1;
    long n = lp_recv(r->st, &hdr, &r->status, sizeof r->status, fds, &nfds);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return 0;
    if (n == 0 && hdr.type == LP_PTY && nfds == 1) {
        /* Only where asked, and once: anything else is a broken supervisor. */
        if (!r->want_pty || r->pty >= 0) {
            close(fds[0]);
            return -1;
        }
        return take_pty(r, fds[0]);
    }
    for (size_t i = 0; i < nfds; i++)
        close(fds[i]);
    close_fd(&r->st);
    if (n != (long)sizeof r->status || hdr.type != LP_STATUS)
        return -1;
    r->have_status = 1;
    return 0;
}

/* How long a kill may take to be confirmed before the exec gives up on it. */
#define KILL_GRACE_MS 15000

static int run_loop(exec_run *r, uint64_t timeout_ms)
{
    uint64_t deadline = timeout_ms ? sbxu_mono_ms() + timeout_ms : 0;
    uint64_t kill_deadline = 0;

    while (r->out >= 0 || r->err >= 0 || !r->have_status) {
        if (r->killed && !kill_deadline)
            kill_deadline = sbxu_mono_ms() + KILL_GRACE_MS;
        /*
         * With nothing of stdin in hand and a caller that says when it has
         * more, wait for that rather than for room in the command's stdin:
         * input() is then called only when it will not block, so output
         * keeps flowing while an interactive user has not typed yet.
         */
        /*
         * On a terminal, stdin waits for the terminal: until the master
         * arrives, r->in is the socket the supervisor closes once the
         * command has its terminal, and keys typed ahead would be lost there.
         */
        int hold_input = r->want_pty && r->pty < 0;
        int await_input = r->in >= 0 && !hold_input && r->input_ready_fd >= 0 &&
                          r->in_off == r->in_len;
        int can_resize = r->pty >= 0 && SBX_STRUCT_HAS(r->io, winsize) && r->io->winsize &&
                         r->io->resize_fd >= 0;
        struct pollfd p[7] = {
            { .fd = r->out, .events = POLLIN }, { .fd = r->err, .events = POLLIN },
            { .fd = r->st, .events = POLLIN },
            { .fd = await_input || hold_input ? -1 : r->in, .events = POLLOUT },
            /* It stays readable once cancelled: watched until then only. */
            { .fd = r->cancelled ? -1 : r->cancel_fd, .events = POLLIN },
            { .fd = await_input && !r->killed ? r->input_ready_fd : -1, .events = POLLIN },
            { .fd = can_resize ? r->io->resize_fd : -1, .events = POLLIN },
        };
        int wait = -1;
        if (kill_deadline) {
            uint64_t now = sbxu_mono_ms();
            if (now >= kill_deadline)
                return -2; /* never confirmed: the sandbox is wedged */
            wait = (int)(kill_deadline - now);
        } else if (deadline) {
            uint64_t now = sbxu_mono_ms();
            if (now >= deadline) {
                r->timed_out = 1;
                request_kill(r);
                continue;
            }
            wait = (int)(deadline - now);
        }
        if (r->st < 0 && !r->have_status)
            return -1;
        int n = poll(p, 7, wait);
        if (n < 0 && errno != EINTR)
            return -1;
        if (n <= 0)
            continue;
        if (p[0].revents)
            drain(r, &r->out, 1);
        if (p[1].revents)
            drain(r, &r->err, 2);
        if (p[3].revents & (POLLERR | POLLHUP))
            close_fd(&r->in);
        else if ((p[3].revents & POLLOUT) || p[5].revents)
            feed_stdin(r);
        if (p[2].revents && read_status(r) < 0)
            return -1;
        if (p[4].revents) {
            r->cancelled = 1;
            request_kill(r);
        }
        if (p[6].revents)
            resize(r);
    }
    return 0;
}

static int report(const sbx_host *host, exec_run *r, const sbx_plugin_cmd *cmd,
                  sbx_plugin_exit *out, int oom_seen, uint64_t net_refused)
{
    const lp_status *s = &r->status;

    switch (s->kind) {
    case LP_START_FAILED:
        return host->set_error(sbxu_exec_start_code(s->err), "local: cannot execute '%s': %s", cmd->argv[0],
                               s->err == ENOENT ? "command not found" : strerror(s->err));
    case LP_CWD_FAILED:
        return host->set_error(SBX_E_EXEC_START, "local: cannot enter working directory '%s': %s",
                               cmd->cwd ? cmd->cwd : "", strerror(s->err));
    case LP_SUPERVISOR_FAILED:
        return host->set_error(s->err == EAGAIN ? SBX_E_BACKEND_QUOTA : SBX_E_BACKEND_FAILED,
                               "local: the sandbox could not start the command: %s",
                               strerror(s->err));
    default:
        break;
    }
    if (r->cancelled)
        return host->set_error(SBX_E_EXEC_CANCELLED, "local: '%s' was cancelled", cmd->argv[0]);
    if (r->aborted || r->input_failed)
        return host->set_error(SBX_E_EXEC_ABORTED, "local: the caller stopped the command");
    if (out) {
        /* Filled whole here, then copied as far as the caller's struct reaches. */
        sbx_plugin_exit e = { .struct_size = out->struct_size };
        e.exited = WIFEXITED(s->wstatus);
        e.exit_code = e.exited ? WEXITSTATUS(s->wstatus) : 0;
        e.signal = WIFSIGNALED(s->wstatus) ? WTERMSIG(s->wstatus) : 0;
        e.timed_out = r->timed_out;
        /*
         * The OOM killer killed a process of the sandbox during this exec: a
         * shell running the hog exits 137 rather than dying itself, so the
         * counter, not the wait status, decides. (An exec running at the
         * same time in the same sandbox would see the same kill.)
         */
        e.oom_killed = oom_seen && !r->timed_out && !(e.exited && e.exit_code == 0);
        e.net_refused = net_refused; /* copied only where the caller's struct has it */
        memcpy(out, &e, out->struct_size < sizeof e ? out->struct_size : sizeof e);
    }
    return SBX_OK;
}

int local_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
               sbx_plugin_exit *exit_out)
{
    local_sandbox *sb = sandbox;
    const sbx_host *host = sb->host;
    exec_run r = { .io = io, .in = -1, .out = -1, .err = -1, .st = -1, .cancel_fd = -1,
                   .input_ready_fd = -1, .pty = -1 };
    int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, st[2] = { -1, -1 };
    size_t len = 0;
    int rc, oomfd = -1;

    if (!cmd || !cmd->argv || !cmd->argv[0] || !cmd->argv[0][0] || !io)
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: exec needs a non-empty argv");
    /*
     * What the allowlist refused so far, to the client's log (the rest after
     * the command and at destroy); the refusals while it runs are its own.
     */
    local_proxy_log *plog = local_net_proxy_log_ref(sb);
    uint64_t refused_before = local_net_proxy_drain(plog);
    char *req = build_request(cmd, sb->proxy_pid > 0, &len);
    if (!req) {
        local_net_proxy_log_unref(plog);
        return errno == E2BIG
                   ? host->set_error(SBX_E_INVALID_ARGUMENT,
                                     "local: argv and environment exceed %d bytes", LP_MAX_MSG)
                   : host->set_error(SBX_E_NOMEM, "local: out of memory");
    }
    /* An io struct too short to hold input has none: the command sees EOF. */
    int has_input = SBX_STRUCT_HAS(io, input) && io->input;
    if (SBX_STRUCT_HAS(io, cancel_fd))
        r.cancel_fd = io->cancel_fd;
    if (has_input && SBX_STRUCT_HAS(io, input_ready_fd))
        r.input_ready_fd = io->input_ready_fd;
    r.want_pty = SBX_STRUCT_HAS(cmd, cols) && (cmd->flags & SBX_PLUGIN_CMD_PTY);
    r.buf = malloc(READ_CHUNK);
    r.inbuf = has_input ? malloc(STDIN_CHUNK) : NULL;
    if (!r.buf || (has_input && !r.inbuf)) {
        rc = host->set_error(SBX_E_NOMEM, "local: out of memory");
        goto out;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) < 0
        || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0
        || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) < 0) {
        rc = host->set_error(errno == EMFILE || errno == ENFILE ? SBX_E_BACKEND_QUOTA : SBX_E_SYSTEM,
                             "local: creating the command's pipes: %s", strerror(errno));
        goto out;
    }
    /*
     * Bigger pipes mean fewer wake-ups and output callbacks per byte, for
     * stderr as much as for stdout; a refusal only costs speed.
     */
    (void)fcntl(out[1], F_SETPIPE_SZ, 1 << 20);
    (void)fcntl(err[1], F_SETPIPE_SZ, 1 << 20);
    oomfd = local_cgroup_open_oom(&sb->cg);
    int theirs[4] = { in[1], out[1], err[1], st[1] };
    if (lp_send(sb->ctl, LP_EXEC, req, len, theirs, 4) < 0) {
        rc = host->set_error(SBX_E_BACKEND_FAILED, "local: the sandbox is gone (%s)",
                             strerror(errno));
        goto out;
    }
    for (int i = 0; i < 4; i++)
        close_fd(&theirs[i]);
    in[1] = out[1] = err[1] = st[1] = -1;
    r.in = in[0], r.out = out[0], r.err = err[0], r.st = st[0];
    in[0] = out[0] = err[0] = st[0] = -1;
    if (!has_input)
        close_fd(&r.in);
    else if (fcntl(r.in, F_SETFL, O_NONBLOCK) < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: fcntl: %s", strerror(errno));
        goto out;
    }

    /* From here on, sb is not touched: only what this exec owns (plog included). */
    uint64_t ooms = local_cgroup_oom_kills(oomfd);
    int loop = run_loop(&r, cmd->timeout_ms);
    if (loop == -2)
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "local: the sandbox did not confirm the command's end within %d s "
                             "of killing it; destroy the sandbox", KILL_GRACE_MS / 1000);
    else if (loop < 0)
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "local: lost the command's supervisor (sandbox destroyed?)");
    else
        rc = report(host, &r, cmd, exit_out, local_cgroup_oom_kills(oomfd) > ooms,
                    local_net_proxy_drain(plog) - refused_before);
out:
    local_net_proxy_log_unref(plog);
    close_fd(&oomfd);
    close_fd(&r.in);
    close_fd(&r.out);
    close_fd(&r.err);
    close_fd(&r.st);
    close_fd(&r.pty);
    for (int i = 0; i < 2; i++) {
        close_fd(&in[i]);
        close_fd(&out[i]);
        close_fd(&err[i]);
        close_fd(&st[i]);
    }
    free(req);
    free(r.buf);
    free(r.inbuf);
    return rc;
}
