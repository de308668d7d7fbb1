/* SPDX-License-Identifier: Apache-2.0 */
/*
 * interrupt.c - record the first termination signal instead of dying of it,
 * cancel the running command and wake the serve loops from the handler, so
 * that commands stop at once and sandboxes are destroyed rather than leaked.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "interrupt.h"

static volatile sig_atomic_t interrupted;
/* Made before the handlers are installed, never freed: a handler may use them any time. */
static sbx_cancel *cancel;
static int wake_fds[2] = { -1, -1 };
static const char *note;

static void on_signal(int sig)
{
    int saved = errno;
    char byte = (char)sig;
    ssize_t ignored;

    interrupted = sig;
    sbx_cancel_trigger(cancel);     /* async-signal-safe; keeps errno */
    /* Non-blocking: a full pipe is readable already. */
    ignored = write(wake_fds[1], &byte, 1);
    if (note)
        ignored = write(STDERR_FILENO, note, strlen(note));
    (void)ignored;
    errno = saved;
}

/* Only there so that SIGPIPE is not fatal: see sbx_cli_interrupt_install(). */
static void on_sigpipe(int sig)
{
    (void)sig;
}

int sbx_cli_interrupt_install(const char *text)
{
    static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;

    if (!cancel && sbx_cancel_new(&cancel) != SBX_OK)
        return -1;
    if (wake_fds[0] < 0 && pipe2(wake_fds, O_CLOEXEC | O_NONBLOCK) != 0)
        return -1;
    note = text;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESETHAND: the second signal takes the default action. A handler,
     * unlike SIG_IGN, is not inherited by the commands a backend starts. */
    sa.sa_flags = SA_RESETHAND | SA_RESTART;
    for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
        struct sigaction old;

        if (sigaction(signals[i], NULL, &old) != 0)
            return -1;
        /* Ignored on purpose (nohup, a background job): keep it ignored. */
        if (old.sa_handler == SIG_IGN)
            continue;
        if (sigaction(signals[i], &sa, NULL) != 0)
            return -1;
    }

    /* A closed stdout must not kill us with the sandbox still up: with a
     * handler, a write fails with EPIPE instead. SIG_IGN would do that too,
     * but it is inherited by the commands a backend starts; a handler is not. */
    sa.sa_handler = on_sigpipe;
    sa.sa_flags = SA_RESTART;
    return sigaction(SIGPIPE, &sa, NULL);
}

int sbx_cli_interrupted(void)
{
    return interrupted;
}

sbx_cancel *sbx_cli_interrupt_cancel(void)
{
    return cancel;
}

int sbx_cli_interrupt_fd(void)
{
    return wake_fds[0];
}
