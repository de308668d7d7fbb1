/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local plugin's test harness (harness.h).
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

const sbx_plugin *th_plugin;
void *th_state;
__thread int th_code;
__thread char th_msg[1024];
static void *dl;

static void h_log(int level, const char *plugin, const char *fmt, ...)
{
    (void)level; (void)plugin; (void)fmt;
}

static int h_set_error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(th_msg, sizeof th_msg, fmt, ap);
    va_end(ap);
    th_code = code;
    return code;
}

static const sbx_host host = {
    .struct_size = sizeof(sbx_host), .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .log = h_log, .set_error = h_set_error, .alloc = malloc, .realloc = realloc, .free = free,
};

void th_skip_without_userns(void)
{
    int st = 0;
    pid_t pid = fork();
    if (pid == 0)
        _exit(unshare(CLONE_NEWUSER) == 0 ? 0 : errno);
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) == 0)
        return;
    const char *must = getenv("SANDBOXIO_MUST_WORK");
    fprintf(stderr, "%s: this machine cannot create user namespaces (unshare: %s): the local "
            "backend cannot run here\n", must && !strcmp(must, "1") ? "FAIL" : "SKIP",
            strerror(WEXITSTATUS(st)));
    exit(must && !strcmp(must, "1") ? 1 : 77);
}

static const char *builddir(void)
{
    const char *b = getenv("SBX_TEST_BUILDDIR");
    return b ? b : ".";
}

void th_load(void)
{
    char path[4096];
    const char *list = getenv("SANDBOXIO_PLUGIN_PATH");

    if (!getenv("SANDBOXIO_LOCAL_INIT")) {
        snprintf(path, sizeof path, "%s/plugins/local/sandboxio-local-init", builddir());
        setenv("SANDBOXIO_LOCAL_INIT", path, 1);
    }
    dl = NULL;
    for (const char *p = list; p && *p && !dl;) {
        const char *end = strchrnul(p, ':');
        snprintf(path, sizeof path, "%.*s/sandboxio-local.so", (int)(end - p), p);
        if (access(path, R_OK) == 0)
            dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        p = *end ? end + 1 : end;
    }
    if (!dl) {
        snprintf(path, sizeof path, "%s/plugins/local/.libs/sandboxio-local.so", builddir());
        dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    }
    ck_assert_msg(dl != NULL, "cannot load sandboxio-local.so: %s", dlerror());
    sbx_plugin_entry_fn entry = (sbx_plugin_entry_fn)dlsym(dl, SBX_PLUGIN_ENTRY);
    ck_assert_ptr_nonnull(entry);
    th_plugin = entry();
    ck_assert_uint_ge(th_plugin->struct_size, SBX_PLUGIN_V1_0_SIZE);
    ck_assert_int_eq(th_plugin->init(&host, &th_state), SBX_OK);
}

void th_unload(void)
{
    if (th_plugin)
        th_plugin->fini(th_state);
    th_plugin = NULL;
    /* Never dlclose: the plugin may have threads' data in flight. */
}

void *th_fixture_open(const char *query, const sbx_plugin_limits *limits)
{
    void *sb = NULL;
    th_load();
    int rc = th_open(query, limits, &sb);
    ck_assert_msg(rc == SBX_OK, "open: %d %s", rc, th_msg);
    return sb;
}

void th_fixture_close(void **sb)
{
    if (*sb)
        ck_assert_int_eq(th_plugin->destroy(*sb), SBX_OK);
    *sb = NULL;
    th_unload();
}

int th_open(const char *query, const sbx_plugin_limits *limits, void **sb)
{
    sbx_plugin_kv kv[16];
    size_t n = 0;
    char *copy = query ? strdup(query) : NULL, *save = NULL;
    for (char *t = copy ? strtok_r(copy, "&", &save) : NULL; t && n < 16;
         t = strtok_r(NULL, "&", &save)) {
        char *eq = strchr(t, '=');
        if (eq)
            *eq++ = '\0';
        kv[n++] = (sbx_plugin_kv){ t, eq ? eq : "" };
    }
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "", "", n, kv };
    sbx_plugin_limits none = { .struct_size = sizeof none };
    uint64_t caps = 0;
    int rc = th_plugin->probe(th_state, &dsn, &caps);
    if (rc == SBX_OK)
        rc = th_plugin->open(th_state, &dsn, limits ? limits : &none, sb);
    free(copy);
    return rc;
}

int th_open_named(const char *name, uint64_t ttl_ms, const char *policy,
                  const sbx_plugin_limits *limits, void **sb)
{
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "", "", 0, NULL };
    sbx_plugin_limits none = { .struct_size = sizeof none };
    sbx_plugin_sandbox_opts opts = { sizeof opts, name, ttl_ms, policy };
    ck_assert_ptr_nonnull(th_plugin->open_named);
    return th_plugin->open_named(th_state, &dsn, limits ? limits : &none, &opts, sb);
}

int th_attach(const char *id_or_name, void **sb, sbx_plugin_sandbox_info *info)
{
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "", "", 0, NULL };
    sbx_plugin_sandbox_info scratch = { .struct_size = sizeof scratch };
    ck_assert_ptr_nonnull(th_plugin->attach);
    return th_plugin->attach(th_state, &dsn, id_or_name, sb, info ? info : &scratch);
}

typedef struct sink {
    char *out, *err;
    size_t out_len, err_len, out_cap, err_cap;
    const char *in;
    size_t in_len, in_off;
} sink;

static int on_output(void *u, int stream, const void *data, size_t len)
{
    sink *s = u;
    char **b = stream == 1 ? &s->out : &s->err;
    size_t *l = stream == 1 ? &s->out_len : &s->err_len;
    size_t *cap = stream == 1 ? &s->out_cap : &s->err_cap;
    if (*l + len + 1 > *cap) {
        /*
         * Doubling: a realloc per chunk copies the whole output again each
         * time (ASan's realloc always moves), which made a 32 MiB stream
         * miss its exec deadline on a loaded machine.
         */
        size_t want = *cap ? *cap : 4096;
        while (want < *l + len + 1)
            want *= 2;
        char *grown = realloc(*b, want);
        if (!grown)
            return 1; /* stop the command: the test fails on SBX_E_EXEC_ABORTED */
        *b = grown;
        *cap = want;
    }
    memcpy(*b + *l, data, len);
    *l += len;
    (*b)[*l] = '\0';
    return 0;
}

static long on_input(void *u, void *buf, size_t len)
{
    sink *s = u;
    size_t n = s->in_len - s->in_off < len ? s->in_len - s->in_off : len;
    memcpy(buf, s->in + s->in_off, n);
    s->in_off += n;
    return (long)n;
}

void th_exec(void *sb, const char *const *argv, const char *const *envp, const char *cwd,
             const void *stdin_data, size_t stdin_len, uint64_t timeout_ms, th_result *r)
{
    static const char *const default_env[] = { "PATH=/usr/bin:/bin", NULL };
    sink s = { .in = stdin_data, .in_len = stdin_len };
    sbx_plugin_cmd cmd = { .struct_size = sizeof cmd, .argv = argv, .envp = envp ? envp : default_env,
                           .cwd = cwd, .timeout_ms = timeout_ms };
    sbx_plugin_io io = { .struct_size = sizeof io, .userdata = &s, .output = on_output,
                         .input = stdin_data ? on_input : NULL, .cancel_fd = -1,
                         .input_ready_fd = -1, .resize_fd = -1 };
    memset(r, 0, sizeof *r);
    r->ex.struct_size = sizeof r->ex;
    uint64_t t0 = sbxu_mono_ms();
    r->rc = th_plugin->exec(sb, &cmd, &io, &r->ex);
    r->ms = sbxu_mono_ms() - t0;
    r->out = s.out ? s.out : strdup("");
    r->err = s.err ? s.err : strdup("");
    r->out_len = s.out_len;
    r->err_len = s.err_len;
}

void th_sh(void *sb, const char *script, uint64_t timeout_ms, th_result *r)
{
    const char *argv[] = { "sh", "-c", script, NULL };
    th_exec(sb, argv, NULL, NULL, NULL, 0, timeout_ms, r);
}

void th_result_free(th_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

static long from_mem(void *u, void *buf, size_t len)
{
    sink *s = u;
    return on_input(s, buf, len);
}

int th_write(void *sb, const char *path, const void *data, size_t len, uint32_t mode)
{
    sink s = { .in = data, .in_len = len };
    return th_plugin->file_write(sb, path, len, mode, from_mem, &s);
}

static int to_mem(void *u, const void *data, size_t len)
{
    return on_output(u, 1, data, len);
}

int th_read(void *sb, const char *path, char **data, size_t *len)
{
    sink s = { 0 };
    int rc = th_plugin->file_read(sb, path, to_mem, &s);
    *data = s.out ? s.out : strdup("");
    *len = s.out_len;
    return rc;
}

void th_install_probe(void *sb)
{
    char path[4096];
    const char *probe = getenv("SBX_LOCAL_PROBE");
    if (!probe) {
        snprintf(path, sizeof path, "%s/plugins/local/tests/escape-probe", builddir());
        probe = path;
    }
    FILE *f = fopen(probe, "rb");
    ck_assert_msg(f != NULL, "cannot open the probe %s", probe);
    char *buf = malloc(8 << 20);
    size_t n = fread(buf, 1, 8 << 20, f);
    fclose(f);
    ck_assert_int_eq(th_write(sb, "probe", buf, n, 0755), SBX_OK);
    free(buf);
}

pid_t th_init_pid(void *sb)
{
    const char *id = th_plugin->sandbox_id(sb);
    ck_assert_ptr_nonnull(id);
    ck_assert(strncmp(id, "local-", 6) == 0);
    return (pid_t)atoi(id + 6);
}

pid_t th_init_pid_of_id(const char *id)
{
    ck_assert(strncmp(id, "local-", 6) == 0);
    return (pid_t)atoi(id + 6);
}

unsigned long th_pidns_of(pid_t pid)
{
    char path[64];
    struct stat st;
    snprintf(path, sizeof path, "/proc/%d/ns/pid", (int)pid);
    if (stat(path, &st) < 0)
        return 0;
    return (unsigned long)st.st_ino;
}

int th_count_in_pidns(unsigned long ns)
{
    int n = 0;
    DIR *d = opendir("/proc");
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && th_pidns_of(atoi(e->d_name)) == ns)
            n++;
    closedir(d);
    return n;
}

pid_t th_find_in_pidns(unsigned long ns, const char *comm)
{
    pid_t found = 0;
    DIR *d = opendir("/proc");
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; !found && (e = readdir(d)) != NULL;) {
        char path[64], c[64] = "";
        pid_t pid = atoi(e->d_name);
        if (pid <= 0 || th_pidns_of(pid) != ns)
            continue;
        snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
        FILE *f = fopen(path, "r");
        if (f && fgets(c, sizeof c, f) && strcspn(c, "\n") == strlen(comm)
            && !strncmp(c, comm, strlen(comm)))
            found = pid;
        if (f)
            fclose(f);
    }
    closedir(d);
    return found;
}

void th_host_ids(pid_t pid, uid_t *uid, gid_t *gid)
{
    char path[64], line[256];
    int got = 0;
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    while (fgets(line, sizeof line, f)) {
        unsigned long v;
        if (sscanf(line, "Uid: %lu", &v) == 1)
            *uid = (uid_t)v, got |= 1;
        else if (sscanf(line, "Gid: %lu", &v) == 1)
            *gid = (gid_t)v, got |= 2;
    }
    fclose(f);
    ck_assert_int_eq(got, 3);
}

int th_count_cmdline(const char *text, pid_t *first)
{
    int n = 0;
    DIR *d = opendir("/proc");
    ck_assert_ptr_nonnull(d);
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        char path[300], buf[4096];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t len = read(fd, buf, sizeof buf - 1);
        close(fd);
        for (ssize_t i = 0; i < len; i++)
            if (buf[i] == '\0')
                buf[i] = ' ';
        buf[len > 0 ? len : 0] = '\0';
        if (strstr(buf, text) && n++ == 0 && first)
            *first = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

int th_settle_pidns(unsigned long ns, int want)
{
    int n = th_count_in_pidns(ns);
    for (int i = 0; i < 500 && n > want; i++) {
        usleep(10000);
        n = th_count_in_pidns(ns);
    }
    return n;
}

int th_alive(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *rp = strrchr(buf, ')');
    return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}
