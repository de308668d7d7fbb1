/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_output.c - SBX-EXEC-009..012: output: 64 MiB on both streams at once
 * (captured and streamed) without deadlock, binary bytes, and the output cap
 * with its truncated flag.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases.h"

#define BIG ((size_t)64 << 20)
#define BIG_TEXT "67108864"
/* Each stream repeats its own 16-byte line, so a mix-up shows. */
#define OUT_LINE "0123456789abcde\n"
#define ERR_LINE "ABCDEFGHIJKLMNO\n"
#define BIG_SCRIPT                                                   \
    "(yes ABCDEFGHIJKLMNO | head -c " BIG_TEXT " >&2) & "            \
    "yes 0123456789abcde | head -c " BIG_TEXT "; wait"

/* Offset of the first byte of data (at stream offset pos) off the line, or -1. */
static long pattern_mismatch(const char *line, size_t pos, const unsigned char *data, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (data[i] != (unsigned char)line[(pos + i) % 16])
            return (long)(pos + i);
    return -1;
}

static void expect_big(sbxc_ctx *ctx, const char *name, const void *data, size_t len,
                       const char *line, int truncated)
{
    SBXC_CHECK(ctx, len == BIG, "%s: %zu bytes captured, expected %zu%s", name, len, BIG,
               truncated ? " (reported truncated)" : " (and not reported truncated)");
    SBXC_CHECK(ctx, !truncated, "%s: reported truncated below the cap", name);
    long bad = pattern_mismatch(line, 0, data, len);
    SBXC_CHECK(ctx, bad < 0, "%s: wrong byte at offset %ld", name, bad);
}

void sbxc_case_big_output(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, BIG + 1);
    sbx_cmd *cmd = sbxc_sh(ctx, BIG_SCRIPT, NULL);
    SBXC_OK(ctx, "sbx_cmd_set_output_cap", sbx_cmd_set_output_cap(cmd, BIG + 1));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "64 MiB on stdout and stderr");
    size_t olen = 0, elen = 0;
    const void *out = sbx_result_stdout(r, &olen);
    const void *err = sbx_result_stderr(r, &elen);
    expect_big(ctx, "stdout", out, olen, OUT_LINE, sbx_result_truncated(r, SBX_STDOUT));
    expect_big(ctx, "stderr", err, elen, ERR_LINE, sbx_result_truncated(r, SBX_STDERR));
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

typedef struct stream_count {
    size_t n[3];
    long bad[3];
    int bad_stream;
} stream_count;

static int count_output(void *userdata, int stream, const void *data, size_t len)
{
    stream_count *sc = userdata;
    if (stream != SBX_STDOUT && stream != SBX_STDERR) {
        sc->bad_stream = stream;
        return 0;
    }
    if (sc->bad[stream] < 0)
        sc->bad[stream] = pattern_mismatch(stream == SBX_STDOUT ? OUT_LINE : ERR_LINE,
                                           sc->n[stream], data, len);
    sc->n[stream] += len;
    return 0;
}

void sbxc_case_big_output_stream(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cmd *cmd = sbxc_sh(ctx, BIG_SCRIPT, NULL);
    stream_count sc = { .bad = { -1, -1, -1 } };
    sbx_result *r = NULL;
    int rc = sbx_exec_stream(&r, sb, cmd, count_output, &sc);
    sbx_cmd_free(cmd);
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_exec_stream", rc);
    sbxc_expect_exit(ctx, r, 0, "64 MiB streamed on stdout and stderr");
    sbx_result_free(r);
    SBXC_CHECK(ctx, sc.bad_stream == 0, "the callback got stream %d", sc.bad_stream);
    SBXC_CHECK(ctx, sc.n[SBX_STDOUT] == BIG, "stdout: %zu bytes streamed, expected %zu",
               sc.n[SBX_STDOUT], BIG);
    SBXC_CHECK(ctx, sc.n[SBX_STDERR] == BIG, "stderr: %zu bytes streamed, expected %zu",
               sc.n[SBX_STDERR], BIG);
    SBXC_CHECK(ctx, sc.bad[SBX_STDOUT] < 0, "stdout: wrong byte at offset %ld",
               sc.bad[SBX_STDOUT]);
    SBXC_CHECK(ctx, sc.bad[SBX_STDERR] < 0, "stderr: wrong byte at offset %ld",
               sc.bad[SBX_STDERR]);
    sbxc_close(ctx, sb);
}

void sbxc_case_binary_output(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    /* printf's octal escapes give every byte value, NUL included. */
    char format[256 * 4 + 1];
    for (int i = 0; i < 256; i++)
        snprintf(format + i * 4, 5, "\\%03o", i);
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "printf \"$1\"; printf \"$1\" >&2; "
                                              "head -c 100000 /dev/zero", format, NULL));
    sbxc_expect_exit(ctx, r, 0, "printf of every byte value");
    size_t olen = 0, elen = 0;
    const unsigned char *out = sbx_result_stdout(r, &olen);
    const unsigned char *err = sbx_result_stderr(r, &elen);
    SBXC_CHECK(ctx, olen == 256 + 100000, "stdout has %zu bytes, expected %d", olen,
               256 + 100000);
    SBXC_CHECK(ctx, elen == 256, "stderr has %zu bytes, expected 256", elen);
    for (size_t i = 0; i < olen; i++)
        SBXC_CHECK(ctx, out[i] == (i < 256 ? i : 0), "stdout: byte %zu is %u, expected %zu", i,
                   out[i], i < 256 ? i : 0);
    for (size_t i = 0; i < elen; i++)
        SBXC_CHECK(ctx, err[i] == i, "stderr: byte %zu is %u", i, err[i]);
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

/* Run `head -c produced` on stdout (and 10 bytes on stderr) and check the capture. */
static void expect_capped(sbxc_ctx *ctx, sbx_sandbox *sb, size_t cmd_cap, size_t produced,
                          size_t want_len, int want_truncated)
{
    char count[32];
    snprintf(count, sizeof count, "%zu", produced);
    sbx_cmd *cmd = sbxc_sh(ctx, "head -c \"$1\" /dev/zero; printf 0123456789 >&2", count, NULL);
    if (cmd_cap)
        SBXC_OK(ctx, "sbx_cmd_set_output_cap", sbx_cmd_set_output_cap(cmd, cmd_cap));
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    char what[96];
    snprintf(what, sizeof what, "%zu bytes under a cap of %zu", produced, cmd_cap);
    /* Past the cap the stream is drained, not closed: the command ends normally. */
    sbxc_expect_exit(ctx, r, 0, what);
    size_t olen = 0, elen = 0;
    sbx_result_stdout(r, &olen);
    sbx_result_stderr(r, &elen);
    SBXC_CHECK(ctx, olen == want_len, "%s: %zu bytes captured, expected %zu", what, olen,
               want_len);
    SBXC_CHECK(ctx, sbx_result_truncated(r, SBX_STDOUT) == want_truncated,
               "%s: truncated flag is %d, expected %d", what,
               sbx_result_truncated(r, SBX_STDOUT), want_truncated);
    SBXC_CHECK(ctx, elen == 10 && !sbx_result_truncated(r, SBX_STDERR),
               "%s: stderr (10 bytes, under the cap) came back as %zu bytes, truncated=%d", what,
               elen, sbx_result_truncated(r, SBX_STDERR));
    sbx_result_free(r);
}

void sbxc_case_output_cap(sbxc_ctx *ctx)
{
    /* The smaller of the policy's cap and the command's applies. */
    sbx_sandbox *sb = sbxc_open_default(ctx, 4096);
    expect_capped(ctx, sb, 1000, 5000, 1000, 1);
    expect_capped(ctx, sb, 1000, 1000, 1000, 0);
    expect_capped(ctx, sb, 1000, 999, 999, 0);
    expect_capped(ctx, sb, 100000, 5000, 4096, 1);
    expect_capped(ctx, sb, 0, (size_t)8 << 20, 4096, 1);
    sbxc_close(ctx, sb);
}

static int stop_at_first_output(void *userdata, int stream, const void *data, size_t len)
{
    int *calls = userdata;
    (*calls)++;
    return 1;
}

void sbxc_case_stream_abort(sbxc_ctx *ctx)
{
    char token[17];
    sbxc_token(token);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cmd *cmd = sbxc_sh(ctx, "echo started; sleep 3; echo late > sbxc-late; sleep 7; : \"$1\"",
                           token, NULL);
    int calls = 0;
    sbx_result *r = NULL;
    double start = sbxc_now();
    int rc = sbx_exec_stream(&r, sb, cmd, stop_at_first_output, &calls);
    double took = sbxc_now() - start;
    sbx_result_free(r);
    sbx_cmd_free(cmd);
    sbxc_expect_code(ctx, "sbx_exec_stream whose callback asked to stop", rc, SBX_E_EXEC_ABORTED);
    SBXC_CHECK(ctx, calls == 1, "the callback was called %d times after asking to stop", calls);
    SBXC_CHECK(ctx, took < 3.0, "sbx_exec_stream returned %.2fs after the callback asked to stop",
               took);
    /* Killed means killed: nothing of the command goes on. */
    pid_t pid = 0;
    SBXC_CHECK(ctx, !sbxc_host_process_lingers(token, 3.0, &pid),
               "the stopped command still runs on the host (pid %d)", (int)pid);
    if (sbxc_has(ctx, SBX_CAP_PERSIST)) {
        while (sbxc_now() < start + 4.5) {
            struct timespec ts = { 0, 100000000L };
            nanosleep(&ts, NULL);
        }
        SBXC_CHECK(ctx, !sbxc_sandbox_has_file(ctx, sb, "sbxc-late"),
                   "the stopped command ran on and wrote a file");
    }
    sbxc_close(ctx, sb);
}
