/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio-local: the plugin descriptor and the sandbox's life cycle.
 *
 * A sandbox is one init process in fresh user, pid, mount, network, ipc,
 * uts and cgroup namespaces (spawn.c, init/); under --network open a
 * slirp4netns process gives that network namespace a way out (net-open.c),
 * under --network allowlist an egress proxy on the host is its only one
 * (net-proxy.c). The handle holds the control
 * socket to it; closing that socket, by destroy or by the client's death,
 * ends the sandbox and everything in it. A sandbox opened with a TTL
 * outlives its handle instead (detach.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "local.h"

#define LOCAL_BASE_CAPS \
    (SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV \
     | SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_NET_NONE | SBX_CAP_PERSIST | SBX_CAP_ATTACH \
     | SBX_CAP_PTY | SBX_CAP_FILE_META | SBX_CAP_CWD_ABS)

/*
 * Process limits are RLIMIT_NPROC inside the sandbox's own user namespace:
 * since Linux 5.14 (rlimit counts in ucounts) the kernel counts it per
 * (namespace, uid), so it counts exactly the sandbox's tasks, threads
 * included, for root and ordinary callers alike, with no cgroup; without
 * CAP_SYS_RESOURCE nothing inside can raise it. As root the sandbox runs as
 * an unprivileged private host id, to which the limit applies (host root
 * is exempt). Older kernels count every process of the host uid: the limit
 * would still hold, but would count the caller's other processes too, so
 * probe() declares it only from 5.14 on.
 * The disk limit is the size of the work dir's (and /tmp's) tmpfs.
 * Memory (with OOM reports) and CPU limits need a writable cgroup hierarchy,
 * pause a writable v2 one (its freezer): the descriptor declares them as
 * possible, probe() says whether they are here (cgroup.c).
 */
#define LOCAL_CAPS (LOCAL_BASE_CAPS | SBX_CAP_LIMIT_DISK)
#define LOCAL_MAX_CAPS (LOCAL_CAPS | SBX_CAP_LIMIT_PIDS | SBX_CAP_LIMIT_MEMORY | SBX_CAP_OOM_REPORT \
                        | SBX_CAP_LIMIT_CPU | SBX_CAP_PAUSE | SBX_CAP_NET_OPEN | SBX_CAP_NET_ALLOWLIST)

static int local_init(const sbx_host *host, void **state)
{
    local_state *st = calloc(1, sizeof *st);
    if (!st)
        return host->set_error(SBX_E_NOMEM, "local: out of memory");
    st->host = host;
    *state = st;
    return SBX_OK;
}

static void local_fini(void *state)
{
    free(state);
}

/* Whether RLIMIT_NPROC counts per user namespace here (Linux 5.14 or later). */
static uint64_t pids_caps(void)
{
    struct utsname u;
    int major = 0, minor = 0;
    if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
        return 0;
    return major > 5 || (major == 5 && minor >= 14) ? SBX_CAP_LIMIT_PIDS : 0;
}

static int local_probe(void *state, const sbx_plugin_dsn *dsn, uint64_t *caps_out)
{
    local_state *st = state;
    local_options opt;
    int rc = local_options_parse(st->host, dsn, &opt);
    if (rc != SBX_OK)
        return rc;
    local_options_free(&opt);
    /* Memory and CPU limits only where a cgroup will really enforce them. */
    char why[256];
    *caps_out = LOCAL_CAPS | pids_caps() | local_cgroup_caps() | local_cgroup_pause_caps()
                | (local_net_open_available(why, sizeof why) ? SBX_CAP_NET_OPEN : 0)
                | (local_net_proxy_available() ? SBX_CAP_NET_ALLOWLIST : 0);
    return SBX_OK;
}

int local_new_sandbox(const sbx_host *host, const sbx_plugin_dsn *dsn,
                      const sbx_plugin_limits *limits, int64_t expires_ms, int freezable,
                      local_sandbox **out)
{
    local_options opt;
    int rc = local_options_parse(host, dsn, &opt);
    if (rc != SBX_OK)
        return rc;
    char why[256];
    /* The core refuses an allowlist from the capabilities; it does not
     * require net-open, so a machine without the tool refuses here. */
    if (limits && limits->network == SBX_NET_OPEN && !local_net_open_available(why, sizeof why)) {
        local_options_free(&opt);
        return host->set_error(SBX_E_POLICY_NETWORK_OPEN,
                               "local: --network open is not available here: %s; "
                               "use --network none", why);
    }
    if (limits && limits->network == SBX_NET_ALLOWLIST
        && (rc = local_net_proxy_check(host, limits->net_allow)) != SBX_OK) {
        local_options_free(&opt);
        return rc;
    }
    local_sandbox *sb = calloc(1, sizeof *sb);
    if (!sb) {
        local_options_free(&opt);
        return host->set_error(SBX_E_NOMEM, "local: out of memory");
    }
    sb->host = host;
    sb->rundir = -1;
    rc = local_spawn(host, &opt, limits, expires_ms, freezable, sb);
    local_options_free(&opt);
    if (rc != SBX_OK) {
        free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

static int local_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                      void **sandbox)
{
    local_sandbox *sb;
    int rc = local_new_sandbox(((local_state *)state)->host, dsn, limits, 0, 0, &sb);
    if (rc == SBX_OK)
        *sandbox = sb;
    return rc;
}

static int local_destroy(void *sandbox)
{
    local_sandbox *sb = sandbox;
    if (!sb)
        return SBX_OK;
    if (sb->rundir >= 0) {
        local_end_published(sb); /* for every client attached to it */
        return SBX_OK;
    }
    local_reap(sb);
    free(sb);
    return SBX_OK;
}

/*
 * Nothing of a sandbox without a TTL can outlive its client but the empty
 * cgroup directory of one whose client was SIGKILLed: remove those. Of a
 * sandbox with a TTL whose keeper was killed too, the record and socket
 * remain: remove those whose init is gone.
 */
static int local_gc(void *state, const sbx_plugin_dsn *dsn,
                    int (*report)(void *userdata, const char *id, const char *reason),
                    void *userdata, size_t *removed)
{
    local_state *st = state;
    local_options opt;
    int rc = local_options_parse(st->host, dsn, &opt);
    if (rc != SBX_OK)
        return rc;
    local_options_free(&opt);
    *removed = 0;
    if (local_cgroup_gc(report, userdata, removed))
        return SBX_OK;
    return local_sweep_stale(st->host, report, userdata, removed);
}

static const char *local_sandbox_id(void *sandbox)
{
    return ((local_sandbox *)sandbox)->id;
}

static const sbx_plugin descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = "local",
    .version = PACKAGE_VERSION,
    .description = "Linux namespaces + seccomp on this machine; no daemon, no root needed",
    .caps = LOCAL_MAX_CAPS,
    .tier = SBX_TIER_NAMESPACE,
    .init = local_init,
    .fini = local_fini,
    .probe = local_probe,
    .open = local_open,
    .destroy = local_destroy,
    .exec = local_exec,
    .file_write = local_file_write,
    .file_read = local_file_read,
    .file_list = local_file_list,
    .file_remove = local_file_remove,
    .file_mkdir = local_file_mkdir,
    .native = NULL,
    .sandbox_id = local_sandbox_id,
    .gc = local_gc,
    .run = NULL,
    .open_named = local_open_named,
    .attach = local_attach,
    .detach = local_detach,
    .list = local_list,
    .set_ttl = local_set_ttl,
    .pause = local_pause,
    .resume = local_resume,
    .ping = NULL,
    .file_symlink = local_file_symlink,
    .file_set_meta = local_file_set_meta,
};

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &descriptor;
}
