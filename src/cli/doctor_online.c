/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_online.c - `sandboxio doctor --online`: contact each loaded
 * backend (a daemon ping, an API check) and say whether it answers. The
 * default doctor never comes here: it opens no socket.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "common/dsn.h"
#include "doctor_online.h"
#include "common/error.h"
#include "common/output.h"

/* The DSN to contact: $SANDBOXIO_DSN for its own scheme, else "scheme://". */
static void dsn_for(const char *scheme, char *dsn, size_t size)
{
    const char *env = sbx_cli_env_dsn();
    size_t n = strlen(scheme);

    if (env && strncmp(env, scheme, n) == 0 && strncmp(env + n, "://", 3) == 0 &&
        strlen(env) < size)
        snprintf(dsn, size, "%s", env);
    else
        snprintf(dsn, size, "%s://", scheme);
}

int sbx_cli_online_check(struct sbx_cli_online *out, sbx_client *client,
                         const sbx_plugin_list *list)
{
    size_t n = sbx_plugin_list_count(list);

    memset(out, 0, sizeof(*out));
    out->items = calloc(n ? n : 1, sizeof(*out->items));
    if (!out->items)
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(list, i);
        struct sbx_cli_online_item *it = &out->items[out->n];
        char dsn[2048];

        if (info->load_code != SBX_OK)
            continue;
        dsn_for(info->scheme, dsn, sizeof(dsn));
        it->scheme = info->scheme;
        /* The DSN is shown redacted; a parse error still gives "<invalid DSN>". */
        sbx_dsn_redact(dsn, &it->dsn);
        it->code = sbx_client_ping(&it->reached, &it->detail, client, dsn);
        if (it->code != SBX_OK)
            it->message = strdup(sbx_cli_error_message(it->code));
        out->n++;
    }
    return 0;
}

void sbx_cli_online_release(struct sbx_cli_online *o)
{
    for (size_t i = 0; i < o->n; i++) {
        sbx_free(o->items[i].dsn);
        sbx_free(o->items[i].detail);
        free(o->items[i].message);
    }
    free(o->items);
    memset(o, 0, sizeof(*o));
}

/*
 * What kind of failure a ping's code is, for the text report: nothing
 * answered, the backend answered but refused who we are (or we had no
 * credential to show), or anything else.
 */
static const char *failure_label(int code)
{
    switch (code) {
    case SBX_E_BACKEND_UNAVAILABLE:
    case SBX_E_BACKEND_TRANSPORT:
        return "UNREACHABLE";
    case SBX_E_BACKEND_AUTH:
    case SBX_E_BACKEND_PERMISSION:
    case SBX_E_CREDENTIAL_MISSING:
        return "AUTH";
    default:
        return "ERROR";
    }
}

void sbx_cli_online_text(FILE *out, const struct sbx_cli_online *o)
{
    for (size_t i = 0; i < o->n; i++) {
        const struct sbx_cli_online_item *it = &o->items[i];

        if (it->code != SBX_OK)
            fprintf(out, "  %-8s %s %s: %s\n", it->scheme, failure_label(it->code),
                    sbx_error_id(it->code),
                    it->message ? it->message : sbx_strerror(it->code));
        else if (it->reached)
            fprintf(out, "  %-8s ok: %s\n", it->scheme, it->detail ? it->detail : it->dsn);
        else
            fprintf(out, "  %-8s nothing to contact (runs in this process)\n", it->scheme);
    }
}

json_object *sbx_cli_online_json(const struct sbx_cli_online *o)
{
    json_object *array = json_object_new_array();
    int rc = array ? SBX_OK : SBX_E_NOMEM;

    for (size_t i = 0; !rc && i < o->n; i++) {
        const struct sbx_cli_online_item *it = &o->items[i];
        json_object *obj = json_object_new_object();
        const char *status = it->code ? sbx_error_id(it->code) : it->reached ? "ok" : "local";

        rc = obj ? SBX_OK : SBX_E_NOMEM;
        if (!rc) rc = sbx_cli_json_add(obj, "scheme", json_object_new_string(it->scheme));
        if (!rc) rc = it->dsn ? sbx_cli_json_add(obj, "dsn", json_object_new_string(it->dsn))
                              : sbx_cli_json_add_null(obj, "dsn");
        if (!rc) rc = sbx_cli_json_add(obj, "status", json_object_new_string(status));
        if (!rc) rc = sbx_cli_json_add(obj, "reached", json_object_new_boolean(it->reached));
        if (!rc) rc = sbx_cli_json_add(obj, "code", json_object_new_int(it->code));
        if (!rc) rc = it->message ? sbx_cli_json_add(obj, "message", json_object_new_string(it->message))
                                  : sbx_cli_json_add_null(obj, "message");
        if (!rc) rc = it->detail ? sbx_cli_json_add(obj, "detail", json_object_new_string(it->detail))
                                 : sbx_cli_json_add_null(obj, "detail");
        if (!rc) {
            rc = sbx_cli_json_push(array, obj);
            obj = NULL;
        }
        json_object_put(obj);
    }
    if (rc) {
        json_object_put(array);
        return NULL;
    }
    return array;
}
