/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A test backend whose capabilities and tier come from the environment, and
 * which records every call it receives in a log file, so the core's tests can
 * prove what reached the plugin and what never did.
 *
 *   SBX_TESTCAPS_CAPS   hex capability mask (default: exec only)
 *   SBX_TESTCAPS_TIER   tier number (default: unknown)
 *   SBX_TESTCAPS_PROBE  hex mask probe() returns (unset: the declared caps)
 *   SBX_TESTCAPS_LOG    file each call appends a line to
 *   SBX_TESTCAPS_PROBE_LOG  file each probe() appends a line to (kept apart
 *                       from the call log: every open probes first)
 *   SBX_TESTCAPS_RUN    set: the descriptor has run (one-shot), else NULL
 *   SBX_TESTCAPS_DESTROY_FAIL  set: destroy fails with SBX_E_BACKEND_FAILED
 *   SBX_TESTCAPS_PING   unset: no ping; "ok": ping answers; "refused",
 *                       "nokey", "denied", "broken": ping fails with
 *                       SBX_E_BACKEND_AUTH, SBX_E_CREDENTIAL_MISSING,
 *                       SBX_E_BACKEND_PERMISSION, SBX_E_BACKEND_PROTOCOL;
 *                       else with SBX_E_BACKEND_UNAVAILABLE naming that text
 *   SBX_TESTCAPS_MINOR  "1": the descriptor is a minor-1 one (no lifecycle members)
 *   SBX_TESTCAPS_STORED the policy attach() reports (unset: the last open_named's;
 *                       "-": none)
 *   SBX_TESTCAPS_LIST_ID the id list() reports second (default "tc2")
 *
 * attach() finds any id but "missing"; the sandbox it reports is named
 * "n1" and expires at 4102444800000 (2100-01-01).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sandboxio/plugin.h>

static sbx_plugin desc;
static const sbx_host *host;
static int tc_run(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *l,
                  const sbx_plugin_cmd *cmd, const sbx_plugin_io *io, sbx_plugin_exit *exit_out);
static int tc_ping(void *state, const sbx_plugin_dsn *dsn, char **detail);

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...)
{
    const char *path = getenv("SBX_TESTCAPS_LOG");
    if (!path)
        return;
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

/* Caps and tier from the environment; read again by every client's init. */
static void read_env(void)
{
    const char *caps = getenv("SBX_TESTCAPS_CAPS");
    const char *tier = getenv("SBX_TESTCAPS_TIER");
    desc.caps = caps ? strtoull(caps, NULL, 16) : SBX_CAP_EXEC;
    desc.tier = tier ? atoi(tier) : SBX_TIER_UNKNOWN;
    desc.run = getenv("SBX_TESTCAPS_RUN") ? tc_run : NULL;
    desc.ping = getenv("SBX_TESTCAPS_PING") ? tc_ping : NULL;
    const char *minor = getenv("SBX_TESTCAPS_MINOR");
    if (minor && strcmp(minor, "1") == 0) {
        desc.abi_minor = 1;
        desc.struct_size = (uint32_t)(offsetof(sbx_plugin, run) + sizeof(desc.run));
    } else {
        desc.abi_minor = SBX_PLUGIN_ABI_MINOR;
        desc.struct_size = sizeof(sbx_plugin);
    }
}

static int tc_ping(void *state, const sbx_plugin_dsn *dsn, char **detail)
{
    const char *how = getenv("SBX_TESTCAPS_PING");
    (void)state;
    (void)dsn;
    record("ping");
    if (how && strcmp(how, "ok") == 0) {
        *detail = host->alloc(sizeof("testcaps service 1.0"));
        if (*detail)
            memcpy(*detail, "testcaps service 1.0", sizeof("testcaps service 1.0"));
        return SBX_OK;
    }
    static const struct { const char *how; int code; } failures[] = {
        {"refused", SBX_E_BACKEND_AUTH}, {"nokey", SBX_E_CREDENTIAL_MISSING},
        {"denied", SBX_E_BACKEND_PERMISSION}, {"broken", SBX_E_BACKEND_PROTOCOL},
    };
    for (size_t i = 0; how && i < sizeof(failures) / sizeof(failures[0]); i++)
        if (strcmp(how, failures[i].how) == 0)
            return host->set_error(failures[i].code, "testcaps: ping %s", how);
    return host->set_error(SBX_E_BACKEND_UNAVAILABLE, "testcaps: cannot reach %s", how ? how : "");
}

static int tc_init(const sbx_host *h, void **state)
{
    host = h;
    read_env();
    *state = &desc;
    return SBX_OK;
}

static int tc_probe(void *state, const sbx_plugin_dsn *dsn, uint64_t *caps_out)
{
    const char *p = getenv("SBX_TESTCAPS_PROBE");
    const char *plog = getenv("SBX_TESTCAPS_PROBE_LOG");
    FILE *f = plog ? fopen(plog, "a") : NULL;
    if (f) {
        fputs("probe\n", f);
        fclose(f);
    }
    *caps_out = p ? strtoull(p, NULL, 16) : desc.caps; /* unset: no narrowing */
    return SBX_OK;
}

static int tc_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *l,
                   void **sandbox)
{
    if (dsn->query_count && strcmp(dsn->query[0].key, "fail") == 0)
        return host->set_error(SBX_E_BACKEND_FAILED, "asked to fail: %s", dsn->query[0].value);
    record("open network=%d memory=%llu cpu=%u pids=%u disk=%llu defaulted=%llx", l->network,
           (unsigned long long)l->memory_bytes, l->cpu_millis, l->pids,
           (unsigned long long)l->disk_bytes, (unsigned long long)l->defaulted);
    *sandbox = host->alloc(1);
    return *sandbox ? SBX_OK : SBX_E_NOMEM;
}

static int tc_destroy(void *sandbox)
{
    record("destroy");
    host->free(sandbox);
    if (getenv("SBX_TESTCAPS_DESTROY_FAIL"))
        return host->set_error(SBX_E_BACKEND_FAILED, "asked to fail destroy");
    return SBX_OK;
}

static int tc_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                   sbx_plugin_exit *exit_out)
{
    char env[512] = "";
    for (size_t i = 0; cmd->envp[i]; i++) {
        strncat(env, cmd->envp[i], sizeof(env) - strlen(env) - 2);
        strcat(env, ";");
    }
    record("exec %s timeout=%llu cwd=%s env=%s", cmd->argv[0],
           (unsigned long long)cmd->timeout_ms, cmd->cwd ? cmd->cwd : "-", env);
    /* Output the argument count of bytes on stdout, to test the cap. */
    size_t n = cmd->argv[1] ? strtoul(cmd->argv[1], NULL, 10) : 0;
    char chunk[1000];
    memset(chunk, 'x', sizeof(chunk));
    while (n) {
        size_t k = n < sizeof(chunk) ? n : sizeof(chunk);
        if (io->output(io->userdata, 1, chunk, k))
            return host->set_error(SBX_E_EXEC_ABORTED, "output callback stopped the command");
        n -= k;
    }
    if (io->input) {
        char buf[256];
        long got, total = 0;
        /* Streamed stdin comes with the descriptor to poll (ABI minor 2). */
        if (SBX_STRUCT_HAS(io, input_ready_fd) && io->input_ready_fd >= 0)
            record("stdin ready-fd");
        while ((got = io->input(io->userdata, buf, sizeof(buf))) > 0)
            total += got;
        record("stdin %ld", total);
    }
    exit_out->exited = 1;
    exit_out->exit_code = 0;
    return SBX_OK;
}

/* One-shot: logged as "run", then the same as exec. */
static int tc_run(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *l,
                  const sbx_plugin_cmd *cmd, const sbx_plugin_io *io, sbx_plugin_exit *exit_out)
{
    record("run network=%d", l->network);
    return tc_exec(NULL, cmd, io, exit_out);
}

static int tc_native(void *sandbox, const char *op, const char *json_in, char **json_out)
{
    record("native %s", op);
    *json_out = host->alloc(3);
    if (!*json_out)
        return SBX_E_NOMEM;
    memcpy(*json_out, "{}", 3);
    return SBX_OK;
}

static int tc_file_write(void *sb, const char *path, uint64_t size, uint32_t mode,
                         long (*rd)(void *, void *, size_t), void *ud)
{
    record("file_write %s", path);
    return SBX_OK;
}

static int tc_file_read(void *sb, const char *path, int (*sink)(void *, const void *, size_t),
                        void *ud)
{
    record("file_read %s", path);
    return host->set_error(SBX_E_NOT_FOUND, "no file '%s'", path);
}

/*
 * "many-N-L": N entries whose names are L bytes long (at most 255), made up
 * without any directory, as a backend that ignores the core's bounds would
 * send them; the log says how many were given before the core stopped them.
 */
static int tc_file_list_many(const char *path, int (*entry)(void *, const sbx_plugin_dirent *),
                             void *ud)
{
    unsigned long n = 0, len = 0;
    char name[256];
    if (sscanf(path, "many-%lu-%lu", &n, &len) != 2 || len < 8 || len >= sizeof name)
        return SBX_E_INVALID_ARGUMENT;
    memset(name, 'n', len);
    name[len] = '\0';
    unsigned long i = 0;
    for (; i < n; i++) {
        snprintf(name, sizeof name, "%08lu", i);
        name[8] = len > 8 ? 'n' : '\0';
        sbx_plugin_dirent e = {.struct_size = sizeof(e), .name = name, .type = 1, .mode = 0644};
        if (entry(ud, &e))
            break;
    }
    record("file_list gave %lu", i);
    /* Stopped: reported as this plugin's own error, not the core's code. */
    return i < n ? SBX_E_NOMEM : SBX_OK;
}

static int tc_file_list(void *sb, const char *path,
                        int (*entry)(void *, const sbx_plugin_dirent *), void *ud)
{
    static const char *const names[] = {"zeta", "alpha", "mid"};
    record("file_list %s", path);
    if (strncmp(path, "many-", 5) == 0)
        return tc_file_list_many(path, entry, ud);
    for (size_t i = 0; i < 3; i++) {
        sbx_plugin_dirent e = {.struct_size = sizeof(e), .name = names[i], .type = 1, .mode = 0644};
        if (entry(ud, &e))
            return SBX_E_NOMEM;
    }
    return SBX_OK;
}

static int tc_file_remove(void *sb, const char *path, int recursive)
{
    record("file_remove %s %d", path, recursive);
    return SBX_OK;
}

static int tc_file_mkdir(void *sb, const char *path)
{
    record("file_mkdir %s", path);
    return SBX_OK;
}

/* --- minor 2: the lifecycle, recorded; the policy kept for attach --- */

static char stored_policy[1024];

static int tc_open_named(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *l,
                         const sbx_plugin_sandbox_opts *o, void **sandbox)
{
    record("open_named name=%s ttl=%llu memory=%llu policy=%s", o->name ? o->name : "-",
           (unsigned long long)o->ttl_ms, (unsigned long long)l->memory_bytes,
           o->policy ? o->policy : "-");
    snprintf(stored_policy, sizeof(stored_policy), "%s", o->policy ? o->policy : "");
    *sandbox = host->alloc(1);
    return *sandbox ? SBX_OK : SBX_E_NOMEM;
}

static int tc_attach(void *state, const sbx_plugin_dsn *dsn, const char *id_or_name,
                     void **sandbox, sbx_plugin_sandbox_info *info)
{
    const char *env = getenv("SBX_TESTCAPS_STORED");
    record("attach %s", id_or_name);
    if (strcmp(id_or_name, "missing") == 0)
        return host->set_error(SBX_E_NOT_FOUND, "no sandbox '%s'", id_or_name);
    *sandbox = host->alloc(1);
    if (!*sandbox)
        return SBX_E_NOMEM;
    info->id = "tc1";
    info->name = "n1";
    info->created_ms = 1;
    info->expires_ms = INT64_C(4102444800000);
    info->owner = "";
    info->state = SBX_PLUGIN_STATE_RUNNING;
    info->policy = env ? (strcmp(env, "-") == 0 ? NULL : env) : stored_policy;
    return SBX_OK;
}

static int tc_detach(void *sandbox)
{
    record("detach");
    host->free(sandbox);
    return SBX_OK;
}

static int tc_list(void *state, const sbx_plugin_dsn *dsn,
                   int (*entry)(void *, const sbx_plugin_sandbox_info *), void *ud)
{
    /* SBX_TESTCAPS_LIST_ID: the second id, e.g. one as long as docker's. */
    const char *second = getenv("SBX_TESTCAPS_LIST_ID");
    const char *const ids[] = {"tc1", second ? second : "tc2"};
    record("list");
    for (size_t i = 0; i < 2; i++) {
        sbx_plugin_sandbox_info in = {
            .struct_size = sizeof(in), .id = ids[i], .name = i ? NULL : "n1",
            .created_ms = 1, .expires_ms = i ? 0 : INT64_C(4102444800000), .owner = NULL,
            .state = i ? SBX_PLUGIN_STATE_PAUSED : SBX_PLUGIN_STATE_RUNNING, .policy = NULL};
        if (entry(ud, &in))
            break;
    }
    return SBX_OK;
}

static int tc_set_ttl(void *sandbox, uint64_t ttl_ms)
{
    record("set_ttl %llu", (unsigned long long)ttl_ms);
    return SBX_OK;
}

static int tc_pause(void *sandbox)
{
    record("pause");
    return SBX_OK;
}

static int tc_resume(void *sandbox)
{
    record("resume");
    return SBX_OK;
}

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);
const sbx_plugin *sandboxio_plugin_v1(void)
{
    desc = (sbx_plugin){
        .struct_size = sizeof(sbx_plugin),
        .abi_major = SBX_PLUGIN_ABI_MAJOR,
        .abi_minor = SBX_PLUGIN_ABI_MINOR,
        .name = "testcaps",
        .version = "0",
        .description = "test backend with capabilities from the environment",
        .init = tc_init,
        .probe = tc_probe,
        .open = tc_open,
        .destroy = tc_destroy,
        .exec = tc_exec,
        .file_write = tc_file_write,
        .file_read = tc_file_read,
        .file_list = tc_file_list,
        .file_remove = tc_file_remove,
        .file_mkdir = tc_file_mkdir,
        .native = tc_native,
        .open_named = tc_open_named,
        .attach = tc_attach,
        .detach = tc_detach,
        .list = tc_list,
        .set_ttl = tc_set_ttl,
        .pause = tc_pause,
        .resume = tc_resume,
    };
    read_env();
    return &desc;
}
