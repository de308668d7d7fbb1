/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mcp/args.h - reading a tool's arguments strictly.
 */
#ifndef SBX_CLI_MCP_ARGS_H
#define SBX_CLI_MCP_ARGS_H

#include <stdint.h>
#include <json-c/json.h>

#include "../error-codes.h" /* the tool's own codes */

/* args.c: reading tool arguments (see there). */
struct mcp_args {
    json_object *obj;
    char why[256];              /* what was wrong, when a getter failed */
};
int mcp_arg_string(struct mcp_args *a, const char *key, int required, const char **out);
int mcp_arg_uint(struct mcp_args *a, const char *key, uint64_t max, int *given, uint64_t *out);
int mcp_arg_bool(struct mcp_args *a, const char *key, int *out);
/* A NULL-terminated argv from an array of strings; free with free(). */
int mcp_arg_argv(struct mcp_args *a, const char *key, char ***out);
/* Only the keys listed (NULL-terminated) may be present. */
int mcp_arg_only(struct mcp_args *a, const char *const *keys);

#endif
