/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_demo.c - `sandboxio demo`: a half-minute guided tour on one backend.
 * Each step prints what it does and the command line that does the same,
 * then runs it through the library and shows what came of it.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>
#include <sbxu/clock.h>

#include "commands.h"
#include "common/policy_opts.h"
#include "common/error.h"
#include "common/options.h"

struct demo {
    sbx_client *client;
    const char *dsn_opt;    /* --dsn, or NULL */
    const char *profile;    /* --profile, or NULL ($SANDBOXIO_PROFILE then) */
    struct policy_opts po;  /* the profile, read once */
    const char *dsn;
    uint64_t caps;
    int network;        /* none where the backend can cut it, else open (said so) */
};

static void usage(FILE *out)
{
    fputs("Usage: sandboxio demo [--dsn DSN] [--profile NAME]\n"
          "\n"
          "A half-minute tour on the backend DSN (default: the profile's dsn, then\n"
          "$SANDBOXIO_DSN, else " SBX_CLI_DEFAULT_DSN "): a command in a fresh sandbox, a policy the backend\n"
          "cannot guarantee refused before anything runs, a timeout that kills a\n"
          "whole process tree, and files kept across the commands of one sandbox.\n"
          "Each step is printed before it runs. Exits 0 when every step did what it\n"
          "shows.\n"
          "\n"
          "Options:\n"
          "  --dsn DSN       the backend to tour\n"
          "  --profile NAME  start each step's policy from profile NAME (default:\n"
          "                  $SANDBOXIO_PROFILE); a step's own setting (the tier, the\n"
          "                  timeout) replaces the profile's, as an option would\n"
          "  -h, --help      show this help\n",
          out);
}

static int to_stdout(void *userdata, int stream, const void *data, size_t len)
{
    (void)userdata;
    (void)stream;
    fputs("     | ", stdout);
    fwrite(data, 1, len, stdout);
    fflush(stdout);
    return 0;
}

static void step(int n, const char *what, const char *line)
{
    printf("\n%d. %s\n   $ %s\n", n, what, line);
    fflush(stdout);
}

/*
 * Read the profile (--profile, else $SANDBOXIO_PROFILE) into po and build
 * its policy, as run does. 0 or the exit status of the error reported.
 */
static int profile_policy(const struct demo *d, struct policy_opts *po)
{
    int status = policy_opts_init(po);

    if (status == 0 && d->profile)
        status = policy_opts_take(po, "demo", OPT_PROFILE, d->profile);
    if (status == 0 && d->dsn_opt)
        status = policy_opts_take(po, "demo", OPT_DSN, d->dsn_opt);
    po->cmd = "demo";
    return status ? status : policy_opts_finish(po);
}

/* A step's policy: the profile's, with the demo's network unless the profile set one. */
static sbx_policy *policy_of(const struct demo *d)
{
    struct policy_opts po;
    sbx_policy *p = NULL;

    if (profile_policy(d, &po) == 0) {
        p = po.policy;
        po.policy = NULL;
    }
    if (p && !d->po.network_given && !d->po.hosts &&
        sbx_policy_set_network(p, d->network) != SBX_OK) {
        sbx_policy_free(p);
        p = NULL;
    }
    policy_opts_release(&po);
    return p;
}

static sbx_cmd *sh(const char *script)
{
    const char *argv[] = { "sh", "-c", script, NULL };
    sbx_cmd *cmd = NULL;

    return sbx_cmd_new(&cmd, argv) == SBX_OK ? cmd : NULL;
}

/* A one-shot run of script with policy p (timeout_ms 0: none). */
static int run(const struct demo *d, sbx_policy *p, const char *script, sbx_result **r)
{
    sbx_cmd *cmd = sh(script);
    int rc = cmd ? sbx_run_live(r, d->client, d->dsn, p, cmd, to_stdout, NULL) : SBX_E_NOMEM;

    sbx_cmd_free(cmd);
    return rc;
}

static int hello(const struct demo *d)
{
    sbx_policy *p = policy_of(d);
    sbx_result *r = NULL;
    int rc;

    step(1, "Run a command in a fresh sandbox; the sandbox is destroyed after it.",
         "sandboxio run -- sh -c 'echo \"hello from $(uname -n)\"'");
    rc = p ? run(d, p, "echo \"hello from $(uname -n)\"", &r) : SBX_E_NOMEM;
    if (rc == SBX_OK)
        printf("   -> exit %d\n", sbx_result_exit_code(r));
    sbx_result_free(r);
    sbx_policy_free(p);
    return rc;
}

static int refused(const struct demo *d)
{
    sbx_policy *p = policy_of(d);
    sbx_result *r = NULL;
    int rc;

    step(2, "Ask for more isolation than the backend has: refused before anything runs.",
         "sandboxio run --min-tier microvm -- sh -c 'echo this never runs'");
    if (!p || sbx_policy_set_min_tier(p, SBX_TIER_MICROVM) != SBX_OK) {
        sbx_policy_free(p);
        return SBX_E_NOMEM;
    }
    rc = run(d, p, "echo this never runs", &r);
    sbx_policy_free(p);
    sbx_result_free(r);
    if (rc == SBX_OK) {
        printf("   -> ran: this backend is a microVM\n");
        return SBX_OK;
    }
    if (rc / 1000 != 3)
        return rc;
    printf("   -> refused: %s: %s (exit %d)\n", sbx_error_id(rc), sbx_cli_error_message(rc),
           sbx_cli_exit_code(rc));
    return SBX_OK;
}

static int timeout(const struct demo *d)
{
    sbx_policy *p = policy_of(d);
    sbx_result *r = NULL;
    int rc;

    step(3, "A timeout kills the command and everything it started.",
         "sandboxio run --timeout 1 -- sh -c 'sleep 30 & sleep 30'");
    if (!(d->caps & SBX_CAP_TIMEOUT)) {
        printf("   -> skipped: this backend has no timeouts\n");
        sbx_policy_free(p);
        return SBX_OK;
    }
    if (!p || sbx_policy_set_timeout(p, 1000) != SBX_OK) {
        sbx_policy_free(p);
        return SBX_E_NOMEM;
    }
    rc = run(d, p, "sleep 30 & sleep 30", &r);
    if (rc == SBX_OK && !sbx_result_timed_out(r))
        rc = SBX_E_INTERNAL;
    if (rc == SBX_OK)
        printf("   -> killed at its timeout after %.1f s (exit %d)\n",
               (double)sbx_result_duration_ns(r) / 1e9, SBX_CLI_EXIT_TIMEOUT);
    sbx_result_free(r);
    sbx_policy_free(p);
    return rc;
}

static int files(const struct demo *d)
{
    sbx_policy *p = policy_of(d);
    sbx_sandbox *sb = NULL;
    sbx_result *r = NULL;
    sbx_cmd *write_it = sh("echo 'kept between commands' > notes.txt"), *read_it = sh("cat notes.txt");
    int rc, drc;

    step(4, "One sandbox, two commands: a file the first writes, the second reads.",
         "(library) sbx_sandbox_open; sbx_exec \"echo ... > notes.txt\"; sbx_exec \"cat notes.txt\"");
    rc = p && write_it && read_it ? sbx_sandbox_open(&sb, d->client, d->dsn, p) : SBX_E_NOMEM;
    if (rc == SBX_OK)
        rc = sbx_exec_stream(&r, sb, write_it, to_stdout, NULL);
    sbx_result_free(r);
    r = NULL;
    if (rc == SBX_OK)
        rc = sbx_exec_stream(&r, sb, read_it, to_stdout, NULL);
    if (rc == SBX_OK && sbx_result_exit_code(r) != 0)
        rc = SBX_E_INTERNAL;
    sbx_result_free(r);
    if (sb) {
        drc = sbx_sandbox_destroy(sb);
        rc = rc ? rc : drc;
        sbx_sandbox_free(sb);
    }
    if (rc == SBX_OK)
        printf("   -> the file was there; the sandbox is destroyed now\n");
    sbx_cmd_free(write_it);
    sbx_cmd_free(read_it);
    sbx_policy_free(p);
    return rc;
}

int cmd_demo(int argc, char **argv)
{
    static const struct option options[] = {
        { "dsn", required_argument, NULL, 'd' },
        { "profile", required_argument, NULL, 'p' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int (*const steps[])(const struct demo *) = { hello, refused, timeout, files };
    struct demo d = { 0 };
    int64_t t0;
    int opt, rc = SBX_OK, tier = 0, status;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, "+:h", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            return 0;
        case 'd':
            d.dsn_opt = optarg;
            break;
        case 'p':
            d.profile = optarg;
            break;
        default:
            return sbx_cli_option_error("demo", argv, opt, options);
        }
    }
    if (optind < argc)
        return sbx_cli_usage_error("demo", "unexpected argument '%s'", argv[optind]);
    /* The profile is read once here: a bad one stops the demo before it starts. */
    if ((status = profile_policy(&d, &d.po))) {
        policy_opts_release(&d.po);
        return status;
    }
    d.dsn = policy_opts_dsn(&d.po);
    t0 = sbxu_mono_ms();
    if ((rc = sbx_client_new(&d.client)) != SBX_OK) {
        policy_opts_release(&d.po);
        return sbx_cli_error_lib(rc, "creating the client");
    }
    if ((rc = sbx_client_probe(d.client, d.dsn, &d.caps, &tier)) != SBX_OK) {
        sbx_client_free(d.client);
        status = sbx_cli_error_lib(rc, d.dsn);
        policy_opts_release(&d.po);
        return status;
    }
    if (d.po.used)
        printf("With profile '%s' (%s:%d:%d): each step's policy starts from it.\n",
               d.po.used->name, d.po.used->file, d.po.used->line, d.po.used->column);
    d.network = d.caps & SBX_CAP_NET_NONE ? SBX_NET_NONE : SBX_NET_OPEN;
    if (d.po.network_given || d.po.hosts)
        printf("sandboxio demo on %s: isolation tier %s, network as the profile sets it\n", d.dsn,
               sbx_tier_name(tier));
    else
        printf("sandboxio demo on %s: isolation tier %s, network %s%s\n", d.dsn, sbx_tier_name(tier),
               d.network == SBX_NET_NONE ? "none (the default)" : "open",
               d.network == SBX_NET_NONE ? "" : " (this backend cannot cut it: the demo opens it, as --network open does)");
    for (size_t i = 0; rc == SBX_OK && i < sizeof(steps) / sizeof(steps[0]); i++)
        rc = steps[i](&d);
    sbx_client_free(d.client);
    policy_opts_release(&d.po);
    if (rc != SBX_OK)
        return sbx_cli_error_lib(rc, "the demo");
    printf("\nDone: 4 steps in %.1f s. Next: sandboxio run --help, sandboxio shell, docs/cli.md.\n",
           (double)(sbxu_mono_ms() - t0) / 1e3);
    return 0;
}
