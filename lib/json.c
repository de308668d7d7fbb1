/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json-c helpers: parsing answers, path getters whose errors say where the
 * answer differs from what the adapter expects (a provider changed its API),
 * lenient lookups, and body building.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/json.h>

int sbxu_json_parse(json_object **out, const sbx_host *host, const char *plugin,
                   const char *who, const char *context, const char *text, size_t len)
{
    *out = NULL;
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return host->set_error(SBX_E_NOMEM, "%s: out of memory", plugin);
    json_object *o = text && len && len <= (size_t)INT32_MAX
                         ? json_tokener_parse_ex(tok, text, (int)len)
                         : NULL;
    json_tokener_free(tok);
    if (!o)
        return host->set_error(SBX_E_BACKEND_PROTOCOL, "%s: %s: the %s's answer is not JSON",
                               plugin, context, who);
    *out = o;
    return SBX_OK;
}

/* One step of a path: a key (up to '.', '[' or the end) and any "[n]" after it. */
json_object *sbxu_json_at(json_object *root, const char *path)
{
    json_object *cur = root;
    const char *p = path;
    while (cur && *p) {
        size_t n = strcspn(p, ".[");
        if (n) {
            char key[256];
            if (n >= sizeof(key) || !json_object_is_type(cur, json_type_object))
                return NULL;
            memcpy(key, p, n);
            key[n] = '\0';
            if (!json_object_object_get_ex(cur, key, &cur))
                return NULL;
            p += n;
        }
        while (*p == '[') {
            char *end;
            unsigned long i = strtoul(p + 1, &end, 10);
            if (end == p + 1 || *end != ']' || !json_object_is_type(cur, json_type_array) ||
                i >= json_object_array_length(cur))
                return NULL;
            cur = json_object_array_get_idx(cur, i);
            p = end + 1;
        }
        if (*p == '.')
            p++;
        else if (*p)
            return NULL;
    }
    return cur;
}

int sbxu_json_get(json_object **out, json_type type, const sbx_host *host, const char *plugin,
                 const char *context, json_object *root, const char *path)
{
    json_object *v = sbxu_json_at(root, path);
    *out = NULL;
    if (!v || !json_object_is_type(v, type))
        return host->set_error(SBX_E_BACKEND_PROTOCOL, "%s: %s: the answer has no %s at %s",
                               plugin, context, json_type_to_name(type), path);
    *out = v;
    return SBX_OK;
}

int sbxu_json_get_string(const char **out, const sbx_host *host, const char *plugin,
                        const char *context, json_object *root, const char *path)
{
    json_object *v;
    int rc = sbxu_json_get(&v, json_type_string, host, plugin, context, root, path);
    *out = rc ? NULL : json_object_get_string(v);
    return rc;
}

int sbxu_json_get_int(int64_t *out, const sbx_host *host, const char *plugin, const char *context,
                     json_object *root, const char *path)
{
    json_object *v;
    int rc = sbxu_json_get(&v, json_type_int, host, plugin, context, root, path);
    *out = rc ? 0 : json_object_get_int64(v);
    return rc;
}

int sbxu_json_get_bool(bool *out, const sbx_host *host, const char *plugin, const char *context,
                      json_object *root, const char *path)
{
    json_object *v;
    int rc = sbxu_json_get(&v, json_type_boolean, host, plugin, context, root, path);
    *out = rc ? false : json_object_get_boolean(v);
    return rc;
}

const char *sbxu_json_str(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

int64_t sbxu_json_int(json_object *o, const char *key, int64_t dflt)
{
    json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
        return dflt;
    return json_object_get_int64(v);
}

bool sbxu_json_bool(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!o || !json_object_object_get_ex(o, key, &v))
        return false;
    return json_object_get_boolean(v);
}

int sbxu_json_add(json_object *o, const char *key, json_object *value)
{
    if (!o || !value)
        return -1;
    if (json_object_object_add(o, key, value) != 0) {
        json_object_put(value);
        return -1;
    }
    return 0;
}

int sbxu_json_add_str(json_object *o, const char *key, const char *value)
{
    return sbxu_json_add(o, key, json_object_new_string(value));
}

json_object *sbxu_json_str_array(const char *const *v)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; a && v && v[i]; i++) {
        json_object *s = json_object_new_string(v[i]);
        if (!s || json_object_array_add(a, s) != 0) {
            json_object_put(s);
            json_object_put(a);
            return NULL;
        }
    }
    return a;
}

char *sbxu_json_text(json_object *o)
{
    const char *t = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN) : NULL;
    return t ? strdup(t) : NULL;
}

void sbxu_json_message(const char *body, size_t len, char *out, size_t out_len)
{
    if (!out_len)
        return;
    out[0] = '\0';
    if (!body || !len)
        return;
    json_tokener *tok = json_tokener_new();
    json_object *o = tok ? json_tokener_parse_ex(tok, body, (int)(len > 1 << 20 ? 1 << 20 : len))
                         : NULL;
    json_object *m = NULL;
    if (o && json_object_is_type(o, json_type_object) &&
        json_object_object_get_ex(o, "message", &m) && json_object_is_type(m, json_type_string)) {
        snprintf(out, out_len, "%s", json_object_get_string(m));
    } else {
        /* Not a JSON error: keep the text, one line, printable only. */
        size_t n = 0;
        for (size_t i = 0; i < len && n + 1 < out_len; i++) {
            unsigned char ch = (unsigned char)body[i];
            out[n++] = (ch >= ' ' && ch < 0x7f) ? (char)ch : ' ';
        }
        while (n && out[n - 1] == ' ')
            n--;
        out[n] = '\0';
    }
    json_object_put(o);
    if (tok)
        json_tokener_free(tok);
}
