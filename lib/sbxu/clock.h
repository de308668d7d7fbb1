/* SPDX-License-Identifier: Apache-2.0 */
/*
 * clock.h - the two clocks the tree reads (libsbxu).
 *
 * Two clocks, two names, so that "now" never means one clock in one file and
 * the other in the next:
 *   monotonic  for deadlines, timeouts and durations inside one process: it
 *              never jumps when the system time is set, and its zero is
 *              arbitrary (it means nothing to another process or machine);
 *   wall       milliseconds since the Unix epoch, for what outlives the
 *              process or is compared with a provider's or a file's time:
 *              expiries, creation times, labels.
 */
#ifndef SBXU_CLOCK_H
#define SBXU_CLOCK_H

#include <stdint.h>

/* Monotonic milliseconds (CLOCK_MONOTONIC). */
int64_t sbxu_mono_ms(void);
/* Monotonic nanoseconds (CLOCK_MONOTONIC), for finer durations. */
uint64_t sbxu_mono_ns(void);
/* Wall-clock milliseconds since the Unix epoch (CLOCK_REALTIME). */
int64_t sbxu_wall_ms(void);

#endif
