/*
 * cmd_contract.c - `sandboxio contract DSN`: run the contract suite against
 * the backend a DSN names. The suite itself lives in contract/ and is linked
 * in, so an installed sandboxio checks an installed plugin on its own.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "../../contract/contract.h"
#include "commands.h"
#include "util.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio contract DSN [--only PATTERN] [--junit FILE] [--json]\n"
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
          "  --list          print the cases: id, level, capabilities needed, name\n"
          "  -h, --help      show this help\n"
          "\n"
          "Environment: SANDBOXIO_PLUGIN_PATH (where plugins are searched first),\n"
          "SANDBOXIO_MUST_WORK=1 (a missing host prerequisite fails instead of\n"
          "skipping), SANDBOXIO_CONTRACT_TIME_FACTOR=N (multiply each case's time\n"
          "limit by N, a number in (0, 100], for slow machines or valgrind).\n",
          out);
}

int cmd_contract(int argc, char **argv)
{
    static const struct option options[] = {
        { "only", required_argument, NULL, 'o' },
        { "junit", required_argument, NULL, 'u' },
        { "json", no_argument, NULL, 'j' },
        { "list", no_argument, NULL, 'l' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    sbxc_options opts = { 0 };
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
        case 'h':
            usage(stdout);
            return 0;
        default:
            return sbx_cli_option_error("contract", argv, opt);
        }
    }
    if (list) {
        if (optind < argc)
            return sbx_cli_usage_error("contract", "--list takes no DSN");
        sbxc_list_cases(stdout);
        return 0;
    }
    if (optind >= argc)
        return sbx_cli_usage_error("contract", "missing DSN (e.g. sandboxio contract fake://)");
    opts.dsn = argv[optind++];
    if (optind < argc)
        return sbx_cli_usage_error("contract", "unexpected argument '%s'", argv[optind]);
    return sbxc_run_suite(&opts);
}
