/* SPDX-License-Identifier: Apache-2.0 */
/*
 * leaker.c - a broken plugin for the contract self-test: destroy leaves the
 * sandbox's processes running. SBX-CLEAN-001 must fail on it.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { .leak_on_destroy = 1 };

HOSTPROC_DESCRIPTOR("leaker", "self-test: leaves processes behind after destroy",
                    HOSTPROC_CAPS, SBX_TIER_NONE)
