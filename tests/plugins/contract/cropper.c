/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cropper.c - a broken plugin for the contract self-test: it silently drops
 * output past 1 MiB per stream and never says truncated. SBX-EXEC-008 must
 * fail on it.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { .crop_after = (size_t)1 << 20 };

HOSTPROC_DESCRIPTOR("cropper", "self-test: drops output past 1 MiB without saying so",
                    HOSTPROC_CAPS, SBX_TIER_NONE)
