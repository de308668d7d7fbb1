/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu/owner.h - owner and TTL labels on a backend's sandboxes, and the gc
 * sweep over them (libsbxu).
 *
 * A sandbox made by a backend that cannot tie its life to the client (a
 * container, a cloud sandbox) carries labels naming its creator: host name,
 * boot id, pid and the pid's start time, its creation time and TTL. gc
 * compares them with this machine: only an owner on this machine in this
 * boot can be checked (its pid must be running with the same start time,
 * which catches pid reuse); a sandbox made elsewhere goes only when its TTL
 * has passed.
 */
#ifndef SBXU_OWNER_H
#define SBXU_OWNER_H

#include <stddef.h>
#include <stdint.h>
#include <sandboxio/plugin.h>

/* Label keys; every sandbox a backend makes carries SBXU_LABEL_MARK. */
#define SBXU_LABEL_MARK "io.sandboxio.sandbox"
#define SBXU_LABEL_HOST "io.sandboxio.owner-host"
#define SBXU_LABEL_BOOT "io.sandboxio.owner-boot"
#define SBXU_LABEL_PID "io.sandboxio.owner-pid"
#define SBXU_LABEL_START "io.sandboxio.owner-start"
#define SBXU_LABEL_CREATED "io.sandboxio.created-at"
#define SBXU_LABEL_TTL "io.sandboxio.ttl"
#define SBXU_OWNER_LABELS 7

/* This process as an owner. */
typedef struct sbxu_owner {
    char host[256];
    char boot[64];
    long pid;
    unsigned long long start;  /* process start time in clock ticks since boot */
} sbxu_owner;

/* sbxu_owner_self - this process: host name, boot id, pid, start time. */
void sbxu_owner_self(sbxu_owner *o);
/* sbxu_owner_proc_start - start time of pid from /proc (0 if unknown or gone). */
unsigned long long sbxu_owner_proc_start(long pid);

/* The labels of a new sandbox, as key/value pairs pointing into the struct. */
typedef struct sbxu_owner_labels {
    sbx_plugin_kv kv[SBXU_OWNER_LABELS];
    sbxu_owner owner;
    char pid[24], start[24], created[24], ttl[24];
} sbxu_owner_labels;
/* sbxu_owner_labels_make - this process's labels for a sandbox made now with ttl_s (0 = none). */
void sbxu_owner_labels_make(sbxu_owner_labels *l, uint64_t ttl_s);

/*
 * sbxu_gc_verdict - why a sandbox with these label values should go (a
 * static string), or NULL to keep it. Any value may be NULL (label absent).
 * proc_start is sbxu_owner_proc_start but for tests.
 */
const char *sbxu_gc_verdict(const sbxu_owner *self, const char *host, const char *boot,
                           const char *pid, const char *start, const char *created,
                           const char *ttl, int64_t now,
                           unsigned long long (*proc_start)(long pid));

/* What a backend gives the sweep: its labelled sandboxes, by index. */
typedef struct sbxu_gc_list {
    size_t count;
    /* The sandbox's id, or NULL to pass over it (not one of ours, malformed). */
    const char *(*id)(void *ud, size_t i);
    /* The value of one of its labels, NULL if it has none. */
    const char *(*label)(void *ud, size_t i, const char *key);
    /* Remove it; SBX_OK, or a code with the error set (the sweep stops). */
    int (*remove)(void *ud, size_t i);
    void *ud;
} sbxu_gc_list;

/*
 * sbxu_gc_sweep - remove every sandbox of the list whose verdict says so,
 * calling report(userdata, id, reason) after each removal (a non-zero return
 * stops the sweep); *removed (may be NULL) counts the removals. Returns
 * SBX_OK or the first failed removal's code.
 */
int sbxu_gc_sweep(const sbxu_gc_list *list,
                 int (*report)(void *userdata, const char *id, const char *reason),
                 void *userdata, size_t *removed);

#endif
