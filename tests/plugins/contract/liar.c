/* SPDX-License-Identifier: Apache-2.0 */
/*
 * liar.c - a broken plugin for the contract self-test: it declares
 * net-none and the namespace tier, yet runs plain host processes with the
 * host's network. SBX-ISO-001 must fail on it.
 */
#include "hostproc.h"

const hostproc_flaws hostproc_flaws_of_this_plugin = { 0 };

HOSTPROC_DESCRIPTOR("liar", "self-test: declares net-none it does not enforce",
                    HOSTPROC_CAPS | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE)
