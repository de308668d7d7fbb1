/*
 * cmd_version.c - `sandboxio version`: the CLI's, the library's and the
 * plugin ABI's versions on one line.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <sandboxio/sandboxio.h>
#include <sandboxio/plugin.h>

#include "commands.h"
#include "util.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio version\n"
          "\n"
          "Print the versions of sandboxio, of the libsandboxio it runs with, and\n"
          "of the plugin ABI it was built for.\n",
          out);
}

int cmd_version(int argc, char **argv)
{
    static const struct option options[] = {
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, "+:h", options, NULL)) != -1) {
        if (opt == 'h') {
            usage(stdout);
            return 0;
        }
        return sbx_cli_option_error("version", argv, opt);
    }
    if (optind < argc)
        return sbx_cli_usage_error("version", "unexpected argument '%s'", argv[optind]);

    printf("sandboxio %s (libsandboxio %s, plugin ABI %d.%d)\n", PACKAGE_VERSION, sbx_version(),
           SBX_PLUGIN_ABI_MAJOR, SBX_PLUGIN_ABI_MINOR);
    return 0;
}
