/* SPDX-License-Identifier: Apache-2.0 */
/*
 * part_main.c - the main of an executable part (parts.h): one command,
 * SBX_PART_CMD, named SBX_PART_NAME, which `sandboxio` execs with the
 * command's own argv. argv[0] is set again here because libtool's wrapper
 * of the build tree passes its path instead.
 */
#include "config.h"

#include "commands.h"
#include "common/options.h"
#include "common/output.h"

int main(int argc, char **argv)
{
    argv[0] = (char *)SBX_PART_NAME;
    sbx_cli_getopt_reset();
    return sbx_cli_finish_output(SBX_PART_CMD(argc, argv));
}
