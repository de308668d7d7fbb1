/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench-e2b: the e2b backend against the official JS SDK, on the same
 * doubles, in one run, interleaved (bench/lib/sdk-bench.h has the modes).
 * A round is create, run `true`, kill; the SDK's (bench/e2b/sdk-loop.mjs)
 * is create -> commands.run('true') -> kill.
 *
 * Run from bench/e2b/run.sh, which starts the rig and prints the commands.
 */
#include "config.h"

#include "../lib/sdk-bench.h"

int main(int argc, char **argv)
{
    static const bench_sdk_labels labels = {
        .name = "bench-e2b",
        .ours = "sandboxio (C, sbx_run): create -> run true -> kill",
        .theirs = "e2b JS SDK (warm loop):  create -> commands.run('true') -> kill",
    };
    return bench_sdk_main(argc, argv, &labels);
}
