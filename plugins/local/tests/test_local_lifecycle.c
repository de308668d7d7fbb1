/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The local plugin's life cycle through its descriptor: destroy and the
 * owner's death leave nothing, DSN options, setup failures, the kernel
 * switches, the client's signal settings.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "../../../lib/tests/run-suite.h"

static void *sb;

static void setup(void)
{
    sb = th_fixture_open(NULL, NULL);
}

static void teardown(void)
{
    th_fixture_close(&sb);
}

static void *sleeper(void *arg)
{
    th_result *r = arg;
    th_sh(sb, "sleep 1000", 0, r);
    return NULL;
}

START_TEST(destroy_leaves_no_process)
{
    pthread_t t;
    th_result r;
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    ck_assert_int_eq(pthread_create(&t, NULL, sleeper, &r), 0);
    for (int i = 0; i < 200 && th_count_in_pidns(ns) < 3; i++)
        usleep(10000);
    ck_assert_int_ge(th_count_in_pidns(ns), 3); /* init, supervisor, sleep */
    ck_assert_int_eq(th_plugin->destroy(sb), SBX_OK);
    sb = NULL;
    ck_assert_int_eq(th_count_in_pidns(ns), 0);
    pthread_join(t, NULL);
    ck_assert_int_eq(r.rc, SBX_E_BACKEND_FAILED);
    th_result_free(&r);
}
END_TEST

/*
 * The owner dies by SIGKILL while a command runs: the sandbox and all its
 * processes must disappear from the host on their own.
 */
START_TEST(owner_sigkill_leaves_no_process)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        void *own;
        pthread_t t;
        th_result r;
        if (th_open(NULL, NULL, &own) != SBX_OK)
            _exit(2);
        sb = own;
        pthread_create(&t, NULL, sleeper, &r);
        pid_t ip = th_init_pid(own);
        if (write(p[1], &ip, sizeof ip) != sizeof ip)
            _exit(3);
        pause();
        _exit(0);
    }
    pid_t init_pid = 0;
    ck_assert_int_eq(read(p[0], &init_pid, sizeof init_pid), (ssize_t)sizeof init_pid);
    unsigned long ns = th_pidns_of(init_pid);
    ck_assert_uint_ne(ns, 0);
    for (int i = 0; i < 200 && th_count_in_pidns(ns) < 3; i++)
        usleep(10000);
    ck_assert_int_ge(th_count_in_pidns(ns), 3);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    int left = -1;
    for (int i = 0; i < 500 && (left = th_count_in_pidns(ns)) != 0; i++)
        usleep(10000);
    ck_assert_int_eq(left, 0);
    /* Gone, or a zombie the host's init has not reaped yet: nothing runs. */
    int alive = 1;
    for (int i = 0; i < 500 && (alive = th_alive(init_pid)); i++)
        usleep(10000);
    ck_assert_int_eq(alive, 0);
}
END_TEST

START_TEST(client_signal_settings_do_not_leak_inside)
{
    void *x;
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    signal(SIGPIPE, SIG_IGN);
    sigprocmask(SIG_BLOCK, &block, NULL);
    ck_assert_int_eq(th_open(NULL, NULL, &x), SBX_OK);
    th_result r;
    th_sh(x, "yes | head -c 4; grep -E '^Sig(Blk|Ign):' /proc/self/status", 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "y\ny\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000000000\n");
    ck_assert_str_eq(r.err, "");
    th_result_free(&r);
    ck_assert_int_eq(th_plugin->destroy(x), SBX_OK);
}
END_TEST

static int count_report(void *userdata, const char *id, const char *reason)
{
    (void)reason;
    if (strstr(id, "cgroup:"))
        ++*(int *)userdata;
    return 0;
}

/* A client killed with SIGKILL leaves at most an empty cgroup; gc removes it. */
START_TEST(gc_removes_what_a_killed_client_left)
{
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "", "", 0, NULL };
    uint64_t caps = 0;
    size_t removed = 99;
    int reported = 0;
    ck_assert_int_eq(th_plugin->probe(th_state, &dsn, &caps), SBX_OK);
    if (!(caps & SBX_CAP_LIMIT_MEMORY)) {
        /* No cgroups in use here: nothing can be left, gc finds nothing. */
        ck_assert_int_eq(th_plugin->gc(th_state, &dsn, count_report, &reported, &removed), SBX_OK);
        ck_assert_uint_eq(removed, 0);
        return;
    }
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t child = fork();
    if (child == 0) {
        void *own;
        sbx_plugin_limits lim = { .struct_size = sizeof lim, .memory_bytes = 64u << 20 };
        char ok = th_open(NULL, &lim, &own) == SBX_OK;
        if (write(p[1], &ok, 1) != 1)
            _exit(3);
        pause();
        _exit(0);
    }
    char ok = 0;
    ck_assert_int_eq(read(p[0], &ok, 1), 1);
    ck_assert_int_eq(ok, 1);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    /* The sandbox dies with its client; its group empties a moment later
     * (seconds, on a loaded machine). */
    for (int i = 0; i < 500 && reported == 0; i++) {
        ck_assert_int_eq(th_plugin->gc(th_state, &dsn, count_report, &reported, &removed), SBX_OK);
        if (!reported)
            usleep(20000);
    }
    ck_assert_int_ge(reported, 1);
    ck_assert_uint_eq(removed, (size_t)reported);
}
END_TEST

START_TEST(dsn_options_are_checked)
{
    void *x = NULL;
    ck_assert_int_eq(th_open("colour=blue", NULL, &x), SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_int_eq(th_open("size=12q", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("size=10k", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("ro=/nonexistent-xyz", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("ro=relative", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("ro=/usr:data", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("ro=/usr:/a/../b", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("rw=/tmp:/proc/x", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("ro=/usr,", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("workdir=relative", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("workdir=/", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("workdir=/usr/x", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    /* The first bad key in the query's order is the one reported. */
    ck_assert_int_eq(th_open("size=12q&colour=blue", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("colour=blue&size=12q", NULL, &x), SBX_E_DSN_UNKNOWN_OPTION);
    /* A host other than the core may repeat a key: binds and workdir once. */
    ck_assert_int_eq(th_open("ro=/usr&ro=/usr", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("rw=/tmp&rw=/tmp", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(th_open("workdir=/w&workdir=/w", NULL, &x), SBX_E_DSN_BAD_OPTION_VALUE);
    sbx_plugin_kv kv[1];
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "host", "", 0, kv };
    ck_assert_int_eq(th_plugin->open(th_state, &dsn, NULL, &x), SBX_E_DSN_BAD_AUTHORITY);
    ck_assert_ptr_null(x);
}
END_TEST

START_TEST(binds_and_workdir_options_work)
{
    char dir[] = "/tmp/sbx-local-bind-XXXXXX";
    char out[] = "/tmp/sbx-local-out-XXXXXX";
    char q[256], path[512];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    ck_assert_ptr_nonnull(mkdtemp(out));
    chmod(dir, 0755);
    chmod(out, 0777);
    snprintf(path, sizeof path, "%s/in.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("from host\n", f);
    fclose(f);
    snprintf(q, sizeof q, "ro=%s:/data,%s:/data2&rw=%s:/out&workdir=/home/box&size=16m", dir, dir,
             out);
    void *x;
    int rc = th_open(q, NULL, &x);
    ck_assert_msg(rc == SBX_OK, "%d %s", rc, th_msg);
    th_result r;
    th_sh(x, "pwd; cat /data/in.txt /data2/in.txt; echo hi > /data/new; echo $?; echo w > /out/o.txt",
          0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "/home/box\nfrom host\nfrom host\n2\n");
    ck_assert_ptr_nonnull(strstr(r.err, "Read-only file system"));
    th_result_free(&r);
    ck_assert_int_eq(th_plugin->destroy(x), SBX_OK);
    snprintf(path, sizeof path, "%s/o.txt", out);
    f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    char line[32] = "";
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    fclose(f);
    ck_assert_str_eq(line, "w\n");
    unlink(path);
    snprintf(path, sizeof path, "%s/in.txt", dir);
    unlink(path);
    rmdir(dir);
    rmdir(out);
}
END_TEST

/* A setup step that fails stops the sandbox before anything runs, and says which. */
START_TEST(failed_setup_step_aborts_and_is_named)
{
    void *x = NULL;
    /* /usr is read-only inside by then: the mount point cannot be made. */
    int rc = th_open("ro=/usr/bin:/usr/sbx-extra", NULL, &x);
    ck_assert_int_eq(rc, SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_ptr_null(x);
    ck_assert_msg(strstr(th_msg, "step 'user binds'") && strstr(th_msg, "/usr/sbx-extra")
                  && strstr(th_msg, "Read-only file system"), "%s", th_msg);
}
END_TEST

START_TEST(missing_init_is_backend_unavailable)
{
    void *x;
    setenv("SANDBOXIO_LOCAL_INIT", "/nonexistent/sandboxio-local-init", 1);
    ck_assert_int_eq(th_open(NULL, NULL, &x), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_ptr_nonnull(strstr(th_msg, "/nonexistent/sandboxio-local-init"));
}
END_TEST

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    ck_assert_int_ge(fputs(text, f), 0);
    ck_assert_int_eq(fclose(f), 0);
}

/*
 * With user namespaces switched off (here: user.max_user_namespaces=0 in a
 * namespace of our own, so the host is untouched) open must refuse with
 * SBX_E_KERNEL_FEATURE, naming the switch and how to turn it on.
 */
START_TEST(disabled_user_namespaces_are_a_kernel_feature_error)
{
    char map[64];
    uid_t uid = geteuid();
    gid_t gid = getegid();
    ck_assert_int_eq(unshare(CLONE_NEWUSER), 0);
    write_text("/proc/self/setgroups", "deny");
    snprintf(map, sizeof map, "0 %u 1", (unsigned)uid);
    write_text("/proc/self/uid_map", map);
    snprintf(map, sizeof map, "0 %u 1", (unsigned)gid);
    write_text("/proc/self/gid_map", map);
    write_text("/proc/sys/user/max_user_namespaces", "0");
    void *x = NULL;
    ck_assert_int_eq(th_open(NULL, NULL, &x), SBX_E_KERNEL_FEATURE);
    ck_assert_ptr_null(x);
    ck_assert_msg(strstr(th_msg, "user.max_user_namespaces=0") && strstr(th_msg, "sysctl -w"),
                  "%s", th_msg);
}
END_TEST

static Suite *life_suite(void)
{
    Suite *s = suite_create("local-life");
    TCase *tc = tcase_create("sandbox");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, destroy_leaves_no_process);
    tcase_add_test(tc, owner_sigkill_leaves_no_process);
    tcase_add_test(tc, dsn_options_are_checked);
    tcase_add_test(tc, binds_and_workdir_options_work);
    suite_add_tcase(s, tc);
    TCase *bare = tcase_create("no-sandbox");
    tcase_add_checked_fixture(bare, th_load, th_unload);
    tcase_add_test(bare, missing_init_is_backend_unavailable);
    tcase_add_test(bare, gc_removes_what_a_killed_client_left);
    tcase_add_test(bare, failed_setup_step_aborts_and_is_named);
    tcase_add_test(bare, client_signal_settings_do_not_leak_inside);
    tcase_add_test(bare, disabled_user_namespaces_are_a_kernel_feature_error);
    suite_add_tcase(s, bare);
    return s;
}

int main(void)
{
    th_skip_without_userns();
    return run_suite(life_suite());
}
