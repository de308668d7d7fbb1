/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_version.c - `sandboxio version [--json]`: the CLI's, the library's and
 * the plugin ABI's versions, on one line or as one JSON object.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <sandboxio/sandboxio.h>
#include <sandboxio/plugin.h>

#include "commands.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio version [--json]\n"
          "\n"
          "Print the versions of sandboxio, of the libsandboxio it runs with, and\n"
          "of the plugin ABI it was built for.\n"
          "\n"
          "Options:\n"
          "  --json             print one JSON object: sandboxio, libsandboxio,\n"
          "                     plugin_abi {major, minor}\n",
          out);
}

static int print_json(void)
{
    json_object *obj = json_object_new_object(), *abi = json_object_new_object();
    int rc = obj && abi ? SBX_OK : SBX_E_NOMEM;

    if (rc == SBX_OK)
        rc = sbx_cli_json_add(abi, "major", json_object_new_int(SBX_PLUGIN_ABI_MAJOR));
    if (rc == SBX_OK)
        rc = sbx_cli_json_add(abi, "minor", json_object_new_int(SBX_PLUGIN_ABI_MINOR));
    if (rc == SBX_OK)
        rc = sbx_cli_json_add(obj, "sandboxio", json_object_new_string(PACKAGE_VERSION));
    if (rc == SBX_OK)
        rc = sbx_cli_json_add(obj, "libsandboxio", json_object_new_string(sbx_version()));
    if (rc == SBX_OK) {
        rc = sbx_cli_json_add(obj, "plugin_abi", abi);
        abi = NULL;
    }
    if (rc != SBX_OK) {
        json_object_put(abi);
        json_object_put(obj);
        return sbx_cli_error(rc, "building the JSON output");
    }
    return sbx_cli_exit_code(sbx_cli_print_json(obj, 1));
}

int cmd_version(int argc, char **argv)
{
    int json, status = sbx_cli_json_options("version", argc, argv, 1, usage, &json);

    if (status >= 0)
        return status;
    if (optind < argc)
        return sbx_cli_usage_error("version", "unexpected argument '%s'", argv[optind]);
    if (json)
        return print_json();
    printf("sandboxio %s (libsandboxio %s, plugin ABI %d.%d)\n", PACKAGE_VERSION, sbx_version(),
           SBX_PLUGIN_ABI_MAJOR, SBX_PLUGIN_ABI_MINOR);
    return 0;
}
