/* SPDX-License-Identifier: Apache-2.0 */
/* sbxu/time.h - RFC 3339 times as providers write them (libsbxu). */
#ifndef SBXU_TIME_H
#define SBXU_TIME_H

#include <stdint.h>

/*
 * sbxu_rfc3339_parse - "2026-12-01T12:00:00.123456789Z" (or with a "+hh:mm"
 * / "-hh:mm" offset, as proto3 JSON writes a Timestamp and Go a time) into
 * Unix seconds and nanoseconds. 0, or -1 for text that is not such a time.
 */
int sbxu_rfc3339_parse(const char *text, int64_t *sec, uint32_t *nsec);

#endif
