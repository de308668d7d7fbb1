/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The client: plugin search path, loaded plugins, plugin listing, gc.
 */
#include "internal.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sbx_plugin_dir_default(void)
{
    return SBX_PLUGIN_DIR;
}

static int add_path_list(sbx_client *c, const char *list)
{
    char *copy = sbx__strdup(list);
    if (!copy)
        return SBX_E_NOMEM;
    int rc = SBX_OK;
    char *save = NULL;
    for (char *d = strtok_r(copy, ":", &save); d && rc == SBX_OK; d = strtok_r(NULL, ":", &save))
        rc = sbx__strvec_push(&c->dirs, d);
    free(copy);
    return rc;
}

int sbx_client_new(sbx_client **out)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_new: out is NULL");
    sbx_client *c = sbx__calloc(1, sizeof(*c));
    if (!c)
        return SBX_E_NOMEM;
    int rc = sbx__loader_init();
    if (rc) {
        free(c);
        return rc;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->dirs_lock, NULL);
    /* secure_getenv: a privileged caller must not be steered to foreign code. */
    const char *env = secure_getenv("SANDBOXIO_PLUGIN_PATH");
    if (env && *env && (rc = add_path_list(c, env)) != SBX_OK) {
        sbx_client_free(c);
        return rc;
    }
    c->env_dirs = c->dirs.n;
    *out = c;
    return SBX_OK;
}

void sbx_client_free(sbx_client *client)
{
    if (!client)
        return;
    sbx_loaded_plugin *lp = client->plugins;
    while (lp) {
        sbx_loaded_plugin *next = lp->next;
        sbx__loader_unload(lp);
        lp = next;
    }
    sbx__strvec_clear(&client->dirs);
    pthread_mutex_destroy(&client->dirs_lock);
    pthread_mutex_destroy(&client->lock);
    free(client);
}

/* dirs_lock of a client the caller holds as const: locking is not a change
 * of the client's value. */
static pthread_mutex_t *dirs_lock(const sbx_client *c)
{
    return (pthread_mutex_t *)&c->dirs_lock;
}

int sbx_client_add_plugin_dir(sbx_client *client, const char *dir)
{
    if (!client || !dir || !*dir)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_add_plugin_dir: bad argument");
    pthread_mutex_lock(&client->dirs_lock);
    int rc = sbx__strvec_push(&client->dirs, dir);
    pthread_mutex_unlock(&client->dirs_lock);
    return rc;
}

size_t sbx_client_plugin_dir_count(const sbx_client *client)
{
    if (!client)
        return 0;
    pthread_mutex_lock(dirs_lock(client));
    size_t n = client->dirs.n + 1;
    pthread_mutex_unlock(dirs_lock(client));
    return n;
}

/* The strings are never freed before the client, so one stays valid after
 * the lock is released even if an add moves the array that points to it. */
const char *sbx_client_plugin_dir_at(const sbx_client *client, size_t i)
{
    if (!client)
        return NULL;
    pthread_mutex_lock(dirs_lock(client));
    const char *dir = i < client->dirs.n ? client->dirs.v[i]
                      : i == client->dirs.n ? SBX_PLUGIN_DIR : NULL;
    pthread_mutex_unlock(dirs_lock(client));
    return dir;
}

int sbx__client_each_dir(const sbx_client *c, int (*each)(void *ud, const char *dir), void *ud)
{
    pthread_mutex_lock(dirs_lock(c));
    int rc = 0;
    for (size_t i = 0; i < c->dirs.n && !rc; i++)
        rc = each(ud, c->dirs.v[i]);
    if (!rc)
        rc = each(ud, SBX_PLUGIN_DIR);
    pthread_mutex_unlock(dirs_lock(c));
    return rc;
}

/* --- listing ------------------------------------------------------------- */

struct sbx_plugin_list {
    size_t n;
    sbx_plugin_info *items;
    sbx_strvec strings;   /* owns every string the items point to */
};

static const char *keep(sbx_plugin_list *l, const char *s)
{
    if (!s)
        return NULL;
    if (sbx__strvec_push(&l->strings, s))
        return NULL;
    return l->strings.v[l->strings.n - 1];
}

static int list_add(sbx_client *c, sbx_plugin_list *l, const char *scheme)
{
    sbx_plugin_info *items = realloc(l->items, (l->n + 1) * sizeof(*items));
    if (!items)
        return sbx__error_set(SBX_E_NOMEM, "out of memory");
    l->items = items;
    sbx_plugin_info *info = &l->items[l->n++];
    memset(info, 0, sizeof(*info));
    info->scheme = keep(l, scheme);

    sbx_loaded_plugin *lp = NULL;
    sbx_error_clear();
    int rc = sbx__loader_get(c, scheme, &lp);
    info->load_code = rc;
    if (rc) {
        const sbx_error *e = sbx_error_last();
        info->load_message = keep(l, e ? e->message : sbx_strerror(rc));
        if (rc != SBX_E_PLUGIN_BAD_NAME) {
            char *path = sbx__loader_find(c, scheme);
            info->path = keep(l, path);
            free(path);
        }
        return rc;
    }
    const sbx_plugin *d = lp->desc;
    info->path = keep(l, lp->path);
    info->version = keep(l, d->version ? d->version : "");
    info->description = keep(l, d->description ? d->description : "");
    info->abi_major = d->abi_major;
    info->abi_minor = d->abi_minor;
    info->caps = d->caps;
    info->tier = d->tier;
    /* A plugin built before minor 4 has no such member: its descriptor ends
     * before it. The names are the plugin's static data, and a loaded
     * plugin is never unloaded. */
    info->credential_env = SBX_STRUCT_HAS(d, credential_env) ? d->credential_env : NULL;
    return SBX_OK;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the schemes of dir's sandboxio-<scheme>.so files not yet in schemes. */
static int collect_dir(void *ud, const char *path)
{
    sbx_strvec *schemes = ud;
    DIR *dir = opendir(path);
    if (!dir)
        return 0; /* a missing search dir is normal (nothing installed there) */
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len <= 13 || strncmp(de->d_name, "sandboxio-", 10) != 0 ||
            strcmp(de->d_name + len - 3, ".so") != 0)
            continue;
        char scheme[256];
        snprintf(scheme, sizeof(scheme), "%.*s", (int)(len - 13), de->d_name + 10);
        bool seen = false;
        for (size_t k = 0; k < schemes->n && !seen; k++)
            seen = strcmp(schemes->v[k], scheme) == 0;
        if (!seen && sbx__strvec_push(schemes, scheme)) {
            closedir(dir);
            return SBX_E_NOMEM;
        }
    }
    closedir(dir);
    return 0;
}

/* Every scheme with a sandboxio-<scheme>.so on the search path, once. */
static int collect_schemes(const sbx_client *c, sbx_strvec *schemes)
{
    int rc = sbx__client_each_dir(c, collect_dir, schemes);
    if (rc == SBX_OK && schemes->n)
        qsort(schemes->v, schemes->n, sizeof(char *), cmp_str);
    return rc;
}

int sbx_client_plugins(sbx_client *client, sbx_plugin_list **out)
{
    if (!client || !out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_plugins: bad argument");
    sbx_strvec schemes = {0};
    int rc = collect_schemes(client, &schemes);
    sbx_plugin_list *l = rc ? NULL : sbx__calloc(1, sizeof(*l));
    if (!l) {
        sbx__strvec_clear(&schemes);
        return rc ? rc : SBX_E_NOMEM;
    }
    for (size_t i = 0; i < schemes.n; i++) {
        rc = list_add(client, l, schemes.v[i]);
        if (rc == SBX_E_NOMEM) {
            sbx__strvec_clear(&schemes);
            sbx_plugin_list_free(l);
            return rc;
        }
    }
    sbx__strvec_clear(&schemes);
    sbx_error_clear();
    *out = l;
    return SBX_OK;
}

int sbx_client_plugin_info(sbx_client *client, const char *scheme, sbx_plugin_list **out)
{
    if (!client || !scheme)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_plugin_info: bad argument");
    sbx_plugin_list *l = sbx__calloc(1, sizeof(*l));
    if (!l)
        return SBX_E_NOMEM;
    int rc = list_add(client, l, scheme);
    if (out)
        *out = l;
    else
        sbx_plugin_list_free(l);
    if (rc)
        sbx__error_ensure(rc, "loading the plugin");
    return rc;
}

size_t sbx_plugin_list_count(const sbx_plugin_list *list)
{
    return list ? list->n : 0;
}

const sbx_plugin_info *sbx_plugin_list_get(const sbx_plugin_list *list, size_t i)
{
    return list && i < list->n ? &list->items[i] : NULL;
}

void sbx_plugin_list_free(sbx_plugin_list *list)
{
    if (!list)
        return;
    free(list->items);
    sbx__strvec_clear(&list->strings);
    free(list);
}

/* --- calls on a backend by DSN, without a sandbox ---------------------- */

/* Parse dsn and load the plugin of its scheme; *parsed is the caller's to free. */
static int backend_of(sbx_client *client, const char *dsn, sbx_dsn **parsed,
                      sbx_loaded_plugin **lp)
{
    int rc = sbx_dsn_parse(parsed, dsn);
    if (rc)
        return rc;
    rc = sbx__loader_get(client, sbx_dsn_scheme(*parsed), lp);
    if (rc) {
        sbx_dsn_free(*parsed);
        *parsed = NULL;
    }
    return rc;
}

/* --- gc ------------------------------------------------------------------ */

struct gc_ctx {
    sbx_gc_cb cb;
    void *ud;
};

static int gc_report(void *userdata, const char *id, const char *reason)
{
    struct gc_ctx *g = userdata;
    return g->cb ? g->cb(g->ud, id, reason) : 0;
}

int sbx_client_gc(sbx_client *client, const char *dsn, sbx_gc_cb cb, void *userdata,
                  size_t *removed)
{
    if (!client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_gc: bad argument");
    if (removed)
        *removed = 0;
    sbx_dsn *parsed = NULL;
    sbx_loaded_plugin *lp = NULL;
    int rc = backend_of(client, dsn, &parsed, &lp);
    if (rc == SBX_OK && SBX_PLUGIN_HAS(lp->desc, gc)) {
        struct gc_ctx g = {cb, userdata};
        size_t n = 0;
        sbx_error_clear();
        rc = lp->desc->gc(lp->state, &parsed->view, gc_report, &g, &n);
        sbx__error_ensure(rc, "garbage collection");
        if (removed)
            *removed = n;
    }
    sbx_dsn_free(parsed);
    return rc;
}

/* --- ping ---------------------------------------------------------------- */

int sbx_client_ping(int *reached, char **detail, sbx_client *client, const char *dsn)
{
    if (detail)
        *detail = NULL;
    if (!reached || !client || !dsn)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_client_ping: NULL argument");
    *reached = 0;
    sbx_dsn *parsed = NULL;
    sbx_loaded_plugin *lp = NULL;
    int rc = backend_of(client, dsn, &parsed, &lp);
    if (rc == SBX_OK && SBX_PLUGIN_HAS(lp->desc, ping)) {
        char *line = NULL;
        sbx_error_clear();
        rc = lp->desc->ping(lp->state, &parsed->view, &line);
        sbx__error_ensure(rc, "contacting the backend");
        *reached = rc == SBX_OK;
        /* A line the plugin made for a failure is dropped: the error says it. */
        if (rc == SBX_OK && detail)
            *detail = line;
        else
            free(line);
    }
    sbx_dsn_free(parsed);
    return rc;
}
