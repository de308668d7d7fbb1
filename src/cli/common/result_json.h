/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/result_json.h - a command's result and a failure as JSON: the
 * objects `run --json`, `exec --json`, the commands' --json outcomes and
 * the MCP tools share (docs/cli.md, docs/mcp.md).
 */
#ifndef SBX_CLI_COMMON_RESULT_JSON_H
#define SBX_CLI_COMMON_RESULT_JSON_H

#include <stddef.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>

/*
 * Print the result as one JSON object (see docs/cli.md), with the backend,
 * tier and redacted DSN it ran on and the limits the policy gave it there
 * (all from the result). Returns an SBX code.
 */
int result_json_print(const sbx_result *result, const sbx_policy *policy);

/* Print {"error": {...}} for a failed run in --json mode. Returns an SBX code. */
int result_json_print_error(int code, const char *message);

/*
 * The result as the JSON object `run --json` and the MCP tools share:
 * exit_code, signal, timed_out, oom_killed, stdout, stderr and their
 * encodings and truncated flags, duration_ms. Returns an SBX code.
 */
int result_json(const sbx_result *result, json_object **out);

/* Set "<name>" and "<name>_encoding" of obj: the text when it is UTF-8, else base64. */
int result_json_add_output(json_object *obj, const char *name, const char *encoding_key,
                           const void *data, size_t len);

/* {"code", "id", "message", "docs_url"} of a failure. NULL when out of memory. */
json_object *result_error_json(int code, const char *message);
/*
 * Add the outcome of a command's step to obj for --json: "ok" (status == 0,
 * an exit status), and when it failed, "error" as result_error_json() makes it
 * from the error reported last (sbx_cli_last_error()). An SBX code.
 */
int result_json_add_outcome(json_object *obj, int status);
/*
 * Print {k1: v1, k2: v2, "ok", "error"?} for the --json of command cmd
 * (cp, rm). Returns status, or the exit status of a failed print.
 */
int result_json_print_outcome(const char *cmd, int status, const char *k1, const char *v1,
                              const char *k2, const char *v2);

#endif
