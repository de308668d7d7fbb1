/* SPDX-License-Identifier: Apache-2.0 */
/*
 * result.c - CallToolResult objects: structuredContent and the same JSON,
 * serialized, as the text content, or a sandboxio failure as isError with
 * its code, message and docs URL (in the text, and in _meta for programs).
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "result.h"
#include "../common/result_json.h"
#include "../common/error.h"
#include "../common/output.h"

#define MCP_ERROR_META "dev.sandboxio/error"

/*
 * The whole message carries the result twice, the text escaped once more:
 * past this the response could outgrow what json-c can print (INT_MAX).
 */
#define MCP_TEXT_MAX (INT32_MAX / 4)

static json_object *text_content(const char *text, size_t len)
{
    json_object *content = json_object_new_array(), *item = json_object_new_object();
    int rc = content && item ? SBX_OK : SBX_E_NOMEM;

    if (!rc) rc = sbx_cli_json_add(item, "type", json_object_new_string("text"));
    if (!rc) rc = sbx_cli_json_add(item, "text", json_object_new_string_len(text, (int)len));
    if (!rc) {
        rc = sbx_cli_json_push(content, item);
        item = NULL;
    }
    json_object_put(item);
    if (rc) {
        json_object_put(content);
        return NULL;
    }
    return content;
}

json_object *mcp_result_ok(json_object *structured)
{
    json_object *result;
    size_t len = 0;
    const char *text;
    int rc;

    if (!structured)
        return NULL;
    /*
     * The specification: a tool that returns structured content SHOULD also
     * return the serialized JSON in a TextContent block, for clients that
     * read content alone. The output in it is what the caps let through.
     */
    text = json_object_to_json_string_length(structured, JSON_C_TO_STRING_PLAIN |
                                             JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    if (text && len > MCP_TEXT_MAX) {
        json_object_put(structured);
        return mcp_result_error(SBX_E_EXEC_TRUNCATED,
                                "the result is too large to return; lower output_cap_bytes");
    }
    result = json_object_new_object();
    rc = result && text ? SBX_OK : SBX_E_NOMEM;
    if (!rc) rc = sbx_cli_json_add(result, "content", text_content(text, len));
    if (!rc) {
        rc = sbx_cli_json_add(result, "structuredContent", structured);
        structured = NULL;
    }
    if (!rc) rc = sbx_cli_json_add(result, "isError", json_object_new_boolean(0));
    json_object_put(structured);
    if (rc) {
        json_object_put(result);
        return NULL;
    }
    return result;
}

json_object *mcp_result_error(int code, const char *message)
{
    json_object *result = json_object_new_object(), *meta = json_object_new_object();
    const char *url = sbx_error_docs_url(code);
    char *text = NULL;
    int rc = result && meta ? SBX_OK : SBX_E_NOMEM;

    if (!rc && asprintf(&text, "%s: %s (see %s)", sbx_error_id(code), message,
                        url ? url : "docs/errors") < 0) {
        text = NULL;
        rc = SBX_E_NOMEM;
    }
    if (!rc) rc = sbx_cli_json_add(result, "content", text_content(text, strlen(text)));
    if (!rc) rc = sbx_cli_json_add(result, "isError", json_object_new_boolean(1));
    if (!rc) rc = sbx_cli_json_add(meta, MCP_ERROR_META, result_error_json(code, message));
    if (!rc) {
        rc = sbx_cli_json_add(result, "_meta", meta);
        meta = NULL;
    }
    free(text);
    json_object_put(meta);
    if (rc) {
        json_object_put(result);
        return NULL;
    }
    return result;
}

json_object *mcp_result_lib_error(int code, const char *context)
{
    const char *detail = sbx_cli_error_message(code);
    char *message;
    json_object *result;

    if (!context)
        return mcp_result_error(code, detail);
    if (asprintf(&message, "%s: %s", context, detail) < 0)
        return NULL;
    result = mcp_result_error(code, message);
    free(message);
    return result;
}
