/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz_daytona_status.c - libFuzzer target: the daytona backend's reader of
 * its exec wrapper's status file (plugins/daytona/status.c), which the
 * command in the sandbox can write too.
 *
 * Properties: a status read is never "running", its value is in range for
 * its kind (an exit code 0..255, a signal 1..127, 0 otherwise), and the
 * input is one of the forms the wrapper writes, which printed back give the
 * same bytes (less one newline); a refused input changes nothing.
 */
#include "../../plugins/daytona/daytona.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A copy of exactly size bytes: a read past them is caught by ASan. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    int status = -1, value = -1;
    if (daytona_status_parse(text, size, &status, &value) != 0) {
        if (status != -1)
            abort();
        free(text);
        return 0;
    }
    char back[32];
    switch (status) {
    case DAYTONA_S_EXIT:
        if (value < 0 || value > 255)
            abort();
        snprintf(back, sizeof(back), "exit %d", value);
        break;
    case DAYTONA_S_SIGNAL:
        if (value < 1 || value > 127)
            abort();
        snprintf(back, sizeof(back), "signal %d", value);
        break;
    case DAYTONA_S_NOCWD:
        snprintf(back, sizeof(back), "start nocwd");
        break;
    case DAYTONA_S_NOEXEC:
        snprintf(back, sizeof(back), "start noexec");
        break;
    case DAYTONA_S_NOPERM:
        snprintf(back, sizeof(back), "start noperm");
        break;
    default:
        abort();
    }
    size_t len = size && text[size - 1] == '\n' ? size - 1 : size;
    /* "exit 007" reads as 7: the same number, not the same bytes. */
    bool leading_zero = len > strlen(back) && (status == DAYTONA_S_EXIT || status == DAYTONA_S_SIGNAL);
    if (!leading_zero && (len != strlen(back) || memcmp(text, back, len) != 0))
        abort();
    if (status != DAYTONA_S_EXIT && status != DAYTONA_S_SIGNAL && value != 0)
        abort();
    free(text);
    return 0;
}
