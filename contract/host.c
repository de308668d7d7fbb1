/* SPDX-License-Identifier: Apache-2.0 */
/*
 * host.c - what cases observe on the host: the clock, fresh tokens, and the
 * host's processes (to prove a sandbox left none behind).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>
#include <sbxu/clock.h>

#include "runner.h"

double sbxc_now(void)
{
    return (double)sbxu_mono_ns() / 1e9;
}

void sbxc_token(char out[17])
{
    uint64_t v = 0;
    if (getrandom(&v, sizeof v, 0) != (ssize_t)sizeof v) {
        /* Uniqueness, not secrecy, is what matters here. */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        v = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40);
    }
    snprintf(out, 17, "%016llx", (unsigned long long)v);
}

bool sbxc_contains(const void *hay, size_t hay_len, const char *needle)
{
    size_t n = strlen(needle);
    if (!hay || n == 0 || hay_len < n)
        return false;
    return memmem(hay, hay_len, needle, n) != NULL;
}

/* Read up to size bytes of a small /proc file; -1 if it cannot be read. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t got = 0;
    while (got < size) {
        ssize_t n = read(fd, buf + got, size - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    return (ssize_t)got;
}

bool sbxc_host_process_with(const char *needle, pid_t *pid_out)
{
    DIR *d = opendir("/proc");
    if (!d)
        return false;
    struct dirent *de;
    bool found = false;
    static char buf[65536];
    while (!found && (de = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)de->d_name[0]))
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/cmdline", de->d_name);
        ssize_t n = read_small(path, buf, sizeof buf);
        if (n > 0 && sbxc_contains(buf, (size_t)n, needle)) {
            pid_t pid = (pid_t)atoi(de->d_name);
            if (sbxc_host_pid_gone(pid))
                continue;
            found = true;
            if (pid_out)
                *pid_out = pid;
        }
    }
    closedir(d);
    return found;
}

bool sbxc_host_process_lingers(const char *needle, double grace_s, pid_t *pid_out)
{
    double deadline = sbxc_now() + grace_s;
    while (sbxc_host_process_with(needle, pid_out) && sbxc_now() < deadline) {
        struct timespec ts = { 0, 100000000L };
        nanosleep(&ts, NULL);
    }
    return sbxc_host_process_with(needle, pid_out);
}

bool sbxc_host_pid_gone(pid_t pid)
{
    if (kill(pid, 0) < 0 && errno == ESRCH)
        return true;
    /* A zombie no longer runs: it only waits for its parent to reap it. */
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    ssize_t n = read_small(path, stat, sizeof stat - 1);
    if (n <= 0)
        return true;
    stat[n] = '\0';
    const char *close_paren = strrchr(stat, ')');
    return close_paren && close_paren[1] == ' ' && (close_paren[2] == 'Z' || close_paren[2] == 'X');
}

const char *sbxc_host_tmpdir(sbxc_ctx *ctx)
{
    if (ctx->host_dir[0])
        return ctx->host_dir;
    /* Named after the case process, so the runner can remove it should the
     * case die before doing so itself. */
    snprintf(ctx->host_dir, sizeof ctx->host_dir, "/tmp/sbxc-host-%d-XXXXXX", (int)getpid());
    if (!mkdtemp(ctx->host_dir)) {
        ctx->host_dir[0] = '\0';
        sbxc_host_skip(ctx, "cannot create a directory in the host's /tmp: %s", strerror(errno));
    }
    return ctx->host_dir;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    remove(path);
    return 0;
}

void sbxc_remove_tree(const char *dir)
{
    /* FTW_PHYS: never follow a symlink a sandbox may have planted. */
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void sbxc_remove_case_dirs(pid_t case_pid)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "sbxc-host-%d-", (int)case_pid);
    DIR *d = opendir("/tmp");
    if (!d || n < 0)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, prefix, (size_t)n) != 0)
            continue;
        char path[300];
        snprintf(path, sizeof path, "/tmp/%s", de->d_name);
        sbxc_remove_tree(path);
    }
    closedir(d);
}
