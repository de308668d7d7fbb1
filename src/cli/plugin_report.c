/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plugin_report.c - the plugins a client finds, as a table or as JSON.
 */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "plugin_report.h"
#include "common/error.h"
#include "common/output.h"

int sbx_cli_plugins_load(sbx_client **client, sbx_plugin_list **list)
{
    int rc = sbx_client_new(client);

    if (rc != SBX_OK)
        return sbx_cli_error_lib(rc, "creating the client");
    rc = sbx_client_plugins(*client, list);
    if (rc != SBX_OK) {
        int status = sbx_cli_error_lib(rc, "listing plugins");
        sbx_client_free(*client);
        *client = NULL;
        return status;
    }
    return 0;
}

/* The name of one capability bit; unknown bits get a stable made-up name. */
static const char *cap_name(unsigned bit, char *buf, size_t size)
{
    const char *name = sbx_cap_name(UINT64_C(1) << bit);

    if (name)
        return name;
    snprintf(buf, size, "unknown-bit%u", bit);
    return buf;
}

json_object *sbx_cli_caps_json(uint64_t caps)
{
    json_object *array = json_object_new_array();
    char buf[32];

    if (!array)
        return NULL;
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!(caps & (UINT64_C(1) << bit)))
            continue;
        if (sbx_cli_json_push(array, json_object_new_string(cap_name(bit, buf, sizeof(buf))))) {
            json_object_put(array);
            return NULL;
        }
    }
    return array;
}

const char *sbx_cli_spec_date(const char *version, char *buf, size_t size)
{
    const char *at = version ? strstr(version, "+spec.") : NULL;

    /* YYYY-MM-DD right after the tag, and nothing but more metadata after it. */
    if (!at || size < 11)
        return NULL;
    at += strlen("+spec.");
    for (int i = 0; i < 10; i++) {
        int want_dash = i == 4 || i == 7;
        if (want_dash ? at[i] != '-' : (at[i] < '0' || at[i] > '9'))
            return NULL;
    }
    if (at[10] != '\0' && at[10] != '.')
        return NULL;
    memcpy(buf, at, 10);
    buf[10] = '\0';
    return buf;
}

void sbx_cli_spec_dates_text(FILE *out, const sbx_plugin_list *list)
{
    size_t n = sbx_plugin_list_count(list);
    int any = 0;
    char date[16];

    for (size_t i = 0; i < n; i++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(list, i);
        if (info->load_code != SBX_OK || !sbx_cli_spec_date(info->version, date, sizeof(date)))
            continue;
        if (!any)
            fprintf(out, "Provider specs the cloud adapters are built against (their stored copies' date):\n");
        any = 1;
        fprintf(out, "  %s: %s\n", info->scheme ? info->scheme : "?", date);
    }
}

static const char *status_text(const sbx_plugin_info *info)
{
    return info->load_code == SBX_OK ? "ok" : sbx_error_id(info->load_code);
}

/* Add a member that may legitimately be null: only a failed constructor is an error. */
static int add_opt(json_object *obj, const char *key, const char *value)
{
    return value ? sbx_cli_json_add(obj, key, json_object_new_string(value))
                 : sbx_cli_json_add_null(obj, key);
}

/*
 * "enforceable" and "not_enforceable": the declared capabilities this
 * machine can and cannot enforce, from the plugin's probe; both null, with
 * "probe_code", when the probe failed.
 */
static int here_json(json_object *obj, sbx_client *client, const sbx_plugin_info *info)
{
    uint64_t caps = 0;
    char dsn[128];
    int code = sbx_cli_plugin_probe(client, info, &caps, dsn, sizeof(dsn));
    int rc = sbx_cli_json_add(obj, "probe_code", json_object_new_int(code));

    if (code == SBX_OK) {
        if (!rc) rc = sbx_cli_json_add(obj, "enforceable", sbx_cli_caps_json(info->caps & caps));
        if (!rc) rc = sbx_cli_json_add(obj, "not_enforceable", sbx_cli_caps_json(info->caps & ~caps));
    } else {
        if (!rc) rc = sbx_cli_json_add_null(obj, "enforceable");
        if (!rc) rc = sbx_cli_json_add_null(obj, "not_enforceable");
    }
    return rc;
}

/* The names of the variables the plugin reads credentials from (never a value). */
static json_object *credential_env_json(const char *const *names)
{
    json_object *array = json_object_new_array();

    for (size_t i = 0; array && names && names[i]; i++) {
        if (sbx_cli_json_push(array, json_object_new_string(names[i]))) {
            json_object_put(array);
            return NULL;
        }
    }
    return array;
}

static json_object *plugin_json(sbx_client *client, const sbx_plugin_info *info)
{
    json_object *obj = json_object_new_object();
    int loaded = info->load_code == SBX_OK;
    int rc;

    if (!obj)
        return NULL;
    rc = sbx_cli_json_add(obj, "scheme", json_object_new_string(info->scheme ? info->scheme : ""));
    if (!rc) rc = sbx_cli_json_add(obj, "status", json_object_new_string(status_text(info)));
    if (!rc) rc = sbx_cli_json_add(obj, "load_code", json_object_new_int(info->load_code));
    if (!rc) rc = add_opt(obj, "message", loaded ? NULL : info->load_message);
    if (!rc) rc = add_opt(obj, "path", info->path);
    if (loaded) {
        if (!rc) rc = add_opt(obj, "version", info->version);
        char date[16];
        if (!rc) rc = add_opt(obj, "description", info->description);
        if (!rc) rc = add_opt(obj, "spec_date", sbx_cli_spec_date(info->version, date, sizeof(date)));
        if (!rc) rc = sbx_cli_json_add(obj, "abi_major", json_object_new_int64(info->abi_major));
        if (!rc) rc = sbx_cli_json_add(obj, "abi_minor", json_object_new_int64(info->abi_minor));
        if (!rc) rc = sbx_cli_json_add(obj, "tier", json_object_new_string(sbx_tier_name(info->tier)));
        if (!rc) rc = sbx_cli_json_add(obj, "capabilities", sbx_cli_caps_json(info->caps));
        if (!rc) rc = sbx_cli_json_add(obj, "credential_env", credential_env_json(info->credential_env));
        if (!rc && client) rc = here_json(obj, client, info);
    } else {
        static const char *const absent[] = { "version", "description", "spec_date", "abi_major",
                                              "abi_minor", "tier", "capabilities",
                                              "credential_env" };
        for (size_t i = 0; !rc && i < sizeof(absent) / sizeof(absent[0]); i++)
            rc = sbx_cli_json_add_null(obj, absent[i]);
    }
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

json_object *sbx_cli_plugins_json(sbx_client *client, const sbx_plugin_list *list)
{
    json_object *array = json_object_new_array();
    size_t n = sbx_plugin_list_count(list);

    if (!array)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (sbx_cli_json_push(array, plugin_json(client, sbx_plugin_list_get(list, i)))) {
            json_object_put(array);
            return NULL;
        }
    }
    return array;
}

/* "exec,stream,..." into buf, cut short (ending in "...") if it does not fit. */
static const char *caps_text(uint64_t caps, char *buf, size_t size)
{
    size_t len = 0;
    char name_buf[32];

    buf[0] = '\0';
    for (unsigned bit = 0; bit < 64; bit++) {
        if (!(caps & (UINT64_C(1) << bit)))
            continue;
        int n = snprintf(buf + len, size - len, "%s%s", len ? "," : "",
                         cap_name(bit, name_buf, sizeof(name_buf)));
        if (n < 0 || (size_t)n >= size - len) {
            memcpy(buf + size - 4, "...", 4);
            break;
        }
        len += (size_t)n;
    }
    if (!buf[0])
        snprintf(buf, size, "-");
    return buf;
}

struct row {
    const char *scheme, *status, *version, *tier, *path;
    char abi[24];
    char caps[512];
};

static void fill_row(struct row *r, const sbx_plugin_info *info)
{
    int loaded = info->load_code == SBX_OK;

    r->scheme = info->scheme ? info->scheme : "?";
    r->status = status_text(info);
    r->version = loaded && info->version ? info->version : "-";
    r->tier = loaded ? sbx_tier_name(info->tier) : "-";
    r->path = info->path ? info->path : "-";
    if (loaded)
        snprintf(r->abi, sizeof(r->abi), "%" PRIu32 ".%" PRIu32, info->abi_major, info->abi_minor);
    else
        snprintf(r->abi, sizeof(r->abi), "-");
    if (loaded)
        caps_text(info->caps, r->caps, sizeof(r->caps));
    else
        snprintf(r->caps, sizeof(r->caps), "-");
}

static int widen(int width, const char *s)
{
    int len = (int)strlen(s);
    return len > width ? len : width;
}

/* The second line of a loaded plugin's row: what its probe says is not here. */
static void here_text(FILE *out, sbx_client *client, const sbx_plugin_info *info)
{
    uint64_t caps = 0;
    char dsn[128];

    if (sbx_cli_plugin_probe(client, info, &caps, dsn, sizeof(dsn)) != SBX_OK) {
        const sbx_error *e = sbx_error_last();
        fprintf(out, "  not checked on this machine: probe failed: %s: %s\n", e ? e->id : "?",
                e && e->message ? e->message : "");
    } else if (info->caps & ~caps) {
        fputs("  not enforceable on this machine: ", out);
        sbx_cli_caps_names_text(out, info->caps & ~caps);
        fputs(" (sandboxio doctor)\n", out);
    }
}

void sbx_cli_plugins_table(FILE *out, sbx_client *client, const sbx_plugin_list *list)
{
    size_t n = sbx_plugin_list_count(list);
    int w_scheme = 6, w_status = 6, w_version = 7, w_abi = 3, w_tier = 4, w_caps = 12;
    struct row r;

    if (n == 0) {
        fputs("No plugin found: see `sandboxio doctor` for the directories searched.\n", out);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        fill_row(&r, sbx_plugin_list_get(list, i));
        w_scheme = widen(w_scheme, r.scheme);
        w_status = widen(w_status, r.status);
        w_version = widen(w_version, r.version);
        w_abi = widen(w_abi, r.abi);
        w_tier = widen(w_tier, r.tier);
        w_caps = widen(w_caps, r.caps);
    }
    fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %s\n", w_scheme, "SCHEME", w_status, "STATUS",
            w_version, "VERSION", w_abi, "ABI", w_tier, "TIER", w_caps, "CAPABILITIES", "PATH");
    for (size_t i = 0; i < n; i++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(list, i);

        fill_row(&r, info);
        fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  %-*s  %s\n", w_scheme, r.scheme, w_status,
                r.status, w_version, r.version, w_abi, r.abi, w_tier, r.tier, w_caps, r.caps,
                r.path);
        if (info->load_code != SBX_OK)
            fprintf(out, "  %s: %s\n", r.status,
                    info->load_message ? info->load_message : sbx_strerror(info->load_code));
        else if (client)
            here_text(out, client, info);
    }
}
