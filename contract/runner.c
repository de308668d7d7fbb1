/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.c - run the table of cases against one DSN.
 *
 * Each case runs in a forked process in its own process group, with a
 * wall-clock limit. Whatever the backend does - crash, hang, raise a signal -
 * only that case fails; the runner goes on and reports every case.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "contract.h"
#include "runner.h"

/* How long a case may take to exit once it has reported. */
#define EXIT_GRACE_S 10.0

double sbxc_time_factor(void)
{
    const char *s = getenv("SANDBOXIO_CONTRACT_TIME_FACTOR");
    char *end = NULL;
    double v = s ? strtod(s, &end) : 1.0;
    return s && end != s && *end == '\0' && v > 0 && v <= 100 ? v : 1.0;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* Read the child's NUL-terminated record until deadline; bytes read, or -1 on timeout. */
static ssize_t read_record(int fd, char *buf, size_t size, double deadline)
{
    size_t got = 0;
    for (;;) {
        double left = deadline - sbxc_now();
        if (left <= 0)
            return -1;
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        int pr = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return (ssize_t)got; /* cannot wait: treat as the end */
        if (pr == 0)
            continue;
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; /* EOF: the case process is gone */
        got += (size_t)n;
        /* A backend's process may hold a copy of the pipe: the record's NUL
         * ends it, not EOF. */
        if (memchr(buf, '\0', got) || got == size - 1)
            break;
    }
    buf[got] = '\0';
    return (ssize_t)got;
}

/* Wait for pid until deadline; kill its group past it. Returns the wait status. */
static int reap(pid_t pid, double deadline, bool *killed)
{
    int status = 0;
    *killed = false;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            return status;
        if (sbxc_now() >= deadline && !*killed) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            *killed = true;
        }
        sleep_ms(10);
    }
}

static void describe_death(int status, char *buf, size_t size)
{
    if (WIFSIGNALED(status))
        snprintf(buf, size, "the case process was killed by signal %d (%s) without reporting",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(buf, size, "the case process exited with status %d without reporting",
                 WEXITSTATUS(status));
}

static SBXC_NORETURN void run_in_child(const sbxc_case *c, const char *dsn,
                                       const sbxc_backend *b, int fd)
{
    setpgid(0, 0);
    /* A case that is not about SIGPIPE should not die of one: the line
     * would blame the wrong thing. SBX-EXEC-016 puts the default back. */
    signal(SIGPIPE, SIG_IGN);
    sbxc_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.dsn = dsn;
    ctx.backend = b;
    ctx.result_fd = fd;
    int rc = sbx_client_new(&ctx.client);
    if (rc != SBX_OK)
        sbxc_fail_rc(&ctx, "sbx_client_new", rc);
    sbxc_check_needs(&ctx, c);
    c->fn(&ctx);
    sbxc_finish(&ctx, SBXC_PASS, NULL);
}

/* Keep a reason on one line, whatever the backend put in its messages. */
static void one_line(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            *s = ' ';
}

static void run_case(const sbxc_case *c, const char *dsn, const sbxc_backend *b,
                     sbxc_outcome *out)
{
    out->c = c;
    out->status = SBXC_FAIL;
    out->reason[0] = '\0';
    double start = sbxc_now();
    double limit = (double)(c->limit_s ? c->limit_s : 60) * sbxc_time_factor();

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(out->reason, sizeof out->reason, "runner: pipe: %s", strerror(errno));
        return;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->reason, sizeof out->reason, "runner: fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (pid == 0) {
        close(fds[0]);
        run_in_child(c, dsn, b, fds[1]);
    }
    close(fds[1]);
    setpgid(pid, pid); /* also done by the child: whichever runs first */

    char record[SBXC_REASON_MAX + 2];
    ssize_t n = read_record(fds[0], record, sizeof record, start + limit);
    close(fds[0]);
    bool killed = false;
    int status = reap(pid, n < 0 ? 0 : sbxc_now() + EXIT_GRACE_S, &killed);
    kill(-pid, SIGKILL); /* stragglers of the case's own process group */
    sbxc_remove_case_dirs(pid);
    out->seconds = sbxc_now() - start;

    if (n < 0)
        snprintf(out->reason, sizeof out->reason,
                 "did not finish within %.0fs: killed (a hang in the backend or the core)",
                 limit);
    else if (n == 0 || record[0] < '0' || record[0] > '2')
        describe_death(status, out->reason, sizeof out->reason);
    else {
        out->status = record[0] - '0';
        snprintf(out->reason, sizeof out->reason, "%.*s", SBXC_REASON_MAX - 1, record + 1);
        if (killed && out->status == SBXC_PASS) {
            out->status = SBXC_FAIL;
            snprintf(out->reason, sizeof out->reason,
                     "the case passed but its process did not exit within %.0fs "
                     "(a backend thread or process kept it alive)", EXIT_GRACE_S);
        }
    }
    /* A case that died cannot have destroyed its sandboxes: their owner is
     * gone now, so the backend's collector may take them. */
    if (n <= 0 || killed) {
        long collected = sbxc_collect_leaked(dsn);
        size_t used = strlen(out->reason);
        if (collected > 0)
            snprintf(out->reason + used, sizeof out->reason - used,
                     " (%ld leaked sandboxes collected)", collected);
    }
    one_line(out->reason);
}

static bool selected(const sbxc_case *c, const char *only)
{
    if (!only)
        return true;
    return fnmatch(only, c->id, 0) == 0 || fnmatch(only, c->name, 0) == 0;
}

static void print_line(FILE *f, const sbxc_outcome *o)
{
    fprintf(f, "%s %s %s (%.2fs)%s%s\n", sbxc_status_word(o->status), o->c->id, o->c->name,
            o->seconds, o->reason[0] ? ": " : "", o->reason);
    fflush(f);
}

int sbxc_run_suite(const sbxc_options *opts)
{
    FILE *lines = opts->json ? stderr : stdout;
    char *redacted = NULL;
    int rc = sbx_dsn_redact(opts->dsn, &redacted);
    if (rc != SBX_OK) {
        const sbx_error *e = sbx_error_last();
        fprintf(stderr, "sandboxio contract: %s: %s\n", sbx_error_id(rc),
                e && e->message ? e->message : sbx_strerror(rc));
        sbx_free(redacted);
        return SBXC_EXIT_USAGE;
    }

    size_t total = 0;
    for (const sbxc_case *c = sbxc_cases; c->id; c++)
        if (selected(c, opts->only))
            total++;
    if (total == 0) {
        fprintf(stderr, "sandboxio contract: no case matches '%s'\n", opts->only);
        sbx_free(redacted);
        return SBXC_EXIT_USAGE;
    }

    sbxc_backend b;
    char err[SBXC_REASON_MAX];
    if (sbxc_discover(opts->dsn, &b, err, sizeof err) != 0) {
        one_line(err);
        fprintf(stderr, "sandboxio contract: cannot use %s: %s\n", redacted, err);
        fprintf(lines, "Bail out! %s\n0 passed, 1 failed, 0 skipped\n", err);
        if (opts->json)
            sbxc_print_json_bail(stdout, redacted, err);
        sbx_free(redacted);
        return SBXC_EXIT_FAILED;
    }
    char caps[512];
    sbxc_caps_text(b.caps, caps, sizeof caps);
    fprintf(lines, "# sandboxio %s contract suite on %s: plugin %s %s, tier %s, caps %s\n",
            sbx_version(), redacted, b.name, b.version, sbx_tier_name(b.tier), caps);

    sbxc_outcome *outs = calloc(total, sizeof *outs);
    if (!outs) {
        fprintf(stderr, "sandboxio contract: out of memory\n");
        sbx_free(redacted);
        return SBXC_EXIT_FAILED;
    }
    size_t n = 0, counts[3] = { 0, 0, 0 };
    for (const sbxc_case *c = sbxc_cases; c->id; c++) {
        if (!selected(c, opts->only))
            continue;
        run_case(c, opts->dsn, &b, &outs[n]);
        counts[outs[n].status]++;
        print_line(lines, &outs[n]);
        n++;
    }
    fprintf(lines, "%zu passed, %zu failed, %zu skipped\n", counts[SBXC_PASS],
            counts[SBXC_FAIL], counts[SBXC_SKIP]);
    fflush(lines);

    int status = counts[SBXC_FAIL] ? SBXC_EXIT_FAILED : SBXC_EXIT_OK;
    if (opts->junit_path && sbxc_write_junit(opts->junit_path, redacted, &b, outs, n) != 0) {
        fprintf(stderr, "sandboxio contract: cannot write %s: %s\n", opts->junit_path,
                strerror(errno));
        status = SBXC_EXIT_FAILED;
    }
    if (opts->json && sbxc_print_json(stdout, redacted, &b, outs, n) != 0) {
        fprintf(stderr, "sandboxio contract: cannot print the JSON report\n");
        status = SBXC_EXIT_FAILED;
    }
    free(outs);
    sbx_free(redacted);
    return status;
}
