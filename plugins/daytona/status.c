/* SPDX-License-Identifier: Apache-2.0 */
/*
 * status.c - the exec wrapper's status. The wrapper writes it inside the
 * sandbox (as a file name, its spaces as dots: exec.c), where the command
 * can write too, so it is read as untrusted input: exactly one of "exit N" (N 0..255), "signal N" (N
 * 1..127), "start nocwd", "start noexec", "start noperm", with at most one
 * newline after it. Anything else is garbled.
 */
#include "daytona.h"

#include <stdlib.h>
#include <string.h>

/* A decimal number of 1 to 3 digits that is the whole of s[0..len). */
static int small_number(const char *s, size_t len, int *out)
{
    if (len == 0 || len > 3)
        return -1;
    int v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return 0;
}

int daytona_status_parse(const char *text, size_t len, int *status, int *value)
{
    static const sbxu_remote_word starts[] = {
        {"start nocwd", DAYTONA_S_NOCWD},
        {"start noexec", DAYTONA_S_NOEXEC},
        {"start noperm", DAYTONA_S_NOPERM},
    };
    if (len > 0 && text[len - 1] == '\n')
        len--;
    *value = 0;
    int start = sbxu_remote_word_value(starts, sizeof(starts) / sizeof(starts[0]), text, len, -1);
    if (start >= 0) {
        *status = start;
        return 0;
    }
    if (len > 5 && memcmp(text, "exit ", 5) == 0 && small_number(text + 5, len - 5, value) == 0 &&
        *value <= 255) {
        *status = DAYTONA_S_EXIT;
        return 0;
    }
    if (len > 7 && memcmp(text, "signal ", 7) == 0 &&
        small_number(text + 7, len - 7, value) == 0 && *value >= 1 && *value <= 127) {
        *status = DAYTONA_S_SIGNAL;
        return 0;
    }
    *value = 0;
    return -1;
}
