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
#include "sandbox_ref.h"
#include "util.h"

enum { OPT_M_DSN = 256 };

static const struct option options[] = {
    { "dsn", required_argument, NULL, OPT_M_DSN },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static const struct {
    const char *cmd, *usage;
} usages[] = {
    { "kill", "Usage: sandboxio kill [--dsn DSN] ID...\n\nDestroy each sandbox and all in it.\n" },
    { "pause", "Usage: sandboxio pause [--dsn DSN] ID...\n\nFreeze every process of each "
               "sandbox;\nfiles and memory are kept, commands refused until resume.\n" },
    { "resume", "Usage: sandboxio resume [--dsn DSN] ID...\n\nThaw paused sandboxes.\n" },
    { "ttl", "Usage: sandboxio ttl [--dsn DSN] ID DUR\n\nEnd the sandbox DUR from now "
             "(30s, 10m, 2h): sooner or later\nthan its TTL said.\n" },
};

/* Options and operands; -1 to go on with *dsn set, else the status to exit with. */
static int parse(int argc, char **argv, const char **dsn, int min_operands)
{
    const char *cmd = argv[0];
    int opt;

    *dsn = NULL;
    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        if (opt == OPT_M_DSN) {
            *dsn = optarg;
        } else if (opt == 'h') {
            for (size_t i = 0; i < sizeof(usages) / sizeof(usages[0]); i++)
                if (strcmp(usages[i].cmd, cmd) == 0)
                    fputs(usages[i].usage, stdout);
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
               uint64_t ttl_ms)
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
    if (status == 0)
        printf("%s\n", ref);
    return status;
}

int cmd_manage(int argc, char **argv)
{
    const char *dsn;
    sbx_client *client = NULL;
    uint64_t ttl = 0;
    int is_ttl = strcmp(argv[0], "ttl") == 0, rc, status;

    if ((status = parse(argc, argv, &dsn, is_ttl ? 2 : 1)) >= 0)
        return status;
    if (is_ttl && argc - optind != 2)
        return sbx_cli_usage_error("ttl", "want ID DUR");
    if (is_ttl && (sbx_cli_parse_duration_ms(argv[optind + 1], &ttl) != SBX_OK || ttl == 0))
        return sbx_cli_error(SBX_E_BAD_SIZE, "ttl: '%s' is not a duration above 0 (30s, 10m, "
                                             "2h); to end it now, kill it", argv[optind + 1]);
    if ((rc = sbx_client_new(&client)) != SBX_OK)
        return sbx_cli_error_lib(rc, "creating the client");
    status = 0;
    /* Each id on its own: one missing does not spare the others (as docker). */
    for (int i = optind; i < (is_ttl ? optind + 1 : argc); i++) {
        int s = one(client, argv[0], argv[i], dsn, ttl);
        if (s && !status)
            status = s;
    }
    sbx_client_free(client);
    return status;
}
