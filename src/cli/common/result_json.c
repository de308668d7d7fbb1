/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/result_json.c - results and failures as the JSON objects the
 * commands and the MCP server answer with.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sbxu/base64.h>

#include "result_json.h"
#include "../encode.h"
#include "error.h"
#include "output.h"

/*
 * Add "<name>" and "<name>_encoding": text when it is UTF-8 and escaping
 * does not make it longer than base64, else base64 (docs/cli.md).
 */
int result_json_add_output(json_object *obj, const char *name, const char *encoding_key,
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
    b64 = sbxu_base64_encode(data, len);
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

int result_json(const sbx_result *result, json_object **out)
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
    if (!rc) rc = result_json_add_output(obj, "stdout", "stdout_encoding", stdout_data, out_len);
    if (!rc) rc = result_json_add_output(obj, "stderr", "stderr_encoding", stderr_data, err_len);
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

int result_json_print(const sbx_result *result, const sbx_policy *policy)
{
    json_object *obj;
    int rc = result_json(result, &obj);

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

json_object *result_error_json(int code, const char *message)
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

int result_json_print_error(int code, const char *message)
{
    json_object *obj = json_object_new_object(), *error = result_error_json(code, message);
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

int result_json_add_outcome(json_object *obj, int status)
{
    int code, rc;
    const char *message = status ? sbx_cli_last_error(&code) : NULL;

    rc = sbx_cli_json_add(obj, "ok", json_object_new_boolean(status == 0));
    if (rc || status == 0)
        return rc;
    if (!message)
        code = SBX_E_INTERNAL, message = "failed";
    json_object *error = result_error_json(code, message);
    return error ? sbx_cli_json_add(obj, "error", error) : SBX_E_NOMEM;
}

int result_json_print_outcome(const char *cmd, int status, const char *k1, const char *v1,
                              const char *k2, const char *v2)
{
    json_object *o = json_object_new_object();
    int rc = o ? sbx_cli_json_add(o, k1, json_object_new_string(v1)) : SBX_E_NOMEM;

    if (!rc)
        rc = sbx_cli_json_add(o, k2, json_object_new_string(v2));
    if (!rc)
        rc = result_json_add_outcome(o, status);
    if (!rc)
        rc = sbx_cli_print_json(o, 0);
    else {
        json_object_put(o);
        sbx_cli_error(rc, "%s: out of memory building the output", cmd);
    }
    return status ? status : sbx_cli_exit_code(rc);
}
