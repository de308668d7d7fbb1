/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_tty.h - `run -t`: the command on a pseudo-terminal of the client's
 * size, the client's terminal in raw mode meanwhile, resized on SIGWINCH.
 */
#ifndef SBX_CLI_RUN_TTY_H
#define SBX_CLI_RUN_TTY_H

#include <sandboxio/sandboxio.h>

/*
 * Ask for a terminal of the client's size for cmd (24 x 80 when neither
 * stdin nor stdout is one), follow the client's resizes, and with raw != 0
 * put the client's terminal (stdin) in raw mode, so that every key goes to
 * the command. Returns 0 or an exit status (reported). Restored by
 * sbx_cli_tty_end(), which also runs at exit.
 */
int sbx_cli_tty_begin(sbx_cmd *cmd, int raw);
/*
 * -t needs a terminal on stdin: a pipe or a file on the command's terminal
 * would have its bytes echoed and edited, and its EOF never reach the
 * command. Returns 0 when stdin is a terminal, else the exit status of the
 * usage error reported for command cmd (docker's "the input device is not
 * a TTY").
 */
int sbx_cli_tty_need_terminal(const char *cmd);
/* Put the client's terminal back as it was; safe to call more than once. */
void sbx_cli_tty_end(void);

/*
 * The value of TERM to give a command run on a terminal: ours, unless one of
 * the n variables the user gave (given[i]: "NAME=VALUE" or "NAME") is TERM,
 * or ours is unset or empty; then NULL. The environment inherits nothing
 * else: a terminal without TERM is a dumb one to every program in it.
 */
const char *sbx_cli_tty_term(const char *const *given, size_t n);

#endif
