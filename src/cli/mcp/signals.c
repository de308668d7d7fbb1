/*
 * signals.c - SIGINT, SIGTERM and SIGHUP end the server cleanly: the handler
 * only writes a byte to a pipe the serve loops poll, so that every sandbox
 * is destroyed before the process exits. A second signal kills at once.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "mcp.h"

static int pipe_fds[2] = { -1, -1 };
static volatile sig_atomic_t signalled;

static void on_signal(int sig)
{
    int saved = errno;
    char byte = (char)sig;
    ssize_t ignored;

    signalled = sig;
    ignored = write(pipe_fds[1], &byte, 1);
    (void)ignored;
    errno = saved;
}

/* SIGPIPE must not kill us with sandboxes up (a client closing its end):
 * a handler, unlike SIG_IGN, is not inherited by the commands run. */
static void on_sigpipe(int sig)
{
    (void)sig;
}

int mcp_signals_install(void)
{
    static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;

    if (pipe2(pipe_fds, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
        if (sigaction(signals[i], &sa, NULL) != 0)
            return -1;
    }
    sa.sa_handler = on_sigpipe;
    sa.sa_flags = SA_RESTART;
    return sigaction(SIGPIPE, &sa, NULL);
}

int mcp_signal_fd(void)
{
    return pipe_fds[0];
}

int mcp_signalled(void)
{
    return signalled;
}
