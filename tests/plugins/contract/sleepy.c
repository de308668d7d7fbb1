/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sleepy.c - a broken plugin for the contract self-test: it declares the
 * timeout capability but never kills a command. SBX-TIME-001 must fail on it.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { .ignore_timeout = 1 };

HOSTPROC_DESCRIPTOR("sleepy", "self-test: ignores timeouts", HOSTPROC_CAPS, SBX_TIER_NONE)
