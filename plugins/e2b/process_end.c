/* SPDX-License-Identifier: Apache-2.0 */
/*
 * envd's end event of a command, {exitCode, exited, status, error}, as an
 * exit report. envd fills it from Go's os.ProcessState (handler.go, Wait):
 * exitCode is ExitCode() (-1 for a signal; omitted when 0, as JSON zero
 * values are), exited is Exited(), status is String(): "exit status N" or
 * "signal: NAME" with Go's name of the signal, " (core dumped)" after it
 * when it dumped core. The signal's number is only in that name.
 */
#include "e2b.h"

#include <stdlib.h>
#include <string.h>
#include <sandboxio/errors.h>

/* Go's names of the Linux signals (syscall's signal table), by number. */
static const char *const GO_SIGNALS[] = {
    NULL, "hangup", "interrupt", "quit", "illegal instruction", "trace/breakpoint trap",
    "aborted", "bus error", "floating point exception", "killed", "user defined signal 1",
    "segmentation fault", "user defined signal 2", "broken pipe", "alarm clock", "terminated",
    "stack fault", "child exited", "continued", "stopped (signal)", "stopped",
    "stopped (tty input)", "stopped (tty output)", "urgent I/O condition",
    "CPU time limit exceeded", "file size limit exceeded", "virtual timer expired",
    "profiling timer expired", "window changed", "I/O possible", "power failure",
    "bad system call",
};

/* The number of the signal Go names `name` (its String()), 0 if none. */
static int go_signal_number(const char *name, size_t len)
{
    for (size_t i = 1; i < sizeof(GO_SIGNALS) / sizeof(GO_SIGNALS[0]); i++)
        if (strlen(GO_SIGNALS[i]) == len && memcmp(GO_SIGNALS[i], name, len) == 0)
            return (int)i;
    /* Beyond the table Go writes "signal N" (the real-time signals). */
    if (len > 7 && memcmp(name, "signal ", 7) == 0) {
        char num[16];
        if (len - 7 >= sizeof(num))
            return 0;
        memcpy(num, name + 7, len - 7);
        num[len - 7] = '\0';
        char *end;
        long n = strtol(num, &end, 10);
        if (*end == '\0' && n > 0 && n < 128)
            return (int)n;
    }
    return 0;
}

int e2b_process_end(json_object *end, sbx_plugin_exit *x)
{
    json_object *o;
    bool exited = false;
    int code = 0;
    if (!json_object_is_type(end, json_type_object))
        return SBX_E_BACKEND_PROTOCOL;
    if (json_object_object_get_ex(end, "exited", &o)) {
        if (!json_object_is_type(o, json_type_boolean))
            return SBX_E_BACKEND_PROTOCOL;
        exited = json_object_get_boolean(o);
    }
    if (json_object_object_get_ex(end, "exitCode", &o)) {
        if (!json_object_is_type(o, json_type_int))
            return SBX_E_BACKEND_PROTOCOL;
        code = json_object_get_int(o);
    }
    const char *status = json_object_object_get_ex(end, "status", &o) &&
                                 json_object_is_type(o, json_type_string)
                             ? json_object_get_string(o)
                             : "";
    x->exited = exited;
    x->exit_code = 0;
    x->signal = 0;
    if (exited) {
        if (code < 0 || code > 255)
            return SBX_E_BACKEND_PROTOCOL;
        x->exit_code = code;
        return SBX_OK;
    }
    static const char prefix[] = "signal: ";
    if (strncmp(status, prefix, sizeof(prefix) - 1) != 0)
        return SBX_E_BACKEND_PROTOCOL;
    const char *name = status + sizeof(prefix) - 1;
    size_t len = strlen(name);
    static const char core[] = " (core dumped)";
    if (len > sizeof(core) - 1 && strcmp(name + len - (sizeof(core) - 1), core) == 0)
        len -= sizeof(core) - 1;
    x->signal = go_signal_number(name, len);
    return x->signal ? SBX_OK : SBX_E_BACKEND_PROTOCOL;
}
