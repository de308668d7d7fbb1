/* SPDX-License-Identifier: Apache-2.0 */
/*
 * commands.h - the sandboxio subcommands, one file each.
 *
 * A command gets argv with argv[0] set to its own name, parses its options
 * with getopt_long and returns the process exit status (see common/error.h
 * for the codes sandboxio uses for its own failures). To add a command, declare it
 * here and add one row to the table in main.c.
 */
#ifndef SBX_CLI_COMMANDS_H
#define SBX_CLI_COMMANDS_H

#include <stddef.h>

struct sbx_cli_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;     /* one line for `sandboxio --help` */
};

int cmd_run(int argc, char **argv);
int cmd_plugins(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_contract(int argc, char **argv);
int cmd_gc(int argc, char **argv);
int cmd_mcp(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_shell(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_exec(int argc, char **argv);
/* `shell [OPTIONS] ID`: exec -it ID -- sh, with exec's options (cmd_exec.c). */
int cmd_shell_in(int argc, char **argv);
int cmd_cp(int argc, char **argv);
int cmd_files(int argc, char **argv);   /* ls, rm */
int cmd_ps(int argc, char **argv);      /* ps, list */
int cmd_manage(int argc, char **argv);  /* kill, pause, resume, ttl */
/* `completion bash|zsh`: the script completing the n commands of table. */
int sbx_cli_completion(int argc, char **argv, const struct sbx_cli_command *table, size_t n);

#endif
