/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory and CPU limits of a local sandbox, through cgroups.
 *
 * Used only where they are really enforced: cgroup v2 with the memory/cpu
 * controller available at the hierarchy's root, or the v1 memory/cpu
 * hierarchies, and a client allowed to write there (root). Each sandbox
 * gets <hierarchy>/sandboxio/<client pid>-<n>; init is moved in before it
 * runs, so everything in the sandbox is counted. The memory limit covers
 * the sandbox's tmpfs pages too, and swap is held at zero so a hog is
 * killed rather than swapped. An OOM kill shows in the oom_kill counter
 * (memory.events in v2, memory.oom_control in v1).
 *
 * A client killed with SIGKILL cannot remove its directory; the next open
 * removes empty directories whose client pid is gone.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "local.h"

#define GROUP "sandboxio"

/* Field n (0-based) of a space-separated line, NUL-terminated in place; NULL if none. */
static char *field(char **cursor)
{
    char *p = *cursor;
    while (*p == ' ')
        p++;
    if (!*p || *p == '\n')
        return NULL;
    char *end = p + strcspn(p, " \n");
    *cursor = *end ? end + 1 : end;
    *end = '\0';
    return p;
}

/* Whether word is one of the comma-separated items of list. */
static int has_item(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p; p = strchr(p, ',')) {
        if (*p == ',')
            p++;
        if (!strncmp(p, word, n) && (p[n] == ',' || p[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Where the hierarchies that matter here are mounted; "" where none is. */
typedef struct cg_mounts {
    char v2[PATH_MAX];       /* the cgroup2 hierarchy */
    char v1_mem[PATH_MAX];   /* the v1 hierarchy with the memory controller */
    char v1_cpu[PATH_MAX];   /* the v1 hierarchy with the cpu controller */
} cg_mounts;

static void keep_first(char *slot, const char *mnt)
{
    if (!slot[0] && strlen(mnt) < PATH_MAX)
        strcpy(slot, mnt);
}

/*
 * All three in one read of mountinfo, parsed by hand: this runs at every
 * probe, and each read of mountinfo (or a scanf per line) was a visible
 * part of a one-shot run's own work in the client.
 */
static void find_mounts(cg_mounts *m)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    char line[4096];
    memset(m, 0, sizeof *m);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        /* id parent major:minor root MOUNTPOINT options [optional...] - TYPE source SUPER */
        char *dash = strstr(line, " - "), *cur = line, *mnt = NULL;
        if (!dash)
            continue;
        *dash = '\0';
        for (int i = 0; i < 5; i++)
            mnt = field(&cur);
        cur = dash + 3;
        char *type = field(&cur);
        char *source = type ? field(&cur) : NULL;
        char *super = source ? field(&cur) : NULL;
        if (!mnt || !super)
            continue;
        if (!strcmp(type, "cgroup2"))
            keep_first(m->v2, mnt);
        else if (!strcmp(type, "cgroup")) {
            /* the controller must be a whole item of the super options */
            if (has_item(super, "memory"))
                keep_first(m->v1_mem, mnt);
            if (has_item(super, "cpu"))
                keep_first(m->v1_cpu, mnt);
        }
    }
    fclose(f);
}

static int has_word(const char *path, const char *word)
{
    char buf[1024];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    for (char *save = NULL, *t = strtok_r(buf, " \n", &save); t; t = strtok_r(NULL, " \n", &save))
        if (!strcmp(t, word))
            return 1;
    return 0;
}

static int write_to(const char *dir, const char *file, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    errno = e;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Where each kind of limit can go on this machine. */
typedef struct cg_layout {
    int v2;                  /* 1: one v2 hierarchy holds both */
    char mem[PATH_MAX];      /* hierarchy root with the memory controller, "" if none */
    char cpu[PATH_MAX];      /* hierarchy root with the cpu controller, "" if none */
} cg_layout;

static void layout(cg_layout *l)
{
    cg_mounts m;
    memset(l, 0, sizeof *l);
    if (geteuid() != 0)
        return; /* delegated subtrees for unprivileged users: not supported yet */
    find_mounts(&m);
    if (m.v2[0] && access(m.v2, W_OK) == 0) {
        char ctl[PATH_MAX + 32], sub[PATH_MAX + 32], type[PATH_MAX + 32];
        snprintf(ctl, sizeof ctl, "%s/cgroup.controllers", m.v2);
        snprintf(sub, sizeof sub, "%s/cgroup.subtree_control", m.v2);
        snprintf(type, sizeof type, "%s/cgroup.type", m.v2);
        /*
         * A controller can be handed to our group only if the mount's top
         * group already delegates it, or is the real root (no cgroup.type),
         * where enabling it is always allowed. The top of a container's
         * cgroup namespace holds processes and could not enable it.
         */
        int real_root = access(type, F_OK) != 0;
        if (has_word(ctl, "memory") && (real_root || has_word(sub, "memory"))) {
            l->v2 = 1;
            strcpy(l->mem, m.v2);
        }
        if (has_word(ctl, "cpu") && (real_root || has_word(sub, "cpu"))) {
            l->v2 = 1;
            strcpy(l->cpu, m.v2);
        }
        if (l->v2)
            return;
    }
    if (m.v1_mem[0] && access(m.v1_mem, W_OK) == 0)
        strcpy(l->mem, m.v1_mem);
    if (m.v1_cpu[0] && access(m.v1_cpu, W_OK) == 0)
        strcpy(l->cpu, m.v1_cpu);
}

uint64_t local_cgroup_caps(void)
{
    cg_layout l;
    layout(&l);
    return (l.mem[0] ? SBX_CAP_LIMIT_MEMORY | SBX_CAP_OOM_REPORT : 0)
           | (l.cpu[0] ? SBX_CAP_LIMIT_CPU : 0);
}

static int v2_root(char *out, size_t cap);

/* Remove empty group directories left by clients that died. */
typedef int (*sweep_cb)(void *userdata, const char *id, const char *reason);

/* Remove empty group directories left by clients that died; count them. */
static int sweep(const char *parent, sweep_cb cb, void *userdata, size_t *removed)
{
    DIR *d = opendir(parent);
    int stop = 0;
    if (!d)
        return 0;
    for (struct dirent *e; !stop && (e = readdir(d)) != NULL;) {
        int pid = atoi(e->d_name);
        if (pid <= 0 || !strchr(e->d_name, '-') || kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0)
            continue; /* not empty: something still runs there */
        if (removed)
            (*removed)++;
        if (cb) {
            char id[300];
            snprintf(id, sizeof id, "cgroup:%s/%s", parent, e->d_name);
            stop = cb(userdata, id, "the client that made it is gone") != 0;
        }
    }
    closedir(d);
    return stop;
}

int local_cgroup_gc(int (*report)(void *userdata, const char *id, const char *reason),
                    void *userdata, size_t *removed)
{
    cg_layout l;
    char parent[PATH_MAX + 32];
    layout(&l);
    if (l.mem[0]) {
        snprintf(parent, sizeof parent, "%s/" GROUP, l.mem);
        if (sweep(parent, report, userdata, removed))
            return 1;
    }
    if (l.cpu[0] && strcmp(l.cpu, l.mem) != 0) {
        snprintf(parent, sizeof parent, "%s/" GROUP, l.cpu);
        if (sweep(parent, report, userdata, removed))
            return 1;
    }
    /* The freezer's groups, where v2 is not also the limits' hierarchy. */
    char root[PATH_MAX];
    if (v2_root(root, sizeof root) == 0 && strcmp(root, l.mem) != 0 && strcmp(root, l.cpu) != 0) {
        snprintf(parent, sizeof parent, "%s/" GROUP, root);
        return sweep(parent, report, userdata, removed);
    }
    return 0;
}

/* mkdir <root>/sandboxio (controllers enabled for its children) and the group. */
static int make_group(const sbx_host *host, const char *root, int v2, const char *ctls,
                      const char *name, char *out, size_t cap)
{
    char parent[PATH_MAX + 32];
    snprintf(parent, sizeof parent, "%s/" GROUP, root);
    if (mkdir(parent, 0755) < 0 && errno != EEXIST)
        return host->set_error(SBX_E_BACKEND_PERMISSION, "local: cgroup: mkdir %s: %s", parent,
                               strerror(errno));
    if (v2 && (write_to(root, "cgroup.subtree_control", ctls) < 0
               || write_to(parent, "cgroup.subtree_control", ctls) < 0))
        return host->set_error(SBX_E_KERNEL_FEATURE,
                               "local: cgroup: enabling '%s' below %s: %s", ctls, root,
                               strerror(errno));
    sweep(parent, NULL, NULL, NULL);
    if ((size_t)snprintf(out, cap, "%s/%s", parent, name) >= cap)
        return host->set_error(SBX_E_SYSTEM, "local: cgroup path too long");
    if (mkdir(out, 0755) < 0)
        return host->set_error(SBX_E_BACKEND_PERMISSION, "local: cgroup: mkdir %s: %s", out,
                               strerror(errno));
    return SBX_OK;
}

static atomic_uint seq;

int local_cgroup_create(const sbx_host *host, const sbx_plugin_limits *lim, local_cgroup *cg)
{
    char name[64], val[64];
    cg_layout l;
    int rc;

    memset(cg, 0, sizeof *cg);
    if (!lim->memory_bytes && !lim->cpu_millis)
        return SBX_OK;
    layout(&l);
    if ((lim->memory_bytes && !l.mem[0]) || (lim->cpu_millis && !l.cpu[0]))
        return host->set_error(SBX_E_KERNEL_FEATURE,
                               "local: no writable cgroup hierarchy with the %s controller",
                               lim->memory_bytes && !l.mem[0] ? "memory" : "cpu");
    snprintf(name, sizeof name, "%d-%u", (int)getpid(), atomic_fetch_add(&seq, 1));
    cg->v2 = l.v2;
    if (lim->memory_bytes) {
        rc = make_group(host, l.mem, l.v2, l.v2 ? "+memory" : NULL, name, cg->mem, sizeof cg->mem);
        if (rc != SBX_OK)
            goto fail;
        snprintf(val, sizeof val, "%llu", (unsigned long long)lim->memory_bytes);
        if (write_to(cg->mem, l.v2 ? "memory.max" : "memory.limit_in_bytes", val) < 0) {
            rc = host->set_error(SBX_E_KERNEL_FEATURE, "local: cgroup: memory limit: %s",
                                 strerror(errno));
            goto fail;
        }
        /* No swap: past the limit the kernel must kill, not page out. */
        if (l.v2)
            (void)write_to(cg->mem, "memory.swap.max", "0");
        else
            (void)write_to(cg->mem, "memory.memsw.limit_in_bytes", val);
        if (!l.v2)
            (void)write_to(cg->mem, "memory.swappiness", "0");
    }
    if (lim->cpu_millis) {
        if (l.v2 && cg->mem[0]) {
            strcpy(cg->cpu, cg->mem);
            if (write_to(l.cpu, "cgroup.subtree_control", "+cpu") < 0) {
                rc = host->set_error(SBX_E_KERNEL_FEATURE, "local: cgroup: enabling cpu: %s",
                                     strerror(errno));
                goto fail;
            }
            char parent[PATH_MAX + 32];
            snprintf(parent, sizeof parent, "%s/" GROUP, l.cpu);
            (void)write_to(parent, "cgroup.subtree_control", "+cpu");
        } else {
            rc = make_group(host, l.cpu, l.v2, l.v2 ? "+cpu" : NULL, name, cg->cpu, sizeof cg->cpu);
            if (rc != SBX_OK)
                goto fail;
        }
        unsigned long long quota = (unsigned long long)lim->cpu_millis * 100; /* per 100 ms */
        int bad;
        if (l.v2) {
            snprintf(val, sizeof val, "%llu 100000", quota);
            bad = write_to(cg->cpu, "cpu.max", val) < 0;
        } else {
            snprintf(val, sizeof val, "%llu", quota);
            bad = write_to(cg->cpu, "cpu.cfs_period_us", "100000") < 0
                  || write_to(cg->cpu, "cpu.cfs_quota_us", val) < 0;
        }
        if (bad) {
            rc = host->set_error(SBX_E_KERNEL_FEATURE, "local: cgroup: cpu limit: %s",
                                 strerror(errno));
            goto fail;
        }
    }
    return SBX_OK;
fail:
    local_cgroup_remove(cg);
    return rc;
}

int local_cgroup_attach(const local_cgroup *cg, pid_t pid)
{
    char val[32];
    snprintf(val, sizeof val, "%d", (int)pid);
    if (cg->mem[0] && write_to(cg->mem, "cgroup.procs", val) < 0)
        return -1;
    if (cg->cpu[0] && strcmp(cg->cpu, cg->mem) != 0 && write_to(cg->cpu, "cgroup.procs", val) < 0)
        return -1;
    return 0;
}

int local_cgroup_open_oom(const local_cgroup *cg)
{
    char path[PATH_MAX + 32];
    if (!cg->mem[0])
        return -1;
    snprintf(path, sizeof path, "%s/%s", cg->mem, cg->v2 ? "memory.events" : "memory.oom_control");
    return open(path, O_RDONLY | O_CLOEXEC);
}

uint64_t local_cgroup_oom_kills(int fd)
{
    char buf[1024];
    if (fd < 0)
        return 0;
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    for (char *line = buf; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, "oom_kill ", 9) == 0)
            return strtoull(line + 9, NULL, 10);
    return 0;
}

void local_cgroup_remove(local_cgroup *cg)
{
    /* The last tasks of a killed namespace may take a moment to leave. */
    for (int i = 0; i < 200 && cg->mem[0]; i++) {
        if (rmdir(cg->mem) == 0 || errno == ENOENT)
            break;
        usleep(5000);
    }
    for (int i = 0; i < 200 && cg->cpu[0] && strcmp(cg->cpu, cg->mem) != 0; i++) {
        if (rmdir(cg->cpu) == 0 || errno == ENOENT)
            break;
        usleep(5000);
    }
    cg->mem[0] = cg->cpu[0] = '\0';
}

/*
 * Pausing: the cgroup v2 freezer (cgroup.freeze, Linux 5.2). A sandbox
 * opened through open_named() gets a v2 group of its own where a memory or
 * CPU limit has not already made one, so that it can be frozen whole; only
 * where the v2 hierarchy is writable (root; delegated subtrees are not
 * supported yet).
 */
static int v2_root(char *out, size_t cap)
{
    cg_mounts m;
    struct utsname u;
    int major = 0, minor = 0;
    if (geteuid() != 0 || uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2
        || major < 5 || (major == 5 && minor < 2))
        return -1;
    find_mounts(&m);
    if (!m.v2[0] || access(m.v2, W_OK) != 0 || strlen(m.v2) >= cap)
        return -1;
    strcpy(out, m.v2);
    return 0;
}

uint64_t local_cgroup_pause_caps(void)
{
    char root[PATH_MAX];
    cg_layout l;
    if (v2_root(root, sizeof root) != 0)
        return 0;
    /*
     * Memory and CPU limits (the core's default memory limit included) go
     * to v1 groups on a hybrid machine, and a task in those cannot also be
     * in a v2 freezer group of its own: pause would fail on nearly every
     * sandbox, so it is not declared there.
     */
    layout(&l);
    if (!l.v2 && (l.mem[0] || l.cpu[0]))
        return 0;
    return SBX_CAP_PAUSE;
}

int local_cgroup_create_freezer(const sbx_host *host, local_cgroup *cg)
{
    char root[PATH_MAX], parent[PATH_MAX + 32];
    if ((cg->mem[0] && cg->v2) || v2_root(root, sizeof root) < 0)
        return SBX_OK; /* a v2 group already, or no freezer here: pause() says so */
    if (cg->mem[0] || cg->cpu[0])
        return SBX_OK; /* v1 limits: the v2 freezer cannot hold the same tasks' group */
    snprintf(parent, sizeof parent, "%s/" GROUP, root);
    if (mkdir(parent, 0755) < 0 && errno != EEXIST)
        return host->set_error(SBX_E_BACKEND_PERMISSION, "local: cgroup: mkdir %s: %s", parent,
                               strerror(errno));
    sweep(parent, NULL, NULL, NULL); /* what SIGKILLed clients left */
    if ((size_t)snprintf(cg->mem, sizeof cg->mem, "%s/%d-%u", parent, (int)getpid(),
                         atomic_fetch_add(&seq, 1)) >= sizeof cg->mem
        || mkdir(cg->mem, 0755) < 0) {
        int e = errno;
        cg->mem[0] = '\0';
        return host->set_error(SBX_E_BACKEND_PERMISSION, "local: cgroup: mkdir: %s", strerror(e));
    }
    cg->v2 = 1;
    return SBX_OK;
}

int local_cgroup_of(pid_t pid, char *out, size_t cap)
{
    char root[PATH_MAX], path[64], line[PATH_MAX];
    if (v2_root(root, sizeof root) < 0)
        return -1;
    snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        /* Only a sandbox's own group: never freeze the group of the client. */
        if (!strncmp(line, "0::/" GROUP "/", 4 + sizeof GROUP) && !strstr(line, "/..")
            && (size_t)snprintf(out, cap, "%s%s", root, line + 3) < cap)
            found = 0;
    }
    fclose(f);
    return found;
}

int local_cgroup_freeze(const char *group, int frozen)
{
    char want[16], events[PATH_MAX + 32], buf[512];
    if (write_to(group, "cgroup.freeze", frozen ? "1" : "0") < 0)
        return -1;
    /* The freezer takes effect as each task reaches a safe point. */
    snprintf(want, sizeof want, "frozen %d", frozen);
    snprintf(events, sizeof events, "%s/cgroup.events", group);
    for (int i = 0; i < 500; i++) {
        int fd = open(events, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n > 0) {
            buf[n] = '\0';
            if (strstr(buf, want))
                return 0;
        }
        usleep(10000);
    }
    errno = ETIMEDOUT;
    return -1;
}
