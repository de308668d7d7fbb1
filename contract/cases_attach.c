/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_attach.c - SBX-ATTACH-*, SBX-PAUSE-*: sandboxes that outlive their
 * handle. Another process attaches and sees the files; list reports name
 * and expiry; at its TTL a sandbox is gone, whether its creator detached or
 * was SIGKILLed; an attached handle runs under the stored policy, never a
 * wider one; pause then resume keeps the files.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sbxu/clock.h>

#include "cases.h"

/* "sbxc-" + a token: a name no other case or run uses. */
static void fresh_name(char out[24])
{
    char token[17];
    sbxc_token(token);
    snprintf(out, 24, "sbxc-%s", token);
}

struct found {
    const char *id;
    int seen;
    char name[64];
    int64_t expires_ms;
    int state;
};

static int find_entry(void *userdata, const sbx_sandbox_info *info)
{
    struct found *f = userdata;
    if (strcmp(info->id, f->id) != 0)
        return 0;
    f->seen++;
    snprintf(f->name, sizeof f->name, "%s", info->name);
    f->expires_ms = info->expires_ms;
    f->state = info->state;
    return 0;
}

/* Is sandbox id listed? Fills f. */
static bool listed(sbxc_ctx *ctx, const char *id, struct found *f)
{
    memset(f, 0, sizeof *f);
    f->id = id;
    SBXC_OK(ctx, "sbx_client_list", sbx_client_list(ctx->client, ctx->dsn, find_entry, f));
    SBXC_CHECK(ctx, f->seen <= 1, "sbx_client_list reports %s %d times", id, f->seen);
    return f->seen == 1;
}

/* Attach to id_or_name from a fresh client of a child process; 0 if its file holds token. */
static int child_reads(sbxc_ctx *ctx, const char *id_or_name, const char *token)
{
    sbx_client *c = NULL;
    sbx_sandbox *sb = NULL;
    void *data = NULL;
    size_t len = 0;
    int ok = sbx_client_new(&c) == SBX_OK &&
             sbx_sandbox_attach(&sb, c, ctx->dsn, id_or_name, NULL) == SBX_OK &&
             sbx_file_read(sb, "attach/token", &data, &len) == SBX_OK && len == 16 &&
             memcmp(data, token, 16) == 0;
    sbx_free(data);
    if (sb && sbx_sandbox_detach(sb) != SBX_OK)
        ok = 0;
    sbx_client_free(c);
    return ok ? 0 : 1;
}

void sbxc_case_attach_other_process(sbxc_ctx *ctx)
{
    char name[24], token[17], id[256];
    fresh_name(name);
    sbxc_token(token);
    sbx_policy *p = sbxc_policy(ctx);
    sbx_sandbox *sb = sbxc_open_named(ctx, p, name, 120000);
    sbx_policy_free(p);
    snprintf(id, sizeof id, "%s", sbx_sandbox_id(sb));
    SBXC_CHECK(ctx, *id, "a sandbox that can be attached to has no id");
    SBXC_CHECK(ctx, strcmp(sbx_sandbox_name(sb), name) == 0, "sbx_sandbox_name says '%s', not '%s'",
               sbx_sandbox_name(sb), name);
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "attach/token", token, 16, 0644));
    sbxc_detach(ctx, sb);

    pid_t pid = fork();
    if (pid < 0)
        sbxc_fail(ctx, "fork: %m");
    if (pid == 0)
        _exit(child_reads(ctx, id, token) | (child_reads(ctx, name, token) << 1));
    int status = 0;
    if (waitpid(pid, &status, 0) != pid)
        sbxc_fail(ctx, "waitpid: %m");
    SBXC_CHECK(ctx, WIFEXITED(status) && (WEXITSTATUS(status) & 1) == 0,
               "another process attached by id did not read the file written before detach");
    SBXC_CHECK(ctx, WIFEXITED(status) && (WEXITSTATUS(status) & 2) == 0,
               "another process attached by name did not read the file written before detach");

    sbx_sandbox *again = NULL;
    SBXC_OK(ctx, "sbx_sandbox_attach", sbx_sandbox_attach(&again, ctx->client, ctx->dsn, id, NULL));
    SBXC_CHECK(ctx, strcmp(sbx_sandbox_id(again), id) == 0, "attach by id gave sandbox '%s'",
               sbx_sandbox_id(again));
    SBXC_OK(ctx, "sbx_sandbox_destroy", sbx_sandbox_destroy(again));
    sbx_sandbox_free(again);
    again = NULL;
    sbxc_expect_code(ctx, "attach after destroy",
                     sbx_sandbox_attach(&again, ctx->client, ctx->dsn, id, NULL),
                     SBX_E_NOT_FOUND);
    sbx_sandbox_free(again);
}

void sbxc_case_attach_list(sbxc_ctx *ctx)
{
    char name[24], id[256];
    fresh_name(name);
    int64_t before = sbxu_wall_ms();
    sbx_policy *p = sbxc_policy(ctx);
    sbx_sandbox *sb = sbxc_open_named(ctx, p, name, 60000);
    sbx_policy_free(p);
    int64_t after = sbxu_wall_ms();
    snprintf(id, sizeof id, "%s", sbx_sandbox_id(sb));
    struct found f;
    SBXC_CHECK(ctx, listed(ctx, id, &f), "sbx_client_list does not report the new sandbox %s", id);
    SBXC_CHECK(ctx, strcmp(f.name, name) == 0, "listed with name '%s', not '%s'", f.name, name);
    /* A second of slack either way for the backend's own clock and rounding. */
    SBXC_CHECK(ctx, f.expires_ms >= before + 59000 && f.expires_ms <= after + 61000,
               "listed expiry %lld is not 60 s after creation (%lld..%lld)",
               (long long)f.expires_ms, (long long)before, (long long)after);
    SBXC_CHECK(ctx, f.state == SBX_SANDBOX_RUNNING, "listed in state %s, not running",
               sbx_sandbox_state_name(f.state));
    SBXC_CHECK(ctx, llabs((long long)(sbx_sandbox_expires(sb) - f.expires_ms)) <= 2000,
               "sbx_sandbox_expires (%lld) and the listing (%lld) disagree",
               (long long)sbx_sandbox_expires(sb), (long long)f.expires_ms);
    sbxc_close(ctx, sb);
    SBXC_CHECK(ctx, !listed(ctx, id, &f), "a destroyed sandbox is still listed");
}

/* Wait until attach says id is gone (at most limit_s); FAIL if it never is. */
static void expect_gone(sbxc_ctx *ctx, const char *id, double limit_s, const char *what)
{
    double end = sbxc_now() + limit_s;
    int rc;
    do {
        sbx_sandbox *sb = NULL;
        rc = sbx_sandbox_attach(&sb, ctx->client, ctx->dsn, id, NULL);
        if (sb)
            SBXC_OK(ctx, "sbx_sandbox_detach", sbx_sandbox_detach(sb));
        if (rc == SBX_E_NOT_FOUND)
            break;
        if (rc != SBX_OK)
            sbxc_fail_rc(ctx, "sbx_sandbox_attach while waiting for the TTL", rc);
        usleep(250 * 1000);
    } while (sbxc_now() < end);
    SBXC_CHECK(ctx, rc == SBX_E_NOT_FOUND, "%s: still there %.0f s after its TTL", what,
               limit_s);
    struct found f;
    SBXC_CHECK(ctx, !listed(ctx, id, &f), "%s: gone for attach but still listed", what);
}

void sbxc_case_attach_ttl_ends(sbxc_ctx *ctx)
{
    char id[256];
    sbx_policy *p = sbxc_policy(ctx);
    sbx_sandbox *sb = sbxc_open_named(ctx, p, NULL, 2000);
    sbx_policy_free(p);
    snprintf(id, sizeof id, "%s", sbx_sandbox_id(sb));
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "ttl", "x", 1, 0644));
    sbxc_detach(ctx, sb);
    sleep(2);
    expect_gone(ctx, id, 20, "a detached sandbox with a TTL of 2 s");
}

void sbxc_case_attach_survives_creator_kill(sbxc_ctx *ctx)
{
    char token[17], id[256] = "";
    int fds[2];
    sbxc_token(token);
    if (pipe(fds) != 0)
        sbxc_fail(ctx, "pipe: %m");
    /* Long enough that, on a loaded machine, another process can still
     * attach and read before the TTL: the wait below is what is left of it. */
    const unsigned ttl_s = 15;
    double started = sbxc_now();
    pid_t pid = fork();
    if (pid < 0)
        sbxc_fail(ctx, "fork: %m");
    if (pid == 0) {
        /* The creator: makes the sandbox, says its id, and is killed holding it. */
        sbx_client *c = NULL;
        sbx_sandbox *sb = NULL;
        sbx_policy *p = sbxc_policy(ctx);
        sbx_sandbox_opts *o = NULL;
        close(fds[0]);
        if (sbx_client_new(&c) == SBX_OK && sbx_sandbox_opts_new(&o) == SBX_OK &&
            sbx_sandbox_opts_set_ttl(o, ttl_s * 1000u) == SBX_OK &&
            sbx_sandbox_open_with(&sb, c, ctx->dsn, p, o) == SBX_OK &&
            sbx_file_write(sb, "attach/token", token, 16, 0644) == SBX_OK) {
            const char *sid = sbx_sandbox_id(sb);
            if (write(fds[1], sid, strlen(sid)) < 0)
                _exit(2);
        }
        close(fds[1]);
        kill(getpid(), SIGKILL);
        _exit(3);
    }
    close(fds[1]);
    ssize_t n = read(fds[0], id, sizeof id - 1);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    SBXC_CHECK(ctx, n > 0, "the creator could not make a sandbox with a TTL");
    id[n] = '\0';
    SBXC_CHECK(ctx, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
               "the creator was not killed by SIGKILL");
    SBXC_CHECK(ctx, child_reads(ctx, id, token) == 0,
               "the sandbox did not survive its creator's SIGKILL with its files");
    double left = (double)ttl_s - (sbxc_now() - started);
    if (left > 0)
        usleep((useconds_t)(left * 1e6));
    expect_gone(ctx, id, 20, "a sandbox whose creator was killed, at its TTL of 15 s");
}

static sbx_policy *policy_with(sbxc_ctx *ctx, uint64_t timeout_ms, size_t cap)
{
    sbx_policy *p = sbxc_policy(ctx);
    int rc = sbx_policy_set_timeout(p, timeout_ms);
    if (rc == SBX_OK)
        rc = sbx_policy_set_output_cap(p, cap);
    if (rc != SBX_OK) {
        sbx_policy_free(p);
        sbxc_fail_rc(ctx, "building the policy", rc);
    }
    return p;
}

/* Attach id under p: FAIL unless refused with want and no handle made. */
static void expect_refused(sbxc_ctx *ctx, const char *id, sbx_policy *p, int want,
                           const char *what)
{
    sbx_sandbox *sb = NULL;
    int rc = sbx_sandbox_attach(&sb, ctx->client, ctx->dsn, id, p);
    sbx_policy_free(p);
    if (sb)
        sbx_sandbox_detach(sb);
    SBXC_CHECK(ctx, sb == NULL, "%s: a handle was made although the attach returned %s", what,
               sbx_error_id(rc));
    sbxc_expect_code(ctx, what, rc, want);
}

void sbxc_case_attach_cannot_loosen(sbxc_ctx *ctx)
{
    char id[256];
    sbx_policy *p = policy_with(ctx, 30000, 4096);
    sbx_sandbox *sb = sbxc_open_named(ctx, p, NULL, 120000);
    sbx_policy_free(p);
    snprintf(id, sizeof id, "%s", sbx_sandbox_id(sb));

    expect_refused(ctx, id, policy_with(ctx, 0, 4096), SBX_E_POLICY_WIDER,
                   "attach without the stored timeout");
    expect_refused(ctx, id, policy_with(ctx, 60000, 4096), SBX_E_POLICY_WIDER,
                   "attach with a longer timeout");
    expect_refused(ctx, id, policy_with(ctx, 30000, 0), SBX_E_POLICY_WIDER,
                   "attach without the stored output cap");
    if (sbxc_has(ctx, SBX_CAP_NET_NONE)) {
        sbx_policy *open = policy_with(ctx, 30000, 4096);
        SBXC_OK(ctx, "sbx_policy_set_network", sbx_policy_set_network(open, SBX_NET_OPEN));
        expect_refused(ctx, id, open, SBX_E_POLICY_WIDER, "attach opening the network");
    }

    /* With no policy the stored one applies: its output cap cuts the output. */
    sbx_sandbox *a = NULL;
    SBXC_OK(ctx, "sbx_sandbox_attach", sbx_sandbox_attach(&a, ctx->client, ctx->dsn, id, NULL));
    sbx_result *r = NULL;
    sbx_cmd *cmd = sbxc_sh(ctx, "head -c 10000 /dev/zero", NULL);
    int rc = sbx_exec(&r, a, cmd);
    sbx_cmd_free(cmd);
    size_t len = 0;
    if (rc == SBX_OK)
        (void)sbx_result_stdout(r, &len);
    int truncated = rc == SBX_OK && sbx_result_truncated(r, SBX_STDOUT);
    sbx_result_free(r);
    SBXC_OK(ctx, "sbx_sandbox_detach", sbx_sandbox_detach(a));
    if (rc != SBX_OK)
        sbxc_fail_rc(ctx, "sbx_exec through the attached handle", rc);
    SBXC_CHECK(ctx, len == 4096 && truncated,
               "the attached handle captured %zu bytes (truncated: %d), not the stored cap of "
               "4096", len, truncated);
    sbxc_close(ctx, sb);
}

void sbxc_case_pause_resume_keeps_files(sbxc_ctx *ctx)
{
    char token[17];
    sbxc_token(token);
    sbx_policy *p = sbxc_policy(ctx);
    sbx_sandbox *sb = sbxc_open_named(ctx, p, NULL, 120000);
    sbx_policy_free(p);
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "paused", token, 16, 0644));
    SBXC_OK(ctx, "sbx_sandbox_pause", sbx_sandbox_pause(sb));
    SBXC_OK(ctx, "sbx_sandbox_resume", sbx_sandbox_resume(sb));
    char *out = sbxc_sh_ok(ctx, sb, "cat paused");
    SBXC_CHECK(ctx, strcmp(out, token) == 0, "after pause and resume the file holds '%s'", out);
    free(out);
    sbxc_close(ctx, sb);
}
