/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/output.h - what a command writes on stdout: JSON objects built and printed,
 * and the final check that all went out (whole writes: sbxu_write_all()).
 */
#ifndef SBX_CLI_COMMON_OUTPUT_H
#define SBX_CLI_COMMON_OUTPUT_H

#include <stddef.h>
#include <json-c/json.h>

/*
 * Print obj and a newline to stdout (pretty or on one line) and drop the
 * reference. Returns 0, or SBX_E_NOMEM / SBX_E_SYSTEM (already reported).
 */
int sbx_cli_print_json(json_object *obj, int pretty);

/*
 * Add key: value to obj, taking value's reference. A NULL value is a failed
 * json-c constructor: returns SBX_E_NOMEM then, as when the add fails. Use
 * sbx_cli_json_add_null() for a JSON null.
 */
int sbx_cli_json_add(json_object *obj, const char *key, json_object *value);
int sbx_cli_json_add_null(json_object *obj, const char *key);
/* Append value to array, taking its reference; NULL value gives SBX_E_NOMEM. */
int sbx_cli_json_push(json_object *array, json_object *value);

/* The JSON name of an sbx_file_type: "file", "directory", "symlink", "other". */
const char *sbx_cli_file_type_name(int type);

/*
 * Flush stdout and report a write error (a closed pipe, a full disk) as
 * SBX_E_SYSTEM. Returns status unchanged when all went out, else the exit
 * status for the failure.
 */
int sbx_cli_finish_output(int status);

#endif
