/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_isolation.c - SBX-ISO-*: what the sandbox boundary keeps out, for
 * backends above tier none: the host's network, memory and process table,
 * its processes and its files.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cases.h"

/* Give the command time enough, where the backend lets us bound it. */
static void bound(sbxc_ctx *ctx, sbx_cmd *cmd, uint64_t ms)
{
    if (sbxc_has(ctx, SBX_CAP_TIMEOUT))
        SBXC_OK(ctx, "sbx_cmd_set_timeout", sbx_cmd_set_timeout(cmd, ms));
}

/* Try a TCP connection to each address given, with whatever client exists. */
static const char connect_script[] =
    "port=$1; shift; tools=0\n"
    "if command -v bash >/dev/null 2>&1; then tools=1; for a in \"$@\"; do\n"
    "  bash -c 'exec 3<>/dev/tcp/$0/$1' \"$a\" \"$port\" 2>/dev/null && echo \"CONNECTED $a\"\n"
    "done; fi\n"
    "if command -v nc >/dev/null 2>&1; then tools=1; for a in \"$@\"; do\n"
    "  nc -w 2 \"$a\" \"$port\" </dev/null >/dev/null 2>&1 && echo \"CONNECTED $a\"\n"
    "done; fi\n"
    "[ $tools = 1 ] || echo NOTOOL\n";

/* A non-blocking TCP listener on every address of family (IPv6: dual-stack). */
static int open_listener(int family)
{
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return -1;
    int rc;
    if (family == AF_INET6) {
        int off = 0;
        struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
        rc = setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof off);
        if (rc == 0)
            rc = bind(fd, (struct sockaddr *)&sin6, sizeof sin6);
    } else {
        struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY) };
        rc = bind(fd, (struct sockaddr *)&sin, sizeof sin);
    }
    if (rc == 0)
        rc = listen(fd, 64);
    if (rc < 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

void sbxc_case_network_none(sbxc_ctx *ctx)
{
    /* One listener on every host address, loopback included: dual-stack
     * where the host has IPv6, else IPv4 only. */
    bool v6 = true;
    int lfd = open_listener(AF_INET6);
    if (lfd < 0) {
        v6 = false;
        lfd = open_listener(AF_INET);
    }
    if (lfd < 0)
        sbxc_host_skip(ctx, "cannot open a TCP listener on the host: %s", strerror(errno));
    union {
        struct sockaddr sa;
        struct sockaddr_in in;
        struct sockaddr_in6 in6;
    } ss;
    memset(&ss, 0, sizeof ss); /* clang's analyzer does not see getsockname() fill it */
    socklen_t slen = sizeof ss;
    if (getsockname(lfd, &ss.sa, &slen) < 0)
        sbxc_host_skip(ctx, "getsockname of the listener: %s", strerror(errno));
    char port[8];
    snprintf(port, sizeof port, "%u",
             ntohs(ss.sa.sa_family == AF_INET6 ? ss.in6.sin6_port : ss.in.sin_port));

    const char *argv[24] = { "sh", "-c", connect_script, "sh", port, "127.0.0.1" };
    size_t n = 6;
    if (v6)
        argv[n++] = "::1";
    size_t first = n;
    static char addrs[16][INET_ADDRSTRLEN];
    struct ifaddrs *ifs = NULL;
    if (getifaddrs(&ifs) == 0) {
        for (struct ifaddrs *i = ifs; i && n < first + 16; i = i->ifa_next) {
            if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
                continue;
            struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
            if (ntohl(a.s_addr) >> 24 == 127)
                continue;
            inet_ntop(AF_INET, &a, addrs[n - first], sizeof addrs[0]);
            argv[n] = addrs[n - first];
            n++;
        }
        freeifaddrs(ifs);
    }
    argv[n] = NULL;

    sbx_policy *p = sbxc_policy(ctx);
    SBXC_OK(ctx, "sbx_policy_set_network", sbx_policy_set_network(p, SBX_NET_NONE));
    sbx_sandbox *sb = sbxc_open(ctx, p);
    sbx_policy_free(p);
    sbx_cmd *cmd = sbxc_cmd(ctx, argv);
    bound(ctx, cmd, 60000);
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    int accepted = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
    if (accepted >= 0)
        close(accepted);
    close(lfd);
    SBXC_CHECK(ctx, accepted < 0, "under network none the sandbox connected to a listener on the "
               "host (port %s)", port);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, "CONNECTED"),
               "under network none the sandbox reports a connection: %.*s",
               (int)(len > 200 ? 200 : len), out);
    bool no_tool = sbxc_contains(out, len, "NOTOOL");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
    if (no_tool)
        sbxc_host_skip(ctx, "the sandbox has no TCP client (bash, nc) to try a connection with");
    snprintf(ctx->note, sizeof ctx->note, "%zu host addresses tried", n - 5);
}

void sbxc_case_memory_limit(sbxc_ctx *ctx)
{
    sbx_policy *p = sbxc_policy(ctx);
    SBXC_OK(ctx, "sbx_policy_set_memory", sbx_policy_set_memory(p, UINT64_C(128) << 20));
    sbx_sandbox *sb = sbxc_open(ctx, p);
    sbx_policy_free(p);

    /* dd's buffer is bs bytes, all touched by the read from /dev/zero. */
    sbx_cmd *cmd = sbxc_sh(ctx, "dd if=/dev/zero of=/dev/null bs=8388608 count=2", NULL);
    bound(ctx, cmd, 60000);
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    sbxc_expect_exit(ctx, r, 0, "an 8 MiB allocation under a 128 MiB limit");
    sbx_result_free(r);

    cmd = sbxc_sh(ctx, "dd if=/dev/zero of=/dev/null bs=536870912 count=2", NULL);
    bound(ctx, cmd, 60000);
    r = sbxc_run(ctx, sb, cmd);
    SBXC_CHECK(ctx, !(sbx_result_exited(r) && sbx_result_exit_code(r) == 0),
               "a 512 MiB allocation under a 128 MiB limit succeeded");
    SBXC_CHECK(ctx, !sbx_result_timed_out(r), "the memory hog ran into the timeout instead");
    if (sbxc_has(ctx, SBX_CAP_OOM_REPORT))
        SBXC_CHECK(ctx, sbx_result_oom_killed(r),
                   "the hog ended (exited=%d code=%d signal=%d) but the result does not say "
                   "OOM although the backend declares oom-report",
                   sbx_result_exited(r), sbx_result_exit_code(r), sbx_result_signal(r));
    snprintf(ctx->note, sizeof ctx->note, "hog ended with %s %d%s",
             sbx_result_exited(r) ? "status" : "signal",
             sbx_result_exited(r) ? sbx_result_exit_code(r) : sbx_result_signal(r),
             sbx_result_oom_killed(r) ? ", OOM reported" : "");
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

#define PIDS_LIMIT 32
#define PIDS_TRIED 64

void sbxc_case_pids_limit(sbxc_ctx *ctx)
{
    sbx_policy *p = sbxc_policy(ctx);
    SBXC_OK(ctx, "sbx_policy_set_pids", sbx_policy_set_pids(p, PIDS_LIMIT));
    sbx_sandbox *sb = sbxc_open(ctx, p);
    sbx_policy_free(p);
    /* Each child that could be forked says so, then sleeps without holding
     * stdout. A refused fork may end the shell: what was printed counts. */
    sbx_cmd *cmd = sbxc_sh(ctx,
                           "i=0; while [ $i -lt 64 ]; do "
                           "(echo x; exec sleep 5 >/dev/null 2>&1) 2>/dev/null & "
                           "i=$((i+1)); done; sleep 1",
                           NULL);
    bound(ctx, cmd, 60000);
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    size_t len = 0, forked = 0;
    const char *out = sbx_result_stdout(r, &len);
    for (size_t i = 0; i < len; i++)
        forked += out[i] == 'x';
    sbx_result_free(r);
    SBXC_CHECK(ctx, forked <= PIDS_LIMIT, "%zu of %d processes started under a limit of %d",
               forked, PIDS_TRIED, PIDS_LIMIT);
    /* Once the sleepers are gone the sandbox works again. */
    sleep(6);
    char *ok = sbxc_sh_ok(ctx, sb, "echo alive");
    SBXC_CHECK(ctx, strcmp(ok, "alive\n") == 0, "after the limit was hit, echo printed '%s'", ok);
    free(ok);
    snprintf(ctx->note, sizeof ctx->note, "%zu of %d forks allowed", forked, PIDS_TRIED);
    sbxc_close(ctx, sb);
}

/* Under a 16 MiB disk limit, 8 MiB fit in the work dir and 64 MiB do not. */
void sbxc_case_disk_limit(sbxc_ctx *ctx)
{
    sbx_policy *p = sbxc_policy(ctx);
    SBXC_OK(ctx, "sbx_policy_set_disk", sbx_policy_set_disk(p, UINT64_C(16) << 20));
    sbx_sandbox *sb = sbxc_open(ctx, p);
    sbx_policy_free(p);
    char *ok = sbxc_sh_ok(ctx, sb, "dd if=/dev/zero of=small bs=1048576 count=8 2>/dev/null && "
                                   "rm small && echo fits");
    SBXC_CHECK(ctx, strcmp(ok, "fits\n") == 0, "8 MiB under a 16 MiB disk limit: '%s'", ok);
    free(ok);
    sbx_cmd *cmd = sbxc_sh(ctx, "dd if=/dev/zero of=big bs=1048576 count=64 2>/dev/null; "
                                "echo $?; wc -c < big", NULL);
    bound(ctx, cmd, 60000);
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    int status = -1;
    unsigned long long kept = 0;
    int fields = out ? sscanf(out, "%d %llu", &status, &kept) : 0;
    SBXC_CHECK(ctx, fields == 2 && status != 0,
               "writing 64 MiB under a 16 MiB disk limit succeeded: '%.*s'", (int)len,
               out ? out : "");
    SBXC_CHECK(ctx, kept <= UINT64_C(16) << 20, "the work dir kept %llu bytes under 16 MiB",
               kept);
    snprintf(ctx->note, sizeof ctx->note, "64 MiB refused after %llu bytes", kept);
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

void sbxc_case_host_processes_hidden(sbxc_ctx *ctx)
{
    /* Name the case process after a token: a sandbox that sees the host's
     * process table sees it in /proc/<pid>/comm. */
    char token[17], comm[16];
    sbxc_token(token);
    snprintf(comm, sizeof comm, "sbxc%.11s", token);
    if (prctl(PR_SET_NAME, comm, 0, 0, 0) < 0)
        sbxc_host_skip(ctx, "prctl(PR_SET_NAME): %s", strerror(errno));
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_cmd *cmd = sbxc_sh(ctx, "cat /proc/[0-9]*/comm /proc/[0-9]*/cmdline 2>/dev/null; true",
                           NULL);
    sbx_result *r = sbxc_run(ctx, sb, cmd);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, comm),
               "the sandbox sees a host process (the runner, named %s) in its /proc", comm);
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}

void sbxc_case_host_files_hidden(sbxc_ctx *ctx)
{
    char token[17], secret[256];
    sbxc_token(token);
    const char *dir = sbxc_host_tmpdir(ctx);
    snprintf(secret, sizeof secret, "%s/secret-%s", dir, token);
    int fd = open(secret, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, token, 16) != 16)
        sbxc_host_skip(ctx, "cannot write %s: %s", secret, strerror(errno));
    close(fd);
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    sbx_result *r = sbxc_run(ctx, sb, sbxc_sh(ctx, "cat \"$1\"; ls \"$2\" /tmp; true",
                                              secret, dir, NULL));
    /* stdout only: an error message on stderr names the path, token included. */
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    SBXC_CHECK(ctx, !sbxc_contains(out, len, token),
               "the sandbox reads or lists %s, a host file outside its binds", secret);
    sbx_result_free(r);
    sbxc_close(ctx, sb);
}
