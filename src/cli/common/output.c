/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/output.c - JSON output, whole writes, the final flush.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "error.h"
#include "output.h"

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

const char *sbx_cli_file_type_name(int type)
{
    switch (type) {
    case SBX_FILE_REGULAR: return "file";
    case SBX_FILE_DIRECTORY: return "directory";
    case SBX_FILE_SYMLINK: return "symlink";
    default: return "other";
    }
}
