/* SPDX-License-Identifier: Apache-2.0 */
/*
 * parts.h - the parts of the sandboxio program that only some commands
 * need, kept out of the `sandboxio` binary so that every other command
 * starts without mapping their libraries (docs/performance.md, "A lean
 * start"):
 *
 *   sandboxio-mcp        `mcp` (libmicrohttpd)          an executable
 *   sandboxio-contract   `contract` (the contract suite) an executable
 *   sandboxio-cp         `cp` (libarchive, for `cp -`)   an executable
 *   sandboxio-yaml.so    the profiles reader (libyaml)   a module (libltdl)
 *
 * They are installed in $(pkglibexecdir). In the build tree they are found
 * beside the running program (src/ and src/.libs/), so tests use the parts
 * of the build they run in.
 */
#ifndef SBX_CLI_PARTS_H
#define SBX_CLI_PARTS_H

#include <stddef.h>

/*
 * The path of part name: in the build tree when this program runs from
 * one, else the installed one. Fills buf (cap bytes); returns buf.
 */
const char *sbx_cli_part_path(const char *name, int module, char *buf, size_t cap);

/*
 * Replace this process with the executable part name, with argv as its
 * command line (argv[0] the command's name). Returns only on failure, with
 * the exit status of the error it reported (SBX_E2002).
 */
int sbx_cli_exec_part(const char *name, int argc, char **argv);

#endif
