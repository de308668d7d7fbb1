/*
 * Who owns a sandbox, and whether that owner is gone. A container carries
 * its creator's host name, boot id, pid and the pid's start time as labels
 * (container.c); gc compares them with this machine (gc.c).
 *
 * Only an owner on this machine in this boot can be checked: its pid must be
 * running with the same start time, which catches pid reuse. A container
 * made from another machine goes only when its TTL passes.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned long long dk_proc_start(long pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof(buf) - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* The command name may hold spaces and ')': fields restart after the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p)
        return 0;
    unsigned long long start = 0;
    /* After ") " come state (field 3) ... starttime (field 22): skip 19 fields. */
    p++;
    for (int field = 3; field < 22 && p; field++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p, " %llu", &start) != 1)
        return 0;
    return start;
}

void dk_owner_self(dk_owner *o)
{
    memset(o, 0, sizeof(*o));
    if (gethostname(o->host, sizeof(o->host) - 1) != 0)
        o->host[0] = '\0';
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
    if (f) {
        if (!fgets(o->boot, sizeof(o->boot), f))
            o->boot[0] = '\0';
        o->boot[strcspn(o->boot, "\n")] = '\0';
        fclose(f);
    }
    o->pid = (long)getpid();
    o->start = dk_proc_start(o->pid);
}

static bool number(const char *s, long long *out)
{
    char *end;
    if (!s || !s[0])
        return false;
    *out = strtoll(s, &end, 10);
    return *end == '\0';
}

const char *dk_gc_verdict(const dk_owner *self, const char *host, const char *boot,
                          const char *pid, const char *start, const char *created,
                          const char *ttl, int64_t now,
                          unsigned long long (*proc_start)(long pid))
{
    long long c, t, p, s;
    if (number(created, &c) && number(ttl, &t) && t > 0 && c + t <= now)
        return "TTL passed";
    if (!host || strcmp(host, self->host) != 0 || !self->host[0])
        return NULL;    /* another machine: only its TTL can tell */
    if (!boot || !self->boot[0])
        return NULL;
    if (strcmp(boot, self->boot) != 0)
        return "owner gone (machine rebooted)";
    if (!number(pid, &p) || p <= 0)
        return NULL;
    unsigned long long now_start = proc_start((long)p);
    if (now_start == 0)
        return "owner process gone";
    if (number(start, &s) && s > 0 && (unsigned long long)s != now_start)
        return "owner process gone (pid reused)";
    return NULL;
}
