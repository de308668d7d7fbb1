/* SPDX-License-Identifier: Apache-2.0 */
/*
 * interrupt.h - let a command that holds sandboxes (`run`, `mcp`) destroy
 * them when the user interrupts it.
 *
 * The first SIGINT, SIGTERM or SIGHUP is recorded, triggers the cancel of
 * sbx_cli_interrupt_cancel() (the command attached to it is killed at once,
 * even a silent one) and makes sbx_cli_interrupt_fd() readable (a serve
 * loop polling it wakes up); the caller then destroys its sandboxes and
 * exits 128+N. A second one gets the default action, so an unresponsive
 * process can still be killed. A signal that was ignored when sandboxio
 * started (nohup) stays ignored. SIGPIPE is caught too, so that writing to
 * a closed stdout fails with EPIPE.
 */
#ifndef SBX_CLI_INTERRUPT_H
#define SBX_CLI_INTERRUPT_H

#include <sandboxio/exec.h>

/*
 * Install the handlers, once per process. note (static, may be NULL) is
 * written to stderr at the first signal. 0, or -1 (errno set, or the
 * library's error when the cancel could not be made).
 */
int sbx_cli_interrupt_install(const char *note);

/* The signal that interrupted us, or 0. Async-signal-safe. */
int sbx_cli_interrupted(void);

/* The cancel the handlers trigger (after sbx_cli_interrupt_install()):
 * attach it to every command run. */
sbx_cancel *sbx_cli_interrupt_cancel(void);

/* A descriptor that polls readable (POLLIN) from the first signal on;
 * never read or close it. -1 before sbx_cli_interrupt_install(). */
int sbx_cli_interrupt_fd(void);

#endif
