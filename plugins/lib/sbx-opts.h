/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbx-opts.h - a backend's DSN query options, declared as a table
 * (libsbxutil).
 *
 * A plugin lists its options (name, type, default, check, where the value
 * goes in its own options struct) and sbx_opts_parse() does the rest, so no
 * backend hand-parses its query. The core has already decoded the query and
 * refused repeated keys.
 *
 *     typedef struct my_opts { char *image; uint64_t ttl_s; int pull; } my_opts;
 *     static const char *const pulls[] = {"missing", "never", NULL};
 *     static const sbx_opt table[] = {
 *         {"image", SBX_OPT_STRING, "busybox", offsetof(my_opts, image), image_ok,
 *          NULL, " is not an image reference"},
 *         {"ttl", SBX_OPT_SECONDS, "3600", offsetof(my_opts, ttl_s), NULL, NULL, NULL},
 *         {"pull", SBX_OPT_CHOICE, "missing", offsetof(my_opts, pull), NULL, pulls, NULL},
 *         {NULL},
 *     };
 */
#ifndef SBX_LIB_OPTS_H
#define SBX_LIB_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sandboxio/plugin.h>

enum sbx_opt_type {
    SBX_OPT_STRING = 1,   /* a char * (malloc'd copy) */
    SBX_OPT_SECONDS = 2,  /* a uint64_t: decimal digits only, at most 12 */
    SBX_OPT_CHOICE = 3,   /* an int: the value's index in choices */
};

/* One option. A table ends with a row whose name is NULL. */
typedef struct sbx_opt {
    const char *name;
    int type;                          /* enum sbx_opt_type */
    const char *dflt;                  /* the default, written as in a DSN */
    size_t offset;                     /* of the member in the caller's struct */
    bool (*valid)(const char *value);  /* SBX_OPT_STRING: NULL accepts any value */
    const char *const *choices;        /* SBX_OPT_CHOICE: NULL-terminated */
    /*
     * Text after "<plugin>: name=value" in the error for a bad value, e.g.
     * " is not an image reference"; NULL: " is not a number of seconds" for
     * SBX_OPT_SECONDS, ": use name=a or name=b" for SBX_OPT_CHOICE.
     */
    const char *bad;
} sbx_opt;

/*
 * sbx_opts_parse - fill the struct out from the DSN's query and the table.
 *
 * Every option gets its default first. A key the table lacks is
 * SBX_E_DSN_UNKNOWN_OPTION ("<plugin>: unknown option "k" (known: a, b)"), a
 * value its check refuses SBX_E_DSN_BAD_OPTION_VALUE, out of memory
 * SBX_E_NOMEM; the detail goes through host->set_error. On failure out holds
 * nothing to free. out's string members must be NULL on entry (a zeroed
 * struct). Free a parsed struct's strings with sbx_opts_clear().
 */
int sbx_opts_parse(void *out, const sbx_host *host, const char *plugin, const sbx_opt *table,
                   const sbx_plugin_dsn *dsn);
/* sbx_opts_clear - free the strings sbx_opts_parse() put in out and zero them. */
void sbx_opts_clear(void *out, const sbx_opt *table);

#endif
