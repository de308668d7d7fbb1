/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake backend's descriptor, DSN handling, sandbox life cycle,
 * concurrency, the "root" native op and gc.
 */
#include "config.h"
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const base_env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", NULL};

START_TEST(descriptor_declares_only_what_it_honours)
{
    const sbx_plugin *p = th_plugin;

    ck_assert_uint_eq(p->struct_size, sizeof(sbx_plugin));
    ck_assert_uint_eq(p->abi_major, SBX_PLUGIN_ABI_MAJOR);
    ck_assert_uint_eq(p->abi_minor, SBX_PLUGIN_ABI_MINOR);
    ck_assert_str_eq(p->name, "fake");
    ck_assert_int_eq(p->tier, SBX_TIER_NONE);
    ck_assert_uint_eq(p->caps, SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES |
                                   SBX_CAP_ENV | SBX_CAP_CWD | SBX_CAP_TIMEOUT |
                                   SBX_CAP_PERSIST | SBX_CAP_NATIVE | SBX_CAP_ATTACH |
                                   SBX_CAP_PAUSE | SBX_CAP_FILE_META);
    ck_assert_ptr_nonnull(p->init);
    ck_assert_ptr_nonnull(p->fini);
    ck_assert_ptr_nonnull(p->open);
    ck_assert_ptr_nonnull(p->destroy);
    ck_assert_ptr_nonnull(p->exec);
    ck_assert_ptr_nonnull(p->file_write);
    ck_assert_ptr_nonnull(p->file_read);
    ck_assert_ptr_nonnull(p->file_list);
    ck_assert_ptr_nonnull(p->file_remove);
    ck_assert_ptr_nonnull(p->file_mkdir);
    ck_assert_ptr_nonnull(p->native);
    ck_assert_ptr_nonnull(p->sandbox_id);
    ck_assert_ptr_nonnull(p->gc);
    ck_assert_ptr_null(p->probe);
    ck_assert_ptr_nonnull(p->open_named);
    ck_assert_ptr_nonnull(p->attach);
    ck_assert_ptr_nonnull(p->detach);
    ck_assert_ptr_nonnull(p->list);
    ck_assert_ptr_nonnull(p->set_ttl);
    ck_assert_ptr_nonnull(p->pause);
    ck_assert_ptr_nonnull(p->resume);
}
END_TEST

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;

    ck_assert_ptr_nonnull(d);
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

START_TEST(open_creates_a_private_root_named_by_its_id)
{
    void *sb = th_open();
    const char *root = th_root(sb), *id = th_plugin->sandbox_id(sb);
    char prefix[64], *json = NULL;
    struct stat st;

    ck_assert_int_eq(stat(root, &st), 0);
    ck_assert(S_ISDIR(st.st_mode));
    ck_assert_uint_eq(st.st_mode & 07777, 0700);
    const char *tmpdir = getenv("TMPDIR");
    ck_assert_ptr_nonnull(tmpdir);
    ck_assert_uint_eq(strncmp(root, tmpdir, strlen(tmpdir)), 0);
    ck_assert_str_eq(strrchr(root, '/') + 1, id);
    snprintf(prefix, sizeof(prefix), "sandboxio-fake-%ld-", (long)getpid());
    ck_assert_uint_eq(strncmp(id, prefix, strlen(prefix)), 0);
    th_assert_code(th_plugin->native(sb, "no-such-op", NULL, &json), SBX_E_INVALID_ARGUMENT);
    ck_assert_ptr_null(json);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
    ck_assert_int_eq(stat(root, &st), -1);
}
END_TEST

START_TEST(dsn_with_options_authority_or_path_is_refused)
{
    sbx_plugin_kv kv[] = {{"image", "python"}};
    sbx_plugin_dsn with_key = {.struct_size = sizeof(with_key), .scheme = "fake",
                               .authority = "", .path = "", .query_count = 1, .query = kv};
    sbx_plugin_dsn with_host = {.struct_size = sizeof(with_host), .scheme = "fake",
                                .authority = "somehost", .path = ""};
    sbx_plugin_dsn with_path = {.struct_size = sizeof(with_path), .scheme = "fake",
                                .authority = "", .path = "/some/path"};
    void *sb = NULL;
    size_t removed = 99;

    th_assert_code(th_plugin->open(th_state, &with_key, NULL, &sb), SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_ptr_nonnull(strstr(th_last_message(), "\"image\""));
    th_assert_code(th_plugin->open(th_state, &with_host, NULL, &sb), SBX_E_DSN_BAD_AUTHORITY);
    th_assert_code(th_plugin->open(th_state, &with_path, NULL, &sb),
                   SBX_E_DSN_BAD_OPTION_VALUE);
    th_assert_code(th_plugin->gc(th_state, &with_key, NULL, NULL, &removed),
                   SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_uint_eq(removed, 0);
    ck_assert_ptr_null(sb);
    ck_assert_int_eq(count_entries(getenv("TMPDIR")), 0);
}
END_TEST

START_TEST(unusable_tmpdir_fails_with_a_system_error)
{
    sbx_plugin_dsn dsn = {.struct_size = sizeof(dsn), .scheme = "fake", .authority = "",
                          .path = ""};
    const char *tmpdir = getenv("TMPDIR");
    ck_assert_ptr_nonnull(tmpdir);
    char *saved = strdup(tmpdir);
    void *sb = NULL;

    setenv("TMPDIR", "/nonexistent-sbx-fake-dir", 1);
    th_assert_code(th_plugin->open(th_state, &dsn, NULL, &sb), SBX_E_SYSTEM);
    ck_assert_ptr_nonnull(strstr(th_last_message(), "/nonexistent-sbx-fake-dir/sandboxio-fake-"));
    ck_assert_ptr_nonnull(strstr(th_last_message(), "No such file or directory"));
    ck_assert_ptr_null(sb);
    setenv("TMPDIR", saved, 1);
    free(saved);
}
END_TEST

START_TEST(destroy_removes_the_whole_root_but_nothing_outside)
{
    void *sb = th_open();
    char outside[256], keep[300], script[700], root[4096];
    FILE *f;

    /* Beside the roots, in the private TMPDIR the harness removes if a test fails. */
    snprintf(outside, sizeof(outside), "%s/outside-XXXXXX", getenv("TMPDIR"));
    ck_assert_ptr_nonnull(mkdtemp(outside));
    snprintf(keep, sizeof(keep), "%s/keep", outside);
    f = fopen(keep, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(root, sizeof(root), "%s", th_root(sb));
    th_assert_code(th_write(sb, "deep/er/file", "x", 1, 0400), SBX_OK);
    snprintf(script, sizeof(script),
             "ln -s %s deep/out && mkdir -p ro/sub && touch ro/sub/f && chmod 000 ro/sub && "
             "chmod 500 ro && mkfifo fifo",
             outside);
    th_sh(sb, script);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
    ck_assert_int_eq(access(root, F_OK), -1);
    ck_assert_int_eq(access(keep, F_OK), 0);
    unlink(keep);
    rmdir(outside);
}
END_TEST

typedef struct running {
    void *sb;
    int rc;
    th_result r;
} running;

static void *run_long_command(void *arg)
{
    running *run = arg;
    const char *argv[] = {"sh", "-c", "sleep 100 & echo $! > bg.pid; echo $$ > leader.pid; wait",
                          NULL};

    run->rc = th_exec(run->sb, argv, base_env, NULL, 0, &run->r);
    return NULL;
}

static long wait_pid_file(void *sb, const char *path)
{
    for (int i = 0; i < 500; i++) {
        char *data;
        size_t len;
        long pid = 0;

        if (th_read(sb, path, &data, &len) == SBX_OK) {
            if (len > 0 && data[len - 1] == '\n')
                pid = strtol(data, NULL, 10);
            free(data);
            if (pid > 1)
                return pid;
        }
        usleep(10000);
    }
    ck_abort_msg("%s never appeared", path);
    return -1;
}

START_TEST(destroy_kills_running_commands_and_waits_for_them)
{
    running run = {.sb = th_open()};
    char root[4096];
    long leader, bg;
    pthread_t t;
    uint64_t start;

    snprintf(root, sizeof(root), "%s", th_root(run.sb));
    ck_assert_int_eq(pthread_create(&t, NULL, run_long_command, &run), 0);
    bg = wait_pid_file(run.sb, "bg.pid");
    leader = wait_pid_file(run.sb, "leader.pid");
    start = sbxu_mono_ms();
    th_assert_code(th_plugin->destroy(run.sb), SBX_OK);
    ck_assert_uint_lt(sbxu_mono_ms() - start, 5000);
    pthread_join(t, NULL);
    ck_assert_int_eq(run.rc, SBX_OK);
    ck_assert_int_eq(run.r.exit.exited, 0);
    ck_assert_int_eq(run.r.exit.signal, SIGKILL);
    ck_assert_int_eq(access(root, F_OK), -1);
    ck_assert(th_pid_gone(leader, 2000));
    ck_assert(th_pid_gone(bg, 2000));
}
END_TEST

typedef struct worker {
    void *sb;
    int index;
    int failures;
} worker;

static void *concurrent_worker(void *arg)
{
    worker *w = arg;

    for (int i = 0; i < 10; i++) {
        char tag[32], path[32], want[40], *data = NULL;
        const char *argv[] = {"sh", "-c", "echo \"$0\"; echo \"$0\" > \"$1\"; sleep 0.02", tag,
                              path, NULL};
        th_result r = {.keep = true};
        size_t len;

        snprintf(tag, sizeof(tag), "w%d-%d", w->index, i);
        snprintf(path, sizeof(path), "out-%d", w->index);
        snprintf(want, sizeof(want), "%s\n", tag);
        if (th_exec(w->sb, argv, base_env, NULL, 0, &r) != SBX_OK || r.out == NULL ||
            strcmp(r.out, want) != 0 || r.exit.exit_code != 0)
            w->failures++;
        if (th_read(w->sb, path, &data, &len) != SBX_OK || strcmp(data, want) != 0)
            w->failures++;
        free(data);
        th_result_free(&r);
    }
    return NULL;
}

START_TEST(concurrent_execs_from_four_threads)
{
    void *sb = th_open();
    worker w[4];
    pthread_t t[4];

    for (int i = 0; i < 4; i++) {
        w[i] = (worker){.sb = sb, .index = i};
        ck_assert_int_eq(pthread_create(&t[i], NULL, concurrent_worker, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        ck_assert_int_eq(w[i].failures, 0);
    }
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

typedef struct reports {
    int stop_after;     /* return non-zero from this report on; 0 = never */
    int count;
    char id[128];
    char reason[128];
} reports;

static int on_report(void *userdata, const char *id, const char *reason)
{
    reports *r = userdata;

    r->count++;
    snprintf(r->id, sizeof(r->id), "%s", id);
    snprintf(r->reason, sizeof(r->reason), "%s", reason);
    return r->stop_after != 0 && r->count >= r->stop_after;
}

/* A pid that certainly existed and is now gone. */
static pid_t dead_pid(void)
{
    pid_t pid = fork();

    ck_assert_int_ge(pid, 0);
    if (pid == 0)
        _exit(0);
    ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
    return pid;
}

static void make_dir(const char *dir, const char *name)
{
    char path[1024];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    ck_assert_int_eq(mkdir(path, 0700), 0);
}

START_TEST(gc_removes_only_roots_whose_owner_is_gone)
{
    char dir[256], dead_root[128], names[4][128], path[1024], reason[64];
    struct stat ns;
    reports rep = {0};
    size_t removed = 0;
    pid_t dead;
    void *live;
    FILE *f;

    dead = dead_pid();
    ck_assert_int_eq(stat("/proc/self/ns/pid", &ns), 0);

    snprintf(dir, sizeof(dir), "%s/gc", getenv("TMPDIR"));
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    setenv("TMPDIR", dir, 1);
    live = th_open();
    snprintf(dead_root, sizeof(dead_root), "sandboxio-fake-%ld-%lu-abcdef", (long)dead,
             (unsigned long)ns.st_ino);
    make_dir(dir, dead_root);
    snprintf(path, sizeof(path), "%s/%s/sub", dir, dead_root);
    ck_assert_int_eq(mkdir(path, 0755), 0);
    snprintf(path, sizeof(path), "%s/%s/sub/file", dir, dead_root);
    f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    /* Kept: a live owner, another pid namespace, a name that is not ours. */
    snprintf(names[0], sizeof(names[0]), "sandboxio-fake-%ld-%lu-ghijkl", (long)getpid(),
             (unsigned long)ns.st_ino);
    snprintf(names[1], sizeof(names[1]), "sandboxio-fake-%ld-%lu-mnopqr", (long)dead,
             (unsigned long)ns.st_ino + 1);
    snprintf(names[2], sizeof(names[2]), "sandboxio-fake-%ld-%lu-toolong", (long)dead,
             (unsigned long)ns.st_ino);
    snprintf(names[3], sizeof(names[3]), "other-%ld-%lu-stuvwx", (long)dead,
             (unsigned long)ns.st_ino);
    for (int i = 0; i < 4; i++)
        make_dir(dir, names[i]);

    th_assert_code(th_plugin->gc(th_state, NULL, on_report, &rep, &removed), SBX_OK);
    ck_assert_uint_eq(removed, 1);
    ck_assert_int_eq(rep.count, 1);
    ck_assert_str_eq(rep.id, dead_root);
    snprintf(reason, sizeof(reason), "owner process %ld is gone", (long)dead);
    ck_assert_str_eq(rep.reason, reason);
    snprintf(path, sizeof(path), "%s/%s", dir, dead_root);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(count_entries(dir), 5);  /* the four decoys and the live root */

    th_assert_code(th_plugin->destroy(live), SBX_OK);
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        ck_assert_int_eq(rmdir(path), 0);
    }
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(gc_stops_when_the_report_callback_asks)
{
    char dir[256], name[128];
    struct stat ns;
    reports rep = {.stop_after = 1};
    size_t removed = 0;
    pid_t dead = dead_pid();

    ck_assert_int_eq(stat("/proc/self/ns/pid", &ns), 0);
    snprintf(dir, sizeof(dir), "%s/gc-stop", getenv("TMPDIR"));
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    setenv("TMPDIR", dir, 1);
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof(name), "sandboxio-fake-%ld-%lu-stop%02d", (long)dead,
                 (unsigned long)ns.st_ino, i);
        make_dir(dir, name);
    }
    th_assert_code(th_plugin->gc(th_state, NULL, on_report, &rep, &removed), SBX_OK);
    ck_assert_uint_eq(removed, 1);
    ck_assert_int_eq(rep.count, 1);
    ck_assert_int_eq(count_entries(dir), 2);
    /* The next sweep takes the rest. */
    rep.stop_after = 0;
    th_assert_code(th_plugin->gc(th_state, NULL, on_report, &rep, &removed), SBX_OK);
    ck_assert_uint_eq(removed, 2);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *lifecycle_suite(void)
{
    Suite *s = suite_create("fake-lifecycle");
    TCase *tc = tcase_create("lifecycle");

    tcase_add_test(tc, descriptor_declares_only_what_it_honours);
    tcase_add_test(tc, open_creates_a_private_root_named_by_its_id);
    tcase_add_test(tc, dsn_with_options_authority_or_path_is_refused);
    tcase_add_test(tc, unusable_tmpdir_fails_with_a_system_error);
    tcase_add_test(tc, destroy_removes_the_whole_root_but_nothing_outside);
    tcase_add_test(tc, destroy_kills_running_commands_and_waits_for_them);
    tcase_add_test(tc, concurrent_execs_from_four_threads);
    tcase_add_test(tc, gc_removes_only_roots_whose_owner_is_gone);
    tcase_add_test(tc, gc_stops_when_the_report_callback_asks);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return th_run_suite(lifecycle_suite());
}
