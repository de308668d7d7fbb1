/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio-local-init: pid 1 of a local sandbox.
 *
 * The plugin starts this program in fresh namespaces with the control socket
 * as fd 3. It reads the configuration, builds the sandbox (setup.c), reports
 * READY with the work dir's descriptor, then serves execs (serve.c) until
 * the sandbox ends: when the control socket closes, for whatever reason
 * (destroy, or the client dying even by SIGKILL), or, for a sandbox opened
 * with a TTL, at its expiry. As pid 1 of its pid namespace its exit kills
 * every process left in the sandbox.
 *
 * Run as "sandboxio-local-init keeper ..." it is instead the keeper of a
 * sandbox with a TTL (keeper.c).
 *
 * Init is single-threaded, so it may fork supervisors freely. It reaps every
 * orphan that reaches it.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "../proto.h"

#define CTL_FD 3

static char msgbuf[LP_MAX_MSG];

static void report_failure(const init_failure *why)
{
    struct {
        lp_fail f;
        char what[sizeof why->what];
    } m;
    m.f.step = why->step;
    m.f.err = why->err;
    size_t n = strlen(why->what);
    memcpy(m.what, why->what, n + 1);
    lp_send(CTL_FD, LP_FAIL, &m, sizeof m.f + n + 1, NULL, 0);
}

int main(int argc, char **argv)
{
    init_config cfg;
    init_failure why = { 0 };
    lp_hdr hdr;
    sigset_t chld;
    struct stat st;

    if (fstat(CTL_FD, &st) < 0 || !S_ISSOCK(st.st_mode))
        return 120; /* not started by the plugin */

    /*
     * An ignored signal and the signal mask survive clone() and execve():
     * start from the defaults, whatever the client did (a client that ignores
     * SIGPIPE must not make `yes | head` print "Broken pipe" inside).
     */
    for (int sig = 1; sig <= 64; sig++) {
        /* the raw call: libc refuses to touch the signals it reserves */
        struct { void *handler; unsigned long flags; void *restorer; unsigned long mask; } dfl = {
            SIG_DFL, 0, NULL, 0 };
        if (sig != SIGKILL && sig != SIGSTOP)
            syscall(SYS_rt_sigaction, sig, &dfl, NULL, sizeof dfl.mask);
    }
    sigemptyset(&chld);
    sigprocmask(SIG_SETMASK, &chld, NULL);
    if (argc > 1 && !strcmp(argv[1], "keeper"))
        return init_keeper(argc, argv);

    static char filter[LP_MAX_MSG];
    long n = lp_recv(CTL_FD, &hdr, msgbuf, sizeof msgbuf - 1, NULL, NULL);
    if (n < 0 || hdr.type != LP_CONFIG)
        return 121;
    long flen = lp_recv(CTL_FD, &hdr, filter, sizeof filter, NULL, NULL);
    if (flen <= 0 || hdr.type != LP_FILTER)
        return 121;
    if (init_parse_config(&cfg, msgbuf, (size_t)n, &why) < 0
        || init_setup(&cfg, filter, (size_t)flen, &why) < 0) {
        report_failure(&why);
        return 1;
    }

    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    int sigfd = -1, workfd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (workfd < 0 || sigprocmask(SIG_BLOCK, &chld, NULL) < 0
        || (sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
        why = (init_failure){ .step = LP_STEP_WORKDIR, .err = errno };
        strcpy(why.what, "open work dir / signalfd");
        report_failure(&why);
        return 1;
    }
    /* Under an allowlist the proxy's socket goes along (net.c). */
    int ready[2] = { workfd, -1 };
    if (cfg.proxy_port && (ready[1] = init_net_proxy_listen(&cfg, &why)) < 0) {
        report_failure(&why);
        return 1;
    }
    if (lp_send(CTL_FD, LP_READY, NULL, 0, ready, ready[1] >= 0 ? 2 : 1) < 0)
        return 1;
    if (ready[1] >= 0)
        close(ready[1]); /* the client's now: init only made it */
    return init_serve(CTL_FD, workfd, sigfd, &cfg);
}
