/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crasher.c - a broken plugin for the contract self-test: every exec dies
 * of SIGSEGV. The runner must report each exec case as FAIL and go on to the
 * closing line: a crash is contained in its case's process.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { .crash_in_exec = 1 };

HOSTPROC_DESCRIPTOR("crasher", "self-test: crashes in every exec", HOSTPROC_CAPS, SBX_TIER_NONE)
