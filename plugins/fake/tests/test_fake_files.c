/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake backend's files: round trips, directories, listing, removal,
 * and refusal of symlinks that lead out of the root.
 */
#include "config.h"
#include "harness.h"

#include <errno.h>
#ifdef SBX_HAVE_SECCOMP
#include <seccomp.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void assert_round_trip(void *sb, const char *path, const char *data, size_t len)
{
    char *back;
    size_t back_len;

    th_assert_code(th_write(sb, path, data, len, 0644), SBX_OK);
    th_assert_code(th_read(sb, path, &back, &back_len), SBX_OK);
    ck_assert_uint_eq(back_len, len);
    ck_assert(len == 0 || memcmp(back, data, len) == 0);
    free(back);
}

START_TEST(files_round_trip_empty_binary_and_large)
{
    void *sb = th_open();
    size_t big_len = 16u << 20;
    char bytes[512], *big = malloc(big_len);

    for (size_t i = 0; i < sizeof(bytes); i++)
        bytes[i] = (char)(i * 7);
    for (size_t i = 0; i < big_len; i++)
        big[i] = (char)(i ^ (i >> 9));
    assert_round_trip(sb, "empty", "", 0);
    assert_round_trip(sb, "binary.bin", bytes, sizeof(bytes));
    assert_round_trip(sb, "big", big, big_len);
    /* Replacing an existing file. */
    assert_round_trip(sb, "binary.bin", "new", 3);
    free(big);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

typedef struct listing {
    int count;
    char names[16][64];
    int types[16];
    uint64_t sizes[16];
    uint32_t modes[16];
} listing;

static int collect(void *userdata, const sbx_plugin_dirent *ent)
{
    listing *l = userdata;

    ck_assert_int_lt(l->count, 16);
    snprintf(l->names[l->count], sizeof(l->names[0]), "%s", ent->name);
    l->types[l->count] = ent->type;
    l->sizes[l->count] = ent->size;
    l->modes[l->count] = ent->mode;
    l->count++;
    return 0;
}

static int find(const listing *l, const char *name)
{
    for (int i = 0; i < l->count; i++)
        if (strcmp(l->names[i], name) == 0)
            return i;
    return -1;
}

START_TEST(write_creates_parents_and_list_reports_entries)
{
    void *sb = th_open();
    listing l = {0}, top = {0};
    int f, d, s;

    th_assert_code(th_write(sb, "a/b/c/file.txt", "hello", 5, 0750), SBX_OK);
    th_assert_code(th_plugin->file_mkdir(sb, "a/b/c/sub"), SBX_OK);
    th_sh(sb, "ln -s file.txt a/b/c/link");
    th_assert_code(th_plugin->file_list(sb, "a/b/c", collect, &l), SBX_OK);
    ck_assert_int_eq(l.count, 3);
    f = find(&l, "file.txt");
    d = find(&l, "sub");
    s = find(&l, "link");
    ck_assert(f >= 0 && d >= 0 && s >= 0);
    ck_assert_int_eq(l.types[f], 1);
    ck_assert_uint_eq(l.sizes[f], 5);
    ck_assert_uint_eq(l.modes[f], 0750);
    ck_assert_int_eq(l.types[d], 2);
    ck_assert_int_eq(l.types[s], 3);  /* not followed */
    ck_assert_uint_eq(l.sizes[s], strlen("file.txt"));
    /* "" is the root; no temporary file is left anywhere. */
    th_assert_code(th_plugin->file_list(sb, "", collect, &top), SBX_OK);
    ck_assert_int_eq(top.count, 1);
    ck_assert_str_eq(top.names[0], "a");
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(wrong_kinds_of_path_get_exact_codes)
{
    void *sb = th_open();
    listing l = {0};
    char *data;
    size_t len;

    th_assert_code(th_write(sb, "file", "x", 1, 0644), SBX_OK);
    th_assert_code(th_plugin->file_mkdir(sb, "dir"), SBX_OK);
    th_assert_code(th_read(sb, "missing", &data, &len), SBX_E_NOT_FOUND);
    th_assert_code(th_read(sb, "dir", &data, &len), SBX_E_IS_DIRECTORY);
    th_assert_code(th_read(sb, "file/x", &data, &len), SBX_E_NOT_DIRECTORY);
    th_assert_code(th_plugin->file_list(sb, "missing", collect, &l), SBX_E_NOT_FOUND);
    th_assert_code(th_plugin->file_list(sb, "file", collect, &l), SBX_E_NOT_DIRECTORY);
    th_assert_code(th_write(sb, "dir", "x", 1, 0644), SBX_E_IS_DIRECTORY);
    th_assert_code(th_write(sb, "file/x", "x", 1, 0644), SBX_E_NOT_DIRECTORY);
    th_assert_code(th_plugin->file_mkdir(sb, "file/sub"), SBX_E_NOT_DIRECTORY);
    th_assert_code(th_plugin->file_mkdir(sb, "file"), SBX_E_NOT_DIRECTORY);
    th_assert_code(th_plugin->file_mkdir(sb, "dir"), SBX_OK);  /* like mkdir -p */
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

static long short_source(void *userdata, void *buf, size_t len)
{
    int *calls = userdata;

    if ((*calls)++ > 0)
        return 0;
    memset(buf, 'x', len < 5 ? len : 5);
    return len < 5 ? (long)len : 5;
}

static long failing_source(void *userdata, void *buf, size_t len)
{
    return -1;
}

static int stop_sink(void *userdata, const void *data, size_t len)
{
    return 1;
}

START_TEST(reading_a_fifo_is_refused_not_blocked)
{
    void *sb = th_open();
    char *data = NULL;
    size_t len = 0;

    th_sh(sb, "mkfifo pipe");
    th_assert_code(th_read(sb, "pipe", &data, &len), SBX_E_NOT_REGULAR);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

/* Refused like a read, not replaced: every backend treats the FIFO the same. */
START_TEST(writing_over_a_fifo_is_refused_and_keeps_it)
{
    void *sb = th_open();
    char *data = NULL;
    size_t len = 0;

    th_sh(sb, "mkfifo pipe");
    th_assert_code(th_write(sb, "pipe", "x", 1, 0644), SBX_E_NOT_REGULAR);
    th_sh(sb, "test -p pipe");
    th_assert_code(th_read(sb, "pipe", &data, &len), SBX_E_NOT_REGULAR);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(short_or_failing_source_leaves_no_file)
{
    void *sb = th_open();
    listing l = {0};
    int calls = 0;

    th_assert_code(th_plugin->file_write(sb, "f", 10, 0644, short_source, &calls),
                   SBX_E_INVALID_ARGUMENT);
    th_assert_code(th_plugin->file_write(sb, "g", 10, 0644, failing_source, NULL),
                   SBX_E_EXEC_ABORTED);
    th_assert_code(th_plugin->file_list(sb, "", collect, &l), SBX_OK);
    ck_assert_int_eq(l.count, 0);
    th_assert_code(th_write(sb, "h", "data", 4, 0644), SBX_OK);
    th_assert_code(th_plugin->file_read(sb, "h", stop_sink, NULL), SBX_E_EXEC_ABORTED);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(remove_plain_recursive_and_missing)
{
    void *sb = th_open();
    listing l = {0};

    th_assert_code(th_write(sb, "plain", "x", 1, 0644), SBX_OK);
    th_assert_code(th_plugin->file_remove(sb, "plain", 0), SBX_OK);
    th_assert_code(th_plugin->file_mkdir(sb, "empty"), SBX_OK);
    th_assert_code(th_plugin->file_remove(sb, "empty", 0), SBX_OK);
    th_assert_code(th_write(sb, "tree/a/b/c", "x", 1, 0644), SBX_OK);
    th_sh(sb, "mkdir tree/locked && touch tree/locked/f && chmod 000 tree/locked");
    th_assert_code(th_plugin->file_remove(sb, "tree", 0), SBX_E_NOT_EMPTY);
    th_assert_code(th_plugin->file_remove(sb, "tree", 1), SBX_OK);
    th_assert_code(th_plugin->file_remove(sb, "tree", 1), SBX_E_NOT_FOUND);
    th_assert_code(th_plugin->file_remove(sb, "missing", 0), SBX_E_NOT_FOUND);
    th_assert_code(th_plugin->file_remove(sb, "missing/deeper", 1), SBX_E_NOT_FOUND);
    th_assert_code(th_plugin->file_list(sb, "", collect, &l), SBX_OK);
    ck_assert_int_eq(l.count, 0);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(recursive_remove_does_not_follow_symlinks)
{
    void *sb = th_open();
    char outside[256], victim[300], script[700];
    FILE *f;

    /* Beside the roots, in the private TMPDIR the harness removes if a test fails. */
    snprintf(outside, sizeof(outside), "%s/outside-XXXXXX", getenv("TMPDIR"));
    ck_assert_ptr_nonnull(mkdtemp(outside));
    snprintf(victim, sizeof(victim), "%s/keep", outside);
    f = fopen(victim, "w");
    ck_assert_ptr_nonnull(f);
    fclose(f);
    snprintf(script, sizeof(script), "mkdir t && ln -s %s t/out && ln -s %s t/file", outside,
             victim);
    th_sh(sb, script);
    th_assert_code(th_plugin->file_remove(sb, "t", 1), SBX_OK);
    ck_assert_int_eq(access(victim, F_OK), 0);
    /* A symlink is removed itself even without recursive. */
    snprintf(script, sizeof(script), "ln -s %s link", outside);
    th_sh(sb, script);
    th_assert_code(th_plugin->file_remove(sb, "link", 0), SBX_OK);
    ck_assert_int_eq(access(victim, F_OK), 0);
    unlink(victim);
    rmdir(outside);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(symlink_leading_out_is_refused)
{
    void *sb = th_open();
    listing l = {0};
    char *data;
    size_t len;
    int hostname_existed = access("/etc/hostname", F_OK) == 0;

    th_sh(sb, "ln -s /etc etc && ln -s /etc/passwd pw && mkdir d && ln -s ../.. d/up && "
              "ln -s loop loop");
    th_assert_code(th_read(sb, "etc/passwd", &data, &len), SBX_E_PATH_ESCAPE);
    th_assert_code(th_read(sb, "pw", &data, &len), SBX_E_PATH_ESCAPE);
    th_assert_code(th_read(sb, "d/up/etc/passwd", &data, &len), SBX_E_PATH_ESCAPE);
    th_assert_code(th_read(sb, "loop", &data, &len), SBX_E_PATH_ESCAPE);
    th_assert_code(th_write(sb, "etc/sbx-fake-test", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    th_assert_code(th_write(sb, "pw", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    th_assert_code(th_plugin->file_list(sb, "etc", collect, &l), SBX_E_PATH_ESCAPE);
    th_assert_code(th_plugin->file_mkdir(sb, "etc/sbx-fake-test"), SBX_E_PATH_ESCAPE);
    th_assert_code(th_plugin->file_remove(sb, "etc/hostname", 0), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(access("/etc/sbx-fake-test", F_OK), -1);
    ck_assert_int_eq(access("/etc/hostname", F_OK) == 0, hostname_existed);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(symlink_staying_inside_is_followed)
{
    void *sb = th_open();
    char *data;
    size_t len;

    th_assert_code(th_write(sb, "real/f", "inside", 6, 0644), SBX_OK);
    th_sh(sb, "mkdir -p x/y && ln -s ../../real x/y/r");
    th_assert_code(th_read(sb, "x/y/r/f", &data, &len), SBX_OK);
    ck_assert_str_eq(data, "inside");
    free(data);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

START_TEST(files_persist_across_execs)
{
    void *sb = th_open();
    const char *argv[] = {"cat", "from-exec", "from-api", NULL};
    const char *envp[] = {"PATH=/usr/bin:/bin", NULL};
    th_result r = {.keep = true};
    char *data;
    size_t len;

    th_sh(sb, "echo one > from-exec");
    th_assert_code(th_write(sb, "from-api", "two\n", 4, 0644), SBX_OK);
    th_assert_code(th_exec(sb, argv, envp, NULL, 0, &r), SBX_OK);
    ck_assert_str_eq(r.out, "one\ntwo\n");
    th_assert_code(th_read(sb, "from-exec", &data, &len), SBX_OK);
    ck_assert_str_eq(data, "one\n");
    free(data);
    th_result_free(&r);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST

#ifdef SBX_HAVE_SECCOMP
/* In a child where openat2 answers ENOSYS, as on a kernel older than 5.6
 * (libseccomp makes that child; a build without it cannot run this case). */
START_TEST(missing_openat2_is_a_kernel_feature_error)
{
    void *sb = th_open();
    pid_t pid;
    int status;

    pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
        char *data;
        size_t len;
        int code;

        if (filter == NULL ||
            seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0) != 0 ||
            seccomp_load(filter) != 0)
            _exit(3);
        code = th_read(sb, "anything", &data, &len);
        if (code != SBX_E_KERNEL_FEATURE)
            _exit(1);
        code = th_write(sb, "anything", "x", 1, 0644);
        _exit(code == SBX_E_KERNEL_FEATURE ? 0 : 2);
    }
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                  "child ended with status 0x%x (1: read, 2: write gave another code)", status);
    th_assert_code(th_plugin->destroy(sb), SBX_OK);
}
END_TEST
#endif

static Suite *files_suite(void)
{
    Suite *s = suite_create("fake-files");
    TCase *tc = tcase_create("files");
    TCase *esc = tcase_create("escape");

    tcase_add_test(tc, files_round_trip_empty_binary_and_large);
    tcase_add_test(tc, write_creates_parents_and_list_reports_entries);
    tcase_add_test(tc, wrong_kinds_of_path_get_exact_codes);
    tcase_add_test(tc, short_or_failing_source_leaves_no_file);
    tcase_add_test(tc, remove_plain_recursive_and_missing);
    tcase_add_test(tc, files_persist_across_execs);
#ifdef SBX_HAVE_SECCOMP
    tcase_add_test(tc, missing_openat2_is_a_kernel_feature_error);
#endif
    suite_add_tcase(s, tc);
    tcase_add_test(esc, recursive_remove_does_not_follow_symlinks);
    tcase_add_test(esc, symlink_leading_out_is_refused);
    tcase_add_test(esc, symlink_staying_inside_is_followed);
    tcase_add_test(esc, reading_a_fifo_is_refused_not_blocked);
    tcase_add_test(esc, writing_over_a_fifo_is_refused_and_keeps_it);
    suite_add_tcase(s, esc);
    return s;
}

int main(void)
{
    return th_run_suite(files_suite());
}
