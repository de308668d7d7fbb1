/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/options.c - usage errors, getopt reset, --json/--help parsing.
 */
#include "config.h"

#include <getopt.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "error.h"
#include "options.h"

/*
 * The optimal-string-alignment distance of a and b (an insertion, a
 * deletion, a substitution or a swap of two neighbours each count 1), for
 * words of at most 63 bytes; longer ones are too far from any name.
 */
static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t d[64][64];

    if (la >= 64 || lb >= 64)
        return (size_t)-1;
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

const char *sbx_cli_closest(const char *word, const char *const *names, size_t n)
{
    /* Two edits at most, and fewer than the word has letters: "x" is no typo of "rm". */
    size_t best_d = 3, len = strlen(word);
    const char *best = NULL;

    for (size_t i = 0; i < n; i++) {
        size_t d = edit_distance(word, names[i]);
        if (d < best_d && d < len)
            best_d = d, best = names[i];
    }
    return best;
}

/* The long option of options closest to "--word[=value]", or NULL. */
static const char *closest_option(const char *arg, const struct option *options)
{
    const char *names[64];
    char word[64];
    size_t n = 0, len;

    if (!options || strncmp(arg, "--", 2) != 0)
        return NULL;
    len = strcspn(arg + 2, "=");
    if (len == 0 || len >= sizeof(word))
        return NULL;
    memcpy(word, arg + 2, len);
    word[len] = '\0';
    for (; n < sizeof(names) / sizeof(names[0]) && options[n].name; n++)
        names[n] = options[n].name;
    return sbx_cli_closest(word, names, n);
}

int sbx_cli_option_error(const char *cmd, char **argv, int opt, const struct option *options)
{
    const char *arg = optind > 0 ? argv[optind - 1] : "";
    const char *near;

    if (opt == ':')
        return sbx_cli_usage_error(cmd, "option '%s' needs a value", arg);
    /* A short option unknown inside a cluster ("-vx") is only in optopt. */
    if (optopt > 0 && optopt < 128 && strncmp(arg, "--", 2) != 0)
        return sbx_cli_usage_error(cmd, "unknown option '-%c'", optopt);
    if ((near = closest_option(arg, options)))
        return sbx_cli_usage_error(cmd, "unknown option '%s': did you mean --%s?", arg, near);
    return sbx_cli_usage_error(cmd, "unknown or malformed option '%s'", arg);
}

void sbx_cli_getopt_reset(void)
{
    /* glibc: optind = 0 re-initialises its internal state as well. */
    optind = 0;
    opterr = 0;
}

int sbx_cli_json_options(const char *cmd, int argc, char **argv, int permute,
                         void (*usage)(FILE *out), int *json)
{
    static const struct option options[] = {
        { "json", no_argument, NULL, 'j' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt;

    *json = 0;
    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, permute ? ":h" : "+:h", options, NULL)) != -1) {
        switch (opt) {
        case 'j':
            *json = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            return sbx_cli_option_error(cmd, argv, opt, options);
        }
    }
    return -1;
}
