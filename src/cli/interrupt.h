/*
 * interrupt.h - let `run` destroy its sandbox when the user interrupts it.
 *
 * The first SIGINT, SIGTERM or SIGHUP is recorded and triggers the cancel of
 * sbx_cli_interrupt_cancel(): the command is killed at once (even a silent
 * one), the sandbox destroyed, and run exits 128+N. A second
 * one gets the default action, so an unresponsive run can still be killed.
 * A signal that was ignored when sandboxio started (nohup) stays ignored.
 * SIGPIPE is caught too, so that writing to a closed stdout fails with EPIPE.
 */
#ifndef SBX_CLI_INTERRUPT_H
#define SBX_CLI_INTERRUPT_H

#include <sandboxio/exec.h>

/* Install the handlers (for `run` only); 0, or -1 (errno set, or the
 * library's error when the cancel could not be made). */
int sbx_cli_interrupt_install(void);

/* The signal that interrupted us, or 0. Async-signal-safe. */
int sbx_cli_interrupted(void);

/* The cancel the handlers trigger (after sbx_cli_interrupt_install()):
 * attach it to every command run. */
sbx_cancel *sbx_cli_interrupt_cancel(void);

#endif
