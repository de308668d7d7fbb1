/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_completion.c - `sandboxio completion bash|zsh`: the shell's completion
 * script, generated from the command table main.c dispatches from, so that
 * a command added there is completed without a script to keep in step.
 * `make install` installs both scripts, made by the built program.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "common/error.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio completion bash|zsh\n"
          "\n"
          "Print the completion script of the shell: the commands, then files.\n"
          "  bash: . <(sandboxio completion bash)   (installed in\n"
          "        $datadir/bash-completion/completions/sandboxio)\n"
          "  zsh:  sandboxio completion zsh > \"${fpath[1]}/_sandboxio\"   (installed\n"
          "        in $datadir/zsh/site-functions/_sandboxio)\n",
          out);
}

static void print_bash(const struct sbx_cli_command *table, size_t n)
{
    fputs("# bash completion for sandboxio, made by `sandboxio completion bash`\n"
          "_sandboxio() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]}\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W '--help --version",
          stdout);
    for (size_t i = 0; i < n; i++)
        printf(" %s", table[i].name);
    fputs("' -- \"$cur\"))\n"
          "    elif [ \"$COMP_CWORD\" -eq 2 ] && [ \"${COMP_WORDS[1]}\" = help ]; then\n"
          "        COMPREPLY=($(compgen -W '",
          stdout);
    for (size_t i = 0; i < n; i++)
        printf("%s%s", i ? " " : "", table[i].name);
    fputs("' -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o default -F _sandboxio sandboxio\n",
          stdout);
}

/* A summary inside zsh's single quotes, as "name:description". */
static void print_zsh_quoted(const char *s)
{
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", stdout);
        else
            putchar(*s);
    }
}

static void print_zsh(const struct sbx_cli_command *table, size_t n)
{
    fputs("#compdef sandboxio\n"
          "# zsh completion for sandboxio, made by `sandboxio completion zsh`\n"
          "_sandboxio() {\n"
          "    local -a commands\n"
          "    commands=(\n",
          stdout);
    for (size_t i = 0; i < n; i++) {
        printf("        '%s:", table[i].name);
        print_zsh_quoted(table[i].summary);
        fputs("'\n", stdout);
    }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands 'sandboxio command' commands\n"
          "    elif (( CURRENT == 3 )) && [[ $words[2] == help ]]; then\n"
          "        _describe -t commands 'sandboxio command' commands\n"
          "    else\n"
          "        _files\n"
          "    fi\n"
          "}\n"
          "_sandboxio \"$@\"\n",
          stdout);
}

int sbx_cli_completion(int argc, char **argv, const struct sbx_cli_command *table, size_t n)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        usage(stdout);
        return 0;
    }
    if (argc != 2)
        return sbx_cli_usage_error("completion", "want one shell: bash or zsh");
    if (strcmp(argv[1], "bash") == 0)
        print_bash(table, n);
    else if (strcmp(argv[1], "zsh") == 0)
        print_zsh(table, n);
    else
        return sbx_cli_usage_error("completion", "no completion for shell '%s' (bash, zsh)", argv[1]);
    return 0;
}
