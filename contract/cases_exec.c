/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_exec.c - SBX-EXEC-001..008: how a command is started and how it
 * ends: exit codes, signals, argv passed verbatim with no shell, the
 * environment, the working directory, a missing program.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

void sbxc_case_exit_codes(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    for (int code = 0; code <= 255; code++) {
        char arg[8];
        snprintf(arg, sizeof arg, "%d", code);
        sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "exit \"$1\"", arg, NULL));
        char what[32];
        snprintf(what, sizeof what, "exit %d", code);
        sbxc_expect_exit(ctx, r, code, what);
        SBXC_CHECK(ctx, sbx_result_signal(r) == 0, "exit %d: signal %d reported", code,
                   sbx_result_signal(r));
        sbx_result_free(r);
    }
    sbxc_close(ctx, sb);
}

void sbxc_case_signal_death(sbxc_ctx *ctx)
{
    static const struct { const char *name; int number; } sigs[] = {
        { "TERM", 15 }, { "KILL", 9 }, { "SEGV", 11 },
    };
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "kill -s \"$1\" $$", sigs[i].name, NULL));
        SBXC_CHECK(ctx, !sbx_result_exited(r),
                   "SIG%s: reported as a normal exit with status %d, not as a death by signal",
                   sigs[i].name, sbx_result_exit_code(r));
        SBXC_CHECK(ctx, sbx_result_signal(r) == sigs[i].number,
                   "SIG%s: signal %d reported, expected %d", sigs[i].name, sbx_result_signal(r),
                   sigs[i].number);
        SBXC_CHECK(ctx, sbx_result_exit_code(r) == -1,
                   "SIG%s: exit code %d, expected -1 for a death by signal", sigs[i].name,
                   sbx_result_exit_code(r));
        SBXC_CHECK(ctx, !sbx_result_timed_out(r), "SIG%s: reported as a timeout", sigs[i].name);
        sbx_result_free(r);
    }
    sbxc_close(ctx, sb);
}

/* Run argv (printf FORMAT args...) and compare its stdout with want. */
static void expect_stdout(sbxc_ctx *ctx, sbx_sandbox *sb, const char *const *argv,
                          const char *want, const char *what)
{
    sbx_result *r = sbxc_run(ctx, sb, sbxc_cmd(ctx, argv));
    sbxc_expect_exit(ctx, r, 0, what);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, len == strlen(want) && memcmp(out, want, len) == 0,
               "%s: stdout is '%.*s', expected '%s'", what, (int)(len > 300 ? 300 : len),
               out ? out : "", want);
    sbx_result_free(r);
}

void sbxc_case_argv_verbatim(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = {
        "printf", "<%s>\\n",
        "two words", "  lead and trail  ", "", "'single'", "\"double\"",
        "back\\slash", "h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac",
        "$HOME", "*", "a;b", "tab\there", "new\nline", "", NULL,
    };
    const char *want =
        "<two words>\n<  lead and trail  >\n<>\n<'single'>\n<\"double\">\n"
        "<back\\slash>\n<h\xc3\xa9llo w\xc3\xb6rld \xe2\x9c\x93 \xe6\x97\xa5\xe6\x9c\xac>\n"
        "<$HOME>\n<*>\n<a;b>\n<tab\there>\n<new\nline>\n<>\n";
    expect_stdout(ctx, sb, argv, want, "printf with awkward arguments");
    sbxc_close(ctx, sb);
}

void sbxc_case_no_shell(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = { "echo", "a;", "echo", "b", "$(echo", "c)", "`echo", "d`", "|",
                           "cat", ">", "sbxc-no-shell", "&&", "exit", "3", NULL };
    expect_stdout(ctx, sb, argv, "a; echo b $(echo c) `echo d` | cat > sbxc-no-shell && exit 3\n",
                  "echo with shell syntax");
    SBXC_CHECK(ctx, !sbxc_sandbox_has_file(ctx, sb, "sbxc-no-shell"),
               "a '>' argument created a file: the command went through a shell");
    sbxc_close(ctx, sb);
}

void sbxc_case_env_inherits_nothing(sbxc_ctx *ctx)
{
    char token[17], name[40];
    sbxc_token(token);
    snprintf(name, sizeof name, "SBXC_CANARY_%s", token);
    /* The case process's own environment: the sandbox must not get it. */
    if (setenv(name, token, 1) != 0)
        sbxc_fail(ctx, "setenv failed");
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = { "env", NULL };
    sbx_result *r = sbxc_run(ctx, sb, sbxc_cmd(ctx, argv));
    sbxc_expect_exit(ctx, r, 0, "env");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, token),
               "the command sees the caller's variable %s: the environment was inherited", name);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, "SANDBOXIO_PLUGIN_PATH="),
               "the command sees the caller's SANDBOXIO_PLUGIN_PATH");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

void sbxc_case_env_set(sbxc_ctx *ctx)
{
    sbx_policy *p = sbxc_policy(ctx);
    SBXC_OK(ctx, "sbx_policy_set_env", sbx_policy_set_env(p, "SBXC_FROM_POLICY", "policy value"));
    sbx_sandbox *sb = sbxc_open(ctx, p);
    sbx_policy_free(p);
    sbx_cmd *cmd = sbxc_sh(ctx, "printf '[%s][%s][%s][%s]' \"$SBXC_FROM_POLICY\" \"$SBXC_SPACES\" "
                           "\"${SBXC_EMPTY-unset}\" \"$SBXC_UTF8\"", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_env", sbx_cmd_set_env(cmd, "SBXC_SPACES", "a b  c"));
    SBXC_OK(ctx, "sbx_cmd_set_env", sbx_cmd_set_env(cmd, "SBXC_EMPTY", ""));
    SBXC_OK(ctx, "sbx_cmd_set_env", sbx_cmd_set_env(cmd, "SBXC_UTF8", "\xc3\xa9\xe2\x9c\x93"));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "printf of the variables");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    const char *want = "[policy value][a b  c][][\xc3\xa9\xe2\x9c\x93]";
    SBXC_CHECK(ctx, len == strlen(want) && memcmp(out, want, len) == 0,
               "the command sees '%.*s', expected '%s'", (int)(len > 200 ? 200 : len),
               out ? out : "", want);
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

void sbxc_case_cwd(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char *work = sbxc_sh_ok(ctx, sb, "mkdir -p 'sub dir/deeper' && pwd");
    work[strcspn(work, "\n")] = '\0';
    SBXC_CHECK(ctx, work[0] == '/', "pwd printed '%s', not an absolute path", work);

    /* The directory is named relative to the work directory. */
    char want[4200];
    snprintf(want, sizeof want, "%s/sub dir/deeper\n", strcmp(work, "/") ? work : "");
    sbx_cmd *cmd = sbxc_sh(ctx, "pwd", NULL);
    SBXC_OK(ctx, "sbx_cmd_set_cwd", sbx_cmd_set_cwd(cmd, "sub dir/./deeper"));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "pwd in the chosen directory");
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, len == strlen(want) && memcmp(out, want, len) == 0,
               "pwd printed '%.*s', expected '%s'", (int)(len > 300 ? 300 : len), out ? out : "",
               want);
    sbx_result_free(r);
    free(work);

    /* Like file paths, a directory outside the work directory is refused. */
    cmd = sbxc_sh(ctx, "pwd", NULL);
    sbxc_expect_code(ctx, "sbx_cmd_set_cwd('/')", sbx_cmd_set_cwd(cmd, "/"), SBX_E_PATH_ESCAPE);
    sbxc_expect_code(ctx, "sbx_cmd_set_cwd('..')", sbx_cmd_set_cwd(cmd, ".."),
                     SBX_E_PATH_ESCAPE);
    sbx_cmd_free(cmd);
    sbxc_close(ctx, sb);
}

void sbxc_case_missing_program(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = { "sbxc-no-such-program-7f3a", "arg", NULL };
    sbx_cmd *cmd = sbxc_cmd(ctx, argv);
    sbx_result *r = NULL;
    int rc = sbx_exec(&r, sb, cmd);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
    sbxc_expect_code(ctx, "sbx_exec of a program that does not exist", rc, SBX_E_EXEC_NOT_FOUND);
    sbxc_close(ctx, sb);
}

/* The hexadecimal mask after "field:" in /proc/self/status text, or -1. */
static long long status_mask(const char *text, size_t len, const char *field)
{
    const char *p = memmem(text, len, field, strlen(field));
    if (!p)
        return -1;
    return strtoll(p + strlen(field), NULL, 16);
}

void sbxc_case_clean_signal_state(sbxc_ctx *ctx)
{
    /* The case process ignores SIGPIPE (runner.c): a backend that passed
     * the caller's dispositions on would show bit 13 here. */
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    const char *argv[] = { "cat", "/proc/self/status", NULL };
    sbx_result *r = sbxc_run(ctx, sb, sbxc_cmd(ctx, argv));
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    long long ignored = status_mask(out, len, "SigIgn:");
    long long blocked = status_mask(out, len, "SigBlk:");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
    /* Signals 32 and 33 belong to the C library (glibc's posix_spawn leaves
     * them ignored): no program uses them, no caller sets them. */
    const long long libc_reserved = (1LL << 31) | (1LL << 32);
    if (ignored > 0)
        ignored &= ~libc_reserved;
    if (ignored < 0 || blocked < 0)
        sbxc_host_skip(ctx, "the sandbox has no /proc/self/status to read the signal state from");
    SBXC_CHECK(ctx, ignored == 0, "the command starts with signals ignored (SigIgn %llx): "
               "the caller's dispositions leaked in", ignored);
    SBXC_CHECK(ctx, blocked == 0, "the command starts with signals blocked (SigBlk %llx)",
               blocked);
}
