/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench-daytona: the daytona backend against the official @daytonaio/sdk,
 * on the same doubles, in one run, interleaved (bench/lib/sdk-bench.h has
 * the modes). A round is create (waited until started), run `true`,
 * delete; the SDK's (bench/daytona/sdk-loop.mjs) is the same with
 * process.executeCommand('true'), or with a session command.
 *
 * Run from bench/daytona/run.sh, which starts the rig and prints the commands.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/sdk-bench.h"

int main(int argc, char **argv)
{
    /* BENCH_SDK_MODE: how the SDK loop runs `true` (sdk-loop.mjs reads it too). */
    const char *mode = getenv("BENCH_SDK_MODE");
    bool session = mode && strcmp(mode, "session") == 0;
    const bench_sdk_labels labels = {
        .name = "bench-daytona",
        .ours = "sandboxio (C, sbx_run): create -> run true -> delete",
        .theirs = session ? "Daytona JS SDK (warm loop): create -> session command('true') -> delete"
                          : "Daytona JS SDK (warm loop): create -> executeCommand('true') -> delete",
    };
    return bench_sdk_main(argc, argv, &labels);
}
