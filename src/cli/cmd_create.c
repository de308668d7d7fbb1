/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_create.c - `sandboxio create`: make a sandbox that outlives this
 * process, print its id, and let go of it. It lives until its TTL (default
 * SBX_CLI_DEFAULT_TTL, so nothing lives forever by accident) or a `kill`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "common/policy_opts.h"
#include "sandbox_ref.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"
#include "common/parse.h"

/* The TTL `create` gives a sandbox when --ttl is not given: one hour. */
#define SBX_CLI_DEFAULT_TTL_MS (UINT64_C(3600) * 1000)
#define SBX_CLI_DEFAULT_TTL_TEXT "1h"

enum { OPT_NAME = OPT_POLICY_END + 1, OPT_TTL, OPT_JSON };

static const struct option options[] = {
    POLICY_OPTIONS,
    { "name", required_argument, NULL, OPT_NAME },
    { "ttl", required_argument, NULL, OPT_TTL },
    { "json", no_argument, NULL, OPT_JSON },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: sandboxio create [--name NAME] [--ttl DUR] [--json] [OPTIONS]\n"
            "\n"
            "Create a sandbox that outlives this command and print its id\n"
            "(BACKEND:ID). Use it with exec, cp, ls, rm; end it with kill, or let\n"
            "its TTL end it.\n"
            "\n"
            "  --name NAME        a name unique on the backend: [a-z0-9][a-z0-9_.-]{0,62}\n"
            "  --ttl DUR          lifetime: 30s, 10m, 2h (default: the profile's ttl,\n"
            "                     else %s)\n"
            "  --json             print {\"id\", \"backend\", \"name\", \"expires_ms\", ...}\n"
            "%s"
            "\n"
            "The environment (-e, --env-pass) is not stored with the sandbox: give\n"
            "it to each exec.\n",
            SBX_CLI_DEFAULT_TTL_TEXT, policy_opts_usage);
}

static int print_created(const sbx_sandbox *sb, int json)
{
    char *ref = sbx_cli_ref_of(sbx_sandbox_backend(sb), sbx_sandbox_id(sb));
    int rc = SBX_OK;

    if (!ref)
        return sbx_cli_error(SBX_E_NOMEM, "create: out of memory");
    if (!json) {
        printf("%s\n", ref);
    } else {
        json_object *o = json_object_new_object();
        rc = o ? SBX_OK : SBX_E_NOMEM;
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "id", json_object_new_string(ref));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "backend", json_object_new_string(sbx_sandbox_backend(sb)));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "backend_id", json_object_new_string(sbx_sandbox_id(sb)));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "name", json_object_new_string(sbx_sandbox_name(sb)));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "expires_ms", json_object_new_int64(sbx_sandbox_expires(sb)));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "dsn", json_object_new_string(sbx_sandbox_dsn(sb)));
        if (rc == SBX_OK)
            rc = sbx_cli_print_json(o, 0);
        else
            json_object_put(o);
    }
    free(ref);
    return rc == SBX_OK ? 0 : sbx_cli_exit_code(rc);
}

int cmd_create(int argc, char **argv)
{
    struct policy_opts po;
    sbx_sandbox_opts *so = NULL;
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;
    uint64_t ttl = SBX_CLI_DEFAULT_TTL_MS;
    int opt, json = 0, ttl_given = 0, rc, status;

    if ((status = policy_opts_init(&po)))
        return status;
    if ((rc = sbx_sandbox_opts_new(&so)) != SBX_OK) {
        policy_opts_release(&po);
        return sbx_cli_error_lib(rc, "create");
    }
    sbx_cli_getopt_reset();
    while (status == 0 && (opt = getopt_long(argc, argv, "+:he:", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            status = -1;
            break;
        case 'e':
        case OPT_ENV:
        case OPT_ENV_PASS:
            status = sbx_cli_usage_error("create", "the environment is not stored with a "
                                                   "sandbox: give -e/--env to exec");
            break;
        case OPT_NAME:
            rc = sbx_sandbox_opts_set_name(so, optarg);
            status = rc ? sbx_cli_error_lib(rc, "create --name") : 0;
            break;
        case OPT_TTL:
            if (sbx_cli_parse_duration_ms(optarg, &ttl) != SBX_OK || ttl == 0)
                status = sbx_cli_error(SBX_E_BAD_SIZE, "create: --ttl '%s' is not a duration "
                                                       "above 0 (30s, 10m, 2h)", optarg);
            ttl_given = 1;
            break;
        case OPT_JSON:
            json = 1;
            break;
        default:
            if (opt >= OPT_DSN && opt < OPT_POLICY_END)
                status = policy_opts_take(&po, "create", opt, optarg);
            else
                status = sbx_cli_option_error("create", argv, opt, options);
        }
    }
    if (status == 0 && optind < argc)
        status = sbx_cli_usage_error("create", "unexpected argument '%s'", argv[optind]);
    if (status == 0)
        status = policy_opts_finish(&po);
    /* The profile's ttl, like its other values, gives way to the option. */
    if (status == 0 && !ttl_given && po.ttl_ms)
        ttl = po.ttl_ms;
    if (status == 0 && (rc = sbx_sandbox_opts_set_ttl(so, ttl)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "create --ttl");
    if (status == 0 && (rc = sbx_client_new(&client)) != SBX_OK)
        status = sbx_cli_error_lib(rc, "creating the client");
    if (status == 0 &&
        (rc = sbx_sandbox_open_with(&sb, client, policy_opts_dsn(&po), po.policy, so)) != SBX_OK)
        status = sbx_cli_error_lib(rc, NULL);
    if (status == 0) {
        status = print_created(sb, json);
        /* Printed or not, the sandbox is left to its TTL or ended now. */
        if (status == 0)
            status = sbx_cli_ref_detach(sb, 0);
        else
            sbx_sandbox_free(sb);
    }
    sbx_client_free(client);
    sbx_sandbox_opts_free(so);
    policy_opts_release(&po);
    return status < 0 ? 0 : status;
}
