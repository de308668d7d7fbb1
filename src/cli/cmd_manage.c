/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_manage.c - what is done to whole sandboxes by id: `kill ID...`
 * (destroy), `pause ID...`, `resume ID...` and `ttl ID DUR`.
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
#include "common/parse.h"

enum { OPT_M_DSN = 256, OPT_M_JSON };

static const struct option options[] = {
    { "dsn", required_argument, NULL, OPT_M_DSN },
    { "json", no_argument, NULL, OPT_M_JSON },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static const struct {
    const char *cmd, *usage;
} usages[] = {
    { "kill", "Usage: sandboxio kill [--dsn DSN] [--json] ID...\n\nDestroy each sandbox and all in it.\n" },
    { "pause", "Usage: sandboxio pause [--dsn DSN] [--json] ID...\n\nFreeze every process of each "
               "sandbox;\nfiles and memory are kept, commands refused until resume.\n" },
    { "resume", "Usage: sandboxio resume [--dsn DSN] [--json] ID...\n\nThaw paused sandboxes.\n" },
    { "ttl", "Usage: sandboxio ttl [--dsn DSN] [--json] ID DUR\n\nEnd the sandbox DUR from now "
             "(30s, 10m, 2h): sooner or later\nthan its TTL said.\n" },
};

static const char json_usage[] =
    "\n  --json     print one JSON array: per ID, {\"id\", \"ok\"} and, when it\n"
    "             failed, \"error\" {\"code\", \"id\", \"message\", \"docs_url\"}\n";

/* Options and operands; -1 to go on with *dsn and *json set, else the status to exit with. */
static int parse(int argc, char **argv, const char **dsn, int *json, int min_operands)
{
    const char *cmd = argv[0];
    int opt;

    *dsn = NULL;
    *json = 0;
    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        if (opt == OPT_M_DSN) {
            *dsn = optarg;
        } else if (opt == OPT_M_JSON) {
            *json = 1;
        } else if (opt == 'h') {
            for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
                if (strcmp(usages[i].cmd, cmd) == 0)
                    fputs(usages[i].usage, stdout);
            fputs(json_usage, stdout);
            return 0;
        } else {
            return sbx_cli_option_error(cmd, argv, opt, options);
        }
    }
    if (argc - optind < min_operands)
        return sbx_cli_usage_error(cmd, "no sandbox id given");
    return -1;
}

/* Do op to the sandbox ref; kill ends the handle with the sandbox. */
static int one(sbx_client *client, const char *cmd, const char *ref, const char *dsn,
               uint64_t ttl_ms, int json)
{
    sbx_sandbox *sb = NULL;
    int status = sbx_cli_ref_attach(client, cmd, ref, dsn, &sb), rc;

    if (status)
        return status;
    if (strcmp(cmd, "kill") == 0) {
        rc = sbx_sandbox_destroy(sb);
        sbx_sandbox_free(sb);
        status = rc ? sbx_cli_error_lib(rc, cmd) : 0;
    } else {
        rc = strcmp(cmd, "pause") == 0    ? sbx_sandbox_pause(sb)
             : strcmp(cmd, "resume") == 0 ? sbx_sandbox_resume(sb)
                                          : sbx_sandbox_set_ttl(sb, ttl_ms);
        status = rc ? sbx_cli_error_lib(rc, cmd) : 0;
        status = sbx_cli_ref_detach(sb, status);
    }
    if (status == 0 && !json)
        printf("%s\n", ref);
    return status;
}

/* One row of the --json array: {"id", "ok", "error"?}; ttl's adds "ttl_ms". */
static int add_row(json_object *rows, const char *ref, int status, int is_ttl, uint64_t ttl)
{
    json_object *row = json_object_new_object();
    int rc = row ? sbx_cli_json_add(row, "id", json_object_new_string(ref)) : SBX_E_NOMEM;

    if (!rc)
        rc = result_json_add_outcome(row, status);
    if (!rc && is_ttl && status == 0)
        rc = sbx_cli_json_add(row, "ttl_ms", json_object_new_uint64(ttl));
    if (!rc)
        return sbx_cli_json_push(rows, row);
    json_object_put(row);
    return rc;
}

int cmd_manage(int argc, char **argv)
{
    const char *dsn;
    sbx_client *client = NULL;
    json_object *rows = NULL;
    uint64_t ttl = 0;
    int is_ttl = strcmp(argv[0], "ttl") == 0, json, rc, status;

    if ((status = parse(argc, argv, &dsn, &json, is_ttl ? 2 : 1)) >= 0)
        return status;
    if (is_ttl && argc - optind != 2)
        return sbx_cli_usage_error("ttl", "want ID DUR");
    if (is_ttl && (sbx_cli_parse_duration_ms(argv[optind + 1], &ttl) != SBX_OK || ttl == 0))
        return sbx_cli_error(SBX_E_BAD_SIZE, "ttl: '%s' is not a duration above 0 (30s, 10m, "
                                             "2h); to end it now, kill it", argv[optind + 1]);
    if (json && !(rows = json_object_new_array()))
        return sbx_cli_error(SBX_E_NOMEM, "%s: out of memory", argv[0]);
    if ((rc = sbx_client_new(&client)) != SBX_OK) {
        json_object_put(rows);
        return sbx_cli_error_lib(rc, "creating the client");
    }
    status = 0;
    rc = SBX_OK;
    /* Each id on its own: one missing does not spare the others (as docker). */
    for (int i = optind; i < (is_ttl ? optind + 1 : argc); i++) {
        int s = one(client, argv[0], argv[i], dsn, ttl, json);
        if (s && !status)
            status = s;
        if (rows && rc == SBX_OK)
            rc = add_row(rows, argv[i], s, is_ttl, ttl);
    }
    sbx_client_free(client);
    if (rows && rc == SBX_OK)
        rc = sbx_cli_print_json(rows, 0);
    else if (rows) {
        json_object_put(rows);
        sbx_cli_error(rc, "%s: out of memory building the output", argv[0]);
    }
    return status ? status : sbx_cli_exit_code(rc);
}
