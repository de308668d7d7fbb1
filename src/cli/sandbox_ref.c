/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandbox_ref.c - from "fake:3f2a", "3f2a" or "job-1" to an attached
 * handle: list every backend that could hold it, keep the sandboxes whose
 * id or name equals the text or whose id starts with it, and attach to the
 * one left. Two left is refused with both named, never guessed.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox_ref.h"
#include "common/error.h"

void sbx_cli_dsns_release(sbx_cli_dsns *d)
{
    for (size_t i = 0; i < d->n; i++)
        free(d->v[i]);
    free(d->v);
    d->v = NULL;
    d->n = 0;
}

static int dsns_push(sbx_cli_dsns *d, const char *dsn)
{
    char **v = realloc(d->v, (d->n + 1) * sizeof(*v));
    if (!v)
        return SBX_E_NOMEM;
    d->v = v;
    if (!(d->v[d->n] = strdup(dsn)))
        return SBX_E_NOMEM;
    d->n++;
    return SBX_OK;
}

int sbx_cli_dsns_get(sbx_client *client, const char *dsn, sbx_cli_dsns *out)
{
    sbx_plugin_list *list = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if (dsn)
        return dsns_push(out, dsn);
    if ((rc = sbx_client_plugins(client, &list)) != SBX_OK)
        return rc;
    for (size_t i = 0; rc == SBX_OK && i < sbx_plugin_list_count(list); i++) {
        const sbx_plugin_info *p = sbx_plugin_list_get(list, i);
        char buf[256];
        if (p->load_code != SBX_OK || !(p->caps & SBX_CAP_ATTACH))
            continue;
        snprintf(buf, sizeof(buf), "%s://", p->scheme);
        rc = dsns_push(out, buf);
    }
    sbx_plugin_list_free(list);
    if (rc)
        sbx_cli_dsns_release(out);
    return rc;
}

int sbx_cli_ref_has_backend(sbx_client *client, const char *text)
{
    const char *colon = strchr(text, ':');
    sbx_plugin_list *list = NULL;
    int found = 0;

    if (!colon || colon == text || colon[1] == '/')
        return 0;
    if (sbx_client_plugins(client, &list) != SBX_OK)
        return 0;
    for (size_t i = 0; !found && i < sbx_plugin_list_count(list); i++) {
        const char *scheme = sbx_plugin_list_get(list, i)->scheme;
        found = strlen(scheme) == (size_t)(colon - text) &&
                strncmp(scheme, text, (size_t)(colon - text)) == 0;
    }
    sbx_plugin_list_free(list);
    return found;
}

char *sbx_cli_ref_of(const char *backend, const char *id)
{
    char *s = NULL;
    return asprintf(&s, "%s:%s", backend, id) < 0 ? NULL : s;
}

int sbx_cli_ref_split(sbx_client *client, const char *text, int need_colon, char **ref,
                      char **path)
{
    const char *colon = strchr(text, ':');

    *ref = *path = NULL;
    if (strcmp(text, "-") == 0 || text[0] == '/' || text[0] == '.' || (!colon && need_colon))
        return 0;
    if (colon && sbx_cli_ref_has_backend(client, text))
        colon = strchr(colon + 1, ':');
    *ref = colon ? strndup(text, (size_t)(colon - text)) : strdup(text);
    *path = strdup(colon ? colon + 1 : "");
    if (*ref && *path)
        return 1;
    free(*ref);
    free(*path);
    *ref = *path = NULL;
    return -1;
}

struct match {
    char *dsn, *id, *ref, *name;
    int exact;
};

struct search {
    const char *key;
    const char *dsn;
    struct match *m;
    size_t n;
    int nomem;
};

static int on_sandbox(void *userdata, const sbx_sandbox_info *info)
{
    struct search *s = userdata;
    size_t klen = strlen(s->key);
    int exact = strcmp(info->id, s->key) == 0 || strcmp(info->name, s->key) == 0;

    if (!exact && strncmp(info->id, s->key, klen) != 0)
        return 0;
    struct match *m = realloc(s->m, (s->n + 1) * sizeof(*m));
    if (!m) {
        s->nomem = 1;
        return 1;
    }
    s->m = m;
    m += s->n++;
    m->dsn = strdup(s->dsn);
    m->id = strdup(info->id);
    m->ref = sbx_cli_ref_of(info->backend, info->id);
    m->name = strdup(info->name);
    m->exact = exact;
    s->nomem = !m->dsn || !m->id || !m->ref || !m->name;
    return s->nomem;
}

static void search_release(struct search *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->m[i].dsn);
        free(s->m[i].id);
        free(s->m[i].ref);
        free(s->m[i].name);
    }
    free(s->m);
}

/* The one match (exact ones first), or the status of the error reported. */
static int choose(const struct search *s, const char *cmd, const char *ref, size_t *pick)
{
    size_t exact = 0, last_exact = 0;
    char list[1024] = "";

    for (size_t i = 0; i < s->n; i++)
        if (s->m[i].exact)
            exact++, last_exact = i;
    if (exact == 1 || (exact == 0 && s->n == 1)) {
        *pick = exact ? last_exact : 0;
        return 0;
    }
    if (s->n == 0)
        return sbx_cli_error(SBX_E_NOT_FOUND, "%s: no sandbox \"%s\" (see sandboxio ps)", cmd,
                             ref);
    for (size_t i = 0; i < s->n; i++)
        if (!exact || s->m[i].exact) {
            size_t len = strlen(list);
            snprintf(list + len, sizeof(list) - len, "%s%s%s%s%s", len ? ", " : "", s->m[i].ref,
                     *s->m[i].name ? " (" : "", s->m[i].name, *s->m[i].name ? ")" : "");
        }
    return sbx_cli_error(SBX_E_AMBIGUOUS_ID, "%s: \"%s\" matches more than one sandbox: %s", cmd,
                         ref, list);
}

int sbx_cli_ref_attach(sbx_client *client, const char *cmd, const char *ref, const char *dsn,
                       sbx_sandbox **out)
{
    struct search s = {.key = ref};
    sbx_cli_dsns dsns = {0};
    char prefixed[256];
    int rc;

    *out = NULL;
    if (!*ref)
        return sbx_cli_usage_error(cmd, "an empty sandbox id");
    if (sbx_cli_ref_has_backend(client, ref)) {
        const char *colon = strchr(ref, ':');
        snprintf(prefixed, sizeof(prefixed), "%.*s://", (int)(colon - ref), ref);
        s.key = colon + 1;
        if (dsn && strncmp(dsn, prefixed, strlen(prefixed) - 2) != 0)
            return sbx_cli_error(SBX_E_NOT_FOUND, "%s: sandbox \"%s\" is not on %s", cmd, ref,
                                 dsn);
        rc = sbx_cli_dsns_get(client, dsn ? dsn : prefixed, &dsns);
    } else {
        rc = sbx_cli_dsns_get(client, dsn, &dsns);
    }
    if (rc) {
        sbx_cli_dsns_release(&dsns);
        return sbx_cli_error_lib(rc, cmd);
    }
    for (size_t i = 0; i < dsns.n && !s.nomem; i++) {
        s.dsn = dsns.v[i];
        rc = sbx_client_list(client, dsns.v[i], on_sandbox, &s);
        /* A backend named on purpose must answer; others may be away. */
        if (rc && (dsn || dsns.n == 1)) {
            sbx_cli_dsns_release(&dsns);
            search_release(&s);
            return sbx_cli_error_lib(rc, cmd);
        }
    }
    sbx_cli_dsns_release(&dsns);
    size_t pick = 0;
    int status = s.nomem ? sbx_cli_error(SBX_E_NOMEM, "%s: out of memory", cmd)
                         : choose(&s, cmd, ref, &pick);
    /* choose() picks one of s.m when it says 0. */
    if (status == 0 && pick < s.n) {
        rc = sbx_sandbox_attach(out, client, s.m[pick].dsn, s.m[pick].id, NULL);
        if (rc)
            status = sbx_cli_error_lib(rc, cmd);
    } else if (status == 0) {
        status = sbx_cli_error(SBX_E_INTERNAL, "%s: no sandbox chosen", cmd);
    }
    search_release(&s);
    return status;
}

int sbx_cli_ref_detach(sbx_sandbox *sandbox, int status)
{
    int rc = sbx_sandbox_detach(sandbox);

    if (rc == SBX_OK)
        return status;
    /* A TTL-less sandbox (made by another tool): keep it, as we found it. */
    int err = sbx_cli_error_lib(rc, "letting go of the sandbox");
    return status ? status : err;
}
