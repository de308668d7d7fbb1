/* SPDX-License-Identifier: Apache-2.0 */
/*
 * example: skip: built against the installed kit (tests/plugin-rest-passes-contract.sh)
 *
 * restdemo://[?ttl=SECONDS]: the descriptor, and a sandbox's life. Each
 * sandbox is made carrying the kit's owner labels (this host, boot, pid and
 * its start time, creation time, TTL), so that `sandboxio gc` finds those
 * of a client that died (gc.c).
 */
#include "restdemo.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sbxu/json.h>
#include <sbxu/opts.h>
#include <sbxu/owner.h>

typedef struct rd_opts {
    uint64_t ttl_s;
} rd_opts;

/* The DSN's options; the kit refuses unknown keys and bad values with the exact codes. */
static const sbxu_opt rd_option_table[] = {
    {"ttl", SBXU_OPT_SECONDS, "3600", offsetof(rd_opts, ttl_s), NULL, NULL, NULL},
    {NULL},
};

static int rd_init(const sbx_host *host, void **state)
{
    *state = (void *)host; /* nothing plugin-wide but the host: each sandbox has its session */
    return SBX_OK;
}

static void rd_fini(void *state)
{
    (void)state;
}

/* {"labels": {...the owner labels...}} */
static char *create_body(uint64_t ttl_s)
{
    sbxu_owner_labels labels;
    sbxu_owner_labels_make(&labels, ttl_s);
    json_object *body = json_object_new_object(), *map = json_object_new_object();
    int bad = !body || !map;
    for (size_t i = 0; !bad && i < SBXU_OWNER_LABELS; i++)
        bad |= sbxu_json_add_str(map, labels.kv[i].key, labels.kv[i].value);
    bad |= sbxu_json_add(body, "labels", map);
    char *text = bad ? NULL : sbxu_json_text(body);
    json_object_put(body);
    return text;
}

static int rd_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                   void **sandbox)
{
    const sbx_host *host = state;
    (void)limits; /* none is declared, so the core passes none */
    if ((dsn->authority && *dsn->authority) || (dsn->path && *dsn->path && strcmp(dsn->path, "/")))
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY,
                               RD_PLUGIN ": the service is " RD_URL_VAR "; use restdemo:// alone");
    rd_opts opts = {0};
    int rc = sbxu_opts_parse(&opts, host, RD_PLUGIN, rd_option_table, dsn);
    if (rc)
        return rc;
    rd_sandbox *sb = host->alloc(sizeof(*sb));
    if (!sb)
        return host->set_error(SBX_E_NOMEM, RD_PLUGIN ": out of memory");
    memset(sb, 0, sizeof(*sb));
    sb->host = host;
    rc = rd_api_open(&sb->api, host);
    char *body = rc ? NULL : create_body(opts.ttl_s);
    if (!rc && !body)
        rc = host->set_error(SBX_E_NOMEM, RD_PLUGIN ": out of memory");
    json_object *made = NULL;
    const char *id = NULL;
    /* A create is never retried: a lost answer may still have made a sandbox
     * (which its owner labels let gc find). */
    if (!rc)
        rc = rd_api_call(&sb->api, "POST", "/v1/sandboxes", body, SBXU_HTTP_RETRY_NEVER,
                         "creating a sandbox", &made, NULL);
    if (!rc)
        rc = sbxu_json_get_string(&id, host, RD_PLUGIN, "creating a sandbox", made, "id");
    if (!rc && strlen(id) >= sizeof(sb->id))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, RD_PLUGIN ": the sandbox id is too long");
    if (!rc) {
        snprintf(sb->id, sizeof(sb->id), "%s", id);
        snprintf(sb->path, sizeof(sb->path), "/v1/sandboxes/%s", id);
    }
    json_object_put(made);
    free(body);
    sbxu_opts_clear(&opts, rd_option_table);
    if (rc) {
        rd_api_close(&sb->api);
        host->free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

/* Nothing of the sandbox may remain: one already gone (404) is what we want. */
static int rd_destroy(void *sandbox)
{
    rd_sandbox *sb = sandbox;
    long status = 0;
    int rc = rd_api_call(&sb->api, "DELETE", sb->path, NULL, SBXU_HTTP_RETRY_AUTO,
                         "removing the sandbox", NULL, &status);
    if (rc == SBX_E_NOT_FOUND && status == 404)
        rc = SBX_OK;
    rd_api_close(&sb->api);
    sb->host->free(sb);
    return rc;
}

static const char *rd_sandbox_id(void *sandbox)
{
    return ((rd_sandbox *)sandbox)->id;
}

static const sbx_plugin rd_descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = RD_PLUGIN,
    .version = "1.0.0",
    .description = "example out-of-tree REST backend (restdemo-double.py); no isolation",
    /* Only what the service does and the contract suite proves. */
    .caps = SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_ENV | SBX_CAP_CWD | SBX_CAP_TIMEOUT |
            SBX_CAP_FILES | SBX_CAP_PERSIST,
    .tier = SBX_TIER_NONE,
    .init = rd_init,
    .fini = rd_fini,
    .open = rd_open,
    .destroy = rd_destroy,
    .exec = rd_exec,
    .file_write = rd_file_write,
    .file_read = rd_file_read,
    .file_list = rd_file_list,
    .file_remove = rd_file_remove,
    .file_mkdir = rd_file_mkdir,
    .sandbox_id = rd_sandbox_id,
    .gc = rd_gc,
};

/* The one symbol the core looks up; -fvisibility=hidden keeps the kit and all else local. */
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &rd_descriptor;
}
