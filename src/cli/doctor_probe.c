/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_probe.c - what the kernel offers a namespace sandbox: user
 * namespaces, cgroup v2, seccomp. Every probe degrades to "unknown" (-1)
 * rather than failing: the report must come out on a broken machine too.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "doctor_probe.h"

/* Read a small file into buf with its trailing newline cut; -1 on failure. */
static int read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n;

    if (fd < 0)
        return -1;
    do
        n = read(fd, buf, size - 1);
    while (n < 0 && errno == EINTR);
    close(fd);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = '\0';
    return 0;
}

static long parse_long(const char *s)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno || end == s || v < 0)
        return -1;
    return v;
}

static long read_long(const char *path)
{
    char buf[64];

    return read_small(path, buf, sizeof(buf)) == 0 ? parse_long(buf) : -1;
}

/* The number after "Field:" in /proc/self/status, -1 if absent. */
static long status_field(const char *status, const char *field)
{
    size_t len = strlen(field);

    for (const char *line = status; line && *line; line = strchr(line, '\n')) {
        if (*line == '\n')
            line++;
        if (strncmp(line, field, len) == 0 && line[len] == ':')
            return parse_long(line + len + 1 + strspn(line + len + 1, " \t"));
    }
    return -1;
}

void sbx_cli_kernel_probe(struct sbx_cli_kernel_facts *facts)
{
    char status[8192];
    struct statfs sfs;

    memset(facts, 0, sizeof(*facts));
    facts->uname_ok = uname(&facts->uts) == 0;
    facts->userns_clone = read_long("/proc/sys/kernel/unprivileged_userns_clone");
    facts->max_user_namespaces = read_long("/proc/sys/user/max_user_namespaces");
    facts->apparmor_restrict_userns =
        read_long("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");

    facts->cgroup2 = statfs("/sys/fs/cgroup", &sfs) == 0 && sfs.f_type == CGROUP2_SUPER_MAGIC;
    if (read_small("/sys/fs/cgroup/cgroup.controllers", facts->cgroup_controllers,
                   sizeof(facts->cgroup_controllers)) != 0)
        facts->cgroup_controllers[0] = '\0';

    /* EINVAL means a kernel built without seccomp; any mode means it is there. */
    facts->seccomp_available = !(prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0 && errno == EINVAL);
    facts->seccomp_mode = -1;
    facts->no_new_privs = -1;
    if (read_small("/proc/self/status", status, sizeof(status)) == 0) {
        facts->seccomp_mode = status_field(status, "Seccomp");
        facts->no_new_privs = status_field(status, "NoNewPrivs");
    }
    facts->euid = (long)geteuid();
}
