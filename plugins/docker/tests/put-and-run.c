/* SPDX-License-Identifier: Apache-2.0 */
/*
 * put-and-run DSN FILE PATH CMD [ARGS...] - open a sandbox, write the host's
 * FILE into it at PATH (relative to the work dir, mode 0755), run CMD there
 * and print its stdout and stderr; exits with CMD's status (128+N for
 * signal N), or 99 with a message if sandboxio failed. The docker tests use
 * it to bring in programs the test image lacks (a static probe).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sandboxio/sandboxio.h>

static int die(const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    fprintf(stderr, "FAIL: %s: %s %s\n", what, sbx_error_id(rc), e ? e->message : "");
    return 99;
}

static long from_file(void *ud, void *buf, size_t len)
{
    size_t n = fread(buf, 1, len, ud);
    return n == 0 && ferror((FILE *)ud) ? -1 : (long)n;
}

int main(int argc, char **argv)
{
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;
    sbx_cmd *cmd = NULL;
    sbx_result *res = NULL;
    int rc;
    if (argc < 5) {
        fprintf(stderr, "usage: put-and-run DSN FILE PATH CMD [ARGS...]\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        perror(argv[2]);
        return 99;
    }
    long size = ftell(f);
    rewind(f);
    if ((rc = sbx_client_new(&client)) == SBX_OK &&
        (rc = sbx_sandbox_open(&sb, client, argv[1], NULL)) == SBX_OK)
        rc = sbx_file_write_from(sb, argv[3], (uint64_t)size, 0755, from_file, f);
    fclose(f);
    if (rc != SBX_OK)
        return die(!client ? "sbx_client_new" : !sb ? "sbx_sandbox_open" : "sbx_file_write_from", rc);
    if ((rc = sbx_cmd_new(&cmd, (const char *const *)argv + 4)) != SBX_OK)
        return die("sbx_cmd_new", rc);
    if ((rc = sbx_exec(&res, sb, cmd)) != SBX_OK)
        return die("sbx_exec", rc);
    size_t out_len, err_len;
    const void *out = sbx_result_stdout(res, &out_len);
    const void *err = sbx_result_stderr(res, &err_len);
    fwrite(out, 1, out_len, stdout);
    fwrite(err, 1, err_len, stderr);
    int status = sbx_result_exited(res) ? sbx_result_exit_code(res) : 128 + sbx_result_signal(res);
    sbx_result_free(res);
    sbx_cmd_free(cmd);
    if ((rc = sbx_sandbox_destroy(sb)) != SBX_OK)
        status = die("sbx_sandbox_destroy", rc);
    sbx_sandbox_free(sb);
    sbx_client_free(client);
    return status;
}
