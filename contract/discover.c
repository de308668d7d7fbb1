/* SPDX-License-Identifier: Apache-2.0 */
/*
 * discover.c - learn what the backend declares and what is in force for
 * this DSN, before any case runs. Plugin code runs only in a forked
 * process, so a plugin that crashes while loading cannot take the runner
 * down.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runner.h"

#define DISCOVER_LIMIT_S 120.0

typedef struct report {
    int ok;
    sbxc_backend backend;
    char error[SBXC_REASON_MAX];
} report;

static int error_text(char *buf, size_t size, const char *what, int rc)
{
    const sbx_error *e = sbx_error_last();
    snprintf(buf, size, "%s: %s %s", what, sbx_error_id(rc),
             e && e->code == rc && e->message ? e->message : sbx_strerror(rc));
    return rc;
}

/* Open one sandbox the way ordinary cases will; network none if it can be had. */
static int probe_sandbox(sbx_client *client, const char *dsn, sbxc_backend *b, char *err,
                         size_t err_size)
{
    int nets[2] = { SBX_NET_NONE, SBX_NET_OPEN };
    int rc = SBX_OK;
    for (size_t i = (b->declared & SBX_CAP_NET_NONE) ? 0 : 1; i < 2; i++) {
        sbx_policy *p = NULL;
        rc = sbx_policy_new(&p);
        if (rc == SBX_OK)
            rc = sbx_policy_set_network(p, nets[i]);
        sbx_sandbox *sb = NULL;
        if (rc == SBX_OK)
            rc = sbx_sandbox_open(&sb, client, dsn, p);
        sbx_policy_free(p);
        if (rc == SBX_OK) {
            b->caps = sbx_sandbox_caps(sb);
            b->tier = sbx_sandbox_tier(sb);
            rc = sbx_sandbox_destroy(sb);
            if (rc != SBX_OK)
                error_text(err, err_size, "sbx_sandbox_destroy", rc);
            sbx_sandbox_free(sb);
            return rc;
        }
        /* A backend whose probe withdrew net-none here is tried with "open". */
        if (rc != SBX_E_POLICY_NETWORK_NONE)
            break;
    }
    return error_text(err, err_size, "sbx_sandbox_open", rc);
}

static void discover_in_child(const char *dsn, report *r)
{
    sbx_client *client = NULL;
    sbx_dsn *parsed = NULL;
    sbx_plugin_list *list = NULL;
    int rc = sbx_client_new(&client);
    if (rc != SBX_OK) {
        error_text(r->error, sizeof r->error, "sbx_client_new", rc);
        return;
    }
    rc = sbx_dsn_parse(&parsed, dsn);
    if (rc != SBX_OK) {
        error_text(r->error, sizeof r->error, "DSN", rc);
        goto out;
    }
    rc = sbx_client_plugin_info(client, sbx_dsn_scheme(parsed), &list);
    const sbx_plugin_info *info = list ? sbx_plugin_list_get(list, 0) : NULL;
    if (rc != SBX_OK || !info) {
        snprintf(r->error, sizeof r->error, "plugin '%s': %s %s", sbx_dsn_scheme(parsed),
                 sbx_error_id(rc),
                 info && info->load_message ? info->load_message : sbx_strerror(rc));
        goto out;
    }
    snprintf(r->backend.name, sizeof r->backend.name, "%s", info->scheme);
    snprintf(r->backend.version, sizeof r->backend.version, "%s",
             info->version ? info->version : "?");
    r->backend.declared = info->caps;
    r->backend.tier = info->tier;
    r->backend.abi_minor = info->abi_minor;
    if (probe_sandbox(client, dsn, &r->backend, r->error, sizeof r->error) == SBX_OK)
        r->ok = 1;
out:
    sbx_plugin_list_free(list);
    sbx_dsn_free(parsed);
    sbx_client_free(client);
}

/* Read exactly size bytes unless EOF or deadline come first. */
static bool read_full(int fd, void *buf, size_t size, double deadline)
{
    size_t got = 0;
    while (got < size) {
        double left = deadline - sbxc_now();
        if (left <= 0)
            return false;
        struct pollfd pfd = { .fd = fd, .events = POLLIN };
        int pr = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (pr < 0 && errno == EINTR)
            continue;
        if (pr < 0)
            return false;
        if (pr == 0)
            continue;
        ssize_t n = read(fd, (char *)buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        got += (size_t)n;
    }
    return true;
}

int sbxc_discover(const char *dsn, sbxc_backend *b, char *err, size_t err_size)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_size, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        close(fds[0]);
        setpgid(0, 0);
        signal(SIGPIPE, SIG_IGN);
        static report r;
        discover_in_child(dsn, &r);
        const char *p = (const char *)&r;
        size_t left = sizeof r;
        while (left > 0) {
            ssize_t n = write(fds[1], p, left);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            p += n;
            left -= (size_t)n;
        }
        _exit(0);
    }
    close(fds[1]);
    static report r;
    memset(&r, 0, sizeof r);
    double limit = DISCOVER_LIMIT_S * sbxc_time_factor();
    double deadline = sbxc_now() + limit;
    bool got = read_full(fds[0], &r, sizeof r, deadline);
    close(fds[0]);
    int status = 0;
    kill(pid, SIGKILL); /* it has reported or failed: nothing more to wait for */
    waitpid(pid, &status, 0);
    kill(-pid, SIGKILL);
    if (!got) {
        if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL)
            snprintf(err, err_size, "loading the plugin or opening a sandbox crashed (signal %d, %s)",
                     WTERMSIG(status), strsignal(WTERMSIG(status)));
        else
            snprintf(err, err_size, "loading the plugin or opening a sandbox did not finish "
                     "within %.0fs", limit);
        return -1;
    }
    if (!r.ok) {
        snprintf(err, err_size, "%s", r.error);
        return -1;
    }
    *b = r.backend;
    return 0;
}
