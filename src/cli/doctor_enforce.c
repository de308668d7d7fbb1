/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_enforce.c - what each loaded backend can really guarantee on this
 * machine (its declared capabilities narrowed by its probe), so a user sees
 * which limits a policy may ask for here before asking.
 */
#include "config.h"

#include <stdio.h>

#include "plugin_report.h"
#include "common/output.h"

int sbx_cli_plugin_probe(sbx_client *client, const sbx_plugin_info *info, uint64_t *caps,
                         char *dsn, size_t size)
{
    snprintf(dsn, size, "%s://", info->scheme);
    return sbx_client_probe(client, dsn, caps, NULL);
}

void sbx_cli_caps_names_text(FILE *out, uint64_t caps)
{
    int first = 1;

    for (unsigned bit = 0; bit < 64; bit++) {
        const char *name = sbx_cap_name(UINT64_C(1) << bit);
        if ((caps & (UINT64_C(1) << bit)) && name) {
            fprintf(out, "%s%s", first ? "" : ",", name);
            first = 0;
        }
    }
    if (first)
        fputs("-", out);
}

void sbx_cli_enforceable_text(FILE *out, sbx_client *client, const sbx_plugin_list *list)
{
    size_t n = sbx_plugin_list_count(list);
    char dsn[128];

    for (size_t i = 0; i < n; i++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(list, i);
        uint64_t caps = 0;

        if (info->load_code != SBX_OK)
            continue;
        if (sbx_cli_plugin_probe(client, info, &caps, dsn, sizeof(dsn)) != SBX_OK) {
            const sbx_error *e = sbx_error_last();
            fprintf(out, "  %-8s probe failed: %s: %s\n", info->scheme,
                    e ? e->id : "?", e ? e->message : "");
            continue;
        }
        fprintf(out, "  %-8s ", info->scheme);
        sbx_cli_caps_names_text(out, caps);
        if (info->caps & ~caps) {
            fputs("\n           declared but not enforceable here: ", out);
            sbx_cli_caps_names_text(out, info->caps & ~caps);
        }
        fputc('\n', out);
    }
}

static json_object *entry_json(sbx_client *client, const sbx_plugin_info *info)
{
    json_object *obj = json_object_new_object();
    uint64_t caps = 0;
    char dsn[128];
    int rc, code;

    if (!obj)
        return NULL;
    code = sbx_cli_plugin_probe(client, info, &caps, dsn, sizeof(dsn));
    rc = sbx_cli_json_add(obj, "dsn", json_object_new_string(dsn));
    if (!rc) rc = sbx_cli_json_add(obj, "probe_code", json_object_new_int(code));
    if (code == SBX_OK) {
        if (!rc) rc = sbx_cli_json_add(obj, "capabilities", sbx_cli_caps_json(caps));
        if (!rc) rc = sbx_cli_json_add(obj, "not_enforceable", sbx_cli_caps_json(info->caps & ~caps));
    } else {
        const sbx_error *e = sbx_error_last();
        if (!rc) rc = sbx_cli_json_add(obj, "probe_message",
                                       json_object_new_string(e ? e->message : ""));
    }
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

json_object *sbx_cli_enforceable_json(sbx_client *client, const sbx_plugin_list *list)
{
    json_object *obj = json_object_new_object();
    size_t n = sbx_plugin_list_count(list);

    for (size_t i = 0; obj && i < n; i++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(list, i);
        if (info->load_code != SBX_OK)
            continue;
        if (sbx_cli_json_add(obj, info->scheme, entry_json(client, info))) {
            json_object_put(obj);
            return NULL;
        }
    }
    return obj;
}
