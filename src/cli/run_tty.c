/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_tty.c - the client's side of `run -t`.
 *
 * The client's terminal is put in raw mode only while the command runs, and
 * put back on every way out sandboxio has: the normal return, an error, an
 * interrupt (SIGINT/SIGTERM/SIGHUP end the run, which returns here), exit()
 * (atexit) and a fatal signal (restored, then the signal's default action).
 * Only SIGKILL leaves it raw; `reset` or `stty sane` mends that.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "run_tty.h"
#include "common/error.h"

static struct termios saved;
static volatile sig_atomic_t raw_on;
static int winch[2] = { -1, -1 };

/* Async-signal-safe: tcsetattr() is. */
static void restore(void)
{
    if (raw_on) {
        tcsetattr(STDIN_FILENO, TCSADRAIN, &saved);
        raw_on = 0;
    }
}

void sbx_cli_tty_end(void)
{
    restore();
}

static void on_fatal(int sig)
{
    restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_winch(int sig)
{
    int saved_errno = errno;
    char c = 1;
    ssize_t ignored = write(winch[1], &c, 1);   /* full pipe: a resize is pending anyway */

    (void)sig;
    (void)ignored;
    errno = saved_errno;
}

static int terminal_fd(void)
{
    return isatty(STDIN_FILENO) ? STDIN_FILENO : isatty(STDOUT_FILENO) ? STDOUT_FILENO : -1;
}

/* The backend asks for the size after SIGWINCH made winch[0] readable. */
static int winsize(void *userdata, uint16_t *rows, uint16_t *cols)
{
    struct winsize ws;
    char buf[64];
    int fd = terminal_fd();

    (void)userdata;
    while (read(winch[0], buf, sizeof(buf)) > 0)
        ;
    if (fd < 0 || ioctl(fd, TIOCGWINSZ, &ws) != 0 || !ws.ws_row || !ws.ws_col)
        return -1;
    *rows = ws.ws_row, *cols = ws.ws_col;
    return 0;
}

int sbx_cli_tty_need_terminal(const char *cmd)
{
    if (isatty(STDIN_FILENO))
        return 0;
    return sbx_cli_usage_error(cmd, "-t: the input is not a terminal (stdin is a pipe, a file or "
                                    "/dev/null); run without -t");
}

int sbx_cli_tty_begin(sbx_cmd *cmd, int raw)
{
    static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGQUIT };
    struct winsize ws = { .ws_row = 24, .ws_col = 80 };
    struct sigaction sa;
    struct termios t;
    int fd = terminal_fd(), rc;

    if (fd >= 0 && (ioctl(fd, TIOCGWINSZ, &ws) != 0 || !ws.ws_row || !ws.ws_col))
        ws.ws_row = 24, ws.ws_col = 80;
    rc = sbx_cmd_set_pty(cmd, ws.ws_row, ws.ws_col);
    if (rc != SBX_OK)
        return sbx_cli_error_lib(rc, "-t");
    if (fd >= 0) {
        if (pipe2(winch, O_CLOEXEC | O_NONBLOCK) != 0)
            return sbx_cli_error(SBX_E_SYSTEM, "-t: pipe: %s", strerror(errno));
        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_winch;
        sa.sa_flags = SA_RESTART;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGWINCH, &sa, NULL) != 0)
            return sbx_cli_error(SBX_E_SYSTEM, "-t: SIGWINCH: %s", strerror(errno));
        rc = sbx_cmd_set_pty_resize(cmd, winch[0], winsize, NULL);
        if (rc != SBX_OK)
            return sbx_cli_error_lib(rc, "-t");
    }
    if (!raw || !isatty(STDIN_FILENO))
        return 0;
    if (tcgetattr(STDIN_FILENO, &saved) != 0)
        return sbx_cli_error(SBX_E_SYSTEM, "-t: reading the terminal's mode: %s", strerror(errno));
    atexit(sbx_cli_tty_end);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
        sigaction(fatal[i], &sa, NULL);
    /* Every key, ^C and ^D included, goes to the command; its terminal interprets them. */
    t = saved;
    cfmakeraw(&t);
    if (tcsetattr(STDIN_FILENO, TCSADRAIN, &t) != 0)
        return sbx_cli_error(SBX_E_SYSTEM, "-t: raw mode: %s", strerror(errno));
    raw_on = 1;
    return 0;
}

const char *sbx_cli_tty_term(const char *const *given, size_t n)
{
    const char *term = getenv("TERM");

    for (size_t i = 0; i < n; i++)
        if (strncmp(given[i], "TERM", 4) == 0 && (given[i][4] == '=' || given[i][4] == '\0'))
            return NULL;
    return term && *term ? term : NULL;
}
