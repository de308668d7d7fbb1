/* SPDX-License-Identifier: Apache-2.0 */
/* rfc3339.c - RFC 3339 times into Unix seconds and nanoseconds (sbxu/time.h). */
#include "config.h"

#include <time.h>

#include <sbxu/time.h>

int sbxu_rfc3339_parse(const char *text, int64_t *sec, uint32_t *nsec)
{
    struct tm tm = {0};
    const char *rest = text ? strptime(text, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
    uint32_t ns = 0, scale = 100000000;

    if (!rest)
        return -1;
    if (*rest == '.') {
        if (rest[1] < '0' || rest[1] > '9')
            return -1;
        for (rest++; *rest >= '0' && *rest <= '9'; rest++, scale /= 10)
            ns += scale ? (uint32_t)(*rest - '0') * scale : 0;
    }
    int64_t s = (int64_t)timegm(&tm);
    if (*rest == 'Z' || *rest == 'z') {
        rest++;
    } else if ((*rest == '+' || *rest == '-') && rest[1] >= '0' && rest[1] <= '9' &&
               rest[2] >= '0' && rest[2] <= '9' && rest[3] == ':' && rest[4] >= '0' &&
               rest[4] <= '9' && rest[5] >= '0' && rest[5] <= '9') {
        int off = ((rest[1] - '0') * 10 + (rest[2] - '0')) * 3600 +
                  ((rest[4] - '0') * 10 + (rest[5] - '0')) * 60;
        s += *rest == '+' ? -off : off;
        rest += 6;
    } else {
        return -1;
    }
    if (*rest)
        return -1;
    *sec = s;
    *nsec = ns;
    return 0;
}
