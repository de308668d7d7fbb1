/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_contract.c - `sandboxio contract DSN`: run the contract suite against
 * the backend a DSN names. The suite itself lives in contract/ and is linked
 * in, so an installed sandboxio checks an installed plugin on its own.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "common/policy_opts.h"
#include "common/error.h"
#include "common/options.h"
#include "contract.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio contract DSN [--only PATTERN] [--junit FILE] [--json]\n"
          "       sandboxio contract --profile NAME [DSN] [OPTIONS]\n"
          "       sandboxio contract --list\n"
          "\n"
          "Run the contract suite against the backend DSN names. Each case runs in\n"
          "its own process and prints one line: PASS, FAIL or SKIP, its id, what it\n"
          "proves, its time and, unless it passed, the reason. The last line is\n"
          "\"N passed, N failed, N skipped\". A case needing a capability the backend\n"
          "does not declare is skipped only after the library refused the operation\n"
          "with the right SBX_E3xxx code. Exit status: 0 when no case failed, 1 when\n"
          "one did or the backend cannot be used, 120 for a usage error or bad DSN.\n"
          "\n"
          "Options:\n"
          "  --only PATTERN  run the cases whose id or name matches the shell PATTERN\n"
          "                  (e.g. 'SBX-EXEC-*')\n"
          "  --junit FILE    also write a JUnit XML report to FILE\n"
          "  --json          print one JSON document on stdout; the lines go to stderr\n"
          "  --profile NAME  the backend is profile NAME's dsn (a DSN given wins);\n"
          "                  without DSN or --profile: $SANDBOXIO_PROFILE's. The\n"
          "                  profile's policy is not applied: each case sets its own\n"
          "  --list          print the cases: id, level, capabilities needed, name\n"
          "  -h, --help      show this help\n"
          "\n"
          "Environment: SANDBOXIO_PLUGIN_PATH (where plugins are searched first),\n"
          "SANDBOXIO_MUST_WORK=1 (a missing host prerequisite fails instead of\n"
          "skipping), SANDBOXIO_CONTRACT_TIME_FACTOR=N (multiply each case's time\n"
          "limit by N, a number in (0, 100], for slow machines or valgrind).\n",
          out);
}

/*
 * The suite on the backend of profile name (NULL: $SANDBOXIO_PROFILE's),
 * unless opts->dsn names one. Only the profile's dsn is used: each case
 * sets the policy it proves, and says so.
 */
static int run_with_profile(sbxc_options *opts, const char *name)
{
    struct policy_opts po;
    int status = policy_opts_init(&po);

    po.cmd = "contract";
    po.profile = name;
    if (status == 0)
        status = policy_opts_use_profile(&po, 0);
    if (status == 0 && !po.used) {
        sbx_cli_usage_error("contract", "missing DSN (e.g. sandboxio contract fake://)");
        status = SBX_CLI_EXIT_USAGE;
    }
    if (status == 0 && !opts->dsn && !po.dsn) {
        sbx_cli_usage_error("contract", "profile '%s' (%s:%d:%d) has no dsn: give a DSN",
                            po.used->name, po.used->file, po.used->line, po.used->column);
        status = SBX_CLI_EXIT_USAGE;
    }
    if (status == 0) {
        if (!opts->dsn)
            opts->dsn = po.dsn;
        fprintf(stderr, "# profile '%s' (%s:%d:%d): %s; its policy is not applied, each case sets "
                        "its own\n", po.used->name, po.used->file, po.used->line, po.used->column,
                opts->dsn == po.dsn ? "its dsn" : "the DSN given instead of its dsn");
        status = sbxc_run_suite(opts);
    }
    policy_opts_release(&po);
    return status;
}

int cmd_contract(int argc, char **argv)
{
    static const struct option options[] = {
        { "only", required_argument, NULL, 'o' },
        { "junit", required_argument, NULL, 'u' },
        { "json", no_argument, NULL, 'j' },
        { "list", no_argument, NULL, 'l' },
        { "profile", required_argument, NULL, 'p' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    sbxc_options opts = { 0 };
    const char *profile = NULL;
    int opt, list = 0;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        switch (opt) {
        case 'o':
            opts.only = optarg;
            break;
        case 'u':
            opts.junit_path = optarg;
            break;
        case 'j':
            opts.json = 1;
            break;
        case 'l':
            list = 1;
            break;
        case 'p':
            profile = optarg;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            return sbx_cli_option_error("contract", argv, opt, options);
        }
    }
    if (list) {
        if (optind < argc)
            return sbx_cli_usage_error("contract", "--list takes no DSN");
        sbxc_list_cases(stdout);
        return 0;
    }
    if (optind < argc)
        opts.dsn = argv[optind++];
    if (optind < argc)
        return sbx_cli_usage_error("contract", "unexpected argument '%s'", argv[optind]);
    if (opts.dsn && !profile)
        return sbxc_run_suite(&opts);
    return run_with_profile(&opts, profile);
}
