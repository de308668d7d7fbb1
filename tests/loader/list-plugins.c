/* SPDX-License-Identifier: Apache-2.0 */
/*
 * list-plugins - load every plugin on the search path through the library
 * alone (sbx_client_plugins(), then sbx_client_plugin_info() for each
 * scheme) and print one line per plugin: "<scheme> <load code>".
 *
 * Run under no-socket-exec it proves that loading, initialising and
 * describing plugins opens no socket, without depending on the CLI.
 * Exit status: 0 when listing worked (whatever each plugin's load code),
 * 1 when the library itself failed.
 */
#include "config.h"

#include <stdio.h>
#include <sandboxio/sandboxio.h>

static int fail(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();

    fprintf(stderr, "list-plugins: %s: %s %s\n", what, sbx_error_id(rc),
            e ? e->message : sbx_strerror(rc));
    return 1;
}

int main(void)
{
    sbx_client *client = NULL;
    sbx_plugin_list *all = NULL;
    int rc, status = 0;

    if ((rc = sbx_client_new(&client)))
        return fail("sbx_client_new", rc);
    if ((rc = sbx_client_plugins(client, &all))) {
        sbx_client_free(client);
        return fail("sbx_client_plugins", rc);
    }
    for (size_t i = 0; i < sbx_plugin_list_count(all); i++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(all, i);
        sbx_plugin_list *one = NULL;
        rc = sbx_client_plugin_info(client, info->scheme, &one);
        const sbx_plugin_info *again = sbx_plugin_list_get(one, 0);
        if (!again || again->load_code != info->load_code || rc != info->load_code) {
            fprintf(stderr, "list-plugins: %s: listing said %d, plugin_info said %d\n",
                    info->scheme, info->load_code, rc);
            status = 1;
        }
        printf("%s %d\n", info->scheme, info->load_code);
        sbx_plugin_list_free(one);
    }
    sbx_plugin_list_free(all);
    sbx_client_free(client);
    return status;
}
