/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The table-driven DSN option parser. Messages keep the shape backends have
 * always given: "<plugin>: name=value <why>" and, for an unknown key, the
 * list of the known ones.
 */
#include "config.h"

#include <ctype.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

#include <sbxu/opts.h>

static bool seconds(const char *s, uint64_t *out)
{
    if (!s[0] || strspn(s, "0123456789") != strlen(s) || strlen(s) > 12)
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, NULL, 10);
    if (errno)
        return false;
    *out = v;
    return true;
}

static int choice(const sbxu_opt *o, const char *v)
{
    for (int i = 0; o->choices && o->choices[i]; i++)
        if (strcmp(o->choices[i], v) == 0)
            return i;
    return -1;
}

/* Store v for o in out; false when the value is refused. */
static bool store(void *out, const sbxu_opt *o, const char *v, bool *nomem)
{
    char *at = (char *)out + o->offset;
    switch (o->type) {
    case SBXU_OPT_STRING: {
        if (o->valid && !o->valid(v))
            return false;
        char *copy = strdup(v);
        if (!copy) {
            *nomem = true;
            return false;
        }
        free(*(char **)at);
        *(char **)at = copy;
        return true;
    }
    case SBXU_OPT_SECONDS:
        return seconds(v, (uint64_t *)at);
    case SBXU_OPT_CHOICE: {
        int i = choice(o, v);
        if (i >= 0)
            *(int *)at = i;
        return i >= 0;
    }
    default:
        return false;
    }
}

/* "a, b, c": the table's names, for the unknown-key message. */
static void known_names(const sbxu_opt *table, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (const sbxu_opt *o = table; o->name && n < len; o++) {
        int w = snprintf(out + n, len - n, "%s%s", n ? ", " : "", o->name);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

/* ": use k=a or k=b" (or "k=a, k=b or k=c") for a choice without its own text. */
static void choice_hint(const sbxu_opt *o, char *out, size_t len)
{
    size_t n = 0, count = 0;
    while (o->choices && o->choices[count])
        count++;
    int w = snprintf(out, len, ": use ");
    n = w > 0 ? (size_t)w : 0;
    for (size_t i = 0; i < count && n < len; i++) {
        const char *sep = i == 0 ? "" : i + 1 == count ? " or " : ", ";
        w = snprintf(out + n, len - n, "%s%s=%s", sep, o->name, o->choices[i]);
        if (w < 0)
            break;
        n += (size_t)w;
    }
}

static int refuse(const sbx_host *host, const char *plugin, const sbxu_opt *o, const char *v)
{
    char hint[256];
    const char *why = o->bad;
    if (!why && o->type == SBXU_OPT_CHOICE) {
        choice_hint(o, hint, sizeof(hint));
        why = hint;
    } else if (!why) {
        why = " is not a number of seconds";
    }
    return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "%s: %s=%s%s", plugin, o->name, v, why);
}

int sbxu_opts_parse(void *out, const sbx_host *host, const char *plugin, const sbxu_opt *table,
                   const sbx_plugin_dsn *dsn)
{
    return sbxu_opts_parse_custom(out, host, plugin, table, dsn, NULL);
}

int sbxu_opts_parse_custom(void *out, const sbx_host *host, const char *plugin,
                           const sbxu_opt *table, const sbx_plugin_dsn *dsn,
                           sbxu_opt_parser custom)
{
    bool nomem = false;
    int rc = SBX_OK;
    for (const sbxu_opt *o = table; o->name && rc == SBX_OK; o++) {
        if (o->type == SBXU_OPT_CUSTOM)
            rc = !custom ? host->set_error(SBX_E_INTERNAL, "%s: %s has no parser", plugin, o->name)
                 : o->dflt ? custom(out, host, o->name, o->dflt) : SBX_OK;
        else if (!store(out, o, o->dflt, &nomem))
            rc = nomem ? host->set_error(SBX_E_NOMEM, "%s: out of memory", plugin)
                       : host->set_error(SBX_E_INTERNAL, "%s: the default %s=%s is refused",
                                         plugin, o->name, o->dflt);
    }
    for (size_t i = 0; rc == SBX_OK && i < dsn->query_count; i++) {
        const char *k = dsn->query[i].key, *v = dsn->query[i].value ? dsn->query[i].value : "";
        const sbxu_opt *o = table;
        while (o->name && strcmp(o->name, k) != 0)
            o++;
        if (!o->name) {
            char known[512];
            known_names(table, known, sizeof(known));
            rc = host->set_error(SBX_E_DSN_UNKNOWN_OPTION, "%s: unknown option \"%s\" (known: %s)",
                                 plugin, k, known);
        } else if (o->type == SBXU_OPT_CUSTOM) {
            rc = custom ? custom(out, host, o->name, v)
                        : host->set_error(SBX_E_INTERNAL, "%s: %s has no parser", plugin, o->name);
        } else if (!store(out, o, v, &nomem)) {
            rc = nomem ? host->set_error(SBX_E_NOMEM, "%s: out of memory", plugin)
                       : refuse(host, plugin, o, v);
        }
    }
    if (rc)
        sbxu_opts_clear(out, table);
    return rc;
}

void sbxu_opts_clear(void *out, const sbxu_opt *table)
{
    for (const sbxu_opt *o = table; o->name; o++) {
        if (o->type != SBXU_OPT_STRING)
            continue;
        char **at = (char **)((char *)out + o->offset);
        free(*at);
        *at = NULL;
    }
}

bool sbxu_opts_chars_ok(const char *v, size_t min_len, size_t max_len, const char *extra)
{
    size_t n = strlen(v);
    if (n < min_len || n > max_len)
        return false;
    for (const char *p = v; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr(extra, *p))
            return false;
    return true;
}
