/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fifo-refused DSN - a FIFO planted in the work dir by a command is refused
 * at once, with SBX_E4014, by every file operation that would open it: a
 * write (the engine would silently replace the FIFO), a read; and the FIFO
 * is still there afterwards. Each call must return within 5 s (a hang is
 * the bug). Exits 0 on success, 1 with a message. Run by
 * docker-fifo-refused.sh.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sandboxio/sandboxio.h>
#include <sbxu/clock.h>

static int failed;

static void expect(const char *what, int rc, int want, double started)
{
    double took = ((double)sbxu_mono_ns() / 1e9) - started;
    if (rc != want || took > 5.0) {
        const sbx_error *e = sbx_error_last();
        fprintf(stderr, "FAIL: %s: %s (%s) after %.1f s, expected %s at once\n", what,
                rc ? sbx_error_id(rc) : "SBX_OK", rc && e ? e->message : "", took,
                sbx_error_id(want));
        failed = 1;
    } else {
        printf("%s: %s in %.2f s\n", what, sbx_error_id(rc), took);
    }
}

static int sh(sbx_sandbox *sb, const char *script, char *out, size_t out_size)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    sbx_cmd *cmd = NULL;
    sbx_result *r = NULL;
    int rc = sbx_cmd_new(&cmd, argv);
    if (rc == SBX_OK)
        rc = sbx_exec(&r, sb, cmd);
    if (rc == SBX_OK) {
        size_t len = 0;
        const char *o = sbx_result_stdout(r, &len);
        snprintf(out, out_size, "%.*s", (int)len, o ? o : "");
    }
    sbx_result_free(r);
    sbx_cmd_free(cmd);
    return rc;
}

int main(int argc, char **argv)
{
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;
    char out[256];
    if (argc != 2) {
        fprintf(stderr, "usage: fifo-refused DSN\n");
        return 2;
    }
    if (sbx_client_new(&client) != SBX_OK || sbx_sandbox_open(&sb, client, argv[1], NULL) != SBX_OK ||
        sh(sb, "mkfifo result.txt && echo made", out, sizeof out) != SBX_OK ||
        strcmp(out, "made\n") != 0) {
        const sbx_error *e = sbx_error_last();
        fprintf(stderr, "FAIL: setting up the FIFO: %s\n", e ? e->message : out);
        return 1;
    }
    double t = ((double)sbxu_mono_ns() / 1e9);
    expect("write over a FIFO", sbx_file_write(sb, "result.txt", "x", 1, 0644), SBX_E_NOT_REGULAR, t);
    void *data = NULL;
    size_t len = 0;
    t = ((double)sbxu_mono_ns() / 1e9);
    expect("read of a FIFO", sbx_file_read(sb, "result.txt", &data, &len), SBX_E_NOT_REGULAR, t);
    sbx_free(data);
    if (sh(sb, "[ -p result.txt ] && echo still-fifo", out, sizeof out) != SBX_OK ||
        strcmp(out, "still-fifo\n") != 0) {
        fprintf(stderr, "FAIL: the FIFO was replaced: '%s'\n", out);
        failed = 1;
    }
    if (sbx_sandbox_destroy(sb) != SBX_OK) {
        fprintf(stderr, "FAIL: destroy: %s\n", sbx_error_last()->message);
        failed = 1;
    }
    sbx_sandbox_free(sb);
    sbx_client_free(client);
    if (!failed)
        printf("PASS\n");
    return failed;
}
