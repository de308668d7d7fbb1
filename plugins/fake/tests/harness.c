/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness's host table and helpers; see harness.h.
 */
#include "config.h"
#include "harness.h"

#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const sbx_plugin *th_plugin;
void *th_state;

static __thread int last_code;
static __thread char last_message[1024];

static void host_log(int level, const char *plugin, const char *fmt, ...)
{
    (void)level;
    (void)plugin;
    (void)fmt;
}

static int host_set_error(int code, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_message, sizeof(last_message), fmt, ap);
    va_end(ap);
    last_code = code;
    return code;
}

static const sbx_host host = {
    .struct_size = sizeof(sbx_host),
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .log = host_log,
    .set_error = host_set_error,
    .alloc = malloc,
    .realloc = realloc,
    .free = free,
};

int th_last_code(void)
{
    return last_code;
}

const char *th_last_message(void)
{
    return last_message;
}

static void th_load(void)
{
    const char *builddir = getenv("SBX_TEST_BUILDDIR");
    sbx_plugin_entry_fn entry;
    char path[4096];
    void *dl;

    if (builddir == NULL) {
        fprintf(stderr, "SBX_TEST_BUILDDIR is not set: run through `make check`\n");
        exit(99);
    }
    snprintf(path, sizeof(path), "%s/plugins/fake/.libs/sandboxio-fake.so", builddir);
    dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        fprintf(stderr, "cannot load %s: %s\n", path, dlerror());
        exit(99);
    }
    entry = (sbx_plugin_entry_fn)dlsym(dl, SBX_PLUGIN_ENTRY);
    if (entry == NULL || (th_plugin = entry()) == NULL) {
        fprintf(stderr, "%s has no usable %s\n", path, SBX_PLUGIN_ENTRY);
        exit(99);
    }
    if (th_plugin->init(&host, &th_state) != SBX_OK) {
        fprintf(stderr, "init failed: %s\n", last_message);
        exit(99);
    }
}

/* Make $TMPDIR a fresh private directory (roots land there); returns its path. */
static const char *th_private_tmpdir(void)
{
    static char dir[] = "/tmp/sbx-fake-test-XXXXXX";

    if (mkdtemp(dir) == NULL || setenv("TMPDIR", dir, 1) != 0) {
        perror("private TMPDIR");
        exit(99);
    }
    return dir;
}

int th_run_suite(Suite *suite)
{
    const char *tmpdir;
    SRunner *runner;
    int failed;
    char cmd[128];

    th_load();
    tmpdir = th_private_tmpdir();
    runner = srunner_create(suite);
    srunner_run_all(runner, CK_ENV);
    failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    if (rmdir(tmpdir) != 0) {
        fprintf(stderr, "sandbox roots were left behind in %s:\n", tmpdir);
        snprintf(cmd, sizeof(cmd), "ls -la '%s' >&2; rm -rf '%s'", tmpdir, tmpdir);
        if (system(cmd) != 0)
            fprintf(stderr, "(and cleaning up failed)\n");
        failed++;
    }
    th_plugin->fini(th_state);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

void *th_open(void)
{
    sbx_plugin_dsn dsn = {.struct_size = sizeof(dsn), .scheme = "fake", .authority = "",
                          .path = ""};
    sbx_plugin_limits limits = {.struct_size = sizeof(limits)};
    void *sb = NULL;

    th_assert_code(th_plugin->open(th_state, &dsn, &limits, &sb), SBX_OK);
    ck_assert_ptr_nonnull(sb);
    return sb;
}

const char *th_root(void *sb)
{
    /* Each sandbox's root, cached: tests use few sandboxes. */
    static __thread char root[4096];
    char *json = NULL, *start, *end;

    th_assert_code(th_plugin->native(sb, "root", NULL, &json), SBX_OK);
    start = strstr(json, ": \"");
    ck_assert_ptr_nonnull(start);
    start += 3;
    end = strrchr(start, '"');
    ck_assert_ptr_nonnull(end);
    snprintf(root, sizeof(root), "%.*s", (int)(end - start), start);
    free(json);
    return root;
}

static void append(char **buf, size_t *len, const void *data, size_t n)
{
    char *b = realloc(*buf, *len + n + 1);

    ck_assert_ptr_nonnull(b);
    memcpy(b + *len, data, n);
    *len += n;
    b[*len] = '\0';
    *buf = b;
}

static int on_output(void *userdata, int stream, const void *data, size_t len)
{
    th_result *r = userdata;

    ck_assert(stream == 1 || stream == 2);
    if (stream == 1) {
        r->out_count += len;
        if (r->keep)
            append(&r->out, &r->out_len, data, len);
    } else {
        r->err_count += len;
        if (r->keep)
            append(&r->err, &r->err_len, data, len);
    }
    return r->abort_after != 0 && r->out_count + r->err_count > r->abort_after;
}

static long on_input(void *userdata, void *buf, size_t len)
{
    th_result *r = userdata;
    size_t n;

    if (r->in_fail)
        return -1;
    if (r->in_off == r->in_len) {
        if (r->in_repeat <= 1)
            return 0;
        r->in_repeat--;
        r->in_off = 0;
    }
    n = r->in_len - r->in_off < len ? r->in_len - r->in_off : len;
    memcpy(buf, r->in + r->in_off, n);
    r->in_off += n;
    return (long)n;
}

int th_exec(void *sb, const char *const *argv, const char *const *envp, const char *cwd,
            uint64_t timeout_ms, th_result *r)
{
    static const char *const no_env[] = {NULL};
    sbx_plugin_cmd cmd = {.struct_size = sizeof(cmd), .argv = argv,
                          .envp = envp ? envp : no_env, .cwd = cwd, .timeout_ms = timeout_ms};
    sbx_plugin_io io = {.struct_size = sizeof(io), .userdata = r, .output = on_output,
                        .input = (r->in != NULL || r->in_fail) ? on_input : NULL,
                        .cancel_fd = r->cancel_fd > 0 ? r->cancel_fd : -1,
                        .input_ready_fd = -1, .resize_fd = -1};

    r->exit = (sbx_plugin_exit){.struct_size = sizeof(r->exit), .exit_code = -7, .signal = -7};
    return th_plugin->exec(sb, &cmd, &io, &r->exit);
}

void th_result_free(th_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

void th_sh(void *sb, const char *script)
{
    const char *argv[] = {"sh", "-c", script, NULL};
    const char *envp[] = {"PATH=/usr/local/bin:/usr/bin:/bin", NULL};
    th_result r = {.keep = true};

    th_assert_code(th_exec(sb, argv, envp, NULL, 0, &r), SBX_OK);
    ck_assert_msg(r.exit.exited && r.exit.exit_code == 0, "sh -c '%s' failed: %s", script,
                  r.err ? r.err : "");
    th_result_free(&r);
}

typedef struct mem_src {
    const char *data;
    size_t len, off;
} mem_src;

static long mem_read(void *userdata, void *buf, size_t len)
{
    mem_src *m = userdata;
    size_t n = m->len - m->off < len ? m->len - m->off : len;

    memcpy(buf, m->data + m->off, n);
    m->off += n;
    return (long)n;
}

int th_write(void *sb, const char *path, const void *data, size_t len, uint32_t mode)
{
    mem_src m = {data, len, 0};

    return th_plugin->file_write(sb, path, len, mode, mem_read, &m);
}

typedef struct mem_dst {
    char *data;
    size_t len;
} mem_dst;

static int mem_sink(void *userdata, const void *data, size_t len)
{
    mem_dst *d = userdata;

    append(&d->data, &d->len, data, len);
    return 0;
}

int th_read(void *sb, const char *path, char **data, size_t *len)
{
    mem_dst d = {NULL, 0};
    int rc = th_plugin->file_read(sb, path, mem_sink, &d);

    if (rc == SBX_OK && d.data == NULL)
        append(&d.data, &d.len, "", 0);
    if (rc != SBX_OK) {
        free(d.data);
        d.data = NULL;
        d.len = 0;
    }
    *data = d.data;
    *len = d.len;
    return rc;
}

static bool pid_gone_now(long pid)
{
    char path[64], buf[512];
    FILE *f;
    char *paren;
    bool zombie = false;

    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
        return true;
    /* A zombie is dead; only its parent (init here) has not reaped it yet. */
    snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
    f = fopen(path, "r");
    if (f == NULL)
        return true;
    if (fgets(buf, sizeof(buf), f) != NULL && (paren = strrchr(buf, ')')) != NULL)
        zombie = paren[1] == ' ' && paren[2] == 'Z';
    fclose(f);
    return zombie;
}

bool th_pid_gone(long pid, int wait_ms)
{
    for (int waited = 0;; waited += 20) {
        if (pid_gone_now(pid))
            return true;
        if (waited >= wait_ms)
            return false;
        usleep(20000);
    }
}
