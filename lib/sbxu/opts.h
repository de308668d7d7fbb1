/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/opts.h - a backend's DSN query options, declared as a table
 * (libsbxu).
 *
 * A plugin lists its options (name, type, default, check, where the value
 * goes in its own options struct) and sbxu_opts_parse() does the rest, so no
 * backend hand-parses its query. The core has already decoded the query and
 * refused repeated keys.
 *
 *     typedef struct my_opts { char *image; uint64_t ttl_s; int pull; } my_opts;
 *     static const char *const pulls[] = {"missing", "never", NULL};
 *     static const sbxu_opt table[] = {
 *         {"image", SBXU_OPT_STRING, "busybox", offsetof(my_opts, image), image_ok,
 *          NULL, " is not an image reference"},
 *         {"ttl", SBXU_OPT_SECONDS, "3600", offsetof(my_opts, ttl_s), NULL, NULL, NULL},
 *         {"pull", SBXU_OPT_CHOICE, "missing", offsetof(my_opts, pull), NULL, pulls, NULL},
 *         {NULL},
 *     };
 */
#ifndef SBXU_OPTS_H
#define SBXU_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sandboxio/plugin.h>

enum sbxu_opt_type {
    SBXU_OPT_STRING = 1,   /* a char * (malloc'd copy) */
    SBXU_OPT_SECONDS = 2,  /* a uint64_t: decimal digits only, at most 12 */
    SBXU_OPT_CHOICE = 3,   /* an int: the value's index in choices */
    SBXU_OPT_CUSTOM = 4,   /* the plugin's own parser (sbxu_opts_parse_custom) */
};

/* One option. A table ends with a row whose name is NULL. */
typedef struct sbxu_opt {
    const char *name;
    int type;                          /* enum sbxu_opt_type */
    const char *dflt;                  /* the default, written as in a DSN */
    size_t offset;                     /* of the member in the caller's struct */
    bool (*valid)(const char *value);  /* SBXU_OPT_STRING: NULL accepts any value */
    const char *const *choices;        /* SBXU_OPT_CHOICE: NULL-terminated */
    /*
     * Text after "<plugin>: name=value" in the error for a bad value, e.g.
     * " is not an image reference"; NULL: " is not a number of seconds" for
     * SBXU_OPT_SECONDS, ": use name=a or name=b" for SBXU_OPT_CHOICE.
     */
    const char *bad;
} sbxu_opt;

/*
 * sbxu_opts_parse - fill the struct out from the DSN's query and the table.
 *
 * Every option gets its default first. A key the table lacks is
 * SBX_E_DSN_UNKNOWN_OPTION ("<plugin>: unknown option "k" (known: a, b)"), a
 * value its check refuses SBX_E_DSN_BAD_OPTION_VALUE, out of memory
 * SBX_E_NOMEM; the detail goes through host->set_error. On failure out holds
 * nothing to free. out's string members must be NULL on entry (a zeroed
 * struct). Free a parsed struct's strings with sbxu_opts_clear().
 */
int sbxu_opts_parse(void *out, const sbx_host *host, const char *plugin, const sbxu_opt *table,
                   const sbx_plugin_dsn *dsn);
/*
 * sbxu_opts_parse_custom - sbxu_opts_parse() for a table with SBXU_OPT_CUSTOM
 * rows, values no other type describes (a list of binds, a size with a
 * unit): custom() parses name=value into out (the caller's whole struct) and
 * returns an SBX code, its error set through host in the plugin's own words.
 * It is called for a custom row's default first unless that is NULL, then
 * for each such key in the query's order, so the first bad key is the one
 * reported. What it stores is the caller's to free, also on failure.
 */
typedef int (*sbxu_opt_parser)(void *out, const sbx_host *host, const char *name,
                               const char *value);
int sbxu_opts_parse_custom(void *out, const sbx_host *host, const char *plugin,
                           const sbxu_opt *table, const sbx_plugin_dsn *dsn,
                           sbxu_opt_parser custom);
/*
 * sbxu_opts_chars_ok - v is min_len to max_len bytes of letters, digits and
 * the characters of extra (a check for a name-like option's value).
 */
bool sbxu_opts_chars_ok(const char *v, size_t min_len, size_t max_len, const char *extra);
/* sbxu_opts_clear - free the strings sbxu_opts_parse() put in out and zero them. */
void sbxu_opts_clear(void *out, const sbxu_opt *table);

#endif
