/* SPDX-License-Identifier: Apache-2.0 */
/*
 * encode.h - making command output fit in a JSON string.
 */
#ifndef SBX_CLI_ENCODE_H
#define SBX_CLI_ENCODE_H

#include <stddef.h>

/* 1 if data is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
int sbx_cli_utf8_valid(const void *data, size_t len);

/* Bytes of data as the body of a JSON string, escaped as the CLI prints JSON. */
size_t sbx_cli_json_escaped_len(const void *data, size_t len);

/* Bytes of the base64 form of len bytes (padded). */
size_t sbx_cli_base64_len(size_t len);

/*
 * Should data go into JSON as base64? Yes when it is not valid UTF-8, or
 * when escaping would make it longer than base64 (NUL bytes cost 6 each):
 * the JSON stays within 4/3 of the data, whatever the data.
 */
int sbx_cli_json_wants_base64(const void *data, size_t len);

#endif
