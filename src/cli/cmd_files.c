/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_files.c - `sandboxio ls ID[:PATH]` and `sandboxio rm [-r] ID:PATH`,
 * on a sandbox made by `create`. Paths are relative to its work dir.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "common/result_json.h"
#include "sandbox_ref.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"

enum { OPT_F_DSN = 256, OPT_F_JSON };

static const struct option options[] = {
    { "dsn", required_argument, NULL, OPT_F_DSN },
    { "json", no_argument, NULL, OPT_F_JSON },
    { "recursive", no_argument, NULL, 'r' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void usage(const char *cmd)
{
    if (strcmp(cmd, "ls") == 0)
        fputs("Usage: sandboxio ls [--json] [--dsn DSN] ID[:PATH]\n"
              "\n"
              "List the directory PATH (default: the work dir) of sandbox ID, one entry\n"
              "a line, directories with a trailing '/'. --json prints an array of\n"
              "{\"name\", \"type\", \"size\", \"mode\"}. A directory of more than\n"
              "32,768 entries or 2 MiB of names is refused (SBX_E5007): list it with\n"
              "`sandboxio exec ID -- ls`.\n",
              stdout);
    else
        fputs("Usage: sandboxio rm [-r] [--json] [--dsn DSN] ID:PATH\n"
              "\n"
              "Remove PATH from sandbox ID; -r, --recursive: a directory and all in it.\n"
              "--json prints one object {\"id\", \"path\", \"ok\"} and, when it failed,\n"
              "\"error\" {\"code\", \"id\", \"message\", \"docs_url\"}.\n",
              stdout);
}

static int print_list(const sbx_dirlist *list, int json)
{
    json_object *rows = json ? json_object_new_array() : NULL;
    int rc = json && !rows ? SBX_E_NOMEM : SBX_OK;

    for (size_t i = 0; rc == SBX_OK && i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *e = sbx_dirlist_get(list, i);
        if (!json) {
            printf("%s%s\n", e->name, e->type == SBX_FILE_DIRECTORY ? "/" : "");
            continue;
        }
        json_object *o = json_object_new_object();
        rc = o ? SBX_OK : SBX_E_NOMEM;
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "name", json_object_new_string(e->name));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "type",
                                  json_object_new_string(sbx_cli_file_type_name(e->type)));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "size", json_object_new_int64((int64_t)e->size));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "mode", json_object_new_int((int)e->mode));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "mtime", json_object_new_int64(e->mtime));
        if (rc == SBX_OK && e->link_target)
            rc = sbx_cli_json_add(o, "target", json_object_new_string(e->link_target));
        if (rc == SBX_OK)
            rc = sbx_cli_json_push(rows, o);
        else
            json_object_put(o);
    }
    if (rows && rc == SBX_OK)
        return sbx_cli_print_json(rows, 1);
    json_object_put(rows);
    return rc;
}

int cmd_files(int argc, char **argv)
{
    const char *cmd = argv[0], *dsn = NULL;
    int is_ls = strcmp(cmd, "ls") == 0, json = 0, recursive = 0, opt, rc, status;
    char *ref = NULL, *path = NULL;
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, is_ls ? ":h" : ":hr", options, NULL)) != -1) {
        if (opt == 'h') {
            usage(cmd);
            return 0;
        } else if (opt == OPT_F_DSN) {
            dsn = optarg;
        } else if (opt == OPT_F_JSON) {
            json = 1;
        } else if (opt == 'r' && !is_ls) {
            recursive = 1;
        } else {
            return sbx_cli_option_error(cmd, argv, opt, options);
        }
    }
    if (argc - optind != 1)
        return sbx_cli_usage_error(cmd, is_ls ? "want ID[:PATH]" : "want ID:PATH");
    if ((rc = sbx_client_new(&client)) != SBX_OK)
        return sbx_cli_error_lib(rc, "creating the client");
    rc = sbx_cli_ref_split(client, argv[optind], !is_ls, &ref, &path);
    if (rc < 0)
        status = sbx_cli_error(SBX_E_NOMEM, "%s: out of memory", cmd);
    else if (rc == 0 || (!is_ls && !*path))
        status = sbx_cli_usage_error(cmd, "'%s' is not ID:PATH", argv[optind]);
    else
        status = sbx_cli_ref_attach(client, cmd, ref, dsn, &sb);
    if (status == 0) {
        if (is_ls) {
            sbx_dirlist *list = NULL;
            rc = sbx_file_list(sb, path, &list);
            if (rc == SBX_OK)
                rc = print_list(list, json);
            sbx_dirlist_free(list);
        } else {
            rc = sbx_file_remove(sb, path, recursive);
        }
        status = rc ? sbx_cli_error_lib(rc, cmd) : 0;
        status = sbx_cli_ref_detach(sb, status);
    }
    if (json && !is_ls)
        status = result_json_print_outcome("rm", status, "id", ref ? ref : argv[optind], "path",
                                   path ? path : "");
    free(ref);
    free(path);
    sbx_client_free(client);
    return status;
}
