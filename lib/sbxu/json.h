/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/json.h - the json-c helpers every HTTP backend needs (libsbxu-json).
 *
 * Parsing an answer, typed getters that name the path of a missing or
 * mistyped member in their error, lenient lookups for optional members,
 * building request bodies, and the message of a provider's JSON error body.
 */
#ifndef SBXU_JSON_H
#define SBXU_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sandboxio/plugin.h>

/*
 * sbxu_json_parse - parse len bytes of an answer into *out (json_object_put()
 * it). Text that is not JSON is SBX_E_BACKEND_PROTOCOL: "<plugin>:
 * <context>: the <who>'s answer is not JSON" (who: "daemon", "API", ...).
 */
int sbxu_json_parse(json_object **out, const sbx_host *host, const char *plugin,
                   const char *who, const char *context, const char *text, size_t len);

/*
 * Typed getters: the member at path below root, where path is dotted keys
 * with optional array indexes ("sandbox.ports[0].host"). A missing member or
 * one of another type is SBX_E_BACKEND_PROTOCOL with "<plugin>: <context>:
 * the answer has no <type> at <path>". Strings point into root.
 */
int sbxu_json_get_string(const char **out, const sbx_host *host, const char *plugin,
                        const char *context, json_object *root, const char *path);
int sbxu_json_get_int(int64_t *out, const sbx_host *host, const char *plugin, const char *context,
                     json_object *root, const char *path);
int sbxu_json_get_bool(bool *out, const sbx_host *host, const char *plugin, const char *context,
                      json_object *root, const char *path);
/* The object or array at path (type json_type_object or json_type_array). */
int sbxu_json_get(json_object **out, json_type type, const sbx_host *host, const char *plugin,
                 const char *context, json_object *root, const char *path);
/* The member at path, NULL when absent (no error set); for optional members. */
json_object *sbxu_json_at(json_object *root, const char *path);

/* Lenient lookups of one key of an object, for optional members. */
const char *sbxu_json_str(json_object *o, const char *key);        /* NULL unless a string */
int64_t sbxu_json_int(json_object *o, const char *key, int64_t dflt); /* dflt unless an int */
bool sbxu_json_bool(json_object *o, const char *key);              /* false when absent */

/*
 * Body building: add a member, taking the value (which may be NULL: out of
 * memory). Returns 0, or -1 when value or the insertion failed (value is
 * freed); chain with | and check once.
 */
int sbxu_json_add(json_object *o, const char *key, json_object *value);
int sbxu_json_add_str(json_object *o, const char *key, const char *value);
/* A JSON array of a NULL-terminated vector's strings, empty for v NULL (NULL: out of memory). */
json_object *sbxu_json_str_array(const char *const *v);
/* The compact text of o, malloc'd (free() it); NULL when out of memory. */
char *sbxu_json_text(json_object *o);

/*
 * sbxu_json_message - the "message" member of a JSON error body, else the
 * body itself as one printable line, into out (always NUL-terminated).
 */
void sbxu_json_message(const char *body, size_t len, char *out, size_t out_len);

#endif
