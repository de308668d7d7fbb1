/*
 * interrupt.h - let `run` destroy its sandbox when the user interrupts it.
 *
 * The first SIGINT, SIGTERM or SIGHUP is only recorded: run stops the command
 * at the next chance it gets, destroys the sandbox and exits 128+N. A second
 * one gets the default action, so an unresponsive run can still be killed.
 * A signal that was ignored when sandboxio started (nohup) stays ignored.
 * SIGPIPE is caught too, so that writing to a closed stdout fails with EPIPE.
 */
#ifndef SBX_CLI_INTERRUPT_H
#define SBX_CLI_INTERRUPT_H

/* Install the handlers (for `run` only); 0, or -1 with errno set. */
int sbx_cli_interrupt_install(void);

/* The signal that interrupted us, or 0. Async-signal-safe. */
int sbx_cli_interrupted(void);

#endif
