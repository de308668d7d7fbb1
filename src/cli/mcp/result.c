/* SPDX-License-Identifier: Apache-2.0 */
/*
 * result.c - CallToolResult objects: structuredContent with a short text
 * rendering, or a sandboxio failure as isError with its code, message and
 * docs URL (in the text, and in _meta for programs).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "mcp.h"
#include "../util.h"

#define MCP_ERROR_META "dev.sandboxio/error"

static json_object *text_content(const char *text)
{
    json_object *content = json_object_new_array(), *item = json_object_new_object();
    int rc = content && item ? SBX_OK : SBX_E_NOMEM;

    if (!rc) rc = sbx_cli_json_add(item, "type", json_object_new_string("text"));
    if (!rc) rc = sbx_cli_json_add(item, "text", json_object_new_string(text));
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

json_object *mcp_result_ok(json_object *structured, const char *text)
{
    json_object *result = json_object_new_object();
    int rc = result && structured ? SBX_OK : SBX_E_NOMEM;

    if (!rc) rc = sbx_cli_json_add(result, "content", text_content(text));
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
    if (!rc) rc = sbx_cli_json_add(result, "content", text_content(text));
    if (!rc) rc = sbx_cli_json_add(result, "isError", json_object_new_boolean(1));
    if (!rc) rc = sbx_cli_json_add(meta, MCP_ERROR_META, run_error_json(code, message));
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
