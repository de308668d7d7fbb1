/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_shell.c - `sandboxio shell [OPTIONS] [ID]`: an interactive shell in
 * a fresh sandbox, `run -it -- sh` under a name a user looks for; with ID,
 * `exec -it ID -- sh` in that sandbox, which outlives the shell.
 */
#include "config.h"

#include "commands.h"
#include "run.h"

int cmd_shell(int argc, char **argv)
{
    struct run_opts opts;
    int status = run_opts_parse_shell(&opts, argc, argv);

    if (status != 0) {
        run_opts_release(&opts);
        return status < 0 ? 0 : status;
    }
    if (opts.shell_id) {
        /* Parsed again as exec's options: run's policy options do not apply. */
        run_opts_release(&opts);
        return cmd_shell_in(argc, argv);
    }
    return run_with_opts(&opts);
}
