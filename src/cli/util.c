/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util.c - error reporting, exit codes and value parsing shared by commands.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "util.h"

int sbx_cli_exit_code(int code)
{
    if (code == SBX_OK)
        return 0;
    if (code == SBX_E_EXEC_TIMEOUT)
        return SBX_CLI_EXIT_TIMEOUT;
    /* As a shell and `docker run` report a command that never ran. */
    if (code == SBX_E_EXEC_NOT_FOUND)
        return SBX_CLI_EXIT_NOT_FOUND;
    if (code == SBX_E_EXEC_DENIED)
        return SBX_CLI_EXIT_CANNOT_EXEC;
    switch (code / 1000) {
    case 1: return SBX_CLI_EXIT_USAGE;
    case 2: return SBX_CLI_EXIT_PLUGIN;
    case 3: return SBX_CLI_EXIT_POLICY;
    case 4: return SBX_CLI_EXIT_BACKEND;
    default: return SBX_CLI_EXIT_OTHER;
    }
}

/* The last error reported, for a --json outcome (sbx_cli_last_error()). */
static int last_code;
static char last_message[1024];

static void print_error(int code, const char *context, const char *message, const char *url)
{
    last_code = code;
    snprintf(last_message, sizeof(last_message), "%s%s%s", context ? context : "",
             context ? ": " : "", message);
    fflush(stdout);
    fprintf(stderr, "sandboxio: %s: %s%s%s\n", sbx_error_id(code), context ? context : "",
            context ? ": " : "", message);
    /* The man page is on the machine in every build and needs no browser;
     * the URL (configure --with-docs-url, by default the installed HTML)
     * comes second. */
    if (url) {
        fprintf(stderr, "  see: man %s\n", sbx_error_id(code));
        fprintf(stderr, "   or: %s\n", url);
    }
}

const char *sbx_cli_last_error(int *code)
{
    *code = last_code;
    return last_code ? last_message : NULL;
}

int sbx_cli_error(int code, const char *fmt, ...)
{
    char message[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    print_error(code, NULL, message, sbx_error_docs_url(code));
    return sbx_cli_exit_code(code);
}

const char *sbx_cli_error_message(int code)
{
    const sbx_error *e = sbx_error_last();

    /* Only trust the thread's detail if it is about this very failure. */
    if (e && e->code == code && e->message && e->message[0])
        return e->message;
    return sbx_strerror(code);
}

int sbx_cli_error_lib(int code, const char *context)
{
    const sbx_error *e = sbx_error_last();
    const char *url = e && e->code == code && e->docs_url ? e->docs_url : sbx_error_docs_url(code);

    print_error(code, context, sbx_cli_error_message(code), url);
    return sbx_cli_exit_code(code);
}

int sbx_cli_cmd_set_cwd(sbx_cmd *cmd, const char *dir)
{
    return dir[0] == '/' ? sbx_cmd_set_cwd_abs(cmd, dir) : sbx_cmd_set_cwd(cmd, dir);
}

int sbx_cli_usage_error(const char *cmd, const char *fmt, ...)
{
    char message[1024];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    print_error(SBX_E_USAGE, cmd, message, sbx_error_docs_url(SBX_E_USAGE));
    fprintf(stderr, "Try 'sandboxio%s%s --help'.\n", cmd ? " " : "", cmd ? cmd : "");
    return SBX_CLI_EXIT_USAGE;
}

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

/*
 * Parse "D+[.D+]" at s times scale, rounding a non-zero fraction up; *end is
 * left on the first byte after the number.
 */
static int parse_scaled(const char *s, uint64_t scale, const char **end, uint64_t *out)
{
    unsigned __int128 whole = 0, frac = 0, den = 1, v;
    const char *p = s;

    if (*p < '0' || *p > '9')
        return SBX_E_BAD_SIZE;
    for (; *p >= '0' && *p <= '9'; p++) {
        whole = whole * 10 + (unsigned)(*p - '0');
        if (whole > UINT64_MAX)
            return SBX_E_BAD_SIZE;
    }
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return SBX_E_BAD_SIZE;
        /* Digits past the 18th cannot change a 64-bit result's rounding much. */
        for (; *p >= '0' && *p <= '9'; p++) {
            if (den < (unsigned __int128)1000000000000000000ULL) {
                frac = frac * 10 + (unsigned)(*p - '0');
                den *= 10;
            } else if (*p != '0' && frac == 0) {
                frac = 1;
            }
        }
    }
    v = whole * scale + (frac * scale + den - 1) / den;
    if (v > UINT64_MAX)
        return SBX_E_BAD_SIZE;
    *end = p;
    *out = (uint64_t)v;
    return SBX_OK;
}

int sbx_cli_parse_size(const char *text, uint64_t *out)
{
    static const char units[] = "kmgt";
    const char *end, *u;
    uint64_t scale = 1;

    if (!text || !*text)
        return SBX_E_BAD_SIZE;
    end = text + strlen(text);
    u = end[-1] >= 'A' ? strchr(units, end[-1] | 0x20) : NULL;
    if (u) {
        for (const char *k = units; k <= u; k++)
            scale *= 1024;
        end--;
    }
    const char *stop;
    uint64_t v;
    if (parse_scaled(text, scale, &stop, &v) != SBX_OK || stop != end)
        return SBX_E_BAD_SIZE;
    *out = v;
    return SBX_OK;
}

int sbx_cli_parse_duration_ms(const char *text, uint64_t *out)
{
    static const struct {
        const char *suffix;
        uint64_t ms;
    } units[] = { { "", 1000 }, { "ms", 1 }, { "s", 1000 }, { "m", 60000 }, { "h", 3600000 } };
    const char *stop;
    uint64_t v;

    /* Find where the number ends first: the unit decides the scale. */
    if (!text || parse_scaled(text, 1, &stop, &v) != SBX_OK)
        return SBX_E_BAD_SIZE;
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
        if (strcmp(stop, units[i].suffix) == 0)
            return parse_scaled(text, units[i].ms, &stop, out);
    }
    return SBX_E_BAD_SIZE;
}

int sbx_cli_parse_millis(const char *text, uint64_t *out)
{
    const char *stop;
    uint64_t v;

    if (!text || parse_scaled(text, 1000, &stop, &v) != SBX_OK || *stop)
        return SBX_E_BAD_SIZE;
    *out = v;
    return SBX_OK;
}

int sbx_cli_parse_uint(const char *text, uint64_t max, uint64_t *out)
{
    const char *stop;
    uint64_t v;

    if (!text || parse_scaled(text, 1, &stop, &v) != SBX_OK || *stop || strchr(text, '.') ||
        v > max)
        return SBX_E_BAD_SIZE;
    *out = v;
    return SBX_OK;
}

int sbx_cli_json_add(json_object *obj, const char *key, json_object *value)
{
    if (!value)
        return SBX_E_NOMEM;
    if (json_object_object_add(obj, key, value) != 0) {
        json_object_put(value);
        return SBX_E_NOMEM;
    }
    return SBX_OK;
}

int sbx_cli_json_add_null(json_object *obj, const char *key)
{
    return json_object_object_add(obj, key, NULL) != 0 ? SBX_E_NOMEM : SBX_OK;
}

int sbx_cli_json_push(json_object *array, json_object *value)
{
    if (!value)
        return SBX_E_NOMEM;
    if (json_object_array_add(array, value) != 0) {
        json_object_put(value);
        return SBX_E_NOMEM;
    }
    return SBX_OK;
}

/* Set once a failed write to stdout has been reported, so it is reported once. */
static int stdout_error_reported;

int sbx_cli_print_json(json_object *obj, int pretty)
{
    int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
                (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED : JSON_C_TO_STRING_PLAIN);
    const char *text = json_object_to_json_string_ext(obj, flags);
    int rc = SBX_OK;

    if (!text) {
        rc = SBX_E_NOMEM;
        sbx_cli_error(rc, "cannot serialise the JSON output");
    } else if (fputs(text, stdout) == EOF || fputc('\n', stdout) == EOF) {
        rc = SBX_E_SYSTEM;
        sbx_cli_error(rc, "cannot write to standard output: %s", strerror(errno));
        stdout_error_reported = 1;
    }
    json_object_put(obj);
    return rc;
}

int sbx_cli_finish_output(int status)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        int err = errno;

        if (stdout_error_reported)
            return status;
        stdout_error_reported = 1;
        return sbx_cli_error(SBX_E_SYSTEM, "cannot write to standard output: %s", strerror(err));
    }
    return status;
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

const char *sbx_cli_file_type_name(int type)
{
    switch (type) {
    case SBX_FILE_REGULAR: return "file";
    case SBX_FILE_DIRECTORY: return "directory";
    case SBX_FILE_SYMLINK: return "symlink";
    default: return "other";
    }
}

int sbx_cli_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;

    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}
