/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_plugins.c - `sandboxio plugins`: what backends are installed, whether
 * each loads, and what it declares (ABI, capabilities, isolation tier).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>

#include "commands.h"
#include "plugin_report.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio plugins [--json]\n"
          "\n"
          "Load every plugin on the search path and show, for each: its scheme,\n"
          "the load result (ok or an SBX_E2xxx code and why), its version, plugin\n"
          "ABI, isolation tier, declared capabilities and file, and the declared\n"
          "capabilities its probe says this machine cannot enforce (as `doctor`).\n"
          "A plugin that fails to load does not make this command fail. Opens no\n"
          "network socket.\n"
          "\n"
          "Options:\n"
          "  --json      print a JSON array instead of a table\n"
          "  -h, --help  show this help\n",
          out);
}

int cmd_plugins(int argc, char **argv)
{
    sbx_client *client = NULL;
    sbx_plugin_list *list = NULL;
    int json = 0, status;

    int done = sbx_cli_json_options("plugins", argc, argv, 0, usage, &json);
    if (done >= 0)
        return done;
    if (optind < argc)
        return sbx_cli_usage_error("plugins", "unexpected argument '%s'", argv[optind]);

    status = sbx_cli_plugins_load(&client, &list);
    if (status != 0)
        return status;
    if (json) {
        json_object *array = sbx_cli_plugins_json(client, list);

        if (!array)
            status = sbx_cli_error(SBX_E_NOMEM, "out of memory building the plugin list");
        else
            status = sbx_cli_exit_code(sbx_cli_print_json(array, 1));
    } else {
        sbx_cli_plugins_table(stdout, client, list);
    }
    sbx_plugin_list_free(list);
    sbx_client_free(client);
    return status;
}
