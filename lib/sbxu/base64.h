/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/base64.h - base64 (RFC 4648) for plugins and the CLI (libsbxu).
 *
 * The one implementation in the tree: the CLI encodes binary command output
 * with it and decodes the MCP server's base64 file content, the docker
 * backend decodes the engine's path stat header.
 */
#ifndef SBXU_BASE64_H
#define SBXU_BASE64_H

#include <stddef.h>

/*
 * Encode len bytes with the standard alphabet and '=' padding. Returns a
 * malloc'd NUL-terminated string (free() it), or NULL when out of memory or
 * len is too large to encode.
 */
char *sbxu_base64_encode(const void *data, size_t len);
/*
 * Decode text in the standard or the URL-safe alphabet, padded or not;
 * decoding stops at the first '='. Returns a malloc'd buffer with a NUL after
 * the bytes (free() it) and their count in *len (len may be NULL), or NULL
 * for a character outside both alphabets or when out of memory.
 */
char *sbxu_base64_decode(const char *text, size_t *len);
/*
 * Decode len bytes of text that must be exactly what sbxu_base64_encode()
 * writes: the standard alphabet, a length that is a multiple of 4, '=' only
 * as the last one or two characters. For input a user gives (the MCP server's
 * base64 file content), where anything else is refused rather than guessed
 * at. Returns a malloc'd buffer with a NUL after the bytes (free() it) and
 * their count in *out_len, or NULL for bad input or when out of memory.
 */
char *sbxu_base64_decode_strict(const char *text, size_t len, size_t *out_len);

#endif
