/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_output.c - where `sandboxio run` sends the command's output: live to
 * our own stdout/stderr, or captured into one JSON object.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "encode.h"
#include "interrupt.h"
#include "run.h"
#include "util.h"

struct live_sink {
    int failed_errno;       /* why a write failed; 0 if none did */
    int failed_stream;
};

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

/* Unbuffered, so output interleaves as the command wrote it. */
static int live_output(void *userdata, int stream, const void *data, size_t len)
{
    struct live_sink *sink = userdata;

    if (sbx_cli_interrupted())
        return 1;   /* the user wants out: stop the command */
    if (sbx_cli_write_all(stream == SBX_STDERR ? STDERR_FILENO : STDOUT_FILENO, data, len) == 0)
        return 0;
    sink->failed_errno = errno;
    sink->failed_stream = stream;
    return 1;   /* nobody reads the output any more: stop the command */
}

static void warn_truncated(const sbx_result *result, int stream)
{
    if (sbx_result_truncated(result, stream))
        sbx_cli_error(SBX_E_EXEC_TRUNCATED, "%s was cut at the output cap (see --output-cap)",
                      stream == SBX_STDOUT ? "stdout" : "stderr");
}

/* After a run or exec: say what went wrong, or replay what was captured. */
static int finish_live(int rc, const struct live_sink *sink, const sbx_result *result)
{
    const void *data;
    size_t len;

    if (rc == SBX_E_EXEC_ABORTED && sink->failed_errno)
        sbx_cli_error(SBX_E_EXEC_ABORTED, "cannot write the command's %s: %s; it was stopped",
                      sink->failed_stream == SBX_STDERR ? "stderr" : "stdout",
                      strerror(sink->failed_errno));
    else if (rc != SBX_OK && !sbx_cli_interrupted())
        sbx_cli_error_lib(rc, NULL);
    if (rc != SBX_OK || sbx_result_streamed(result))
        return rc;

    /* No streaming on this backend: the output was captured, replay it. */
    warn_truncated(result, SBX_STDOUT);
    warn_truncated(result, SBX_STDERR);
    for (int stream = SBX_STDOUT; stream <= SBX_STDERR; stream++) {
        const char *name = stream == SBX_STDOUT ? "stdout" : "stderr";

        data = stream == SBX_STDOUT ? sbx_result_stdout(result, &len)
                                    : sbx_result_stderr(result, &len);
        if (len && sbx_cli_write_all(stream == SBX_STDOUT ? STDOUT_FILENO : STDERR_FILENO, data,
                                     len)) {
            sbx_cli_error(SBX_E_SYSTEM, "cannot write the command's %s: %s", name, strerror(errno));
            /* The output was lost: the command's status would hide that. */
            return SBX_E_SYSTEM;
        }
    }
    return SBX_OK;
}

int run_exec_live(sbx_client *client, const char *dsn, const sbx_policy *policy,
                  const sbx_cmd *cmd, sbx_result **result)
{
    struct live_sink sink = { 0 };

    fflush(stdout);
    /* One preparation of the backend: streamed where it can, else captured. */
    int rc = sbx_run_live(result, client, dsn, policy, cmd, live_output, &sink);
    return finish_live(rc, &sink, *result);
}

int run_exec_in(sbx_sandbox *sandbox, const sbx_cmd *cmd, sbx_result **result)
{
    struct live_sink sink = { 0 };
    /* Streamed where the backend can, else captured: the library chooses. */
    sbx_exec_opts opts = { SBX_EXEC_OPTS_VERSION, SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE,
                           live_output, &sink };

    fflush(stdout);
    return finish_live(sbx_exec_ext(result, sandbox, cmd, &opts), &sink, *result);
}

int run_status_of(const sbx_result *result)
{
    if (sbx_result_timed_out(result)) {
        sbx_cli_error(SBX_E_EXEC_TIMEOUT, "the command was killed at its timeout");
        return SBX_CLI_EXIT_TIMEOUT;
    }
    if (sbx_result_oom_killed(result))
        sbx_cli_error(SBX_E_EXEC_OOM, "the command was killed for exceeding the memory limit");
    if (sbx_result_exited(result))
        return sbx_result_exit_code(result);
    return 128 + sbx_result_signal(result);
}

/*
 * Add "<name>" and "<name>_encoding": text when it is UTF-8 and escaping
 * does not make it longer than base64, else base64 (docs/cli.md).
 */
int run_json_add_output(json_object *obj, const char *name, const char *encoding_key,
                      const void *data, size_t len)
{
    char *b64;
    int rc;

    if (!data)
        data = "", len = 0;
    if (!sbx_cli_json_wants_base64(data, len)) {
        rc = sbx_cli_json_add(obj, name, json_object_new_string_len(data, (int)len));
        return rc ? rc : sbx_cli_json_add(obj, encoding_key, json_object_new_string("utf-8"));
    }
    b64 = sbx_cli_base64(data, len);
    if (!b64)
        return SBX_E_NOMEM;
    rc = sbx_cli_json_add(obj, name, json_object_new_string(b64));
    free(b64);
    return rc ? rc : sbx_cli_json_add(obj, encoding_key, json_object_new_string("base64"));
}

static int add_int_or_null(json_object *obj, const char *key, int present, int value)
{
    return present ? sbx_cli_json_add(obj, key, json_object_new_int(value))
                   : sbx_cli_json_add_null(obj, key);
}

/*
 * The limits the backend was given: {"memory": N, "cpu_millis", "pids",
 * "disk" (null: none), "defaults": [the controls whose value is the core's
 * default]}.
 */
static json_object *limits_json(const sbx_policy *policy, uint64_t caps)
{
    static const struct {
        uint64_t control;
        const char *key;
    } controls[] = {
        {SBX_CAP_LIMIT_MEMORY, "memory"}, {SBX_CAP_LIMIT_CPU, "cpu_millis"},
        {SBX_CAP_LIMIT_PIDS, "pids"},     {SBX_CAP_LIMIT_DISK, "disk"},
    };
    json_object *obj = json_object_new_object(), *defaults = json_object_new_array();
    int rc = obj && defaults ? 0 : SBX_E_NOMEM;

    for (size_t i = 0; !rc && i < sizeof(controls) / sizeof(controls[0]); i++) {
        uint64_t v = 0;
        int dflt = 0;
        rc = sbx_policy_limit(&v, &dflt, policy, caps, controls[i].control);
        if (!rc)
            rc = v ? sbx_cli_json_add(obj, controls[i].key, json_object_new_int64((int64_t)v))
                   : sbx_cli_json_add_null(obj, controls[i].key);
        if (!rc && dflt)
            rc = sbx_cli_json_push(defaults,
                                   json_object_new_string(sbx_cap_name(controls[i].control)));
    }
    if (!rc) {
        rc = sbx_cli_json_add(obj, "defaults", defaults);
        defaults = NULL;
    }
    json_object_put(defaults);
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

int run_result_json(const sbx_result *result, json_object **out)
{
    json_object *obj = json_object_new_object();
    const void *stdout_data, *stderr_data;
    size_t out_len, err_len;
    char ms[32];
    int exited = sbx_result_exited(result), rc;

    *out = NULL;
    if (!obj)
        return SBX_E_NOMEM;
    stdout_data = sbx_result_stdout(result, &out_len);
    stderr_data = sbx_result_stderr(result, &err_len);
    /* json-c counts string lengths in int: a larger capture cannot be put in. */
    if (out_len > INT32_MAX / 2 || err_len > INT32_MAX / 2) {
        json_object_put(obj);
        return SBX_E_EXEC_TRUNCATED;
    }
    snprintf(ms, sizeof(ms), "%.3f", (double)sbx_result_duration_ns(result) / 1e6);

    rc = add_int_or_null(obj, "exit_code", exited, sbx_result_exit_code(result));
    if (!rc) rc = add_int_or_null(obj, "signal", !exited, sbx_result_signal(result));
    if (!rc) rc = sbx_cli_json_add(obj, "timed_out", json_object_new_boolean(sbx_result_timed_out(result)));
    if (!rc) rc = sbx_cli_json_add(obj, "oom_killed", json_object_new_boolean(sbx_result_oom_killed(result)));
    if (!rc) rc = sbx_cli_json_add(obj, "net_refused",
                                   json_object_new_uint64(sbx_result_net_refused(result)));
    if (!rc) rc = run_json_add_output(obj, "stdout", "stdout_encoding", stdout_data, out_len);
    if (!rc) rc = run_json_add_output(obj, "stderr", "stderr_encoding", stderr_data, err_len);
    if (!rc) rc = sbx_cli_json_add(obj, "stdout_truncated",
                                   json_object_new_boolean(sbx_result_truncated(result, SBX_STDOUT)));
    if (!rc) rc = sbx_cli_json_add(obj, "stderr_truncated",
                                   json_object_new_boolean(sbx_result_truncated(result, SBX_STDERR)));
    if (!rc) rc = sbx_cli_json_add(obj, "duration_ms", json_object_new_double_s(atof(ms), ms));
    if (rc) {
        json_object_put(obj);
        return rc;
    }
    *out = obj;
    return SBX_OK;
}

int run_print_json(const sbx_result *result, const sbx_policy *policy)
{
    json_object *obj;
    int rc = run_result_json(result, &obj);

    if (rc == SBX_E_EXEC_TRUNCATED) {
        sbx_cli_error(rc, "output too large for --json; lower --output-cap");
        return rc;
    }
    /* Where it ran, as the library recorded it: no second parse or probe. */
    if (!rc) rc = sbx_cli_json_add(obj, "backend", json_object_new_string(sbx_result_backend(result)));
    if (!rc) rc = sbx_cli_json_add(obj, "tier",
                                   json_object_new_string(sbx_tier_name(sbx_result_tier(result))));
    if (!rc) rc = sbx_cli_json_add(obj, "dsn", json_object_new_string(sbx_result_dsn(result)));
    if (!rc) rc = sbx_cli_json_add(obj, "limits", limits_json(policy, sbx_result_caps(result)));
    if (rc) {
        json_object_put(obj);
        sbx_cli_error(rc, "out of memory building the result");
        return rc;
    }
    return sbx_cli_print_json(obj, 0);
}

json_object *run_error_json(int code, const char *message)
{
    json_object *error = json_object_new_object();
    const char *url = sbx_error_docs_url(code);
    int rc = error ? SBX_OK : SBX_E_NOMEM;

    if (!rc) rc = sbx_cli_json_add(error, "code", json_object_new_int(code));
    if (!rc) rc = sbx_cli_json_add(error, "id", json_object_new_string(sbx_error_id(code)));
    if (!rc) rc = sbx_cli_json_add(error, "message", json_object_new_string(message));
    if (!rc) rc = url ? sbx_cli_json_add(error, "docs_url", json_object_new_string(url))
                      : sbx_cli_json_add_null(error, "docs_url");
    if (rc) {
        json_object_put(error);
        return NULL;
    }
    return error;
}

int run_print_json_error(int code, const char *message)
{
    json_object *obj = json_object_new_object(), *error = run_error_json(code, message);
    int rc = obj && error ? SBX_OK : SBX_E_NOMEM;

    if (!rc) {
        rc = sbx_cli_json_add(obj, "error", error);
        error = NULL;
    }
    json_object_put(error);
    if (rc) {
        json_object_put(obj);
        return rc;
    }
    return sbx_cli_print_json(obj, 0);
}

int run_json_add_outcome(json_object *obj, int status)
{
    int code, rc;
    const char *message = status ? sbx_cli_last_error(&code) : NULL;

    rc = sbx_cli_json_add(obj, "ok", json_object_new_boolean(status == 0));
    if (rc || status == 0)
        return rc;
    if (!message)
        code = SBX_E_INTERNAL, message = "failed";
    json_object *error = run_error_json(code, message);
    return error ? sbx_cli_json_add(obj, "error", error) : SBX_E_NOMEM;
}

int run_print_outcome(const char *cmd, int status, const char *k1, const char *v1, const char *k2,
                      const char *v2)
{
    json_object *o = json_object_new_object();
    int rc = o ? sbx_cli_json_add(o, k1, json_object_new_string(v1)) : SBX_E_NOMEM;

    if (!rc)
        rc = sbx_cli_json_add(o, k2, json_object_new_string(v2));
    if (!rc)
        rc = run_json_add_outcome(o, status);
    if (!rc)
        rc = sbx_cli_print_json(o, 0);
    else {
        json_object_put(o);
        sbx_cli_error(rc, "%s: out of memory building the output", cmd);
    }
    return status ? status : sbx_cli_exit_code(rc);
}

void run_note_stdin_auto(void)
{
    fputs("  (stdin is a pipe or a file, so it is passed on; run with </dev/null to leave it)\n",
          stderr);
}
