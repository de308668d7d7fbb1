/*
 * cmd_shell.c - `sandboxio shell [OPTIONS] [ID]`: an interactive shell in
 * a fresh sandbox, `run -it -- sh` under a name a user looks for.
 */
#include "config.h"

#include "commands.h"
#include "run.h"
#include "util.h"

/*
 * The hook for named sandboxes: when the lifecycle commands (create, exec)
 * exist, a shell in sandbox ID is an exec of sh on a terminal in the
 * sandbox attached by ID (sbx_plugin.attach), which stays when the shell
 * exits. Until then ID is refused, never silently ignored.
 */
static int shell_in_named(struct run_opts *opts)
{
    int status = sbx_cli_usage_error("shell", "'%s': a shell in a named sandbox needs named "
                                     "sandboxes (sandboxio create), which this build lacks; "
                                     "without ID, shell opens a fresh one", opts->shell_id);
    run_opts_release(opts);
    return status;
}

int cmd_shell(int argc, char **argv)
{
    struct run_opts opts;
    int status = run_opts_parse_shell(&opts, argc, argv);

    if (status != 0) {
        run_opts_release(&opts);
        return status < 0 ? 0 : status;
    }
    if (opts.shell_id)
        return shell_in_named(&opts);
    return run_with_opts(&opts);
}
