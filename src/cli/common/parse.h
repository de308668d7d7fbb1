/* SPDX-License-Identifier: Apache-2.0 */
/*
 * common/parse.h - the values options take: sizes, durations, decimal counts.
 */
#ifndef SBX_CLI_COMMON_PARSE_H
#define SBX_CLI_COMMON_PARSE_H

#include <stdint.h>

#include "../error-codes.h" /* the tool's own codes */

/*
 * Sizes: an integer or decimal with an optional k, M, G or T suffix (either
 * case, powers of 1024), e.g. 123, 64k, 512M, 1.5G. Fractions of a byte round
 * up. SBX_E_BAD_SIZE when text does not parse or overflows. The parsers
 * below leave *out untouched on failure.
 */
int sbx_cli_parse_size(const char *text, uint64_t *out);

/*
 * Durations in milliseconds: a number of seconds (30, 1.5) or a number with
 * a unit ms, s, m or h (500ms, 2m). Fractions of a millisecond round up.
 * SBX_E_BAD_SIZE when text does not parse or overflows.
 */
int sbx_cli_parse_duration_ms(const char *text, uint64_t *out);

/* A decimal count scaled by 1000: "1.5" -> 1500. SBX_E_BAD_SIZE on error. */
int sbx_cli_parse_millis(const char *text, uint64_t *out);

/* A plain unsigned integer no larger than max. SBX_E_BAD_SIZE on error. */
int sbx_cli_parse_uint(const char *text, uint64_t max, uint64_t *out);

#endif
