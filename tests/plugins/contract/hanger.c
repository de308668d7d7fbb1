/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hanger.c - a broken plugin for the contract self-test: every exec blocks
 * forever. The runner must kill the case at its time limit and report it as
 * FAIL: a hang is contained in its case's process.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { .hang_in_exec = 1 };

HOSTPROC_DESCRIPTOR("hanger", "self-test: hangs in every exec", HOSTPROC_CAPS, SBX_TIER_NONE)
