/* SPDX-License-Identifier: Apache-2.0 */
/*
 * run_ready.c - the ready sandbox of `sandboxio run` (see run_ready.h for
 * the files, docs/performance.md for why).
 *
 * What makes a ready sandbox exactly what a fresh run would make: it is
 * made by the same library call a run makes (sbx_sandbox_open_with() is
 * sbx_sandbox_open() plus a TTL), from the same DSN and the same policy,
 * by this same program, in a process forked from the run that left it; and
 * nothing runs in it before the run that claims it, after whose one
 * command it is destroyed (by the run's background process). The key says "the same": the user, the DSN, the
 * policy's stored form (sbx_policy_to_string()), the sandboxio version and
 * the plugin file (path, inode, size, time) with the init it starts. The
 * environment is not in it: it is not the sandbox's but each command's,
 * given at attach.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <sbxu/clock.h>
#include <sbxu/file.h>

#include "common/error.h"
#include "common/output.h"
#include "common/parse.h"
#include "run_ready.h"

/* A ready sandbox this close to its end is left to end: a run would race it. */
#define READY_MARGIN_MS 2000
/* A sandbox being made whose maker wrote no pid yet is taken as alive this long. */
#define PENDING_GRACE_S 10
/* A maker is taken as dead after this long, whatever its pid says. */
#define PENDING_MAX_S 120
/* At most this many sandboxes of a key are ready or being made at once. */
#define READY_MAX 2
/* Ready sandboxes tried per run before making one afresh. */
#define TAKE_TRIES 3
#define KEY_MAX 16384

/* The local backend's runtime directory (its rule, plugins/local/rundir.c), and in it ready/. */
static int dir_path(char *buf, size_t cap, int parent)
{
    const char *env = secure_getenv("SANDBOXIO_LOCAL_RUNDIR");
    const char *xdg = secure_getenv("XDG_RUNTIME_DIR");
    const char *home = secure_getenv("HOME");
    const char *leaf = parent ? "" : "/ready";
    int n;

    if (env && *env)
        n = snprintf(buf, cap, "%s%s", env, leaf);
    else if (geteuid() == 0)
        n = snprintf(buf, cap, "/run/sandboxio%s", leaf);
    else if (xdg && xdg[0] == '/')
        n = snprintf(buf, cap, "%s/sandboxio%s", xdg, leaf);
    else if (home && home[0] == '/')
        n = snprintf(buf, cap, "%s/.cache/sandboxio/run%s", home, leaf);
    else
        return -1;
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/*
 * The ready directory, made (and its parent, the local runtime directory,
 * which the backend checks as always) when make is set. -1 unless it is a
 * directory of ours that no one else may enter.
 */
static int dir_open(int make)
{
    char path[4096];
    struct stat st;

    if (make && dir_path(path, sizeof path, 1) == 0)
        (void)mkdir(path, 0700);
    if (dir_path(path, sizeof path, 0) < 0 || (make && mkdir(path, 0700) < 0 && errno != EEXIST))
        return -1;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077)) {
        close(fd);
        return -1;
    }
    return fd;
}

/*
 * A listing of dirfd of its own: a dup would share dirfd's position, which
 * an earlier listing left at the end (and then nothing is listed).
 */
static DIR *dir_list(int dirfd)
{
    int fd = dirfd >= 0 ? openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

    if (!d && fd >= 0)
        close(fd);
    return d;
}

/* FNV-1a, 64 bits: names the key's files; the key itself is compared in full. */
static void hash_key(const char *key, char out[17])
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * UINT64_C(0x100000001b3);
    snprintf(out, 17, "%016" PRIx64, h);
}

/* The plugin file that serves scheme, as "PATH DEV INO SIZE MTIME"; 0, or -1. */
static int plugin_build(FILE *f, sbx_client *client, const char *scheme)
{
    sbx_plugin_list *list = NULL;
    const sbx_plugin_info *info;
    struct stat st;
    int rc = -1;

    if (sbx_client_plugin_info(client, scheme, &list) == SBX_OK &&
        sbx_plugin_list_count(list) == 1 && (info = sbx_plugin_list_get(list, 0)) &&
        info->load_code == SBX_OK && info->path && stat(info->path, &st) == 0) {
        fprintf(f, "plugin=%s %ju %ju %jd %jd.%09ld %s\n", info->path, (uintmax_t)st.st_dev,
                (uintmax_t)st.st_ino, (intmax_t)st.st_size, (intmax_t)st.st_mtim.tv_sec,
                st.st_mtim.tv_nsec, info->version ? info->version : "");
        rc = 0;
    }
    sbx_plugin_list_free(list);
    return rc;
}

/* The key text of a run of policy on dsn (NULL when this DSN takes no ready sandbox). */
static char *build_key(sbx_client *client, const char *dsn, const sbx_policy *policy)
{
    sbx_dsn *d = NULL;
    char *text = NULL, *pol = NULL;
    size_t len = 0;
    FILE *f = NULL;
    int ok = 0;

    if (sbx_dsn_parse(&d, dsn) != SBX_OK || strcmp(sbx_dsn_scheme(d), "local") != 0 ||
        sbx_policy_to_string(&pol, policy) != SBX_OK || !(f = open_memstream(&text, &len)))
        goto out;
    const char *init = getenv("SANDBOXIO_LOCAL_INIT");
    fprintf(f, "sandboxio-ready/1\nversion=%s %s\nuid=%u\ndsn=%s://%s%s", PACKAGE_VERSION,
            sbx_version(), (unsigned)geteuid(), sbx_dsn_scheme(d), sbx_dsn_authority(d),
            sbx_dsn_path(d));
    for (size_t i = 0; i < sbx_dsn_query_count(d); i++) {
        const char *k, *v;
        if (sbx_dsn_query_at(d, i, &k, &v) == SBX_OK)
            fprintf(f, "%c%s=%s", i ? '&' : '?', k, v ? v : "");
    }
    fprintf(f, "\ninit=%s\npolicy=%s\n", init ? init : "", pol);
    ok = plugin_build(f, client, "local") == 0;
out:
    if (f && fclose(f) != 0)
        ok = 0;
    if (!ok || len >= KEY_MAX) {
        free(text);
        text = NULL;
    }
    sbx_free(pol);
    sbx_dsn_free(d);
    return text;
}

int run_ready_begin(struct run_ready *rr, sbx_client *client, const char *dsn,
                    const sbx_policy *policy)
{
    const char *env = getenv("SANDBOXIO_RUN_READY");

    memset(rr, 0, sizeof *rr);
    rr->dirfd = -1;
    if (env && strcmp(env, "0") == 0)
        return 0;
    if (!(rr->key = build_key(client, dsn, policy)))
        return 0;
    hash_key(rr->key, rr->hash);
    rr->dsn = dsn;
    rr->policy = policy;
    rr->dirfd = dir_open(0);
    return 1;
}

/* The whole of file name in dirfd (NUL-terminated, at most KEY_MAX); NULL on error. */
static char *read_small(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    char *buf = fd >= 0 ? malloc(KEY_MAX + 1) : NULL;
    size_t len = 0;
    ssize_t n = 0;

    while (buf && len < KEY_MAX && (n = read(fd, buf + len, KEY_MAX - len)) > 0)
        len += (size_t)n;
    if (fd >= 0)
        close(fd);
    if (!buf || n < 0) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    return buf;
}

/* Does file name in dirfd hold exactly key? */
static int holds_key(int dirfd, const char *name, const char *key)
{
    char *text = read_small(dirfd, name);
    int same = text && strcmp(text, key) == 0;
    free(text);
    return same;
}

/* An id as the files carry it: what a backend's ids are made of, and short. */
static int id_ok(const char *id)
{
    size_t n = strlen(id);
    return n > 0 && n < 48 && strspn(id, "0123456789abcdefghijklmnopqrstuvwxyz-") == n && id[0] != '-';
}

/*
 * Split "r.KEY.EXPIRES.ID" (KEY: 16 hex digits); 0 with *expires and *id
 * set (id points into name), -1 if name is not one.
 */
static int parse_ready(const char *name, char key[17], int64_t *expires, const char **id)
{
    char *end;

    if (strncmp(name, "r.", 2) != 0 || strlen(name) < 2 + 16 + 2 || name[18] != '.')
        return -1;
    memcpy(key, name + 2, 16);
    key[16] = '\0';
    errno = 0;
    long long e = strtoll(name + 19, &end, 10);
    if (errno || end == name + 19 || *end != '.' || !id_ok(end + 1))
        return -1;
    *expires = e;
    *id = end + 1;
    return 0;
}

/* Is process pid alive (or not ours to signal, which is alive too)? */
static int pid_alive(long pid)
{
    return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

/* For tests and the curious (SANDBOXIO_RUN_READY_TRACE=1): which way a run went, on stderr. */
static int trace_take(int taken, sbx_sandbox **out)
{
    const char *trace = getenv("SANDBOXIO_RUN_READY_TRACE");

    if (trace && strcmp(trace, "1") == 0)
        fprintf(stderr, taken ? "sandboxio: run: took the ready sandbox %s\n"
                              : "sandboxio: run: no ready sandbox%s: making one\n",
                taken ? sbx_sandbox_id(*out) : "");
    return taken;
}

int run_ready_take(struct run_ready *rr, sbx_client *client, sbx_sandbox **out)
{
    DIR *d = dir_list(rr->dirfd);
    int tries = 0, taken = 0;
    int64_t now = sbxu_wall_ms();

    if (!d)
        return trace_take(0, out);
    for (struct dirent *e; !taken && tries < TAKE_TRIES && (e = readdir(d)) != NULL;) {
        char key[17];
        const char *id;
        int64_t expires;
        if (parse_ready(e->d_name, key, &expires, &id) < 0)
            continue;
        if (expires < now + READY_MARGIN_MS) {
            /* Ending, of any key: its backend ends it; its file goes now. */
            (void)unlinkat(rr->dirfd, e->d_name, 0);
            continue;
        }
        if (strcmp(key, rr->hash) != 0)
            continue;
        snprintf(rr->claim, sizeof rr->claim, "c.%s.%ld", id, (long)getpid());
        /* The claim: of two runs renaming the same file, one succeeds. */
        if (renameat(rr->dirfd, e->d_name, rr->dirfd, rr->claim) < 0) {
            rr->claim[0] = '\0';
            continue;
        }
        tries++;
        /* The name's hash matched; the key must match in full. */
        if (holds_key(rr->dirfd, rr->claim, rr->key) &&
            sbx_sandbox_attach(out, client, rr->dsn, id, rr->policy) == SBX_OK) {
            taken = 1;
            break;
        }
        /* Gone, or not what it claimed to be: its TTL ends it. */
        (void)unlinkat(rr->dirfd, rr->claim, 0);
        rr->claim[0] = '\0';
    }
    closedir(d);
    if (!taken)
        sbx_error_clear();
    return trace_take(taken, out);
}

/*
 * Is the maker that wrote file name (p.KEY.N, its pid) still at work? Not
 * after PENDING_MAX_S, whatever its pid says now (a maker takes seconds; a
 * pid can be another process's by then).
 */
static int maker_alive(int dirfd, const char *name)
{
    struct stat st;
    char *text = read_small(dirfd, name);
    long pid = text ? strtol(text, NULL, 10) : 0;
    int young = fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;

    free(text);
    if (!young)
        return 0;
    /* Not written yet, or never: young is alive. */
    if (pid <= 0)
        return st.st_mtime + PENDING_GRACE_S > time(NULL);
    return pid_alive(pid) && st.st_mtime + PENDING_MAX_S > time(NULL);
}

/*
 * How many sandboxes of rr's key are ready (not about to end), or, with
 * makers set, being made (p.KEY.N files whose maker lives). -1: cannot tell.
 */
static int count_of(const struct run_ready *rr, int makers)
{
    DIR *d = dir_list(rr->dirfd);
    int64_t now = sbxu_wall_ms();
    int n = 0;

    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char key[17];
        const char *id;
        int64_t expires;
        if (makers)
            n += strncmp(e->d_name, "p.", 2) == 0 && strncmp(e->d_name + 2, rr->hash, 16) == 0 &&
                 e->d_name[18] == '.' && maker_alive(rr->dirfd, e->d_name);
        else
            n += parse_ready(e->d_name, key, &expires, &id) == 0 && strcmp(key, rr->hash) == 0 &&
                 expires >= now + READY_MARGIN_MS;
    }
    closedir(d);
    return n;
}

/* The ready TTL: SANDBOXIO_RUN_READY_TTL (a duration), else RUN_READY_TTL_MS. */
static uint64_t ready_ttl(void)
{
    const char *env = getenv("SANDBOXIO_RUN_READY_TTL");
    uint64_t ms;

    if (env && *env && sbx_cli_parse_duration_ms(env, &ms) == SBX_OK && ms > 0)
        return ms;
    return RUN_READY_TTL_MS;
}

/* Close every descriptor from 3 on. */
static void close_from_3(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
        return;
#endif
    for (long fd = 3, max = sysconf(_SC_OPEN_MAX); fd < (max > 0 ? max : 1024); fd++)
        (void)close((int)fd);
}

/* Destroy sandbox id (attached under its stored policy); 1 if it was there. */
static int destroy_id(sbx_client *client, const char *dsn, const char *id)
{
    sbx_sandbox *sb = NULL;

    if (sbx_sandbox_attach(&sb, client, dsn, id, NULL) != SBX_OK) {
        sbx_error_clear();
        return 0;
    }
    int rc = sbx_sandbox_destroy(sb);
    sbx_sandbox_free(sb);
    return rc == SBX_OK;
}

/* In the background process: make the sandbox, let it go, publish it. */
static int make_ready(const struct run_ready *rr, sbx_client *client, int dirfd,
                      const char *pending)
{
    sbx_sandbox_opts *opts = NULL;
    sbx_sandbox *sb = NULL;
    char id[64], tmp[32], name[128];
    int64_t expires = 0;
    int fd, rc;

    snprintf(tmp, sizeof tmp, "t.%ld", (long)getpid());
    rc = sbx_sandbox_opts_new(&opts);
    if (rc == SBX_OK)
        rc = sbx_sandbox_opts_set_ttl(opts, ready_ttl());
    if (rc == SBX_OK)
        rc = sbx_sandbox_open_with(&sb, client, rr->dsn, rr->policy, opts);
    if (rc == SBX_OK) {
        snprintf(id, sizeof id, "%s", sbx_sandbox_id(sb));
        expires = sbx_sandbox_expires(sb);
        if (!id_ok(id))
            rc = SBX_E_SYSTEM;
    }
    if (rc == SBX_OK) {
        snprintf(name, sizeof name, "r.%s.%" PRId64 ".%s", rr->hash, expires, id);
        fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 || sbxu_write_all(fd, rr->key, strlen(rr->key)) != 0)
            rc = SBX_E_SYSTEM;
        if (fd >= 0 && close(fd) != 0)
            rc = SBX_E_SYSTEM;
    }
    /* Let the handle go only once the sandbox can be published: else destroy. */
    if (rc == SBX_OK && (rc = sbx_sandbox_detach(sb)) == SBX_OK)
        sb = NULL;
    if (rc == SBX_OK && renameat(dirfd, tmp, dirfd, name) < 0)
        rc = SBX_E_SYSTEM;
    if (sb) {
        (void)sbx_sandbox_destroy(sb);
        sbx_sandbox_free(sb);
    }
    if (rc != SBX_OK)
        (void)unlinkat(dirfd, tmp, 0);
    /* Published (or failed) first, then the lock goes: see leave_lock(). */
    (void)unlinkat(dirfd, pending, 0);
    sbx_sandbox_opts_free(opts);
    return rc;
}

/*
 * The background process's work, in its own client (the run's holds
 * descriptors this process closed): make the next ready sandbox when it
 * holds the lock (pending != NULL), then destroy the one the run's command
 * ran in (used, with its claim file), if any.
 */
static int background(const struct run_ready *rr, const char *used, const char *claim,
                      const char *pending)
{
    sbx_client *client = NULL;
    int dirfd = dir_open(1), rc = dirfd >= 0 ? sbx_client_new(&client) : SBX_E_SYSTEM;

    if (pending && rc == SBX_OK)
        rc = make_ready(rr, client, dirfd, pending);
    else if (pending && dirfd >= 0)
        (void)unlinkat(dirfd, pending, 0);
    if (used[0] && client) {
        (void)destroy_id(client, rr->dsn, used);
        if (dirfd >= 0)
            (void)unlinkat(dirfd, claim, 0);
    }
    sbx_client_free(client);
    if (dirfd >= 0)
        close(dirfd);
    return rc;
}

/*
 * Start the background process: double fork, a new session (no terminal
 * can be acquired), the default signal dispositions, stdio on /dev/null, no
 * other descriptor, / as its directory. The run waits for neither fork.
 * 0, or -1 when it could not be started.
 */
static int spawn_background(const struct run_ready *rr, const char *used, int pfd,
                            const char *pending)
{
    pid_t pid = fork();

    /*
     * Not waited for: it only forks and exits, and the run exits next, so
     * it is reaped with the run's other orphans (a zombie for a moment).
     */
    if (pid != 0)
        return pid < 0 ? -1 : 0;
    if (setsid() < 0 || (pid = fork()) < 0)
        _exit(1);
    if (pid > 0)
        _exit(0);
    if (pfd >= 0) {
        char text[24];
        int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
        (void)sbxu_write_all(pfd, text, (size_t)n);
    }
    sigset_t none;
    sigemptyset(&none);
    for (int sig = 1; sig < NSIG; sig++)
        (void)signal(sig, SIG_DFL);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null < 0 || chdir("/") < 0)
        _exit(1);
    for (int fd = 0; fd < 3; fd++)
        if (dup2(null, fd) < 0)
            _exit(1);
    close_from_3();
    _exit(background(rr, used, rr->claim, pfd >= 0 ? pending : NULL) == SBX_OK ? 0 : 1);
}

/*
 * A lock to make one sandbox of rr's key (p.KEY.N, its descriptor; its
 * name in pending), or -1 when READY_MAX are ready or being made already.
 */
static int leave_lock(struct run_ready *rr, char *pending, size_t cap)
{
    int pfd = -1;

    if (rr->dirfd < 0 && (rr->dirfd = dir_open(1)) < 0)
        return -1;
    for (int slot = 0; slot < READY_MAX && pfd < 0; slot++) {
        snprintf(pending, cap, "p.%s.%d", rr->hash, slot);
        for (int i = 0; i < 2 && pfd < 0; i++) {
            pfd = openat(rr->dirfd, pending,
                         O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            /* Taken: by a live maker, the next slot; by a dead one, take it over. */
            if (pfd < 0 && (errno != EEXIST || maker_alive(rr->dirfd, pending) ||
                            unlinkat(rr->dirfd, pending, 0) < 0))
                break;
        }
    }
    if (pfd < 0)
        return -1;
    /*
     * Counted under the lock, makers first: a maker publishes its sandbox
     * before it lets its lock go, so it is counted once or twice, never
     * missed, and no more than READY_MAX are ever ready or being made.
     */
    int makers = count_of(rr, 1), ready = makers < 0 ? -1 : count_of(rr, 0);
    if (ready < 0 || makers + ready > READY_MAX) {
        close(pfd);
        (void)unlinkat(rr->dirfd, pending, 0);
        pfd = -1;
    }
    return pfd;
}

int run_ready_end(struct run_ready *rr, sbx_sandbox *taken, int leave)
{
    char pending[32], used[64] = "";
    int rc = SBX_OK, pfd = -1, spawned = 0;

    if (taken)
        snprintf(used, sizeof used, "%s", sbx_sandbox_id(taken));
    if (leave)
        pfd = leave_lock(rr, pending, sizeof pending);
    if (pfd >= 0 || (leave && taken)) {
        /* Our own output first: the child's copy of the buffers must hold nothing. */
        fflush(NULL);
        spawned = spawn_background(rr, used, pfd, pending) == 0;
    }
    if (pfd >= 0) {
        close(pfd);
        if (!spawned)
            (void)unlinkat(rr->dirfd, pending, 0);
    }
    /*
     * The command and all it started have ended (local kills a command's
     * whole tree when it exits): what is left of the sandbox is its init,
     * whose teardown the background process waits for. Without one, or
     * after a failure or an interrupt, the teardown is done here.
     */
    if (taken && (!spawned || sbx_sandbox_detach(taken) != SBX_OK)) {
        rc = sbx_sandbox_destroy(taken);
        sbx_sandbox_free(taken);
        if (rc != SBX_OK)
            sbx_cli_error_lib(rc, "destroying the sandbox");
        if (rr->dirfd >= 0 && rr->claim[0])
            (void)unlinkat(rr->dirfd, rr->claim, 0);
    }
    if (rr->dirfd >= 0)
        close(rr->dirfd);
    free(rr->key);
    memset(rr, 0, sizeof *rr);
    rr->dirfd = -1;
    return rc;
}

int run_ready_sweep(sbx_client *client, const char *dsn,
                    int (*report)(void *ud, const char *id, const char *reason), void *ud,
                    size_t *removed)
{
    sbx_dsn *parsed = NULL;
    int local = sbx_dsn_parse(&parsed, dsn) == SBX_OK &&
                strcmp(sbx_dsn_scheme(parsed), "local") == 0;
    sbx_dsn_free(parsed);
    int dirfd = local ? dir_open(0) : -1;
    DIR *d = dir_list(dirfd);

    sbx_error_clear();
    if (!d) {
        if (dirfd >= 0)
            close(dirfd);
        return SBX_OK;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        const char *name = e->d_name, *reason = NULL;
        char key[17], claim[96], id[64];
        const char *rid;
        int64_t expires;
        long pid;
        char *end;

        if (parse_ready(name, key, &expires, &rid) == 0) {
            /* Claimed like a run claims it, so that no run takes it meanwhile. */
            snprintf(id, sizeof id, "%s", rid);
            snprintf(claim, sizeof claim, "c.%s.%ld", id, (long)getpid());
            if (renameat(dirfd, name, dirfd, claim) < 0)
                continue;
            reason = "a ready sandbox of `run`";
            name = claim;
        } else if (strncmp(name, "c.", 2) == 0 && (end = strrchr(name, '.')) && end > name + 2 &&
                   (pid = strtol(end + 1, NULL, 10)) > 0 && !pid_alive(pid)) {
            snprintf(id, sizeof id, "%.*s", (int)(end - name - 2), name + 2);
            reason = "taken by a `run` that is gone";
        } else if (strncmp(name, "p.", 2) == 0 && !maker_alive(dirfd, name)) {
            (void)unlinkat(dirfd, name, 0);
            continue;
        } else if (strncmp(name, "t.", 2) == 0 && !pid_alive(strtol(name + 2, NULL, 10))) {
            (void)unlinkat(dirfd, name, 0);
            continue;
        } else {
            continue;
        }
        if (id_ok(id) && destroy_id(client, dsn, id)) {
            ++*removed;
            if (report)
                (void)report(ud, id, reason);
        }
        (void)unlinkat(dirfd, name, 0);
    }
    closedir(d);
    close(dirfd);
    return SBX_OK;
}
