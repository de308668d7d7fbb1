/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_gc.c - `sandboxio gc [DSN...]`: remove the sandboxes that clients left
 * behind when they died (their owner process is gone) or whose TTL passed,
 * on each backend named. What counts as leaked is the backend's call
 * (sbx_client_gc()); this command only reports what went. On local:// it
 * also destroys the ready sandboxes `run` leaves behind (run_ready.h).
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "common/dsn.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"
#include "run_ready.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio gc [--json] [DSN...]\n"
          "\n"
          "Remove the sandboxes of each backend DSN names that were leaked by\n"
          "clients that died (their owner process is gone) or whose time to live\n"
          "passed, and on local:// the ready sandboxes `run` leaves behind.\n"
          "Sandboxes of running clients are left alone. Without a DSN, the\n"
          "one in $SANDBOXIO_DSN, else " SBX_CLI_DEFAULT_DSN ". Prints one line per\n"
          "sandbox removed, then a count per DSN.\n"
          "\n"
          "Options:\n"
          "  --json      print a JSON array with, per DSN: dsn (redacted), removed\n"
          "              (the count) and sandboxes ([{id, reason}])\n"
          "  -h, --help  show this help\n"
          "\n"
          "Exit status: 0 when every backend was swept, else the status of the\n"
          "first failure (123 for a backend error, 120 for a bad DSN).\n",
          out);
}

typedef struct gc_out {
    const char *dsn;          /* redacted */
    json_object *items;       /* --json: [{id, reason}] */
    int failed;               /* SBX_E_NOMEM while building JSON */
} gc_out;

static int on_removed(void *userdata, const char *id, const char *reason)
{
    gc_out *g = userdata;
    if (!g->items) {
        printf("removed %s from %s: %s\n", id, g->dsn, reason);
        return 0;
    }
    json_object *item = json_object_new_object();
    if (!item || sbx_cli_json_add(item, "id", json_object_new_string(id)) ||
        sbx_cli_json_add(item, "reason", json_object_new_string(reason)) ||
        sbx_cli_json_push(g->items, item)) {
        g->failed = SBX_E_NOMEM;
        return 0;    /* keep sweeping: what is leaked should still go */
    }
    return 0;
}

/* Sweep one DSN; returns an exit status (0 on success). */
static int sweep(sbx_client *client, const char *dsn, json_object *all)
{
    char *redacted = NULL;
    int rc = sbx_dsn_redact(dsn, &redacted);
    if (rc) {
        sbx_free(redacted);
        return sbx_cli_error_lib(rc, "reading the DSN");
    }
    gc_out g = {.dsn = redacted, .items = all ? json_object_new_array() : NULL};
    size_t removed = 0, ready = 0;
    int status = 0;
    if (all && !g.items)
        rc = SBX_E_NOMEM;
    else if ((rc = run_ready_sweep(client, dsn, on_removed, &g, &ready)) == SBX_OK)
        rc = sbx_client_gc(client, dsn, on_removed, &g, &removed);
    removed += ready;   /* apart: a backend's gc starts its count at 0 */
    if (rc) {
        char context[512];
        snprintf(context, sizeof(context), "collecting on %s", redacted);
        status = sbx_cli_error_lib(rc, context);
    } else if (g.failed) {
        status = sbx_cli_error(g.failed, "out of memory building the JSON report");
    } else if (all) {
        json_object *o = json_object_new_object();
        if (!o || sbx_cli_json_add(o, "dsn", json_object_new_string(redacted)) ||
            sbx_cli_json_add(o, "removed", json_object_new_int64((int64_t)removed)) ||
            sbx_cli_json_add(o, "sandboxes", g.items) || sbx_cli_json_push(all, o))
            status = sbx_cli_error(SBX_E_NOMEM, "out of memory building the JSON report");
        g.items = NULL;
    } else {
        printf("%zu removed from %s\n", removed, redacted);
    }
    json_object_put(g.items);
    sbx_free(redacted);
    return status;
}

int cmd_gc(int argc, char **argv)
{
    int json = 0, status = 0;

    int done = sbx_cli_json_options("gc", argc, argv, 1, usage, &json);
    if (done >= 0)
        return done;
    const char *fallback = sbx_cli_default_dsn();
    sbx_client *client = NULL;
    int rc = sbx_client_new(&client);
    if (rc)
        return sbx_cli_error_lib(rc, "creating a client");
    json_object *all = json ? json_object_new_array() : NULL;
    if (json && !all) {
        sbx_client_free(client);
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    }
    if (optind == argc) {
        status = sweep(client, fallback, all);
    } else {
        for (int i = optind; i < argc; i++) {
            int s = sweep(client, argv[i], all);
            if (s && !status)
                status = s;
        }
    }
    sbx_client_free(client);
    if (all) {
        if (status) {
            json_object_put(all);
            return status;
        }
        rc = sbx_cli_print_json(all, 1);
        if (rc)
            return sbx_cli_exit_code(rc);
    }
    return sbx_cli_finish_output(status);
}
