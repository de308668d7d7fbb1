/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One exec: feed stdin, deliver stdout and stderr as they come, enforce the
 * timeout, and report how the command ended. A single poll() loop serves all
 * three pipes, so a command filling both output pipes while we are still
 * writing its stdin cannot deadlock against us.
 */
#include "fake.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_SIZE 65536
/*
 * After the leader exits its group is killed; what is still in the pipes is
 * read at once. A process that left the group (setsid) may keep a pipe open:
 * stop waiting for its EOF after this long.
 */
#define DRAIN_GRACE_NS 1000000000ull

typedef struct exec_run {
    fake_sandbox *sb;
    const sbx_plugin_io *io;
    fake_child child;
    char *in_buf;           /* CHUNK_SIZE bytes: stdin not yet written */
    size_t in_len, in_off;
    char *out_buf;          /* CHUNK_SIZE bytes */
    uint64_t deadline_ns;   /* 0 = no timeout */
    uint64_t drain_end_ns;  /* once the leader is gone */
    bool leader_gone;
    bool timed_out;
    bool aborted;
    bool cancelled;         /* the caller's cancel_fd became readable */
    int cancel_fd;          /* -1 = none */
    int input_ready_fd;     /* readable when input() will not block; -1 = none */
    bool sigpipe_was_pending;
    int fail;               /* an SBX code already reported, or SBX_OK */
} exec_run;

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void kill_group(exec_run *r)
{
    kill(-r->child.pid, SIGKILL);
}

static void stop(exec_run *r)
{
    if (!r->aborted) {
        r->aborted = true;
        kill_group(r);
    }
}

/*
 * A write to a pipe whose reader is gone raises SIGPIPE in this thread. It is
 * blocked for the exec; take the pending one so it never reaches the host.
 */
static void consume_sigpipe(exec_run *r)
{
    sigset_t set;
    struct timespec zero = {0, 0};

    if (r->sigpipe_was_pending)
        return;
    sigemptyset(&set);
    sigaddset(&set, SIGPIPE);
    while (sigtimedwait(&set, NULL, &zero) < 0 && errno == EINTR)
        ;
}

static void feed_stdin(exec_run *r)
{
    ssize_t n;

    if (r->in_off == r->in_len) {
        long got = r->io->input(r->io->userdata, r->in_buf, CHUNK_SIZE);
        if (got <= 0) {
            if (got < 0)
                stop(r);
            close_fd(&r->child.in_fd);  /* EOF for the command */
            return;
        }
        r->in_len = got > CHUNK_SIZE ? CHUNK_SIZE : (size_t)got;
        r->in_off = 0;
    }
    n = write(r->child.in_fd, r->in_buf + r->in_off, r->in_len - r->in_off);
    if (n > 0) {
        r->in_off += (size_t)n;
    } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
        /* EPIPE: the command closed its stdin; it simply does not want the rest. */
        if (errno == EPIPE)
            consume_sigpipe(r);
        close_fd(&r->child.in_fd);
    }
}

static void drain_output(exec_run *r, int *fd, int stream)
{
    ssize_t n = read(*fd, r->out_buf, CHUNK_SIZE);

    if (n < 0) {
        if (errno != EINTR && errno != EAGAIN)
            close_fd(fd);
        return;
    }
    if (n == 0) {
        close_fd(fd);
        return;
    }
    if (r->aborted || r->io == NULL || r->io->output == NULL)
        return;
    if (r->io->output(r->io->userdata, stream, r->out_buf, (size_t)n) != 0)
        stop(r);
}

static int poll_timeout_ms(const exec_run *r, uint64_t now)
{
    uint64_t until = 0;

    if (r->leader_gone)
        until = r->drain_end_ns;
    else if (r->deadline_ns != 0 && !r->timed_out)
        until = r->deadline_ns;
    if (until == 0)
        return -1;
    if (until <= now)
        return 0;
    return (until - now) / 1000000 + 1 > INT_MAX ? INT_MAX : (int)((until - now) / 1000000 + 1);
}

/* Serve the pipes until the leader is gone and its output drained. */
static void io_loop(exec_run *r)
{
    for (;;) {
        struct pollfd pfd[6];
        int n = 0, ipid = -1, iin = -1, iout = -1, ierr = -1, icancel = -1, iready = -1;
        uint64_t now;

        if (!r->leader_gone) {
            pfd[ipid = n++] = (struct pollfd){.fd = r->child.pidfd, .events = POLLIN};
            if (r->cancel_fd >= 0 && !r->cancelled)
                pfd[icancel = n++] = (struct pollfd){.fd = r->cancel_fd, .events = POLLIN};
            /* Nothing of stdin in hand: wait until input() will not block. */
            if (r->child.in_fd >= 0 && r->input_ready_fd >= 0 && r->in_off == r->in_len)
                pfd[iready = n++] = (struct pollfd){.fd = r->input_ready_fd, .events = POLLIN};
            else if (r->child.in_fd >= 0)
                pfd[iin = n++] = (struct pollfd){.fd = r->child.in_fd, .events = POLLOUT};
        } else if (r->child.out_fd < 0 && r->child.err_fd < 0) {
            return;
        }
        if (r->child.out_fd >= 0)
            pfd[iout = n++] = (struct pollfd){.fd = r->child.out_fd, .events = POLLIN};
        if (r->child.err_fd >= 0)
            pfd[ierr = n++] = (struct pollfd){.fd = r->child.err_fd, .events = POLLIN};

        if (poll(pfd, (nfds_t)n, poll_timeout_ms(r, sbxu_mono_ns())) < 0) {
            if (errno == EINTR)
                continue;
            r->fail = r->sb->host->set_error(SBX_E_SYSTEM, "fake: poll: %s", strerror(errno));
            kill_group(r);
            return;
        }
        now = sbxu_mono_ns();
        if (!r->leader_gone && r->deadline_ns != 0 && !r->timed_out && now >= r->deadline_ns) {
            r->timed_out = true;
            kill_group(r);
        }
        if (r->leader_gone && now >= r->drain_end_ns)
            return;
        if (icancel >= 0 && pfd[icancel].revents != 0) {
            /* Cancelled: the group dies now; the leader's exit ends the loop. */
            r->cancelled = true;
            kill_group(r);
        }
        if (iout >= 0 && pfd[iout].revents != 0)
            drain_output(r, &r->child.out_fd, 1);
        if (ierr >= 0 && pfd[ierr].revents != 0)
            drain_output(r, &r->child.err_fd, 2);
        if (((iin >= 0 && pfd[iin].revents != 0) || (iready >= 0 && pfd[iready].revents != 0)) &&
            r->child.in_fd >= 0)
            feed_stdin(r);
        if (ipid >= 0 && pfd[ipid].revents != 0) {
            /* The leader exited: what it left running in its group dies with it. */
            r->leader_gone = true;
            r->drain_end_ns = now + DRAIN_GRACE_NS;
            kill_group(r);
            close_fd(&r->child.in_fd);
        }
    }
}

static void fill_exit(sbx_plugin_exit *out, int status, bool timed_out)
{
    if (out == NULL)
        return;
    if (SBX_STRUCT_HAS(out, exited))
        out->exited = WIFEXITED(status) ? 1 : 0;
    if (SBX_STRUCT_HAS(out, exit_code))
        out->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (SBX_STRUCT_HAS(out, signal))
        out->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (SBX_STRUCT_HAS(out, timed_out))
        out->timed_out = timed_out ? 1 : 0;
    if (SBX_STRUCT_HAS(out, oom_killed))
        out->oom_killed = 0;
}

static int run(exec_run *r, const sbx_plugin_cmd *cmd, sbx_plugin_exit *exit_out)
{
    bool want_stdin = r->io != NULL && SBX_STRUCT_HAS(r->io, input) &&
                      r->io->input != NULL;
    int status = 0, rc;

    rc = fake_spawn(r->sb, cmd, want_stdin, &r->child);
    if (rc != SBX_OK)
        return rc;
    if (r->child.in_fd >= 0 && fcntl(r->child.in_fd, F_SETFL, O_NONBLOCK) != 0) {
        rc = r->sb->host->set_error(SBX_E_SYSTEM, "fake: fcntl O_NONBLOCK: %s", strerror(errno));
        fake_reap(r->sb, &r->child, NULL);
        return rc;
    }
    if (cmd->timeout_ms != 0)
        r->deadline_ns = sbxu_mono_ns() + cmd->timeout_ms * 1000000ull;
    io_loop(r);
    rc = fake_reap(r->sb, &r->child, &status);
    if (r->fail != SBX_OK)
        return r->fail;
    if (rc != SBX_OK)
        return rc;
    if (r->cancelled)
        return r->sb->host->set_error(SBX_E_EXEC_CANCELLED, "fake: \"%s\" was cancelled",
                                      cmd->argv[0]);
    if (r->aborted)
        return r->sb->host->set_error(SBX_E_EXEC_ABORTED,
                                      "fake: the I/O callback asked to stop \"%s\"; it was killed",
                                      cmd->argv[0]);
    fill_exit(exit_out, status, r->timed_out);
    return SBX_OK;
}

int fake_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
              sbx_plugin_exit *exit_out)
{
    fake_sandbox *sb = sandbox;
    exec_run r = {.sb = sb, .io = io, .cancel_fd = -1, .input_ready_fd = -1};
    sigset_t pipe_set, old_mask, pending;
    int rc;

    if (cmd == NULL || cmd->argv == NULL || cmd->argv[0] == NULL || cmd->argv[0][0] == '\0')
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT, "fake: exec needs a non-empty argv");
    if (io != NULL && SBX_STRUCT_HAS(io, cancel_fd))
        r.cancel_fd = io->cancel_fd;
    if (io != NULL && io->input != NULL && SBX_STRUCT_HAS(io, input_ready_fd))
        r.input_ready_fd = io->input_ready_fd;
    rc = fake_enter_exec(sb);
    if (rc != SBX_OK)
        return rc;
    r.in_buf = malloc(CHUNK_SIZE);
    r.out_buf = malloc(CHUNK_SIZE);
    if (r.in_buf == NULL || r.out_buf == NULL) {
        rc = sb->host->set_error(SBX_E_NOMEM, "fake: out of memory");
        goto out;
    }
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask);
    sigpending(&pending);
    r.sigpipe_was_pending = sigismember(&pending, SIGPIPE);
    rc = run(&r, cmd, exit_out);
    pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
out:
    free(r.in_buf);
    free(r.out_buf);
    fake_leave(sb);
    return rc;
}
