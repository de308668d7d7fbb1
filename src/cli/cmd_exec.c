/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_exec.c - `sandboxio exec ID -- CMD...`: run a command in a sandbox
 * made by `create`, under the policy stored with it, then let go of it.
 * The exit status is the command's, as for `run`. `-t` runs it on a
 * terminal as `run -t` does (run_tty.c); `shell ID` is `exec -it ID -- sh`.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "common/result_json.h"
#include "interrupt.h"
#include "run.h"
#include "run_tty.h"
#include "sandbox_ref.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"
#include "common/parse.h"

enum { OPT_X_DSN = 256, OPT_X_TIMEOUT, OPT_X_CWD, OPT_X_ENV, OPT_X_JSON };

static const struct option options[] = {
    { "dsn", required_argument, NULL, OPT_X_DSN },
    { "timeout", required_argument, NULL, OPT_X_TIMEOUT },
    { "cwd", required_argument, NULL, OPT_X_CWD },
    { "env", required_argument, NULL, OPT_X_ENV },
    { "interactive", no_argument, NULL, 'i' },
    { "tty", no_argument, NULL, 't' },
    { "json", no_argument, NULL, OPT_X_JSON },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void usage(FILE *out)
{
    fputs("Usage: sandboxio exec [-i] [-t] [OPTIONS] ID|NAME [--] CMD [ARGS...]\n"
          "\n"
          "Run CMD in the sandbox ID (as `create` and `ps` print it, a unique\n"
          "prefix of it, or its name), under the policy it was created with.\n"
          "\n"
          "  -i, --interactive  feed this process's stdin to CMD as it arrives\n"
          "                     (the default when it is a pipe, socket or file)\n"
          "  -t, --tty          run CMD on a terminal of this terminal's size (with -i:\n"
          "                     this terminal in raw mode, every key to CMD); stdin\n"
          "                     must be a terminal\n"
          "  -e, --env K=V      set K in CMD's environment (repeatable)\n"
          "  -w, --cwd DIR      run CMD in DIR (relative to the work dir, or absolute\n"
          "                     on backends with cwd-abs); made if missing\n"
          "  --timeout S        kill CMD after S (at most the sandbox's own timeout)\n"
          "  --dsn DSN          look for ID on DSN only\n"
          "  --json             capture the output and print one JSON object, as\n"
          "                     `run --json` does, with the sandbox's \"id\" (not with -t)\n",
          out);
}

static int set_env(sbx_cmd *cmd, const char *kv)
{
    const char *eq = strchr(kv, '=');
    char *name;
    int rc;

    if (!eq || eq == kv)
        return sbx_cli_usage_error("exec", "--env wants K=V, not '%s'", kv);
    if (!(name = strndup(kv, (size_t)(eq - kv))))
        return sbx_cli_error(SBX_E_NOMEM, "exec: out of memory");
    rc = sbx_cmd_set_env(cmd, name, eq + 1);
    free(name);
    return rc ? sbx_cli_error_lib(rc, "exec --env") : 0;
}

/* Settings that need the command: applied once it exists. */
struct exec_args {
    const char *dsn, *cwd;
    char **env;
    size_t env_n;
    uint64_t timeout_ms;
    int in, tty, json;
};

static int build_cmd(const struct exec_args *a, char **argv, sbx_cmd **cmd)
{
    int rc = sbx_cmd_new(cmd, (const char *const *)argv), status = 0;

    if (rc)
        return sbx_cli_error_lib(rc, "exec: the command");
    for (size_t i = 0; status == 0 && i < a->env_n; i++)
        status = set_env(*cmd, a->env[i]);
    if (status == 0 && a->cwd && (rc = sbx_cli_cmd_set_cwd(*cmd, a->cwd)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "exec --cwd");
    if (status == 0 && a->timeout_ms && (rc = sbx_cmd_set_timeout(*cmd, a->timeout_ms)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "exec --timeout");
    if (status == 0 && (rc = sbx_cmd_set_cancel(*cmd, sbx_cli_interrupt_cancel())) != SBX_OK)
        status = sbx_cli_error_lib(rc, "exec: setting up the cancel");
    /* On a terminal, TERM goes with it, unless -e set it. */
    const char *term = a->tty ? sbx_cli_tty_term((const char *const *)a->env, a->env_n) : NULL;
    if (status == 0 && term && (rc = sbx_cmd_set_env(*cmd, "TERM", term)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "exec: TERM");
    /* -i: our stdin as it arrives, so a command can answer line by line. */
    if (status == 0 && a->in && (rc = sbx_cmd_set_stdin_fd(*cmd, STDIN_FILENO)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "exec -i");
    return status;
}

/* exec --json: run's object for the result, with the sandbox's "id"; the exit status. */
static int print_json(const char *ref, const sbx_result *result)
{
    json_object *obj;
    int rc = result_json(result, &obj);

    if (rc == SBX_E_EXEC_TRUNCATED)
        return sbx_cli_error(rc, "output too large for --json");
    if (!rc && (rc = sbx_cli_json_add(obj, "id", json_object_new_string(ref))))
        json_object_put(obj);
    if (rc)
        return sbx_cli_error(rc, "exec: out of memory building the result");
    rc = sbx_cli_print_json(obj, 0);
    return rc ? sbx_cli_exit_code(rc) : run_status_of(result);
}

/* The sandbox outlives the exec: only the command is stopped. */
static const char exec_interrupt_note[] =
    "sandboxio: interrupted: stopping the command (interrupt again to quit at once)\n";

/*
 * exec, or with shell != 0 `shell [OPTIONS] ID`: always -it, the command sh,
 * the options exec's (the sandbox keeps the policy it was created with).
 */
static int exec_main(int argc, char **argv, int shell)
{
    static char *const sh[] = { "sh", NULL };
    const char *name = shell ? "shell" : "exec";
    struct exec_args a = { .in = shell, .tty = shell };
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;
    sbx_cmd *cmd = NULL;
    sbx_result *result = NULL;
    int opt, rc = SBX_OK, status = 0, printed = 0, parsed = 0, stdin_auto = 0;

    if (!(a.env = calloc((size_t)argc, sizeof(*a.env))))
        return sbx_cli_error(SBX_E_NOMEM, "exec: out of memory");
    sbx_cli_getopt_reset();
    while (status == 0 && (opt = getopt_long(argc, argv, "+:hite:w:", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            status = -1;
            break;
        case 'i':
            a.in = 1;
            break;
        case 't':
            a.tty = 1;
            break;
        case 'e':
        case OPT_X_ENV:
            a.env[a.env_n++] = optarg;
            break;
        case 'w':
        case OPT_X_CWD:
            a.cwd = optarg;
            break;
        case OPT_X_DSN:
            a.dsn = optarg;
            break;
        case OPT_X_JSON:
            a.json = 1;
            break;
        case OPT_X_TIMEOUT:
            if (sbx_cli_parse_duration_ms(optarg, &a.timeout_ms) != SBX_OK)
                status = sbx_cli_error(SBX_E_BAD_SIZE, "exec: --timeout '%s' is not a duration",
                                       optarg);
            break;
        default:
            if (shell && opt == '?' && optind > 0 && strncmp(argv[optind - 1], "--", 2) == 0)
                status = sbx_cli_usage_error(name, "'%s' is not an option of a shell in sandbox "
                                             "ID (it keeps the policy it was created with; "
                                             "give -e, -w, --timeout or --dsn)",
                                             argv[optind - 1]);
            else
                status = sbx_cli_option_error(name, argv, opt, options);
        }
    }
    int first = optind;
    char **command = argv + first + 1;
    if (status == 0 && first >= argc)
        status = sbx_cli_usage_error(name, "no sandbox id given");
    if (status == 0 && shell)
        command = (char **)sh;
    if (status == 0 && !shell && first + 1 < argc && strcmp(argv[first + 1], "--") == 0)
        command = argv + ++first + 1;
    if (status == 0 && !shell && first + 1 >= argc)
        status = sbx_cli_usage_error(name, "no command given");
    /* A shell without a terminal reads stdin as a script; -t wants one. */
    if (status == 0 && shell)
        a.tty = isatty(STDIN_FILENO);
    else if (status == 0 && a.tty && a.json)
        status = sbx_cli_usage_error(name, "--json captures the output, -t shows it: give one");
    else if (status == 0 && a.tty)
        status = sbx_cli_tty_need_terminal(name);
    /* Piped stdin goes to the command without -i, as run passes it. */
    if (status == 0 && !a.in && !a.tty && run_stdin_is_data())
        a.in = stdin_auto = 1;
    if (status == 0 && sbx_cli_interrupt_install(exec_interrupt_note) != 0)
        status = sbx_cli_error(SBX_E_SYSTEM, "installing the signal handlers: %m");
    parsed = status == 0;
    if (status == 0)
        status = build_cmd(&a, command, &cmd);
    if (status == 0 && (rc = sbx_client_new(&client)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "creating the client");
    if (status == 0)
        status = sbx_cli_ref_attach(client, name, argv[optind], a.dsn, &sb);
    /* -t: the terminal goes raw last, and back first, whatever the exec gave. */
    if (status == 0 && a.tty && (status = sbx_cli_tty_begin(cmd, a.in)) != 0)
        status = sbx_cli_ref_detach(sb, status);
    else if (status == 0 && a.json) {
        rc = sbx_exec(&result, sb, cmd);
        status = rc == SBX_OK ? print_json(argv[optind], result) : sbx_cli_error_lib(rc, name);
        printed = rc == SBX_OK;
        if (sbx_cli_interrupted())
            status = 128 + sbx_cli_interrupted();
        status = sbx_cli_ref_detach(sb, status);
    } else if (status == 0) {
        rc = run_exec_in(sb, cmd, &result);
        sbx_cli_tty_end();
        status = rc == SBX_OK ? run_status_of(result) : sbx_cli_exit_code(rc);
        if (sbx_cli_interrupted())
            status = 128 + sbx_cli_interrupted();
        status = sbx_cli_ref_detach(sb, status);
    }
    if (rc == SBX_E_CAP_STDIN && stdin_auto)
        run_note_stdin_auto();
    /* --json: a failure after the options is an {"error"} object too, as in run. */
    if (a.json && parsed && status > 0 && !printed) {
        const char *message = sbx_cli_last_error(&rc);
        if (message)
            result_json_print_error(rc, message);
    }
    sbx_result_free(result);
    sbx_cmd_free(cmd);
    sbx_client_free(client);
    free(a.env);
    return status < 0 ? 0 : status;
}

int cmd_exec(int argc, char **argv)
{
    return exec_main(argc, argv, 0);
}

int cmd_shell_in(int argc, char **argv)
{
    return exec_main(argc, argv, 1);
}
