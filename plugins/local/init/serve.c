/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio-local-init: serving the sandbox's clients.
 *
 * A sandbox opened without a TTL has one client, its creator: when the
 * creator's control socket closes (destroy, or the creator's death, even by
 * SIGKILL) init returns, and as pid 1 of its pid namespace its exit kills
 * every process left in the sandbox.
 *
 * A sandbox opened with a TTL outlives its creator: a closed client socket
 * only drops that client. The keeper (keeper.c) hands over every new
 * connection of the owner's uid; each one is a control socket like the
 * creator's. The sandbox ends at its expiry, which init itself enforces (no
 * daemon watches it), or on LP_DESTROY from any client.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sbxu/clock.h>

#include "init.h"
#include "../proto.h"

#define MAX_CLIENTS 64

static char msgbuf[LP_MAX_MSG];
static int clients[MAX_CLIENTS];
static size_t nclients;
static int keeper = -1;
static int64_t expires_ms;      /* 0: the sandbox dies with its creator */
static char info[LP_MAX_MSG / 4];
static size_t info_len;

/* Split an LP_EXEC payload into argv, envp and cwd (pointing into msgbuf). */
static int parse_exec(size_t len, char ***argv, char ***envp, const char **cwd, lp_exec *out)
{
    lp_exec hdr;
    if (len < sizeof hdr)
        return -1;
    memcpy(&hdr, msgbuf, sizeof hdr);
    size_t total = (size_t)hdr.argc + hdr.envc + 1;
    if (hdr.argc == 0 || total > len)
        return -1;
    /* Two spare slots: the cwd's moved out, and one for default_home(). */
    char **v = calloc(total + 2, sizeof *v);
    if (!v)
        return -1;
    char *p = msgbuf + sizeof hdr, *end = msgbuf + len;
    for (size_t i = 0; i < total; i++) {
        char *nul = memchr(p, '\0', (size_t)(end - p));
        if (!nul) {
            free(v);
            return -1;
        }
        v[i < hdr.argc ? i : i + 1] = p;
        p = nul + 1;
    }
    /* layout: argv[0..argc-1], NULL, envp[0..envc-1], NULL(slot of cwd moved) */
    *cwd = v[total];
    v[total] = NULL;
    v[hdr.argc] = NULL;
    *argv = v;
    *envp = v + hdr.argc + 1;
    *out = hdr;
    return 0;
}

/*
 * HOME is the work dir unless the command's environment names one: the
 * environment inherits nothing, and a tool that writes under $HOME (a
 * shell's history, pip, git) must find a writable place, as under docker.
 * envp has a free slot after its NULL (parse_exec()); init's cwd is the
 * work dir.
 */
static void default_home(char **envp, size_t envc)
{
    static char home[PATH_MAX + sizeof "HOME="] = "HOME=";

    for (size_t i = 0; i < envc; i++)
        if (strncmp(envp[i], "HOME=", 5) == 0)
            return;
    if (getcwd(home + 5, sizeof home - 5))
        envp[envc] = home;
}

/*
 * Make the command's working directory with its missing parents, as `docker
 * run -w` does: in the sandbox, with the command's own rights (a path it
 * cannot make is the chdir's failure to report).
 */
static void make_cwd(const char *cwd)
{
    char path[PATH_MAX];
    size_t n = strlen(cwd);

    if (n == 0 || n >= sizeof path)
        return;
    memcpy(path, cwd, n + 1);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        (void)mkdir(path, 0755);
        *p = '/';
    }
    (void)mkdir(path, 0755);
}

static void serve_exec(size_t len, int fds[4], int sigfd, int workfd)
{
    char **argv, **envp;
    const char *cwd;
    lp_status st = { .kind = LP_SUPERVISOR_FAILED, .err = EINVAL };
    lp_exec hdr;

    if (parse_exec(len, &argv, &envp, &cwd, &hdr) < 0) {
        lp_send(fds[3], LP_STATUS, &st, sizeof st, NULL, 0);
        goto out;
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* The supervisor holds no client's socket: a client's close must
         * reach init, and a command must never reach a control socket. */
        for (size_t i = 0; i < nclients; i++)
            close(clients[i]);
        if (keeper >= 0)
            close(keeper);
        close(workfd);
        close(sigfd);
        default_home(envp, hdr.envc);
        make_cwd(cwd);
        init_supervise(argv, envp, cwd, fds, &hdr);
    }
    if (pid < 0) {
        st.err = errno;
        lp_send(fds[3], LP_STATUS, &st, sizeof st, NULL, 0);
    }
    free(argv);
out:
    for (int i = 0; i < 4; i++)
        close(fds[i]);
}

/* READY for a client the keeper handed over: the work dir and the info. */
static void welcome(int fd, int workfd)
{
    char msg[sizeof info + 32];
    memcpy(msg, info, info_len);
    int n = snprintf(msg + info_len, sizeof msg - info_len, "T%lld", (long long)expires_ms);
    lp_send(fd, LP_READY, msg, info_len + (size_t)n + 1, &workfd, 1);
}

static void add_client(int fd, int workfd)
{
    if (nclients == MAX_CLIENTS) {
        close(fd); /* it reads EOF: the client reports the sandbox busy */
        return;
    }
    clients[nclients++] = fd;
    welcome(fd, workfd);
}

static void drop_client(size_t i)
{
    close(clients[i]);
    clients[i] = clients[--nclients];
}

static void from_keeper(int workfd)
{
    lp_hdr hdr;
    int fd = -1;
    size_t nfds = 1;
    long n = lp_recv(keeper, &hdr, msgbuf, sizeof msgbuf, &fd, &nfds);
    if (n < 0 || hdr.type == 0) {
        /* The keeper is gone: no new client can come; the others go on. */
        close(keeper);
        keeper = -1;
        return;
    }
    if (hdr.type == LP_CLIENT && nfds == 1)
        add_client(fd, workfd);
    else if (nfds == 1)
        close(fd);
}

/*
 * One message from client i. Returns 1 when the sandbox must end, else 0
 * (and drops the client if its socket closed).
 */
static int from_client(size_t i, int sigfd, int workfd)
{
    lp_hdr hdr;
    int fds[4];
    size_t nfds = 4;
    long n = lp_recv(clients[i], &hdr, msgbuf, sizeof msgbuf, fds, &nfds);
    if (n < 0 || hdr.type == 0) {
        if (!expires_ms)
            return 1; /* the creator is gone or broke the protocol */
        drop_client(i);
        return 0;
    }
    if (hdr.type == LP_EXEC && nfds == 4) {
        serve_exec((size_t)n, fds, sigfd, workfd);
        return 0;
    }
    if (hdr.type == LP_LINK && nfds == 1 && expires_ms && keeper < 0
        && (size_t)n <= sizeof info) {
        memcpy(info, msgbuf, (size_t)n);
        info_len = (size_t)n;
        keeper = fds[0];
        return 0;
    }
    for (size_t k = 0; k < nfds; k++)
        close(fds[k]);
    if (hdr.type == LP_DESTROY)
        return 1;
    if (hdr.type == LP_TTL && expires_ms && n == (long)sizeof(uint64_t)) {
        uint64_t ttl;
        memcpy(&ttl, msgbuf, sizeof ttl);
        if (ttl > 0 && ttl < (uint64_t)INT64_MAX / 2)
            expires_ms = sbxu_wall_ms() + (int64_t)ttl;
        if (keeper >= 0) /* it holds the deadline of a paused sandbox */
            lp_send(keeper, LP_TTL, &expires_ms, sizeof expires_ms, NULL, 0);
        lp_send(clients[i], LP_TTL, &expires_ms, sizeof expires_ms, NULL, 0);
    }
    return 0;
}

int init_serve(int ctl, int workfd, int sigfd, const init_config *cfg)
{
    expires_ms = cfg->expires_ms;
    clients[nclients++] = ctl;

    for (;;) {
        struct pollfd p[2 + MAX_CLIENTS] = {
            { .fd = sigfd, .events = POLLIN }, { .fd = keeper, .events = POLLIN },
        };
        for (size_t i = 0; i < nclients; i++)
            p[2 + i] = (struct pollfd){ .fd = clients[i], .events = POLLIN };
        int wait = -1;
        if (expires_ms) {
            int64_t left = expires_ms - sbxu_wall_ms();
            if (left <= 0)
                return 0; /* the TTL ran out: pid 1's exit ends everything */
            wait = left > INT_MAX ? INT_MAX : (int)left;
        }
        size_t polled = nclients;
        int r = poll(p, 2 + polled, wait);
        if (r < 0 && errno != EINTR)
            return 1;
        if (r <= 0)
            continue;
        if (p[0].revents) {
            struct signalfd_siginfo si;
            while (read(sigfd, &si, sizeof si) > 0)
                ;
            while (waitpid(-1, NULL, WNOHANG) > 0)
                ;
        }
        /* Clients from the end: dropping one moves the last into its slot. */
        for (size_t i = polled; i-- > 0;) {
            if (p[2 + i].revents && from_client(i, sigfd, workfd))
                return 0;
        }
        if (p[1].revents && keeper >= 0)
            from_keeper(workfd);
    }
}
