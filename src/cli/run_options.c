/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_options.c - `sandboxio run` and `shell` options, turned into a
 * command; the policy options they share with the other commands are
 * common/policy_opts.c's.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run.h"
#include "run_tty.h"
#include "common/error.h"
#include "common/options.h"

enum { OPT_CWD = OPT_POLICY_END, OPT_STDIN, OPT_JSON, OPT_INTERACTIVE, OPT_TTY, OPT_RM, OPT_FRESH };

static const struct option options[] = {
    POLICY_OPTIONS,
    { "cwd", required_argument, NULL, OPT_CWD },
    { "stdin", no_argument, NULL, OPT_STDIN },
    { "interactive", no_argument, NULL, OPT_INTERACTIVE },
    { "tty", no_argument, NULL, OPT_TTY },
    { "json", no_argument, NULL, OPT_JSON },
    /* `docker run --rm` habit: run always removes its sandbox, so a no-op. */
    { "rm", no_argument, NULL, OPT_RM },
    { "fresh", no_argument, NULL, OPT_FRESH },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
    fputs("Usage: sandboxio run [OPTIONS] [--] CMD [ARGS...]\n"
          "\n"
          "Create a sandbox, run CMD in it, destroy it. CMD runs directly (no\n"
          "shell) and inherits none of this environment. Exits with CMD's status,\n"
          "128+N if signal N killed it, 127 if CMD was not found, 126 if it cannot\n"
          "be executed, or 120-125 if sandboxio itself failed.\n"
          "\n"
          "Options:\n",
          out);
    fputs(policy_opts_usage, out);
    fputs("  -w, --cwd DIR      working directory: relative to the sandbox's work dir,\n"
          "                     or absolute (backends with cwd-abs); made if missing\n"
          "  -i, --interactive  stream this standard input to CMD as it arrives\n"
          "                     (the default when it is a pipe, socket or file)\n"
          "  -t, --tty          run CMD on a terminal of this terminal's size (with -i:\n"
          "                     this terminal in raw mode, every key to CMD); stdin\n"
          "                     must be a terminal\n"
          "  --stdin            read all of this standard input first, then feed it\n"
          "                     to CMD (a terminal without -i or --stdin gives EOF)\n"
          "  --json             capture the output and print one JSON object\n"
          "  --rm               accepted for docker's habit and ignored: run always\n"
          "                     removes its sandbox\n"
          "  --fresh            make the sandbox now, for this run, and leave no\n"
          "                     ready one behind (local:// takes a sandbox made ahead\n"
          "                     of time otherwise; also SANDBOXIO_RUN_READY=0)\n"
          "  -h, --help         show this help\n"
          "\n"
          "A policy the backend cannot guarantee is refused before anything runs\n"
          "(exit 122): e.g. the default --network none on a backend that cannot\n"
          "cut the network.\n",
          out);
}

static int lib_failed(int rc, const char *what)
{
    return rc == SBX_OK ? 0 : sbx_cli_error_lib(rc, what);
}

int sbx_cli_cmd_set_cwd(sbx_cmd *cmd, const char *dir)
{
    return dir[0] == '/' ? sbx_cmd_set_cwd_abs(cmd, dir) : sbx_cmd_set_cwd(cmd, dir);
}

/* Read all of standard input: --stdin gives CMD everything, then EOF. */
static int read_stdin(void **data, size_t *len)
{
    size_t cap = 0, n = 0;
    char *buf = NULL;

    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nbuf = ncap > cap ? realloc(buf, ncap) : NULL;
            if (!nbuf) {
                free(buf);
                return sbx_cli_error(SBX_E_NOMEM, "--stdin: out of memory reading standard input");
            }
            buf = nbuf, cap = ncap;
        }
        ssize_t got = read(STDIN_FILENO, buf + n, cap - n);
        if (got == 0)
            break;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            int err = errno;
            free(buf);
            return sbx_cli_error(SBX_E_SYSTEM, "--stdin: reading standard input: %s", strerror(err));
        }
        n += (size_t)got;
    }
    *data = buf, *len = n;
    return 0;
}

/*
 * Stdin that is data (a pipe, a socket, a file) is streamed without -i, as
 * a shell would pass it: dropping it silently loses the user's input. A
 * terminal, /dev/null or a closed stdin gives EOF unless -i asks for it.
 */
int run_stdin_is_data(void)
{
    struct stat st;

    if (fstat(STDIN_FILENO, &st) != 0)
        return 0;
    return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) || S_ISREG(st.st_mode);
}

int run_cmd_stdin(sbx_cmd *cmd)
{
    void *data = NULL;
    size_t len = 0;
    int status = read_stdin(&data, &len);

    if (status)
        return status;
    status = lib_failed(sbx_cmd_set_stdin(cmd, data, len), "--stdin");
    free(data);
    return status;
}

static void shell_usage(FILE *out)
{
    fputs("Usage: sandboxio shell [OPTIONS] [ID]\n"
          "\n"
          "An interactive shell (sh) in a fresh sandbox, on a terminal: the same\n"
          "as `sandboxio run -it [OPTIONS] -- sh`. The sandbox is destroyed when\n"
          "the shell exits, with the shell's status. When stdin is not a terminal\n"
          "(a pipe, a file, /dev/null), sh runs without one and reads stdin as a\n"
          "script: `echo 'ls; exit 3' | sandboxio shell` ends at its EOF.\n"
          "\n"
          "With ID (a sandbox made by `create`): the shell runs in it, the same as\n"
          "`sandboxio exec -it [OPTIONS] ID -- sh`, with exec's options (-e, -w,\n"
          "--timeout, --dsn; the sandbox keeps its policy). The sandbox outlives\n"
          "the shell until `sandboxio kill ID`.\n"
          "\n"
          "Options:\n",
          out);
    fputs(policy_opts_usage, out);
    fputs("  -w, --cwd DIR      working directory: relative to the sandbox's work dir,\n"
          "                     or absolute (backends with cwd-abs); made if missing\n"
          "  -h, --help         show this help\n",
          out);
}

/* shell: the options of run but --json, --stdin and a command; one optional ID. */
static int parse_as(struct run_opts *opts, int argc, char **argv, int shell)
{
    const char *name = shell ? "shell" : "run";
    int opt, status, use_stdin = 0, interactive = shell, fresh = 0;
    const char *cwd = NULL;

    memset(opts, 0, sizeof(*opts));
    if ((status = policy_opts_init(&opts->po)))
        return status;

    sbx_cli_getopt_reset();
    /* -e and -w as `docker run` has them. */
    while (status == 0 && (opt = getopt_long(argc, argv, "+:hite:w:", options, NULL)) != -1) {
        /* -i and -t are what shell is; --json and --stdin would contradict it. */
        if (shell && opt == OPT_FRESH)
            return sbx_cli_usage_error(name, "--fresh is not an option of shell (its sandbox is "
                                             "always made for it)");
        if (shell && (opt == OPT_JSON || opt == OPT_STDIN))
            return sbx_cli_usage_error(name, "%s is not an option of shell (it is always -it)",
                                       argv[optind - 1]);
        switch (opt) {
        case 'h':
            (shell ? shell_usage : usage)(stdout);
            return -1;
        case 'e':
            status = policy_opts_take(&opts->po, name, OPT_ENV, optarg);
            break;
        case 'w':
        case OPT_CWD:
            cwd = optarg;
            break;
        case OPT_STDIN:
            use_stdin = 1;
            break;
        case 'i':
        case OPT_INTERACTIVE:
            interactive = 1;
            break;
        case 't':
        case OPT_TTY:
            opts->tty = 1;
            break;
        case OPT_JSON:
            opts->json = 1;
            break;
        case OPT_RM:
            break;
        case OPT_FRESH:
            fresh = 1;
            break;
        default:
            if (opt >= OPT_DSN && opt < OPT_POLICY_END)
                status = policy_opts_take(&opts->po, name, opt, optarg);
            else
                return sbx_cli_option_error(name, argv, opt, options);
        }
    }
    if (status)
        return status;
    if (shell) {
        static char *const sh[] = { "sh", NULL };
        /* Without a terminal, sh reads stdin as a script, to its EOF and its status. */
        opts->tty = isatty(STDIN_FILENO);
        if (optind < argc)
            opts->shell_id = argv[optind++];
        if (optind < argc)
            return sbx_cli_usage_error(name, "unexpected argument '%s' (shell takes one ID)",
                                       argv[optind]);
        /* A shell in sandbox ID is an exec there (cmd_shell_in()): nothing to build. */
        if (opts->shell_id)
            return 0;
        argv = (char **)sh, optind = 0;
    }
    if (optind >= argc && !shell)
        return sbx_cli_usage_error("run", "no command given");
    if (use_stdin && interactive)
        return sbx_cli_usage_error("run", "--stdin reads all of stdin first, -i streams it: give one");
    if (!shell && opts->tty && (status = sbx_cli_tty_need_terminal("run")))
        return status;
    if ((status = policy_opts_finish(&opts->po)))
        return status;
    /* On a terminal, TERM goes with it, unless -e, --env-pass or the profile set it. */
    const char *term = opts->tty ? sbx_cli_tty_term(opts->po.env, opts->po.n_env) : NULL;
    if (term && (status = lib_failed(sbx_policy_set_env(opts->po.policy, "TERM", term), "TERM")))
        return status;

    if ((status = lib_failed(sbx_cmd_new(&opts->cmd, (const char *const *)(argv + optind)),
                             "the command")))
        return status;
    if (cwd && (status = lib_failed(sbx_cli_cmd_set_cwd(opts->cmd, cwd), "--cwd")))
        return status;
    if (use_stdin)
        status = run_cmd_stdin(opts->cmd);
    else if (interactive || (opts->stdin_auto = run_stdin_is_data()))
        status = lib_failed(sbx_cmd_set_stdin_fd(opts->cmd, STDIN_FILENO), "-i");
    opts->interactive = interactive;
    /* A shell's sandbox is made for it: a session is no one-shot to speed up. */
    opts->ready = !shell && !fresh;
    return status;
}

int run_opts_parse(struct run_opts *opts, int argc, char **argv)
{
    return parse_as(opts, argc, argv, 0);
}

int run_opts_parse_shell(struct run_opts *opts, int argc, char **argv)
{
    return parse_as(opts, argc, argv, 1);
}

void run_opts_release(struct run_opts *opts)
{
    sbx_cmd_free(opts->cmd);
    opts->cmd = NULL;
    policy_opts_release(&opts->po);
}
