/*
 * The DSN's query options: image=, workdir=, ttl=, pull=. The core has
 * decoded them; this file only checks each value.
 */
#include "docker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void dk_options_clear(dk_options *opt)
{
    free(opt->image);
    free(opt->workdir);
    memset(opt, 0, sizeof(*opt));
}

/* An image reference: printable, no spaces, not empty, not starting with '-'. */
static bool image_ok(const char *s)
{
    if (!s[0] || s[0] == '-' || strlen(s) > 512)
        return false;
    for (const char *p = s; *p; p++)
        if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
            return false;
    return true;
}

/* An absolute, clean directory path, not "/" (the root is read-only). */
static bool workdir_ok(const char *s)
{
    if (s[0] != '/' || !s[1] || strlen(s) > 1024 || s[strlen(s) - 1] == '/')
        return false;
    for (const char *p = s; *p; p++) {
        if ((unsigned char)*p < ' ' || *p == ':' || *p == 0x7f)
            return false;
        if (p[0] == '/' && (p[1] == '/' || (p[1] == '.' && (p[2] == '/' || !p[2] ||
                                                             (p[2] == '.' && (p[3] == '/' || !p[3]))))))
            return false;
    }
    return true;
}

static bool seconds_ok(const char *s, uint64_t *out)
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

int dk_options_parse(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_options *opt)
{
    const char *image = DK_DEFAULT_IMAGE, *workdir = DK_DEFAULT_WORKDIR;
    memset(opt, 0, sizeof(*opt));
    opt->ttl_s = DK_DEFAULT_TTL_S;
    opt->pull = DK_PULL_MISSING;
    for (size_t i = 0; i < dsn->query_count; i++) {
        const char *k = dsn->query[i].key, *v = dsn->query[i].value ? dsn->query[i].value : "";
        if (strcmp(k, "image") == 0) {
            if (!image_ok(v))
                return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                       "docker: image=%s is not an image reference", v);
            image = v;
        } else if (strcmp(k, "workdir") == 0) {
            if (!workdir_ok(v))
                return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                       "docker: workdir=%s must be a clean absolute path other "
                                       "than /",
                                       v);
            workdir = v;
        } else if (strcmp(k, "ttl") == 0) {
            if (!seconds_ok(v, &opt->ttl_s))
                return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                       "docker: ttl=%s is not a number of seconds", v);
        } else if (strcmp(k, "pull") == 0) {
            if (strcmp(v, "missing") == 0)
                opt->pull = DK_PULL_MISSING;
            else if (strcmp(v, "never") == 0)
                opt->pull = DK_PULL_NEVER;
            else
                return host->set_error(SBX_E_DSN_BAD_OPTION_VALUE,
                                       "docker: pull=%s: use pull=missing or pull=never", v);
        } else {
            return host->set_error(SBX_E_DSN_UNKNOWN_OPTION,
                                   "docker: unknown option \"%s\" (known: image, workdir, ttl, "
                                   "pull)",
                                   k);
        }
    }
    opt->image = strdup(image);
    opt->workdir = strdup(workdir);
    if (!opt->image || !opt->workdir) {
        dk_options_clear(opt);
        return host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    return SBX_OK;
}
