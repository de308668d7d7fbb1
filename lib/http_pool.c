/* SPDX-License-Identifier: Apache-2.0 */
/*
 * HTTP sessions shared by a plugin's sandboxes (sbxu/http_pool.h). A slot
 * owns copies of the strings that tell sessions apart (base URL, display,
 * headers), so a session outlives the sandbox that made it; the copies
 * hold credentials and are wiped when the slot is freed.
 */
#include "config.h"

#include <sbxu/http_pool.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

int sbxu_http_pool_init(sbxu_http_pool *p, const sbx_host *host, const char *plugin)
{
    memset(p, 0, sizeof(*p));
    if (pthread_mutex_init(&p->lock, NULL) != 0)
        return host->set_error(SBX_E_NOMEM, "%s: cannot set up a lock", plugin);
    return SBX_OK;
}

static size_t header_count(const sbxu_http_config *cfg)
{
    size_t n = 0;
    while (cfg->headers && cfg->headers[n])
        n++;
    return n;
}

static const char *display_of(const sbxu_http_config *cfg)
{
    return cfg->display ? cfg->display : cfg->base_url;
}

/* Whether the idle session of slot was made for cfg's endpoint and headers. */
static bool slot_matches(const sbxu_http_slot *slot, const sbxu_http_config *cfg)
{
    const sbxu_http_config *had = &slot->http.cfg;
    if (strcmp(had->base_url, cfg->base_url) != 0 || strcmp(had->display, display_of(cfg)) != 0)
        return false;
    size_t n = header_count(cfg);
    for (size_t i = 0; i < n; i++)
        if (!slot->headers[i] || strcmp(slot->headers[i], cfg->headers[i]) != 0)
            return false;
    return slot->headers[n] == NULL;
}

static void slot_clear(sbxu_http_slot *slot)
{
    sbxu_http_clear(&slot->http);
    if (slot->strings) {
        explicit_bzero(slot->strings, slot->strings_len);
        free(slot->strings);
    }
    bool own = slot->own;
    memset(slot, 0, sizeof(*slot));
    slot->own = own;
}

/* A session for cfg in slot, with copies of the strings it is told apart by. */
static int slot_init(sbxu_http_slot *slot, const sbx_host *host, const sbxu_http_config *cfg)
{
    size_t n = header_count(cfg), len = strlen(cfg->base_url) + strlen(display_of(cfg)) + 2;
    if (n > SBXU_HTTP_POOL_HEADERS)
        return host->set_error(SBX_E_BACKEND_FAILED, "%s: a pooled HTTP session takes at most "
                               "%d headers", cfg->plugin, SBXU_HTTP_POOL_HEADERS);
    for (size_t i = 0; i < n; i++)
        len += strlen(cfg->headers[i]) + 1;
    char *at = slot->strings = malloc(len);
    if (!at)
        return host->set_error(SBX_E_NOMEM, "%s: out of memory", cfg->plugin);
    slot->strings_len = len;
    sbxu_http_config mine = *cfg;
    const char *from[2] = {cfg->base_url, display_of(cfg)};
    const char **to[2] = {&mine.base_url, &mine.display};
    for (size_t i = 0; i < 2; i++) {
        *to[i] = at;
        at = stpcpy(at, from[i]) + 1;
    }
    for (size_t i = 0; i < n; i++) {
        slot->headers[i] = at;
        at = stpcpy(at, cfg->headers[i]) + 1;
    }
    slot->headers[n] = NULL;
    mine.headers = slot->headers;
    int rc = sbxu_http_init(&slot->http, host, &mine);
    if (rc)
        slot_clear(slot);
    return rc;
}

int sbxu_http_pool_take(sbxu_http **out, sbxu_http_pool *p, const sbx_host *host,
                       const sbxu_http_config *cfg)
{
    sbxu_http_slot *found = NULL;
    *out = NULL;
    int rc = SBX_OK;
    pthread_mutex_lock(&p->lock);
    for (size_t i = 0; !found && i < SBXU_HTTP_POOL_SLOTS; i++)
        if (p->slot[i].used && !p->slot[i].busy && slot_matches(&p->slot[i], cfg))
            found = &p->slot[i];
    /* A free slot, else the idle session of another endpoint makes way. */
    for (size_t i = 0; !found && i < SBXU_HTTP_POOL_SLOTS; i++)
        if (!p->slot[i].used)
            found = &p->slot[i];
    for (size_t i = 0; !found && i < SBXU_HTTP_POOL_SLOTS; i++)
        if (!p->slot[i].busy) {
            found = &p->slot[i];
            slot_clear(found);
        }
    if (found && !found->used) {
        rc = slot_init(found, host, cfg);
        found->used = rc == SBX_OK;
    }
    if (found && found->used)
        found->busy = true;
    pthread_mutex_unlock(&p->lock);
    if (rc)
        return rc;
    if (found) {
        *out = &found->http;
        return SBX_OK;
    }
    /* Every slot is busy: a session of the call's own, freed when given back. */
    sbxu_http_slot *own = calloc(1, sizeof(*own));
    if (!own)
        return host->set_error(SBX_E_NOMEM, "%s: out of memory", cfg->plugin);
    own->own = true;
    rc = slot_init(own, host, cfg);
    if (rc) {
        free(own);
        return rc;
    }
    *out = &own->http;
    return SBX_OK;
}

void sbxu_http_pool_give(sbxu_http_pool *p, sbxu_http *s)
{
    if (!s)
        return;
    sbxu_http_slot *slot = (sbxu_http_slot *)((char *)s - offsetof(sbxu_http_slot, http));
    if (slot->own) {
        slot_clear(slot);
        free(slot);
        return;
    }
    pthread_mutex_lock(&p->lock);
    slot->busy = false;
    pthread_mutex_unlock(&p->lock);
}

void sbxu_http_pool_clear(sbxu_http_pool *p)
{
    for (size_t i = 0; i < SBXU_HTTP_POOL_SLOTS; i++)
        if (p->slot[i].used)
            slot_clear(&p->slot[i]);
    pthread_mutex_destroy(&p->lock);
}
