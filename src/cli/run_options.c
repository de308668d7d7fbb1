/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_options.c - `sandboxio run` options, turned into a policy and a command.
 *
 * Everything the backend must guarantee (network, limits, timeout,
 * environment) goes into the policy, so that the core refuses an impossible
 * request before anything is created.
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
#include "util.h"

enum { OPT_CWD = OPT_POLICY_END, OPT_STDIN, OPT_JSON, OPT_INTERACTIVE, OPT_TTY, OPT_RM };

static const struct option options[] = {
    RUN_POLICY_OPTIONS,
    { "cwd", required_argument, NULL, OPT_CWD },
    { "stdin", no_argument, NULL, OPT_STDIN },
    { "interactive", no_argument, NULL, OPT_INTERACTIVE },
    { "tty", no_argument, NULL, OPT_TTY },
    { "json", no_argument, NULL, OPT_JSON },
    /* `docker run --rm` habit: run always removes its sandbox, so a no-op. */
    { "rm", no_argument, NULL, OPT_RM },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

const char run_policy_usage[] =
    "  --dsn DSN          backend (default: $SANDBOXIO_DSN, else " SBX_CLI_DEFAULT_DSN ")\n"
    "  --timeout S        kill CMD after S: 30, 1.5, 500ms, 2m, 1h (exit 124)\n"
    "  --memory SIZE      memory limit: 123, 64k, 512M, 2G (powers of 1024)\n"
    "  --cpus N           CPU limit, may be fractional (1.5)\n"
    "  --pids N           process limit\n"
    "  --disk SIZE        cap on what the work dir may hold\n"
    "  --no-default-limits  apply no default process/memory/disk limit (by\n"
    "                     default a backend that can enforce them gets\n"
    "                     pids 1024, memory 2G, disk 1G where none is given)\n"
    "  --network MODE     none (default), open, or allowlist\n"
    "  --allow-host H     allow host H[:PORT] (repeatable; implies allowlist)\n"
    "  --min-tier TIER    refuse a backend weaker than TIER: none, namespace,\n"
    "                     container, userspace-kernel, microvm\n"
    "  -e, --env K=V      set K in CMD's environment (repeatable)\n"
    "  --env-pass NAME    pass NAME from this environment if set (repeatable)\n"
    "  --output-cap SIZE  cap on each captured stream (default 16M)\n"
    "  --profile NAME     start from profile NAME (default: $SANDBOXIO_PROFILE);\n"
    "                     the options above override its values\n";

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
    fputs(run_policy_usage, out);
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
          "  -h, --help         show this help\n"
          "\n"
          "A policy the backend cannot guarantee is refused before anything runs\n"
          "(exit 122): e.g. the default --network none on a backend that cannot\n"
          "cut the network.\n",
          out);
}

/* Report a bad size/duration value of option name. */
static int bad_value(const char *name, const char *value, const char *expected)
{
    return sbx_cli_error(SBX_E_BAD_SIZE, "--%s: '%s' is not %s", name, value, expected);
}

static int lib_failed(int rc, const char *what)
{
    return rc == SBX_OK ? 0 : sbx_cli_error_lib(rc, what);
}

static int set_env_pair(sbx_policy *policy, const char *cmd, const char *pair)
{
    const char *eq = strchr(pair, '=');
    char *name;
    int rc;

    if (!eq || eq == pair)
        return sbx_cli_usage_error(cmd, "--env: '%s' is not NAME=VALUE", pair);
    name = strndup(pair, (size_t)(eq - pair));
    if (!name)
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    rc = sbx_policy_set_env(policy, name, eq + 1);
    free(name);
    return lib_failed(rc, "--env");
}

static int pass_env(sbx_policy *policy, const char *cmd, const char *name)
{
    const char *value;

    if (!*name || strchr(name, '='))
        return sbx_cli_usage_error(cmd, "--env-pass: '%s' is not a variable name", name);
    value = getenv(name);
    /* Like `docker run -e NAME`: an unset variable is simply not passed. */
    return value ? lib_failed(sbx_policy_set_env(policy, name, value), "--env-pass") : 0;
}

static int set_network(const char *cmd, const char *mode, int *network)
{
    if (strcmp(mode, "none") == 0)
        *network = SBX_NET_NONE;
    else if (strcmp(mode, "open") == 0)
        *network = SBX_NET_OPEN;
    else if (strcmp(mode, "allowlist") == 0)
        *network = SBX_NET_ALLOWLIST;
    else
        return sbx_cli_usage_error(cmd, "--network: '%s' is not none, open or allowlist", mode);
    return 0;
}

/* The network mode follows from --network and --allow-host; contradictions are refused. */
static int apply_network(sbx_policy *policy, int network, size_t hosts)
{
    if (network != SBX_NET_ALLOWLIST && hosts)
        return sbx_cli_error(SBX_E_BAD_POLICY, "--allow-host needs --network allowlist, not %s",
                             network == SBX_NET_OPEN ? "open" : "none");
    if (network == SBX_NET_ALLOWLIST && !hosts)
        return sbx_cli_error(SBX_E_BAD_POLICY, "--network allowlist needs at least one --allow-host");
    return lib_failed(sbx_policy_set_network(policy, network), "--network");
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

/* Keep the name the operator set (for `mcp`, which lets no tool replace it). */
static int note_env(struct policy_opts *po, const char *arg)
{
    const char **env = realloc(po->env, (po->n_env + 1) * sizeof(*env));

    if (!env)
        return -1;
    po->env = env;
    env[po->n_env++] = arg;
    return 0;
}

int policy_opts_init(struct policy_opts *po)
{
    memset(po, 0, sizeof(*po));
    po->output_cap = SBX_DEFAULT_OUTPUT_CAP;
    return lib_failed(sbx_policy_new(&po->policy), "creating the policy");
}

int policy_opts_take(struct policy_opts *po, const char *cmd, int opt, const char *arg)
{
    struct policy_given *given;

    po->cmd = cmd;
    if (opt == OPT_PROFILE) {
        po->profile = arg;
        return 0;
    }
    given = realloc(po->given, (po->n_given + 1) * sizeof(*given));
    if (!given)
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    po->given = given;
    given[po->n_given].opt = opt;
    given[po->n_given++].arg = arg;
    return 0;
}

int policy_opts_apply(struct policy_opts *po, const char *cmd, int opt, const char *arg)
{
    int tier;
    uint64_t v;

    switch (opt) {
    case OPT_DSN:
        po->dsn = arg;
        return 0;
    case OPT_TIMEOUT:
        if (sbx_cli_parse_duration_ms(arg, &v))
            return bad_value("timeout", arg, "a duration (30, 1.5, 500ms, 2m, 1h)");
        po->timeout_ms = v;
        return lib_failed(sbx_policy_set_timeout(po->policy, v), "--timeout");
    case OPT_MEMORY:
        if (sbx_cli_parse_size(arg, &v))
            return bad_value("memory", arg, "a size (123, 64k, 512M, 2G)");
        return lib_failed(sbx_policy_set_memory(po->policy, v), "--memory");
    case OPT_OUTPUT_CAP:
        if (sbx_cli_parse_size(arg, &v) || v > SIZE_MAX)
            return bad_value("output-cap", arg, "a size (123, 64k, 512M, 2G)");
        po->output_cap = (size_t)v;
        return lib_failed(sbx_policy_set_output_cap(po->policy, (size_t)v), "--output-cap");
    case OPT_CPUS:
        if (sbx_cli_parse_millis(arg, &v) || v > UINT32_MAX)
            return bad_value("cpus", arg, "a number of CPUs (1, 0.5, 2.25)");
        return lib_failed(sbx_policy_set_cpu(po->policy, (uint32_t)v), "--cpus");
    case OPT_PIDS:
        if (sbx_cli_parse_uint(arg, UINT32_MAX, &v))
            return bad_value("pids", arg, "a number of processes");
        return lib_failed(sbx_policy_set_pids(po->policy, (uint32_t)v), "--pids");
    case OPT_DISK:
        if (sbx_cli_parse_size(arg, &v))
            return bad_value("disk", arg, "a size (123, 64k, 512M, 2G)");
        return lib_failed(sbx_policy_set_disk(po->policy, v), "--disk");
    case OPT_NO_DEFAULT_LIMITS:
        return lib_failed(sbx_policy_set_default_limits(po->policy, 0), "--no-default-limits");
    case OPT_NETWORK:
        po->network_given = 1;
        return set_network(cmd, arg, &po->network);
    case OPT_ALLOW_HOST:
        po->hosts++;
        return lib_failed(sbx_policy_allow_host(po->policy, arg), "--allow-host");
    case OPT_MIN_TIER:
        if (sbx_tier_from_name(arg, &tier) != SBX_OK)
            return sbx_cli_usage_error(cmd, "--min-tier: unknown tier '%s'", arg);
        po->min_tier = tier;
        return lib_failed(sbx_policy_set_min_tier(po->policy, tier), "--min-tier");
    case OPT_ENV:
        return note_env(po, arg) ? sbx_cli_error(SBX_E_NOMEM, "out of memory")
                                 : set_env_pair(po->policy, cmd, arg);
    case OPT_ENV_PASS:
        return note_env(po, arg) ? sbx_cli_error(SBX_E_NOMEM, "out of memory")
                                 : pass_env(po->policy, cmd, arg);
    default:
        return sbx_cli_error(SBX_E_INTERNAL, "option %d is not a policy option", opt);
    }
}

int policy_opts_finish(struct policy_opts *po)
{
    /* network_given already: `mcp` set a call's tighter network itself. */
    int cli_network = po->network_given, status;

    for (size_t i = 0; i < po->n_given; i++)
        cli_network |= po->given[i].opt == OPT_NETWORK || po->given[i].opt == OPT_ALLOW_HOST;
    if ((status = policy_opts_use_profile(po, cli_network)))
        return status;
    for (size_t i = 0; i < po->n_given; i++) {
        if ((status = policy_opts_apply(po, po->cmd, po->given[i].opt, po->given[i].arg)))
            return status;
    }
    if (!po->network_given)
        po->network = po->hosts ? SBX_NET_ALLOWLIST : SBX_NET_NONE;
    return apply_network(po->policy, po->network, po->hosts);
}

void policy_opts_release(struct policy_opts *po)
{
    sbx_policy_free(po->policy);
    po->policy = NULL;
    free(po->given);
    po->given = NULL;
    po->n_given = 0;
    free(po->env);
    po->env = NULL;
    po->n_env = 0;
    po->used = NULL;
    profile_set_free(&po->profiles);
}

const char *policy_opts_dsn(const struct policy_opts *po)
{
    const char *env = getenv("SANDBOXIO_DSN");

    if (po->dsn)
        return po->dsn;
    return env && *env ? env : SBX_CLI_DEFAULT_DSN;
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
    fputs(run_policy_usage, out);
    fputs("  -w, --cwd DIR      working directory: relative to the sandbox's work dir,\n"
          "                     or absolute (backends with cwd-abs); made if missing\n"
          "  -h, --help         show this help\n",
          out);
}

/* shell: the options of run but --json, --stdin and a command; one optional ID. */
static int parse_as(struct run_opts *opts, int argc, char **argv, int shell)
{
    const char *name = shell ? "shell" : "run";
    int opt, status, use_stdin = 0, interactive = shell;
    const char *cwd = NULL;

    memset(opts, 0, sizeof(*opts));
    if ((status = policy_opts_init(&opts->po)))
        return status;

    sbx_cli_getopt_reset();
    /* -e and -w as `docker run` has them. */
    while (status == 0 && (opt = getopt_long(argc, argv, "+:hite:w:", options, NULL)) != -1) {
        /* -i and -t are what shell is; --json and --stdin would contradict it. */
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
