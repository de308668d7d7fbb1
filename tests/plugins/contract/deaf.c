/* SPDX-License-Identifier: Apache-2.0 */
/*
 * deaf.c - a broken plugin for the contract self-test: it is built for ABI
 * minor 2 but never watches cancel_fd, so a silent command runs on after a
 * cancel. SBX-CANCEL-002 must fail on it.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { .ignore_cancel = 1 };

HOSTPROC_DESCRIPTOR("deaf", "self-test: ignores cancels", HOSTPROC_CAPS, SBX_TIER_NONE)
