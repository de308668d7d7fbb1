/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One exec's supervisor: a child of init that forks the command and owns
 * its whole process tree.
 *
 * The supervisor is a child subreaper, so every descendant of the command
 * that is orphaned (a double-forking daemon included) becomes its child.
 * When the command's main process ends, or the client asks for a kill, or
 * the client's status socket closes, it SIGKILLs its children until none is
 * left: nothing an exec started outlives it. Then it reports how the main
 * process ended.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"
#include "../proto.h"

#define DEFAULT_PATH "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

static pid_t main_pid;
static int main_status, main_done;
/* The exec's terminal, if it has one: static, so vfork() cannot clobber them. */
static int master = -1, peer = -1;

static void reap(int block)
{
    int s;
    pid_t r;
    while ((r = waitpid(-1, &s, block ? 0 : WNOHANG)) > 0) {
        if (r == main_pid) {
            main_status = s;
            main_done = 1;
        }
        block = 0;
    }
}

/* SIGKILL every process whose parent is us; returns how many were signalled. */
static int kill_children(void)
{
    pid_t self = getpid();
    int count = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        char *rp = strrchr(buf, ')'), state;
        int ppid;
        if (rp && sscanf(rp + 1, " %c %d", &state, &ppid) == 2 && ppid == self
            && state != 'Z') {
            kill(atoi(e->d_name), SIGKILL);
            count++;
        }
    }
    closedir(d);
    return count;
}

static void kill_tree(void)
{
    if (!main_done)
        kill(-main_pid, SIGKILL); /* the bulk, in one call */
    for (;;) {
        reap(0);
        if (waitpid(-1, NULL, WNOHANG | __WNOTHREAD) < 0 && errno == ECHILD)
            return;
        if (kill_children() > 0)
            reap(1);
        else
            usleep(1000); /* a child between fork and /proc: look again */
    }
}

static const char *env_path(char *const *envp)
{
    for (; *envp; envp++)
        if (strncmp(*envp, "PATH=", 5) == 0)
            return *envp + 5;
    return DEFAULT_PATH;
}

/* execvpe() with the PATH of the command's own environment. Returns errno. */
static int exec_command(char *const *argv, char *const *envp)
{
    if (strchr(argv[0], '/')) {
        execve(argv[0], argv, envp);
        return errno;
    }
    int saved = ENOENT;
    const char *p = env_path(envp);
    char buf[4096];
    while (*p) {
        const char *colon = strchrnul(p, ':');
        size_t dl = (size_t)(colon - p);
        int n = snprintf(buf, sizeof buf, "%.*s%s%s", (int)dl, p, dl ? "/" : "", argv[0]);
        if (n > 0 && (size_t)n < sizeof buf) {
            execve(buf, argv, envp);
            if (errno == EACCES)
                saved = EACCES;
            else if (errno != ENOENT && errno != ENOTDIR)
                return errno;
        }
        p = *colon ? colon + 1 : colon;
    }
    return saved;
}

/*
 * A terminal of the sandbox's devpts: the master stays here until the
 * command runs, then goes to the client, which relays and resizes it; the
 * peer (TIOCGPTPEER: no path lookup) becomes the command's terminal.
 */
static int open_pty(const lp_exec *how)
{
    struct winsize ws = { .ws_row = how->rows, .ws_col = how->cols };

    master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0)
        return -1;
    if (unlockpt(master) < 0 || ioctl(master, TIOCSWINSZ, &ws) < 0)
        return -1;
    peer = ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
    return peer < 0 ? -1 : 0;
}

void init_supervise(char *const *argv, char *const *envp, const char *cwd, const int fds[4],
                    const lp_exec *how)
{
    lp_status st = { .kind = LP_SUPERVISOR_FAILED };
    int errpipe[2], sfd = fds[3];
    sigset_t all, chld;

    if ((how->flags & LP_EXEC_PTY) && open_pty(how) < 0)
        goto fail;

    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigemptyset(&all);
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0 || pipe2(errpipe, O_CLOEXEC) < 0)
        goto fail;
    int sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sigfd < 0)
        goto fail;
    /*
     * vfork: the child only makes system calls before execve() or _exit(),
     * and init's copy-on-write fork would cost more than the exec itself.
     * (So scan-build's vfork checkers are off: scripts/check-static-analysis.sh.)
     */
    main_pid = vfork();
    if (main_pid < 0)
        goto fail;
    if (main_pid == 0) {
        int report[2] = { LP_START_FAILED, 0 };
        sigprocmask(SIG_SETMASK, &all, NULL);
        /*
         * When memory runs out (the sandbox's limit, or the host's), the
         * OOM killer must pick a command, not init or a supervisor: a full
         * tmpfs belongs to no process, so without a hint any of them could
         * be chosen. Raising one's own score needs no privilege, and the
         * command cannot lower it below its parent's again.
         */
        int adj = open("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
        if (adj >= 0) {
            if (write(adj, "500", 3) < 0) { /* only a hint */ }
            close(adj);
        }
        /* On a terminal: a new session whose controlling terminal it is. */
        if (setsid() < 0 || (peer >= 0 && ioctl(peer, TIOCSCTTY, 0) < 0) ||
            dup2(peer >= 0 ? peer : fds[0], 0) < 0 || dup2(peer >= 0 ? peer : fds[1], 1) < 0 ||
            dup2(peer >= 0 ? peer : fds[2], 2) < 0)
            report[1] = errno;
        else if (cwd[0] && chdir(cwd) < 0)
            report[0] = LP_CWD_FAILED, report[1] = errno;
        else
            report[1] = exec_command(argv, envp);
        if (write(errpipe[1], report, sizeof report) < 0)
            _exit(126);
        _exit(127);
    }
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    close(errpipe[1]);
    if (peer >= 0)
        close(peer);   /* the command's alone: its exit ends the terminal's output */

    int report[2];
    ssize_t n;
    do
        n = read(errpipe[0], report, sizeof report);
    while (n < 0 && errno == EINTR);
    if (n != (ssize_t)sizeof report && master >= 0) {
        /* It runs: the client takes the master (before any status). */
        if (lp_send(sfd, LP_PTY, NULL, 0, &master, 1) < 0)
            kill(-main_pid, SIGKILL);
        close(master);
        master = -1;
    }
    if (n == (ssize_t)sizeof report) {
        kill_tree();
        st = (lp_status){ .kind = report[0], .err = report[1] };
        lp_send(sfd, LP_STATUS, &st, sizeof st, NULL, 0);
        _exit(0);
    }

    int killed = 0;
    while (!main_done) {
        struct pollfd p[2] = { { .fd = sigfd, .events = POLLIN },
                               { .fd = killed ? -1 : sfd, .events = POLLIN } };
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            break;
        if (p[0].revents) {
            struct signalfd_siginfo si;
            while (read(sigfd, &si, sizeof si) > 0)
                ;
            reap(0);
        }
        if (p[1].revents) {
            char buf[64];
            if (recv(sfd, buf, sizeof buf, MSG_DONTWAIT) >= 0) {
                kill_tree();
                killed = 1;
            }
        }
    }
    kill_tree();
    st = (lp_status){ .kind = LP_RAN, .wstatus = main_status };
    lp_send(sfd, LP_STATUS, &st, sizeof st, NULL, 0);
    _exit(0);

fail:
    st.err = errno;
    lp_send(sfd, LP_STATUS, &st, sizeof st, NULL, 0);
    _exit(1);
}
