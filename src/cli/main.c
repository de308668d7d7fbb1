/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - the sandboxio command line: global options and command dispatch.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "parts.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"

static int cmd_help(int argc, char **argv);
static int cmd_completion(int argc, char **argv);

/*
 * Every command starts this program, so it links only what every command
 * needs: libc, libsandboxio (and its libltdl), json-c. A command that needs
 * a heavy library is a separate executable of $(pkglibexecdir) exec'd here
 * with its own argv (parts.h): mcp (libmicrohttpd), contract (the contract
 * suite), cp (libarchive). An exec, not a module, because these are whole
 * commands: they run in a process of their own, link the shared CLI code
 * (src/cli/libsbxcli.la) like this program does, and nothing of this
 * program needs exporting to them. The YAML profiles reader, which run,
 * create, shell, demo, contract and mcp call in the middle of their work,
 * is a module instead (profile_parse.c). The design and the budget that
 * guards it: docs/performance.md, "A lean start".
 */
static int part_mcp(int argc, char **argv)
{
    return sbx_cli_exec_part("sandboxio-mcp", argc, argv);
}

static int part_contract(int argc, char **argv)
{
    return sbx_cli_exec_part("sandboxio-contract", argc, argv);
}

static int part_cp(int argc, char **argv)
{
    return sbx_cli_exec_part("sandboxio-cp", argc, argv);
}

static const struct sbx_cli_command commands[] = {
    { "run", cmd_run, "one-shot: create, exec, destroy" },
    { "shell", cmd_shell, "an interactive shell in a fresh sandbox (run -it -- sh), or in sandbox ID" },
    { "create", cmd_create, "create a sandbox that outlives this command; print its id" },
    { "exec", cmd_exec, "run a command in a sandbox made by create" },
    { "cp", part_cp, "copy files and directories between the host and a sandbox" },
    { "ls", cmd_files, "list a directory of a sandbox" },
    { "rm", cmd_files, "remove a file or directory from a sandbox" },
    { "ps", cmd_ps, "list the sandboxes made by create, on every backend" },
    { "list", cmd_ps, "the same as ps" },
    { "kill", cmd_manage, "destroy sandboxes" },
    { "pause", cmd_manage, "freeze every process of sandboxes" },
    { "resume", cmd_manage, "thaw paused sandboxes" },
    { "ttl", cmd_manage, "end a sandbox a given time from now" },
    { "mcp", part_mcp, "serve the Model Context Protocol (stdio or HTTP) to agents" },
    { "profiles", cmd_profiles, "list the YAML profiles (DSN + policy); check a profiles file" },
    { "plugins", cmd_plugins, "list installed backends, their ABI, capabilities and tier" },
    { "doctor", cmd_doctor, "environment report to paste into an issue (no secrets)" },
    { "contract", part_contract, "run the contract suite against a backend" },
    { "gc", cmd_gc, "remove sandboxes leaked by crashed clients" },
    { "demo", cmd_demo, "a half-minute guided tour on the default backend" },
    { "version", cmd_version, "print the versions of sandboxio and its library" },
    { "help", cmd_help, "show the help of a command" },
    { "completion", cmd_completion, "print the bash or zsh completion script" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct sbx_cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    }
    return NULL;
}

/* From this table, so that the scripts complete every command dispatched. */
static int cmd_completion(int argc, char **argv)
{
    return sbx_cli_completion(argc, argv, commands, N_COMMANDS);
}

/* An unknown command: a usage error, naming the command it likely mistypes. */
static int unknown_command(const char *name)
{
    const char *names[N_COMMANDS];
    const char *near;

    for (size_t i = 0; i < N_COMMANDS; i++)
        names[i] = commands[i].name;
    near = sbx_cli_closest(name, names, N_COMMANDS);
    if (near)
        return sbx_cli_usage_error(NULL, "unknown command '%s': did you mean '%s'?", name, near);
    return sbx_cli_usage_error(NULL, "unknown command '%s'", name);
}

static void usage(FILE *out)
{
    fputs("Usage: sandboxio [--help] [--version] COMMAND [ARGS...]\n"
          "\n"
          "Run untrusted code in a sandbox, on any backend.\n"
          "\n"
          "Commands:\n",
          out);
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "'sandboxio COMMAND --help' shows a command's options.\n"
          "Exit status of sandboxio's own failures: 120 usage/DSN/configuration,\n"
          "121 plugin loading, 122 policy refused, 123 backend, 124 timeout,\n"
          "125 other; `run` exits 127 for a program not found, 126 for one that\n"
          "cannot be executed. See sandboxio(1).\n",
          out);
}

/* `sandboxio help [COMMAND]`: the same text as --help. */
static int cmd_help(int argc, char **argv)
{
    char help_opt[] = "--help";
    char *sub_argv[3];
    const struct sbx_cli_command *cmd;

    if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        usage(stdout);
        return 0;
    }
    if (argc > 2)
        return sbx_cli_usage_error("help", "takes at most one COMMAND");
    cmd = find_command(argv[1]);
    if (!cmd)
        return unknown_command(argv[1]);
    sub_argv[0] = argv[1];
    sub_argv[1] = help_opt;
    sub_argv[2] = NULL;
    return cmd->fn(2, sub_argv);
}

int main(int argc, char **argv)
{
    static const struct option options[] = {
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        { NULL, 0, NULL, 0 },
    };
    const struct sbx_cli_command *cmd;
    int opt, status;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, "+:hV", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            return sbx_cli_finish_output(0);
        case 'V':
            return sbx_cli_finish_output(cmd_version(1, (char *[]){ "version", NULL }));
        default:
            return sbx_cli_option_error(NULL, argv, opt, options);
        }
    }
    /* Alone, like `docker` and `git`: the usage, which is not an error. */
    if (optind >= argc) {
        usage(stdout);
        return sbx_cli_finish_output(0);
    }
    cmd = find_command(argv[optind]);
    if (!cmd)
        return unknown_command(argv[optind]);

    status = cmd->fn(argc - optind, argv + optind);
    return sbx_cli_finish_output(status);
}
