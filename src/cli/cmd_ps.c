/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_ps.c - `sandboxio ps` (alias `list`): the sandboxes sandboxio made for
 * this user on every backend that can list them, or on --dsn alone.
 *
 * A backend merely installed, with no daemon or no key here, is no error
 * of a bare `ps`: it lists what it can, quietly, and -v names the rest in
 * one line. A backend named with --dsn must answer.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sandboxio/sandboxio.h>
#include <sbxu/clock.h>

#include "commands.h"
#include "sandbox_ref.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"

enum { OPT_P_DSN = 256, OPT_P_JSON };

static const struct option options[] = {
    { "dsn", required_argument, NULL, OPT_P_DSN },
    { "json", no_argument, NULL, OPT_P_JSON },
    { "verbose", no_argument, NULL, 'v' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

static void usage(FILE *out)
{
    fputs("Usage: sandboxio ps [-v] [--dsn DSN] [--json]\n"
          "       sandboxio list ...\n"
          "\n"
          "List the sandboxes that outlive their command (made by `create`) on every\n"
          "backend that can list them, or on DSN only. --json prints an array of\n"
          "{\"id\", \"backend\", \"backend_id\", \"name\", \"state\", \"created_ms\",\n"
          "\"expires_ms\", \"owner\"}.\n"
          "\n"
          "A backend that cannot be reached (no daemon, no credentials) is skipped\n"
          "without a word; -v, --verbose names those in one line on stderr. With\n"
          "--dsn the backend must answer: its failure is an error.\n",
          out);
}

/* A row of the table, printed once every backend was listed. */
struct ps_row {
    char *ref, *name;
    const char *state;
    char left[32];
};

struct ps {
    json_object *rows;   /* --json: the array */
    struct ps_row *table;
    size_t n, cap;
    int nomem;
};

/* "12m", "3h", "expired": the time left until expires_ms. */
static void left(char *buf, size_t size, int64_t expires_ms)
{
    int64_t ms = expires_ms - sbxu_wall_ms();

    if (expires_ms == 0)
        snprintf(buf, size, "-");
    else if (ms <= 0)
        snprintf(buf, size, "expired");
    else if (ms < 120 * 1000)
        snprintf(buf, size, "%llds", (long long)((ms + 999) / 1000));
    else if (ms < 120 * 60 * 1000)
        snprintf(buf, size, "%lldm", (long long)(ms / 60000));
    else
        snprintf(buf, size, "%lldh", (long long)(ms / 3600000));
}

/* Keep a row for the table (ref is taken). 0, or -1 out of memory. */
static int table_add(struct ps *p, char *ref, const sbx_sandbox_info *info)
{
    struct ps_row *row;

    if (p->n == p->cap) {
        size_t ncap = p->cap ? p->cap * 2 : 16;
        struct ps_row *t = realloc(p->table, ncap * sizeof(*t));
        if (!t) {
            free(ref);
            return -1;
        }
        p->table = t, p->cap = ncap;
    }
    row = &p->table[p->n];
    row->ref = ref;
    row->state = sbx_sandbox_state_name(info->state);
    left(row->left, sizeof(row->left), info->expires_ms);
    if (!(row->name = strdup(*info->name ? info->name : "-"))) {
        free(ref);
        return -1;
    }
    p->n++;
    return 0;
}

static size_t widest(size_t w, const char *s)
{
    size_t n = strlen(s);
    return n > w ? n : w;
}

/* The table, each column as wide as its widest cell: long ids stay aligned. */
static void table_print(const struct ps *p)
{
    size_t w_id = strlen("ID"), w_name = strlen("NAME"), w_state = strlen("STATE");

    for (size_t i = 0; i < p->n; i++) {
        w_id = widest(w_id, p->table[i].ref);
        w_name = widest(w_name, p->table[i].name);
        w_state = widest(w_state, p->table[i].state);
    }
    printf("%-*s  %-*s  %-*s  %s\n", (int)w_id, "ID", (int)w_name, "NAME", (int)w_state, "STATE",
           "EXPIRES");
    for (size_t i = 0; i < p->n; i++)
        printf("%-*s  %-*s  %-*s  %s\n", (int)w_id, p->table[i].ref, (int)w_name,
               p->table[i].name, (int)w_state, p->table[i].state, p->table[i].left);
}

static void table_free(struct ps *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->table[i].ref);
        free(p->table[i].name);
    }
    free(p->table);
}

static int on_sandbox(void *userdata, const sbx_sandbox_info *info)
{
    struct ps *p = userdata;
    char *ref = sbx_cli_ref_of(info->backend, info->id);

    if (!ref) {
        p->nomem = 1;
        return 1;
    }
    if (!p->rows) {
        p->nomem = table_add(p, ref, info) != 0;
        return p->nomem;
    } else {
        json_object *o = json_object_new_object();
        int rc = o ? SBX_OK : SBX_E_NOMEM;
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "id", json_object_new_string(ref));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "backend", json_object_new_string(info->backend));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "backend_id", json_object_new_string(info->id));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "name", json_object_new_string(info->name));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "state",
                                  json_object_new_string(sbx_sandbox_state_name(info->state)));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "created_ms", json_object_new_int64(info->created_ms));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "expires_ms", json_object_new_int64(info->expires_ms));
        if (rc == SBX_OK)
            rc = sbx_cli_json_add(o, "owner", json_object_new_string(info->owner));
        if (rc == SBX_OK)
            rc = sbx_cli_json_push(p->rows, o);
        else
            json_object_put(o);
        p->nomem = rc != SBX_OK;
    }
    free(ref);
    return p->nomem;
}

/* -v: the backends skipped, in one line: "docker:// (SBX_E4001), e2b:// (SBX_E4017)". */
static void note_skipped(const char *cmd, const char *skipped)
{
    if (*skipped)
        fprintf(stderr, "sandboxio: %s: not listed, cannot be reached: %s; "
                        "`sandboxio %s --dsn DSN` says why\n", cmd, skipped, cmd);
}

int cmd_ps(int argc, char **argv)
{
    const char *dsn = NULL;
    struct ps p = {0};
    sbx_client *client = NULL;
    sbx_cli_dsns dsns = {0};
    char skipped[512] = "";
    size_t n_skipped = 0;
    int opt, json = 0, verbose = 0, rc, status = 0;

    sbx_cli_getopt_reset();
    while (status == 0 && (opt = getopt_long(argc, argv, ":hv", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            return 0;
        case 'v':
            verbose = 1;
            break;
        case OPT_P_DSN:
            dsn = optarg;
            break;
        case OPT_P_JSON:
            json = 1;
            break;
        default:
            return sbx_cli_option_error(argv[0], argv, opt, options);
        }
    }
    if (optind < argc)
        return sbx_cli_usage_error(argv[0], "unexpected argument '%s'", argv[optind]);
    if ((rc = sbx_client_new(&client)) != SBX_OK)
        return sbx_cli_error_lib(rc, "creating the client");
    if ((rc = sbx_cli_dsns_get(client, dsn, &dsns)) != SBX_OK)
        status = sbx_cli_error_lib(rc, argv[0]);
    if (status == 0 && json && !(p.rows = json_object_new_array()))
        status = sbx_cli_error(SBX_E_NOMEM, "%s: out of memory", argv[0]);
    for (size_t i = 0; status == 0 && i < dsns.n; i++) {
        rc = sbx_client_list(client, dsns.v[i], on_sandbox, &p);
        if (p.nomem)
            status = sbx_cli_error(SBX_E_NOMEM, "%s: out of memory", argv[0]);
        else if (rc && dsn)
            status = sbx_cli_error_lib(rc, dsns.v[i]);
        else if (rc) { /* one backend away (no daemon, no key) hides not the others */
            size_t used = strlen(skipped);
            snprintf(skipped + used, sizeof(skipped) - used, "%s%s (%s)", n_skipped++ ? ", " : "",
                     dsns.v[i], sbx_error_id(rc));
        }
    }
    if (status == 0 && verbose)
        note_skipped(argv[0], skipped);
    if (p.rows && status == 0) {
        rc = sbx_cli_print_json(p.rows, 1);
        status = sbx_cli_exit_code(rc);
    } else if (p.rows) {
        json_object_put(p.rows);
    } else if (status == 0) {
        table_print(&p);
    }
    table_free(&p);
    sbx_cli_dsns_release(&dsns);
    sbx_client_free(client);
    return status;
}
