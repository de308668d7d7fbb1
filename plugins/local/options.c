/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local backend's DSN options:
 *
 *   local://?ro=HOST[:INSIDE],...&rw=HOST[:INSIDE],...&workdir=/work&size=1g
 *
 * ro / rw  comma-separated binds of host paths, read-only / read-write; the
 *          inside path defaults to the host path.
 * workdir  the writable work dir inside (a tmpfs), default /work.
 * size     the size of the work dir's and /tmp's tmpfs, default 1g.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sbxu/opts.h>

#include "local.h"

static char *xstrndup(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

/* An inside path must be absolute, without ".", ".." or empty components. */
static int clean_inside_path(const char *p)
{
    if (p[0] != '/' || p[1] == '\0' || strlen(p) >= PATH_MAX)
        return 0;
    for (const char *c = p + 1; *c;) {
        const char *e = strchrnul(c, '/');
        size_t n = (size_t)(e - c);
        if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
            return 0;
        c = *e ? e + 1 : e;
    }
    return p[strlen(p) - 1] != '/';
}

/* Paths the sandbox's own layout owns: a bind or work dir there would undo it. */
static int reserved_inside_path(const char *p)
{
    static const char *const reserved[] = { "/proc", "/dev", "/etc", "/tmp" };
    for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
        size_t n = strlen(reserved[i]);
        if (strncmp(p, reserved[i], n) == 0 && (p[n] == '\0' || p[n] == '/'))
            return 1;
    }
    return 0;
}

static int parse_binds(const sbx_host *host, const char *key, const char *value, int writable,
                       local_options *out)
{
    const char *p = value;
    if (!*p)
        return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "local: %s= is empty", key);
    while (*p) {
        const char *end = strchrnul(p, ',');
        const char *colon = memchr(p, ':', (size_t)(end - p));
        char *src = xstrndup(p, (size_t)((colon ? colon : end) - p));
        char *dst = colon ? xstrndup(colon + 1, (size_t)(end - colon - 1)) : NULL;
        char *real = NULL;
        int rc = SBX_OK;

        if (!src || (colon && !dst)) {
            rc = host->set_error(SBX_E_NOMEM, "local: out of memory");
        } else if (src[0] != '/') {
            rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                 "local: %s= host path '%s' is not absolute", key, src);
        } else if (!(real = realpath(src, NULL))) {
            rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "local: %s= host path '%s': %s",
                                 key, src, strerror(errno));
        } else if (!clean_inside_path(dst ? dst : real) || reserved_inside_path(dst ? dst : real)) {
            rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                 "local: %s= inside path '%s' must be absolute, without '.' or "
                                 "'..', and not /, /proc, /dev, /etc or /tmp",
                                 key, dst ? dst : real);
        } else if (out->nbinds == LOCAL_MAX_BINDS) {
            rc = host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "local: more than %d binds",
                                 LOCAL_MAX_BINDS);
        }
        if (rc == SBX_OK && !dst && !(dst = strdup(real)))
            rc = host->set_error(SBX_E_NOMEM, "local: out of memory");
        if (rc != SBX_OK) {
            free(src);
            free(dst);
            free(real);
            return rc;
        }
        free(src);
        out->binds[out->nbinds++] = (local_bind){ real, dst, writable };
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "local: %s= ends with ','", key);
    }
    return SBX_OK;
}

static int parse_size(const sbx_host *host, const char *value, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(value, &end, 10);
    uint64_t mult = 1;
    if (end == value || errno || value[0] == '-')
        goto bad;
    switch (*end) {
    case 'k': case 'K': mult = 1ull << 10; end++; break;
    case 'm': case 'M': mult = 1ull << 20; end++; break;
    case 'g': case 'G': mult = 1ull << 30; end++; break;
    default: break;
    }
    if (*end || n > UINT64_MAX / mult || n * mult < (1ull << 20))
        goto bad;
    *out = n * mult;
    return SBX_OK;
bad:
    return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                           "local: size='%s' is not a size of at least 1m (e.g. 512m, 2g)", value);
}

/* ro= and rw= and workdir= once each: a host other than the core may repeat a key. */
static int once(local_options *out, const sbx_host *host, unsigned bit, const char *key)
{
    if (out->given & bit)
        return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "local: '%s' given twice", key);
    out->given |= bit;
    return SBX_OK;
}

/* One key of the query (the table below says which keys there are). */
static int parse_option(void *o, const sbx_host *host, const char *key, const char *v)
{
    local_options *out = o;
    int rc;

    if (strcmp(key, "size") == 0)
        return parse_size(host, v, &out->tmpfs_size);
    if (strcmp(key, "workdir") == 0) {
        if ((rc = once(out, host, LOCAL_GIVEN_WORKDIR, key)))
            return rc;
        if (!clean_inside_path(v) || reserved_inside_path(v) || strncmp(v, "/usr", 4) == 0)
            return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                   "local: workdir='%s' must be an absolute clean path outside "
                                   "/usr, /proc, /dev, /etc and /tmp", v);
        if (!(out->workdir = strdup(v)))
            return host->set_error(SBX_E_NOMEM, "local: out of memory");
        return SBX_OK;
    }
    int writable = strcmp(key, "rw") == 0;
    if ((rc = once(out, host, writable ? LOCAL_GIVEN_RW : LOCAL_GIVEN_RO, key)))
        return rc;
    return parse_binds(host, key, v, writable, out);
}

/* The keys, in the order the unknown-option message lists them. */
static const sbxu_opt options[] = {
    {"ro", SBXU_OPT_CUSTOM, NULL, 0, NULL, NULL, NULL},
    {"rw", SBXU_OPT_CUSTOM, NULL, 0, NULL, NULL, NULL},
    {"workdir", SBXU_OPT_CUSTOM, NULL, 0, NULL, NULL, NULL},
    {"size", SBXU_OPT_CUSTOM, NULL, 0, NULL, NULL, NULL},
    {NULL},
};

int local_options_parse(const sbx_host *host, const sbx_plugin_dsn *dsn, local_options *out)
{
    int rc;

    memset(out, 0, sizeof *out);
    out->tmpfs_size = LOCAL_DEFAULT_SIZE;
    if ((dsn->authority && dsn->authority[0]) || (dsn->path && dsn->path[0] && strcmp(dsn->path, "/")))
        return host->set_error(SBX_E_DSN_BAD_AUTHORITY,
                               "local: takes no host or path (got 'local://%s%s'); "
                               "options go in the query", dsn->authority ? dsn->authority : "",
                               dsn->path ? dsn->path : "");
    rc = sbxu_opts_parse_custom(out, host, "local", options, dsn, parse_option);
    if (rc == SBX_OK && !out->workdir && !(out->workdir = strdup(LOCAL_DEFAULT_WORKDIR)))
        rc = host->set_error(SBX_E_NOMEM, "local: out of memory");
    if (rc != SBX_OK)
        local_options_free(out);
    return rc;
}

void local_options_free(local_options *opt)
{
    for (size_t i = 0; i < opt->nbinds; i++) {
        free(opt->binds[i].src);
        free(opt->binds[i].dst);
    }
    free(opt->workdir);
    memset(opt, 0, sizeof *opt);
}
