/* SPDX-License-Identifier: Apache-2.0 */
/*
 * args.c - reading a tool's arguments strictly: a wrong type or an unknown
 * key is an error with a message naming the key (SBX_E_MCP_BAD_ARGUMENTS),
 * never a silent default.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "args.h"

__attribute__((format(printf, 2, 3)))
static int bad(struct mcp_args *a, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(a->why, sizeof(a->why), fmt, ap);
    va_end(ap);
    return SBX_E_MCP_BAD_ARGUMENTS;
}

static json_object *get(struct mcp_args *a, const char *key)
{
    json_object *v = NULL;

    if (!a->obj || !json_object_object_get_ex(a->obj, key, &v))
        return NULL;
    return v;
}

int mcp_arg_only(struct mcp_args *a, const char *const *keys)
{
    if (!a->obj)
        return SBX_OK;
    json_object_object_foreach(a->obj, key, value) {
        size_t i;
        (void)value;
        for (i = 0; keys[i] && strcmp(keys[i], key) != 0; i++)
            ;
        if (!keys[i])
            return bad(a, "unknown argument '%s'", key);
    }
    return SBX_OK;
}

int mcp_arg_string(struct mcp_args *a, const char *key, int required, const char **out)
{
    json_object *v = get(a, key);

    *out = NULL;
    if (!v)
        return required ? bad(a, "'%s' is required", key) : SBX_OK;
    if (!json_object_is_type(v, json_type_string))
        return bad(a, "'%s' must be a string", key);
    *out = json_object_get_string(v);
    /* A C string stops at a NUL byte: one inside would cut the value short. */
    if (strlen(*out) != (size_t)json_object_get_string_len(v))
        return bad(a, "'%s' holds a NUL character", key);
    return SBX_OK;
}

int mcp_arg_uint(struct mcp_args *a, const char *key, uint64_t max, int *given, uint64_t *out)
{
    json_object *v = get(a, key);
    int64_t n;

    *given = 0;
    if (!v)
        return SBX_OK;
    if (!json_object_is_type(v, json_type_int))
        return bad(a, "'%s' must be an integer", key);
    errno = 0;
    n = json_object_get_int64(v);
    if (n < 0 || (uint64_t)n > max)
        return bad(a, "'%s' is out of range", key);
    *given = 1;
    *out = (uint64_t)n;
    return SBX_OK;
}

int mcp_arg_bool(struct mcp_args *a, const char *key, int *out)
{
    json_object *v = get(a, key);

    if (!v)
        return SBX_OK;
    if (!json_object_is_type(v, json_type_boolean))
        return bad(a, "'%s' must be true or false", key);
    *out = json_object_get_boolean(v);
    return SBX_OK;
}

int mcp_arg_argv(struct mcp_args *a, const char *key, char ***out)
{
    json_object *v = get(a, key);
    size_t n;
    char **argv;

    *out = NULL;
    if (!v)
        return SBX_OK;
    if (!json_object_is_type(v, json_type_array) || (n = json_object_array_length(v)) == 0)
        return bad(a, "'%s' must be a non-empty array of strings", key);
    argv = calloc(n + 1, sizeof(*argv));
    if (!argv)
        return SBX_E_NOMEM;
    for (size_t i = 0; i < n; i++) {
        json_object *s = json_object_array_get_idx(v, i);
        if (!json_object_is_type(s, json_type_string) ||
            strlen(json_object_get_string(s)) != (size_t)json_object_get_string_len(s)) {
            free(argv);
            return bad(a, "'%s' must be an array of strings without NUL characters", key);
        }
        argv[i] = (char *)json_object_get_string(s);
    }
    if (!argv[0][0]) {
        free(argv);
        return bad(a, "'%s' must start with a non-empty program name", key);
    }
    *out = argv;
    return SBX_OK;
}
