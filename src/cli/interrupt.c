/*
 * interrupt.c - record the first termination signal instead of dying of it,
 * and cancel the running command from the handler, so that the command
 * stops at once and the sandbox is destroyed rather than leaked.
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "interrupt.h"

static volatile sig_atomic_t interrupted;
/* Made before the handlers are installed, never freed: a handler may use it any time. */
static sbx_cancel *cancel;

static void on_signal(int sig)
{
    static const char note[] =
        "sandboxio: interrupted: stopping the command and destroying the sandbox"
        " (interrupt again to quit at once)\n";
    ssize_t ignored;

    interrupted = sig;
    sbx_cancel_trigger(cancel);     /* async-signal-safe; keeps errno */
    ignored = write(STDERR_FILENO, note, sizeof(note) - 1);
    (void)ignored;
}

/* Only there so that SIGPIPE is not fatal: see sbx_cli_interrupt_install(). */
static void on_sigpipe(int sig)
{
    (void)sig;
}

int sbx_cli_interrupt_install(void)
{
    static const int signals[] = { SIGINT, SIGTERM, SIGHUP };
    struct sigaction sa;

    if (!cancel && sbx_cancel_new(&cancel) != SBX_OK)
        return -1;
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
