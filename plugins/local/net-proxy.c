/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --network allowlist on local: the egress proxy, outside the sandbox.
 *
 * The sandbox's network namespace keeps only lo. Init makes one listening
 * TCP socket there, 127.0.0.1:3128, and hands it out with READY; the plugin
 * gives it to sandboxio-local-proxy (proxy/proxy.c), a process of the
 * client's user in the host's namespace. A socket stays in the namespace it
 * was made in, so the proxy accepts the sandbox's connections from inside
 * and connects out from outside: the one way out, with no forwarder process
 * in the sandbox and no unix socket to bind in (nothing inside can stop,
 * replace or outrun it, and each byte is copied once). Every command gets
 * HTTP_PROXY, HTTPS_PROXY and ALL_PROXY (both cases) naming it, and an
 * empty NO_PROXY, whatever its own environment said.
 *
 * The proxy ends when the plugin closes its exit pipe (destroy) or the
 * client dies. Its refusals come back as lines on a pipe, which the plugin
 * logs through the host before and after each exec and at destroy, and
 * counts: an exec's result has the refusals logged while it ran.
 *
 * Test mode: with SANDBOXIO_TEST_MODE=1, SANDBOXIO_PROXY_TEST_RESOLVER names
 * a hosts(5) file that is then the proxy's only resolver (no DNS at all).
 * Neither is read in a setuid program.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "local.h"
#include "proxy/allow.h"

#ifndef SBX_LOCAL_PROXY
#define SBX_LOCAL_PROXY "/usr/libexec/sandboxio/sandboxio-local-proxy"
#endif

#define MAX_ENTRIES 256

struct local_proxy_log {
    pthread_mutex_t lock; /* execs drain it from their own threads */
    int refs;             /* the sandbox's and each running exec's; under lock */
    int fd;               /* non-blocking */
    const sbx_host *host;
    char buf[1024];       /* a line not yet complete */
    size_t len;
    uint64_t refused;     /* "proxy refused: " lines read so far */
};

#define PROXY_URL "http://127.0.0.1:3128"
const char *const local_net_proxy_env[] = {
    "HTTP_PROXY=" PROXY_URL, "HTTPS_PROXY=" PROXY_URL, "ALL_PROXY=" PROXY_URL, "NO_PROXY=",
    "http_proxy=" PROXY_URL, "https_proxy=" PROXY_URL, "all_proxy=" PROXY_URL, "no_proxy=",
    NULL,
};

int local_net_proxy_env_replaced(const char *kv)
{
    for (const char *const *e = local_net_proxy_env; *e; e++) {
        size_t n = strcspn(*e, "=") + 1;
        if (!strncmp(kv, *e, n))
            return 1;
    }
    return 0;
}

int local_net_proxy_available(void)
{
    char buf[4096];
    return access(local_helper_path("SANDBOXIO_LOCAL_PROXY", "sandboxio-local-proxy",
                                    SBX_LOCAL_PROXY, buf, sizeof buf), X_OK) == 0;
}

int local_net_proxy_check(const sbx_host *host, const char *const *allow)
{
    size_t n = 0;
    for (const char *const *a = allow; a && *a; a++, n++) {
        px_rule r;
        const char *why;
        if (px_rule_parse(*a, &r, &why) < 0)
            return host->set_error(SBX_E_BAD_POLICY, "local: allowlist entry '%s': %s", *a, why);
    }
    if (n == 0 || n > MAX_ENTRIES)
        return host->set_error(SBX_E_BAD_POLICY, "local: the allowlist needs 1 to %d entries",
                               MAX_ENTRIES);
    return SBX_OK;
}

int local_net_proxy_start(const sbx_host *host, local_sandbox *sb, const char *const *allow)
{
    char buf[4096];
    const char *proxy = local_helper_path("SANDBOXIO_LOCAL_PROXY", "sandboxio-local-proxy",
                                          SBX_LOCAL_PROXY, buf, sizeof buf);
    const char *test = secure_getenv("SANDBOXIO_TEST_MODE");
    const char *resolver = secure_getenv("SANDBOXIO_PROXY_TEST_RESOLVER");
    const char *argv[MAX_ENTRIES + 4];
    int ex[2] = { -1, -1 }, lg[2] = { -1, -1 }, rc = SBX_OK;
    size_t argc = 0;
    local_proxy_log *log = NULL;

    argv[argc++] = "sandboxio-local-proxy";
    if (resolver && *resolver && test && !strcmp(test, "1")) {
        host->log(SBX_LOG_WARN, "local", "test mode: the proxy resolves names from %s only",
                  resolver);
        argv[argc++] = "--test-resolver";
        argv[argc++] = resolver;
    }
    for (const char *const *a = allow; a && *a && argc < MAX_ENTRIES + 3; a++)
        argv[argc++] = *a;
    argv[argc] = NULL;
    if (access(proxy, X_OK) < 0)
        return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                               "local: the allowlist proxy '%s' is not executable: %s", proxy,
                               strerror(errno));
    if (!(log = calloc(1, sizeof *log)) || pthread_mutex_init(&log->lock, NULL) != 0) {
        free(log);
        return host->set_error(SBX_E_NOMEM, "local: out of memory");
    }
    log->refs = 1;
    log->fd = -1;
    log->host = host;
    if (pipe2(ex, O_CLOEXEC) < 0 || pipe2(lg, O_CLOEXEC | O_NONBLOCK) < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: pipe: %s", strerror(errno));
        goto out;
    }
    int fds[2] = { sb->proxy_listen, ex[0] }; /* as 3 and 4 */
    int e = local_helper_spawn(&sb->proxy_pid, proxy, (char *const *)argv, lg[1], fds, 2);
    if (e) {
        rc = host->set_error(SBX_E_BACKEND_UNAVAILABLE, "local: cannot start %s: %s", proxy,
                             strerror(e));
        goto out;
    }
    /* The proxy holds the socket now; ours would only keep it alive. */
    close(sb->proxy_listen);
    sb->proxy_listen = -1;
    sb->proxy_exit = ex[1];
    log->fd = lg[0];
    sb->proxy_log = log;
    log = NULL;
    ex[1] = lg[0] = -1;
out:
    local_net_proxy_log_unref(log);
    for (int i = 0; i < 2; i++) {
        if (ex[i] >= 0)
            close(ex[i]);
        if (lg[i] >= 0)
            close(lg[i]);
    }
    return rc;
}

local_proxy_log *local_net_proxy_log_ref(local_sandbox *sb)
{
    local_proxy_log *log = sb->proxy_log;
    if (log) {
        pthread_mutex_lock(&log->lock);
        log->refs++;
        pthread_mutex_unlock(&log->lock);
    }
    return log;
}

void local_net_proxy_log_unref(local_proxy_log *log)
{
    if (!log)
        return;
    pthread_mutex_lock(&log->lock);
    int last = --log->refs == 0;
    pthread_mutex_unlock(&log->lock);
    if (!last)
        return;
    if (log->fd >= 0)
        close(log->fd);
    pthread_mutex_destroy(&log->lock);
    free(log);
}

/* One whole line: to the host's log, and counted if it is a refusal. */
static void log_line(local_proxy_log *log, const char *line)
{
    static const char refused[] = "proxy refused: ";
    if (!strncmp(line, refused, sizeof refused - 1))
        log->refused++;
    log->host->log(SBX_LOG_WARN, "local", "%s", line);
}

uint64_t local_net_proxy_drain(local_proxy_log *log)
{
    if (!log)
        return 0;
    pthread_mutex_lock(&log->lock);
    for (;;) {
        size_t room = sizeof log->buf - 1 - log->len;
        ssize_t n = read(log->fd, log->buf + log->len, room);
        if (n <= 0)
            break;
        log->len += (size_t)n;
        char *line = log->buf, *nl;
        while ((nl = memchr(line, '\n', log->len - (size_t)(line - log->buf)))) {
            *nl = '\0';
            log_line(log, line);
            line = nl + 1;
        }
        log->len -= (size_t)(line - log->buf);
        memmove(log->buf, line, log->len);
        if (log->len == sizeof log->buf - 1) { /* a line too long: cut it */
            log->buf[log->len] = '\0';
            log_line(log, log->buf);
            log->len = 0;
        }
    }
    uint64_t refused = log->refused;
    pthread_mutex_unlock(&log->lock);
    return refused;
}

void local_net_proxy_stop(local_sandbox *sb)
{
    if (sb->proxy_listen >= 0)
        close(sb->proxy_listen);
    sb->proxy_listen = -1;
    int had = sb->proxy_pid > 0;
    local_helper_stop(&sb->proxy_pid, &sb->proxy_exit);
    if (had) /* what it refused last */
        local_net_proxy_drain(sb->proxy_log);
    local_net_proxy_log_unref(sb->proxy_log);
    sb->proxy_log = NULL;
}
