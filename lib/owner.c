/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Who owns a sandbox, and whether that owner is gone. Only an owner on this
 * machine in this boot can be checked: its pid must be running with the
 * same start time, which catches pid reuse.
 */
#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sbxu/owner.h>

unsigned long long sbxu_owner_proc_start(long pid)
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

void sbxu_owner_self(sbxu_owner *o)
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
    o->start = sbxu_owner_proc_start(o->pid);
}

void sbxu_owner_labels_make(sbxu_owner_labels *l, uint64_t ttl_s)
{
    memset(l, 0, sizeof(*l));
    sbxu_owner_self(&l->owner);
    snprintf(l->pid, sizeof(l->pid), "%ld", l->owner.pid);
    snprintf(l->start, sizeof(l->start), "%llu", l->owner.start);
    snprintf(l->created, sizeof(l->created), "%lld", (long long)time(NULL));
    snprintf(l->ttl, sizeof(l->ttl), "%" PRIu64, ttl_s);
    l->kv[0] = (sbx_plugin_kv){SBXU_LABEL_MARK, "1"};
    l->kv[1] = (sbx_plugin_kv){SBXU_LABEL_HOST, l->owner.host};
    l->kv[2] = (sbx_plugin_kv){SBXU_LABEL_BOOT, l->owner.boot};
    l->kv[3] = (sbx_plugin_kv){SBXU_LABEL_PID, l->pid};
    l->kv[4] = (sbx_plugin_kv){SBXU_LABEL_START, l->start};
    l->kv[5] = (sbx_plugin_kv){SBXU_LABEL_CREATED, l->created};
    l->kv[6] = (sbx_plugin_kv){SBXU_LABEL_TTL, l->ttl};
}

static bool number(const char *s, long long *out)
{
    char *end;
    if (!s || !s[0])
        return false;
    *out = strtoll(s, &end, 10);
    return *end == '\0';
}

const char *sbxu_gc_verdict(const sbxu_owner *self, const char *host, const char *boot,
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
