/*
 * encode.h - making command output fit in a JSON string.
 */
#ifndef SBX_CLI_ENCODE_H
#define SBX_CLI_ENCODE_H

#include <stddef.h>

/* 1 if data is well-formed UTF-8 (no overlong forms, surrogates or code points past U+10FFFF). */
int sbx_cli_utf8_valid(const void *data, size_t len);

/* data in standard base64 with padding, NUL-terminated; free(). NULL if out of memory. */
char *sbx_cli_base64(const void *data, size_t len);

/*
 * Decode standard base64 with padding (what sbx_cli_base64() writes) into a
 * new buffer (free()). 0, or -1 for bad input or no memory.
 */
int sbx_cli_base64_decode(const char *in, size_t len, unsigned char **out, size_t *out_len);

#endif
