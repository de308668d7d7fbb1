/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake's minor-2 members: a named sandbox with a TTL kept in the user's
 * 0700 state directory, attached to from another process, listed with its
 * name and expiry, gone at its TTL (at the next look and in gc), detached
 * without loss, paused and resumed, and nothing left once destroyed.
 */
#include "config.h"
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const sbx_plugin_dsn dsn = {.struct_size = sizeof(dsn), .scheme = "fake",
                                   .authority = "", .path = ""};
static const sbx_plugin_limits limits = {.struct_size = sizeof(limits)};
static const char *const base_env[] = {"PATH=/usr/local/bin:/usr/bin:/bin", NULL};
#define POLICY "sbx-policy/1 tier=1 net=2 mem=0 cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=9"

static void *open_named(const char *name, uint64_t ttl_ms)
{
    sbx_plugin_sandbox_opts o = {.struct_size = sizeof(o), .name = name, .ttl_ms = ttl_ms,
                                 .policy = POLICY};
    void *sb = NULL;

    th_assert_code(th_plugin->open_named(th_state, &dsn, &limits, &o, &sb), SBX_OK);
    ck_assert_ptr_nonnull(sb);
    return sb;
}

static int attach(const char *id_or_name, void **sb, sbx_plugin_sandbox_info *info)
{
    *info = (sbx_plugin_sandbox_info){.struct_size = sizeof(*info)};
    return th_plugin->attach(th_state, &dsn, id_or_name, sb, info);
}

static char *statedir(void)
{
    static char dir[4096];

    snprintf(dir, sizeof(dir), "%s/sandboxio-fake.%lu", getenv("TMPDIR"),
             (unsigned long)geteuid());
    return dir;
}

static bool exists(const char *path)
{
    struct stat st;

    return lstat(path, &st) == 0;
}

START_TEST(named_sandbox_lives_in_a_private_state_dir)
{
    void *sb = open_named("job-1", 60000);
    const char *id = th_plugin->sandbox_id(sb);
    char path[4200];
    struct stat st;

    ck_assert_uint_eq(strlen(id), 12);
    ck_assert_int_eq(stat(statedir(), &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0700);
    ck_assert_uint_eq(st.st_uid, geteuid());
    snprintf(path, sizeof(path), "%s/%s", statedir(), id);
    ck_assert_str_eq(th_root(sb), path);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
    ck_assert(!exists(path));
    ck_assert(!exists(statedir()));  /* the last one out removes it */
}
END_TEST

START_TEST(another_process_attaches_by_id_and_name_and_sees_files)
{
    void *sb = open_named("job-1", 60000);
    char id[16];
    pid_t pid;
    int status;

    snprintf(id, sizeof(id), "%s", th_plugin->sandbox_id(sb));
    ck_assert_int_eq(th_write(sb, "job.py", "print(1)\n", 9, 0644), SBX_OK);
    th_assert_code(th_plugin->detach(sb), SBX_OK);
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        /* Another process: the files are there, under the id and the name alike. */
        sbx_plugin_sandbox_info info;
        void *a = NULL;
        char *data = NULL;
        size_t len = 0;
        int ok = attach(id, &a, &info) == SBX_OK && strcmp(info.name, "job-1") == 0 &&
                 strcmp(info.id, id) == 0 && info.policy && strcmp(info.policy, POLICY) == 0 &&
                 info.expires_ms > info.created_ms &&
                 th_read(a, "job.py", &data, &len) == SBX_OK && len == 9;
        free(data);
        if (a)
            th_plugin->detach(a);
        ok = ok && attach("job-1", &a, &info) == SBX_OK && strcmp(info.id, id) == 0;
        if (ok)
            th_plugin->detach(a);
        _exit(ok ? 0 : 1);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the child could not attach");
    sbx_plugin_sandbox_info info;
    th_assert_code(attach("job-1", &sb, &info), SBX_OK);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
    th_assert_code(attach(id, &sb, &info), SBX_E_NOT_FOUND);
    th_assert_code(attach("job-1", &sb, &info), SBX_E_NOT_FOUND);
}
END_TEST

START_TEST(a_name_is_taken_once)
{
    void *sb = open_named("job-1", 60000), *other = NULL;
    sbx_plugin_sandbox_opts o = {.struct_size = sizeof(o), .name = "job-1", .ttl_ms = 1000,
                                 .policy = POLICY};

    th_assert_code(th_plugin->open_named(th_state, &dsn, &limits, &o, &other),
                   SBX_E_BACKEND_CONFLICT);
    ck_assert_ptr_null(other);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
    /* Free again once its holder is gone. */
    sb = open_named("job-1", 60000);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(unknown_ids_and_names_are_not_found)
{
    static const char *const bad[] = {"nope", "../etc", "a/b", "000000000000", "n.x", ""};
    sbx_plugin_sandbox_info info;
    void *sb = NULL;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        th_assert_code(attach(bad[i], &sb, &info), SBX_E_NOT_FOUND);
    sb = open_named(NULL, 60000);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        th_assert_code(attach(bad[i], &sb, &info), SBX_E_NOT_FOUND);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

struct seen {
    int n;
    char name[64];
    int64_t expires;
    int state;
};

static int on_entry(void *ud, const sbx_plugin_sandbox_info *info)
{
    struct seen *s = ud;

    s->n++;
    snprintf(s->name, sizeof(s->name), "%s", info->name);
    s->expires = info->expires_ms;
    s->state = info->state;
    return 0;
}

START_TEST(list_shows_name_expiry_and_state)
{
    struct seen s = {0};
    uint64_t before = sbxu_mono_ms();
    void *sb;

    th_assert_code(th_plugin->list(th_state, &dsn, on_entry, &s), SBX_OK);
    ck_assert_int_eq(s.n, 0);
    sb = open_named("listed", 60000);
    th_assert_code(th_plugin->list(th_state, &dsn, on_entry, &s), SBX_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_str_eq(s.name, "listed");
    ck_assert_int_ge(s.expires, (int64_t)before + 60000);
    ck_assert_int_eq(s.state, SBX_PLUGIN_STATE_RUNNING);
    th_assert_code(th_plugin->pause(sb), SBX_OK);
    s.n = 0;
    th_assert_code(th_plugin->list(th_state, &dsn, on_entry, &s), SBX_OK);
    ck_assert_int_eq(s.state, SBX_PLUGIN_STATE_PAUSED);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(at_its_ttl_the_sandbox_is_gone_at_the_next_look)
{
    void *sb = open_named("short", 200);
    char root[4096], id[16];
    sbx_plugin_sandbox_info info;
    struct seen s = {0};

    snprintf(root, sizeof(root), "%s", th_root(sb));
    snprintf(id, sizeof(id), "%s", th_plugin->sandbox_id(sb));
    th_assert_code(th_plugin->detach(sb), SBX_OK);
    usleep(300 * 1000);
    ck_assert(exists(root));  /* no daemon: nothing has looked yet */
    th_assert_code(th_plugin->list(th_state, &dsn, on_entry, &s), SBX_OK);
    ck_assert_int_eq(s.n, 0);
    ck_assert(!exists(root));
    th_assert_code(attach(id, &sb, &info), SBX_E_NOT_FOUND);
    ck_assert(!exists(statedir()));
}
END_TEST

START_TEST(gc_removes_expired_and_orphaned_named_sandboxes)
{
    void *sb = open_named("short", 100);
    size_t removed = 0;
    pid_t pid;
    int status;

    th_assert_code(th_plugin->detach(sb), SBX_OK);
    /* A TTL-less named sandbox whose owner died without destroying it. */
    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        sbx_plugin_sandbox_opts o = {.struct_size = sizeof(o), .name = "orphan",
                                     .policy = POLICY};
        void *mine = NULL;
        _exit(th_plugin->open_named(th_state, &dsn, &limits, &o, &mine) == SBX_OK ? 0 : 1);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    sb = open_named("kept", 60000);
    usleep(200 * 1000);
    th_assert_code(th_plugin->gc(th_state, &dsn, NULL, NULL, &removed), SBX_OK);
    ck_assert_uint_eq(removed, 2);
    struct seen s = {0};
    th_assert_code(th_plugin->list(th_state, &dsn, on_entry, &s), SBX_OK);
    ck_assert_int_eq(s.n, 1);
    ck_assert_str_eq(s.name, "kept");
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(set_ttl_moves_the_end)
{
    void *sb = open_named(NULL, 60000), *a = NULL;
    sbx_plugin_sandbox_info info;
    char id[16];
    uint64_t before = sbxu_mono_ms();

    snprintf(id, sizeof(id), "%s", th_plugin->sandbox_id(sb));
    th_assert_code(th_plugin->set_ttl(sb, 0), SBX_E_INVALID_ARGUMENT);
    th_assert_code(th_plugin->set_ttl(sb, 3600000), SBX_OK);
    th_assert_code(attach(id, &a, &info), SBX_OK);
    ck_assert_int_ge(info.expires_ms, (int64_t)before + 3600000);
    th_assert_code(th_plugin->detach(a), SBX_OK);
    th_assert_code(th_plugin->set_ttl(sb, 1), SBX_OK);
    usleep(20 * 1000);
    th_assert_code(attach(id, &a, &info), SBX_E_NOT_FOUND);
    /* Through the old handle too. */
    ck_assert_int_eq(th_write(sb, "x", "1", 1, 0644), SBX_E_NOT_FOUND);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(pause_refuses_commands_keeps_files_and_resume_thaws)
{
    void *sb = open_named("p", 60000), *a = NULL;
    const char *const argv[] = {"cat", "f", NULL};
    sbx_plugin_sandbox_info info;
    th_result r = {.keep = true};
    char *data = NULL;
    size_t len = 0;

    ck_assert_int_eq(th_write(sb, "f", "kept", 4, 0644), SBX_OK);
    th_assert_code(th_plugin->pause(sb), SBX_OK);
    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_E_BACKEND_CONFLICT);
    th_result_free(&r);
    /* Another handle sees the pause too. */
    th_assert_code(attach("p", &a, &info), SBX_OK);
    ck_assert_int_eq(info.state, SBX_PLUGIN_STATE_PAUSED);
    r = (th_result){.keep = true};
    th_assert_code(th_exec(a, argv, base_env, NULL, 0, &r), SBX_E_BACKEND_CONFLICT);
    th_result_free(&r);
    th_assert_code(th_plugin->detach(a), SBX_OK);
    ck_assert_int_eq(th_read(sb, "f", &data, &len), SBX_OK);
    free(data);
    th_assert_code(th_plugin->resume(sb), SBX_OK);
    r = (th_result){.keep = true};
    th_assert_code(th_exec(sb, argv, base_env, NULL, 0, &r), SBX_OK);
    ck_assert_int_eq(r.exit.exit_code, 0);
    ck_assert_str_eq(r.out, "kept");
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(a_state_dir_open_to_others_is_refused)
{
    void *sb = NULL;
    sbx_plugin_sandbox_opts o = {.struct_size = sizeof(o), .ttl_ms = 1000, .policy = POLICY};

    ck_assert_int_eq(mkdir(statedir(), 0700), 0);
    ck_assert_int_eq(chmod(statedir(), 0777), 0);
    th_assert_code(th_plugin->open_named(th_state, &dsn, &limits, &o, &sb),
                   SBX_E_BACKEND_PERMISSION);
    ck_assert_int_eq(rmdir(statedir()), 0);
    ck_assert_int_eq(symlink("/tmp", statedir()), 0);
    th_assert_code(th_plugin->open_named(th_state, &dsn, &limits, &o, &sb),
                   SBX_E_BACKEND_PERMISSION);
    ck_assert_int_eq(unlink(statedir()), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fake-attach");
    TCase *tc = tcase_create("attach");

    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, named_sandbox_lives_in_a_private_state_dir);
    tcase_add_test(tc, another_process_attaches_by_id_and_name_and_sees_files);
    tcase_add_test(tc, a_name_is_taken_once);
    tcase_add_test(tc, unknown_ids_and_names_are_not_found);
    tcase_add_test(tc, list_shows_name_expiry_and_state);
    tcase_add_test(tc, at_its_ttl_the_sandbox_is_gone_at_the_next_look);
    tcase_add_test(tc, gc_removes_expired_and_orphaned_named_sandboxes);
    tcase_add_test(tc, set_ttl_moves_the_end);
    tcase_add_test(tc, pause_refuses_commands_keeps_files_and_resume_thaws);
    tcase_add_test(tc, a_state_dir_open_to_others_is_refused);
    suite_add_tcase(s, tc);
    return th_run_suite(s);
}
