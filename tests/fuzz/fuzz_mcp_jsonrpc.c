/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_mcp_jsonrpc.c - libFuzzer target: the MCP server's JSON-RPC parser
 * (src/cli/mcp/jsonrpc.c), which every byte a client sends goes through.
 *
 * Properties: no input crashes or leaks; an accepted message printed and
 * parsed again is accepted again as the same kind, method and id; the
 * error response built for a refused one is itself a valid JSON-RPC
 * message. Any violation aborts.
 * Build: clang -fsanitize=fuzzer,address,undefined with jsonrpc.c and json-c.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cli/mcp/jsonrpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violated(const char *what)
{
    fprintf(stderr, "JSON-RPC property violated: %s\n", what);
    abort();
}

static int same_id(json_object *a, json_object *b)
{
    return (!a && !b) || (a && b && json_object_equal(a, b));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mcp_msg m, again;
    const char *why = NULL;
    int code = mcp_jsonrpc_parse((const char *)data, size, &m, &why);

    if (code) {
        json_object *err = mcp_jsonrpc_error(m.id, code, why);
        const char *text;
        if (!why || !err)
            violated("a refusal without a reason or a response");
        text = json_object_to_json_string_ext(err, JSON_C_TO_STRING_PLAIN);
        if (mcp_jsonrpc_parse(text, strlen(text), &again, &why) != 0 || again.kind != MCP_MSG_RESPONSE)
            violated("the error response does not parse as a response");
        mcp_msg_release(&again);
        json_object_put(err);
        mcp_msg_release(&m);
        return 0;
    }
    const char *text = json_object_to_json_string_ext(m.root, JSON_C_TO_STRING_PLAIN);
    if (mcp_jsonrpc_parse(text, strlen(text), &again, &why) != 0)
        violated("an accepted message, printed, is refused");
    if (again.kind != m.kind || !same_id(again.id, m.id) ||
        (m.method && (!again.method || strcmp(m.method, again.method) != 0)))
        violated("an accepted message changed on a round trip");
    mcp_msg_release(&again);
    mcp_msg_release(&m);
    return 0;
}
