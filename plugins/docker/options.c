/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DSN's query options: image=, workdir=, ttl=, pull=, declared as a
 * lib/ option table; this file only says what a good value is.
 */
#include "docker.h"

#include <stdlib.h>
#include <string.h>

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

/* In the order of enum dk_pull_policy. */
static const char *const pull_policies[] = {"missing", "never", NULL};

#define STR(x) #x
#define XSTR(x) STR(x)

static const sbxu_opt options[] = {
    {"image", SBXU_OPT_STRING, DK_DEFAULT_IMAGE, offsetof(dk_options, image), image_ok, NULL,
     " is not an image reference"},
    {"workdir", SBXU_OPT_STRING, DK_DEFAULT_WORKDIR, offsetof(dk_options, workdir), workdir_ok,
     NULL, " must be a clean absolute path other than /"},
    {"ttl", SBXU_OPT_SECONDS, XSTR(DK_DEFAULT_TTL_S), offsetof(dk_options, ttl_s), NULL, NULL,
     NULL},
    {"pull", SBXU_OPT_CHOICE, "missing", offsetof(dk_options, pull), NULL, pull_policies, NULL},
    {NULL},
};

void dk_options_clear(dk_options *opt)
{
    sbxu_opts_clear(opt, options);
    memset(opt, 0, sizeof(*opt));
}

int dk_options_parse(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_options *opt)
{
    memset(opt, 0, sizeof(*opt));
    return sbxu_opts_parse(opt, host, DK_NAME, options, dsn);
}
