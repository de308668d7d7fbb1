/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_parse.c - profile_set_parse() through the reader's module,
 * sandboxio-yaml.so, loaded with libltdl the first time a profiles file
 * has text to parse: `run` without a profile never maps libyaml.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ltdl.h>
#include <sandboxio/sandboxio.h>

#include "parts.h"
#include "profile.h"

typedef int (*parse_fn)(struct profile_set *, const char *, const char *, size_t,
                        struct profile_error *);

/* The module stays loaded to the end of the process: a set's strings are its malloc'd copies. */
static parse_fn load(const char *file, struct profile_error *err)
{
    static parse_fn fn;
    char path[4096];
    lt_dlhandle h;
    const char *why;

    if (fn)
        return fn;
    sbx_cli_part_path("sandboxio-yaml", 1, path, sizeof path);
    if (lt_dlinit() != 0) {
        why = lt_dlerror();
    } else if (!(h = lt_dlopen(path))) {
        why = lt_dlerror();
        lt_dlexit();
    } else if (!(fn = (parse_fn)(uintptr_t)lt_dlsym(h, SBX_CLI_YAML_ENTRY))) {
        why = "no " SBX_CLI_YAML_ENTRY " in it";
        lt_dlclose(h);
        lt_dlexit();
    } else {
        return fn;
    }
    err->code = SBX_E_PLUGIN_NOT_LOADABLE;
    /* Precisions bound the parts: a message is cut, never a warning about it. */
    snprintf(err->message, sizeof err->message,
             "%.200s: the YAML reader %.300s cannot be loaded: %.200s (reinstall sandboxio)", file,
             path, why ? why : "unknown error");
    return NULL;
}

int profile_set_parse(struct profile_set *set, const char *file, const char *text, size_t len,
                      struct profile_error *err)
{
    parse_fn fn;

    memset(err, 0, sizeof(*err));
    if (!(fn = load(file, err)))
        return err->code;
    return fn(set, file, text, len, err);
}
