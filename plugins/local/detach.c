/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Local sandboxes that outlive their creator (SBX_CAP_ATTACH).
 *
 * A sandbox opened with a TTL is published in the user's private runtime
 * directory (rundir.c): a unix socket named by its id, on which its keeper
 * (init/keeper.c) accepts connections of the owner's uid only and hands
 * them to init, and a record beside it (record.c) that list() reads. Its
 * init no longer ends when the creator's control socket closes: it ends at
 * its expiry, which it enforces itself, or on a destroy through any handle.
 * Then the keeper removes the cgroups, the socket and the record: nothing
 * is left, whether or not a client is.
 *
 * attach() connects to the socket and gets a control socket to init like
 * the creator's: exec and the file calls work as on a fresh handle, and any
 * number of clients may be attached at once. What the caller learns about
 * the sandbox (its name, expiry and stored policy) comes from init, which
 * keeps what the creator gave it, never from the record, which only lists.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sbxu/clock.h>

#include "local.h"
#include "proto.h"

#define POLICY_MAX 8192
#define ANSWER_TIMEOUT_MS 10000
#define CLEANUP_WAIT_MS 5000
/* A connection closed before READY: tries, and the pause between them. */
#define CLOSED_TRIES 20
#define CLOSED_PAUSE_MS 50

/* The core checks names; they are also a record's line, so check again. */
static int name_ok(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n < 64 && strchr("abcdefghijklmnopqrstuvwxyz0123456789", name[0])
           && strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_.-") == n;
}

/* Fill as much of *out as its struct_size covers. */
static void fill_info(sbx_plugin_sandbox_info *out, const char *id, const char *name,
                      int64_t created, int64_t expires, int state, const char *policy)
{
    if (!out)
        return;
    sbx_plugin_sandbox_info i = {
        .struct_size = out->struct_size, .id = id, .name = name, .created_ms = created,
        .expires_ms = expires, .owner = "", .state = state, .policy = policy,
    };
    memcpy(out, &i, out->struct_size < sizeof i ? out->struct_size : sizeof i);
}

/*
 * Each live record of this user's, in turn, to fn (non-zero stops); records
 * whose init is gone are removed (and, for gc, so are sockets left without
 * a record), each reported. Foreign or malformed files are left alone.
 */
typedef int (*scan_fn)(void *ud, const local_record *rec);

typedef struct scan_ctx {
    scan_fn fn;
    void *ud;
    int (*report)(void *userdata, const char *id, const char *reason);
    void *report_ud;
    size_t removed;
    int sockets;      /* gc: also sockets without a record */
} scan_ctx;

static int stale(int dirfd, const char *id, scan_ctx *c, const char *reason)
{
    local_record_remove(dirfd, id);
    c->removed++;
    return c->report ? c->report(c->report_ud, id, reason) : 0;
}

static int scan(int dirfd, scan_ctx *c)
{
    int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    int stop = 0;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    for (struct dirent *e; !stop && (e = readdir(d)) != NULL;) {
        char id[32];
        size_t n = strlen(e->d_name);
        if (n > 4 && n - 4 < sizeof id && !strcmp(e->d_name + n - 4, ".rec")) {
            memcpy(id, e->d_name, n - 4);
            id[n - 4] = '\0';
            local_record rec;
            if (!local_id_valid(id) || local_record_read(dirfd, id, &rec) < 0)
                continue;
            int alive = local_rundir_alive(dirfd, id);
            if (alive == 0)
                stop = stale(dirfd, id, c, "its init is gone");
            else if (alive == 1 && c->fn)
                stop = c->fn(c->ud, &rec);
            local_record_free(&rec);
        } else if (c->sockets && e->d_type == DT_SOCK && local_id_valid(e->d_name)) {
            char rec[64];
            struct stat st;
            snprintf(rec, sizeof rec, "%s.rec", e->d_name);
            if (fstatat(dirfd, rec, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT
                && fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
                && st.st_uid == geteuid() && local_rundir_alive(dirfd, e->d_name) == 0)
                stop = stale(dirfd, e->d_name, c, "socket without a sandbox");
        }
    }
    closedir(d);
    return 0;
}

typedef struct find_name {
    const char *name;
    local_record *out;
    int found;
} find_name;

static int match_name(void *ud, const local_record *rec)
{
    find_name *f = ud;
    if (strcmp(rec->name, f->name) != 0)
        return 0;
    *f->out = *rec;
    f->out->policy = strdup(rec->policy ? rec->policy : "");
    f->found = f->out->policy ? 1 : -1;
    return 1;
}

/* The live sandbox of this user's named name, into *out; 1 found, 0 not, -1 no memory. */
static int find_by_name(int dirfd, const char *name, local_record *out)
{
    find_name f = { name, out, 0 };
    scan_ctx c = { .fn = match_name, .ud = &f };
    scan(dirfd, &c);
    return f.found;
}

/*
 * Start the keeper, detached from the client: a double fork, so it is no
 * child of the client's and no zombie waits there for it. Between fork and
 * execve only async-signal-safe calls: the client may have threads.
 */
static int start_keeper(const sbx_host *host, local_sandbox *sb, int lfd, int lnk)
{
    char init_buf[4096];
    const char *init = local_helper_path("SANDBOXIO_LOCAL_INIT", "sandboxio-local-init",
                                         SBX_LOCAL_INIT, init_buf, sizeof init_buf);
    char expires[32];
    snprintf(expires, sizeof expires, "%lld", (long long)sb->expires_ms);
    char *argv[] = { (char *)"sandboxio-local-keeper", (char *)"keeper", sb->id, sb->cg.mem,
                     sb->cg.cpu, expires, NULL };
    char *envp[] = { NULL };
    int src[4] = { lfd, lnk, sb->pidfd, sb->rundir }, hi[4] = { -1, -1, -1, -1 };
    int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC), rc = SBX_OK, status;

    /* Above 6, so the child's dup2 onto 3..6 never overwrites a source. */
    for (int i = 0; i < 4; i++)
        hi[i] = fcntl(src[i], F_DUPFD_CLOEXEC, 10);
    if (null_fd < 0 || hi[0] < 0 || hi[1] < 0 || hi[2] < 0 || hi[3] < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: preparing the keeper: %s", strerror(errno));
        goto out;
    }
    pid_t pid = fork();
    if (pid < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: fork: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        if (fork() != 0)
            _exit(0);
        if (setsid() < 0 || dup2(null_fd, 0) < 0 || dup2(null_fd, 1) < 0 || dup2(null_fd, 2) < 0)
            _exit(124);
        for (int i = 0; i < 4; i++)
            if (dup2(hi[i], 3 + i) < 0)
                _exit(124);
        if (syscall(SYS_close_range, 7, ~0U, 0) < 0)
            for (int fd = 7; fd < 1024; fd++)
                close(fd);
        execve(init, argv, envp);
        _exit(127);
    }
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
out:
    for (int i = 0; i < 4; i++)
        if (hi[i] >= 0)
            close(hi[i]);
    if (null_fd >= 0)
        close(null_fd);
    return rc;
}

/* The socket, the link to init, the keeper, the record: the sandbox is reachable. */
static int publish(const sbx_host *host, local_sandbox *sb)
{
    struct sockaddr_un addr;
    int lfd = -1, lnk[2] = { -1, -1 }, rc;
    uint32_t rnd;
    char *info = NULL;

    if (getrandom(&rnd, sizeof rnd, 0) != sizeof rnd)
        return host->set_error(SBX_E_SYSTEM, "local: getrandom: %s", strerror(errno));
    snprintf(sb->id, sizeof sb->id, "local-%d-%08" PRIx32, (int)sb->pid, rnd);
    if (local_rundir_addr(sb->rundir, sb->id, &addr) < 0)
        return host->set_error(SBX_E_INTERNAL, "local: socket path too long");
    lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 64) < 0
        || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, lnk) < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: the sandbox's socket: %s", strerror(errno));
        goto out;
    }
    int len = asprintf(&info, "i%s%cn%s%cc%lld%cP%s", sb->id, 0, sb->name, 0,
                       (long long)sb->created_ms, 0, sb->policy ? sb->policy : "");
    if (len < 0) {
        info = NULL;
        rc = host->set_error(SBX_E_NOMEM, "local: out of memory");
        goto out;
    }
    if (lp_send(sb->ctl, LP_LINK, info, (size_t)len + 1, &lnk[1], 1) < 0) {
        rc = host->set_error(SBX_E_BACKEND_FAILED, "local: linking init: %s", strerror(errno));
        goto out;
    }
    if ((rc = start_keeper(host, sb, lfd, lnk[0])) != SBX_OK)
        goto out;
    local_record rec = { .created_ms = sb->created_ms, .expires_ms = sb->expires_ms,
                         .state = SBX_PLUGIN_STATE_RUNNING, .policy = sb->policy };
    snprintf(rec.id, sizeof rec.id, "%s", sb->id);
    snprintf(rec.name, sizeof rec.name, "%s", sb->name);
    if (local_record_write(sb->rundir, &rec) < 0)
        rc = host->set_error(SBX_E_SYSTEM, "local: writing the sandbox's record: %s",
                             strerror(errno));
out:
    if (rc != SBX_OK && lfd >= 0)
        local_record_remove(sb->rundir, sb->id);
    if (lfd >= 0)
        close(lfd);
    for (int i = 0; i < 2; i++)
        if (lnk[i] >= 0)
            close(lnk[i]);
    free(info);
    return rc;
}

int local_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                     const sbx_plugin_sandbox_opts *opts, void **sandbox)
{
    const sbx_host *host = ((local_state *)state)->host;
    uint64_t ttl = opts && SBX_STRUCT_HAS(opts, ttl_ms) ? opts->ttl_ms : 0;
    const char *name = opts && SBX_STRUCT_HAS(opts, name) && opts->name ? opts->name : "";
    const char *policy = opts && SBX_STRUCT_HAS(opts, policy) ? opts->policy : NULL;
    local_sandbox *sb = NULL;
    int dirfd = -1, rc;

    if (name[0] && !name_ok(name))
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: bad sandbox name '%s'", name);
    if (policy && strlen(policy) > POLICY_MAX)
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: the policy string exceeds %d bytes",
                               POLICY_MAX);
    if (ttl >= (uint64_t)INT64_MAX / 2)
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: TTL out of range");
    if (ttl == 0) {
        /* Dies with its handle, as open() makes it: never published, so its
         * name is its own, not reserved. */
        if ((rc = local_new_sandbox(host, dsn, limits, 0, 1, &sb)) != SBX_OK)
            return rc;
        snprintf(sb->name, sizeof sb->name, "%s", name);
        *sandbox = sb;
        return SBX_OK;
    }
    /*
     * slirp4netns and the egress proxy are this client's children and end
     * with it: a sandbox that outlives its creator would silently lose its
     * network. Refused until they can outlive it too.
     */
    if (limits && limits->network == SBX_NET_OPEN)
        return host->set_error(SBX_E_POLICY_NETWORK_OPEN,
                               "local: a sandbox with a TTL cannot have an open network yet "
                               "(its slirp4netns would end with this client)");
    if (limits && limits->network == SBX_NET_ALLOWLIST)
        return host->set_error(SBX_E_POLICY_NETWORK_ALLOWLIST,
                               "local: a sandbox with a TTL cannot have an allowlist yet "
                               "(its egress proxy would end with this client)");
    if ((rc = local_rundir_open(host, &dirfd)) != SBX_OK)
        return rc;
    /* One creator at a time: a name is checked and taken in one step. */
    if (flock(dirfd, LOCK_EX) < 0) {
        rc = host->set_error(SBX_E_SYSTEM, "local: locking the runtime directory: %s",
                             strerror(errno));
        goto fail;
    }
    local_record other = { 0 };
    if (name[0] && find_by_name(dirfd, name, &other) != 0) {
        local_record_free(&other);
        rc = host->set_error(SBX_E_BACKEND_CONFLICT,
                             "local: a sandbox named '%s' exists already (%s)", name, other.id);
        goto fail;
    }
    int64_t created = sbxu_wall_ms();
    if ((rc = local_new_sandbox(host, dsn, limits, created + (int64_t)ttl, 1, &sb)) != SBX_OK)
        goto fail;
    sb->rundir = dirfd;
    sb->created_ms = created;
    sb->expires_ms = created + (int64_t)ttl;
    snprintf(sb->name, sizeof sb->name, "%s", name);
    sb->policy = policy ? strdup(policy) : NULL;
    if (policy && !sb->policy) {
        rc = host->set_error(SBX_E_NOMEM, "local: out of memory");
        goto fail;
    }
    if ((rc = publish(host, sb)) != SBX_OK)
        goto fail;
    flock(dirfd, LOCK_UN);
    *sandbox = sb;
    return SBX_OK;
fail:
    if (sb) {
        local_reap(sb); /* init's end ends the keeper, if one started */
        free(sb->policy);
        free(sb);
    }
    if (dirfd >= 0)
        close(dirfd); /* and with it the lock */
    return rc;
}

/* Parse init's READY payload into sb (tagged strings, proto.h). */
static int take_info(local_sandbox *sb, char *buf, long len)
{
    const char *id = NULL;
    if (len <= 0 || buf[len - 1] != '\0')
        return -1;
    for (char *p = buf; p < buf + len; p += strlen(p) + 1) {
        switch (p[0]) {
        case 'i': id = p + 1; break;
        case 'n': snprintf(sb->name, sizeof sb->name, "%s", p + 1); break;
        case 'c': sb->created_ms = strtoll(p + 1, NULL, 10); break;
        case 'T': sb->expires_ms = strtoll(p + 1, NULL, 10); break;
        case 'P':
            free(sb->policy);
            sb->policy = strdup(p + 1);
            if (!sb->policy)
                return -1;
            break;
        default: break;
        }
    }
    /* A sandbox answering for another id is not the one asked for. */
    return id && !strcmp(id, sb->id) ? 0 : -1;
}

#define INFO_MAX (LP_MAX_MSG / 4 + 64)

/* The DSN's options checked (none bears on this), then the runtime directory opened. */
static int open_rundir(const sbx_host *host, const sbx_plugin_dsn *dsn, int *dirfd)
{
    local_options opt;
    int rc = local_options_parse(host, dsn, &opt);
    if (rc != SBX_OK)
        return rc;
    local_options_free(&opt);
    return local_rundir_open(host, dirfd);
}

/* scan() over dirfd, which it closes. */
static int scan_closing(const sbx_host *host, int dirfd, scan_ctx *c)
{
    int rc = scan(dirfd, c) < 0 ? host->set_error(SBX_E_SYSTEM,
                                                  "local: reading the runtime directory: %s",
                                                  strerror(errno))
                                : SBX_OK;
    close(dirfd);
    return rc;
}

/*
 * One try of connect_sandbox; *closed is set when init closed the
 * connection before READY (it is ending, or has its maximum of clients).
 */
static int connect_once(const sbx_host *host, local_sandbox *sb, int *closed)
{
    lp_hdr hdr;
    int fd = -1, rc;
    size_t nfds = 1;

    sb->ctl = local_rundir_connect(sb->rundir, sb->id);
    if (sb->ctl < 0) {
        if (errno == ECONNREFUSED || errno == ENOENT) {
            local_record_remove(sb->rundir, sb->id);
            return host->set_error(SBX_E_NOT_FOUND, "local: sandbox %s is gone", sb->id);
        }
        return host->set_error(SBX_E_SYSTEM, "local: connecting to %s: %s", sb->id,
                               strerror(errno));
    }
    struct pollfd p = { .fd = sb->ctl, .events = POLLIN };
    int r = poll(&p, 1, ANSWER_TIMEOUT_MS);
    if (r <= 0)
        return host->set_error(SBX_E_BACKEND_FAILED, "local: sandbox %s did not answer: %s", sb->id,
                               r == 0 ? "timed out" : strerror(errno));
    char *buf = malloc(INFO_MAX);
    if (!buf)
        return host->set_error(SBX_E_NOMEM, "local: out of memory");
    long n = lp_recv(sb->ctl, &hdr, buf, INFO_MAX, &fd, &nfds);
    /*
     * A connection still in init's backlog when it closes its socket (its
     * TTL, a destroy) is reset, not closed: that is the same ending.
     */
    if ((n >= 0 && hdr.type == 0) || (n < 0 && errno == ECONNRESET)) {
        *closed = 1;
        rc = host->set_error(SBX_E_BACKEND_FAILED,
                             "local: sandbox %s closed the connection (it is ending, or has "
                             "its maximum of clients)", sb->id);
    } else if (n < 0 || hdr.type != LP_READY || nfds != 1)
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "local: bad answer from sandbox %s", sb->id);
    else if (sb->workfd = fd, fd = -1, take_info(sb, buf, n) < 0)
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "local: bad info from sandbox %s", sb->id);
    else
        rc = SBX_OK;
    if (fd >= 0)
        close(fd);
    free(buf);
    return rc;
}

/*
 * Connect to sandbox sb->id and wait for init's READY: the work dir and the
 * info. A sandbox at its end (its TTL, a destroy) closes new connections
 * until its socket goes: a close is tried again for a while, so that such
 * a sandbox is reported gone (SBX_E4004) rather than failing.
 */
static int connect_sandbox(const sbx_host *host, local_sandbox *sb)
{
    for (int tries = 1;; tries++) {
        int closed = 0;
        int rc = connect_once(host, sb, &closed);
        if (!closed || tries == CLOSED_TRIES)
            return rc;
        close(sb->ctl);
        sb->ctl = -1;
        usleep(CLOSED_PAUSE_MS * 1000);
    }
}

static void free_handle(local_sandbox *sb)
{
    if (sb->ctl >= 0)
        close(sb->ctl);
    if (sb->workfd >= 0)
        close(sb->workfd);
    if (sb->pidfd >= 0)
        close(sb->pidfd);
    if (sb->rundir >= 0)
        close(sb->rundir);
    free(sb->policy);
    free(sb);
}

int local_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name,
                 void **sandbox, sbx_plugin_sandbox_info *info)
{
    const sbx_host *host = ((local_state *)state)->host;
    local_record rec;
    int dirfd = -1, rc;

    if (!id_or_name || !id_or_name[0] || !sandbox)
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: attach needs an id or a name");
    if ((rc = open_rundir(host, dsn, &dirfd)) != SBX_OK)
        return rc;
    /* Only a record of this user's own names a sandbox: a foreign one is none. */
    int found = local_id_valid(id_or_name) && local_record_read(dirfd, id_or_name, &rec) == 0;
    if (!found && name_ok(id_or_name))
        found = find_by_name(dirfd, id_or_name, &rec);
    if (found <= 0) {
        close(dirfd);
        return found < 0 ? host->set_error(SBX_E_NOMEM, "local: out of memory")
                         : host->set_error(SBX_E_NOT_FOUND, "local: no sandbox '%s' of this user",
                                           id_or_name);
    }
    local_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb) {
        local_record_free(&rec);
        close(dirfd);
        return host->set_error(SBX_E_NOMEM, "local: out of memory");
    }
    sb->host = host;
    sb->ctl = sb->workfd = sb->pidfd = -1;
    /* No helpers of its own: 0 would be stdin, read by exec's drain and closed at the end. */
    sb->net_exit = sb->proxy_listen = sb->proxy_exit = -1;
    sb->proxy_log = NULL;
    sb->rundir = dirfd;
    sb->owner_uid = (uid_t)-1;
    sb->owner_gid = (gid_t)-1;
    snprintf(sb->id, sizeof sb->id, "%s", rec.id);
    local_record_free(&rec);
    /* Checked free when the sandbox was made: only which ids they are is needed now. */
    if (geteuid() == 0 &&
        (rc = local_root_ids(host, 0, &sb->owner_uid, &sb->owner_gid)) != SBX_OK)
        goto fail;
    if ((rc = connect_sandbox(host, sb)) != SBX_OK)
        goto fail;
    if (strcmp(id_or_name, sb->id) && strcmp(id_or_name, sb->name)) {
        rc = host->set_error(SBX_E_NOT_FOUND, "local: no sandbox '%s' of this user", id_or_name);
        goto fail;
    }
    fill_info(info, sb->id, sb->name, sb->created_ms, sb->expires_ms, SBX_PLUGIN_STATE_RUNNING,
              sb->policy);
    *sandbox = sb;
    return SBX_OK;
fail:
    free_handle(sb);
    return rc;
}

static int not_detachable(local_sandbox *sb, const char *what)
{
    return sb->host->set_error(SBX_E_NOT_DETACHABLE,
                               "local: cannot %s sandbox %s: it was opened without a TTL, so it "
                               "dies with its handle", what, sb->id);
}

int local_detach(void *sandbox)
{
    local_sandbox *sb = sandbox;
    if (sb->rundir < 0)
        return not_detachable(sb, "detach");
    /* No kill, no wait: init and the keeper go on; the groups are the keeper's. */
    free_handle(sb);
    return SBX_OK;
}

int local_set_ttl(void *sandbox, uint64_t ttl_ms)
{
    local_sandbox *sb = sandbox;
    const sbx_host *host = sb->host;
    lp_hdr hdr;
    int64_t expires;

    if (ttl_ms == 0 || ttl_ms >= (uint64_t)INT64_MAX / 2)
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: a TTL must be > 0 and finite");
    if (sb->rundir < 0)
        return not_detachable(sb, "set the TTL of");
    if (lp_send(sb->ctl, LP_TTL, &ttl_ms, sizeof ttl_ms, NULL, 0) < 0)
        return host->set_error(SBX_E_BACKEND_FAILED, "local: the sandbox is gone (%s)",
                               strerror(errno));
    struct pollfd p = { .fd = sb->ctl, .events = POLLIN };
    if (poll(&p, 1, ANSWER_TIMEOUT_MS) <= 0
        || lp_recv(sb->ctl, &hdr, &expires, sizeof expires, NULL, NULL) != (long)sizeof expires
        || hdr.type != LP_TTL)
        return host->set_error(SBX_E_BACKEND_FAILED, "local: sandbox %s did not confirm its TTL",
                               sb->id);
    sb->expires_ms = expires;
    /* The record follows, for list(); init already holds the new expiry. */
    local_record rec;
    if (local_record_read(sb->rundir, sb->id, &rec) == 0) {
        rec.expires_ms = expires;
        int w = local_record_write(sb->rundir, &rec);
        local_record_free(&rec);
        if (w < 0)
            return host->set_error(SBX_E_SYSTEM, "local: the TTL moved, but its record did not: %s",
                                   strerror(errno));
    }
    return SBX_OK;
}

void local_end_published(local_sandbox *sb)
{
    char rec[64];
    struct stat st;

    /* A frozen init could not act on LP_DESTROY: thaw it first (if paused). */
    char group[sizeof sb->cg.mem];
    if (sb->pidfd < 0 && local_cgroup_of((pid_t)atoi(sb->id + 6), group, sizeof group) == 0)
        (void)local_cgroup_freeze(group, 0);
    lp_send(sb->ctl, LP_DESTROY, NULL, 0, NULL, 0);
    if (sb->pidfd >= 0) {
        local_reap(sb); /* the creator: kill init and wait for it */
    } else {
        /* Attached: init's exit closes this socket; wait for the EOF. */
        lp_hdr hdr;
        char buf[64];
        struct pollfd p = { .fd = sb->ctl, .events = POLLIN };
        while (poll(&p, 1, ANSWER_TIMEOUT_MS) > 0
               && lp_recv(sb->ctl, &hdr, buf, sizeof buf, NULL, NULL) >= 0 && hdr.type != 0)
            ;
    }
    /*
     * The keeper removes the groups, the socket, then the record: wait for
     * it. It takes a millisecond or two: look every 500 us, not every 10 ms
     * (which made every destroy through an attached handle last 10 ms).
     */
    snprintf(rec, sizeof rec, "%s.rec", sb->id);
    for (int i = 0; i < CLEANUP_WAIT_MS * 2
                    && fstatat(sb->rundir, rec, &st, AT_SYMLINK_NOFOLLOW) == 0; i++)
        usleep(500);
    local_record_remove(sb->rundir, sb->id); /* in case the keeper was killed */
    sb->pidfd = -1;
    free_handle(sb);
}

typedef struct list_ctx {
    int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info);
    void *userdata;
} list_ctx;

static int emit(void *ud, const local_record *rec)
{
    list_ctx *l = ud;
    sbx_plugin_sandbox_info info = { .struct_size = sizeof info };
    fill_info(&info, rec->id, rec->name, rec->created_ms, rec->expires_ms, rec->state, rec->policy);
    return l->entry(l->userdata, &info);
}

int local_list(void *state, const sbx_plugin_dsn *dsn,
               int (*entry)(void *userdata, const sbx_plugin_sandbox_info *info), void *userdata)
{
    const sbx_host *host = ((local_state *)state)->host;
    int dirfd, rc;

    if (!entry)
        return host->set_error(SBX_E_INVALID_ARGUMENT, "local: list needs a callback");
    if ((rc = open_rundir(host, dsn, &dirfd)) != SBX_OK)
        return rc;
    list_ctx l = { entry, userdata };
    scan_ctx c = { .fn = emit, .ud = &l };
    return scan_closing(host, dirfd, &c);
}

int local_sweep_stale(const sbx_host *host,
                      int (*report)(void *userdata, const char *id, const char *reason),
                      void *userdata, size_t *removed)
{
    int dirfd, rc;
    if ((rc = local_rundir_open(host, &dirfd)) != SBX_OK)
        return rc;
    scan_ctx c = { .report = report, .report_ud = userdata, .sockets = 1 };
    rc = scan_closing(host, dirfd, &c);
    *removed += c.removed;
    return rc;
}
