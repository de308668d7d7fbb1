/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/error.c - exit statuses and error reports.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "error.h"

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
