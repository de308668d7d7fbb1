/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thread-local error object behind sbx_error_last(), and the log sink.
 */
#include "internal.h"

/* The definitions below, not internal.h's analyzer model of them. */
#undef sbx__error_set
#undef sbx__error_set_pos
#undef sbx__error_set_errno

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SBX_MSG_MAX 1024

static _Thread_local struct {
    bool set;
    sbx_error err;
    char message[SBX_MSG_MAX];
} last;

__attribute__((format(printf, 4, 0)))
static int error_store(int code, long position, int sys_errno, const char *fmt, va_list ap)
{
    vsnprintf(last.message, sizeof(last.message), fmt, ap);
    last.err.code = code;
    last.err.id = sbx_error_id(code);
    last.err.message = last.message;
    last.err.docs_url = sbx_error_docs_url(code);
    last.err.position = position;
    last.err.sys_errno = sys_errno;
    last.set = true;
    return code;
}

int sbx__error_setv(int code, const char *fmt, va_list ap)
{
    return error_store(code, -1, 0, fmt, ap);
}

int sbx__error_set(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_store(code, -1, 0, fmt, ap);
    va_end(ap);
    return code;
}

int sbx__error_set_pos(int code, long position, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_store(code, position, 0, fmt, ap);
    va_end(ap);
    return code;
}

int sbx__error_set_errno(int code, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    error_store(code, -1, err, fmt, ap);
    va_end(ap);
    size_t used = strlen(last.message);
    snprintf(last.message + used, sizeof(last.message) - used, ": %s", strerror(err));
    return code;
}

int sbx__error_ensure(int code, const char *context)
{
    if (code == SBX_OK)
        return SBX_OK;
    if (!last.set || last.err.code != code)
        sbx__error_set(code, "%s: %s", context, sbx_strerror(code));
    return code;
}

const sbx_error *sbx_error_last(void)
{
    return last.set ? &last.err : NULL;
}

void sbx_error_clear(void)
{
    last.set = false;
    last.message[0] = '\0';
}

/* --- logging ------------------------------------------------------------- */

static sbx_log_cb log_cb;
static void *log_ud;
static int log_max = SBX_LOG_WARN;

void sbx_log_set_handler(sbx_log_cb cb, void *userdata, int max_level)
{
    log_cb = cb;
    log_ud = userdata;
    log_max = cb ? max_level : SBX_LOG_WARN;
}

void sbx__logv(int level, const char *origin, const char *fmt, va_list ap)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    if (level > log_max)
        return;
    char line[SBX_MSG_MAX];
    vsnprintf(line, sizeof(line), fmt, ap);
    if (log_cb) {
        log_cb(log_ud, level, origin, line);
        return;
    }
    int l = level < 0 ? 0 : level > 3 ? 3 : level;
    fprintf(stderr, "sandboxio[%s] %s: %s\n", origin, names[l], line);
}
