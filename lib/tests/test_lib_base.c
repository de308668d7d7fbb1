/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dependency-free helpers of lib/ that the CLI, the core's neighbours and
 * every backend share (libsbxu): the two clocks, the strict base64 decoder, an exec errno as
 * its code, writing a buffer whole and replacing a small file.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/base64.h>
#include <sbxu/clock.h>
#include <sbxu/exec_start.h>
#include <sbxu/file.h>
#include "run-suite.h"

/* --- clocks --------------------------------------------------------------- */

START_TEST(wall_clock_is_unix_milliseconds)
{
    int64_t before = (int64_t)time(NULL) * 1000;
    int64_t now = sbxu_wall_ms();
    int64_t after = (int64_t)time(NULL) * 1000 + 1000;
    ck_assert_int_ge(now, before);
    ck_assert_int_lt(now, after);
}
END_TEST

START_TEST(monotonic_clock_never_goes_back_and_counts_sleeps)
{
    int64_t a = sbxu_mono_ms();
    uint64_t na = sbxu_mono_ns();
    struct timespec pause = {0, 20 * 1000000};
    nanosleep(&pause, NULL);
    int64_t b = sbxu_mono_ms();
    uint64_t nb = sbxu_mono_ns();
    ck_assert_int_ge(b - a, 20);
    ck_assert_uint_ge(nb - na, 20u * 1000000u);
    /* The two resolutions read the same clock. */
    ck_assert_int_le(b, (int64_t)(sbxu_mono_ns() / 1000000u));
    ck_assert_int_ge(a, (int64_t)(na / 1000000u) - 1);
}
END_TEST

/* --- strict base64 --------------------------------------------------------- */

START_TEST(strict_base64_takes_what_the_encoder_writes)
{
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar", NULL};
    for (size_t i = 0; plain[i]; i++) {
        char *e = sbxu_base64_encode(plain[i], strlen(plain[i]));
        size_t n = 99;
        char *d = sbxu_base64_decode_strict(e, strlen(e), &n);
        ck_assert_ptr_nonnull(d);
        ck_assert_uint_eq(n, strlen(plain[i]));
        ck_assert_mem_eq(d, plain[i], n);
        ck_assert_int_eq(d[n], '\0');
        free(d);
        free(e);
    }
    /* Bytes with a NUL among them come back whole, and their count. */
    size_t n = 0;
    char *d = sbxu_base64_decode_strict("/wBh", 4, &n);
    ck_assert_ptr_nonnull(d);
    ck_assert_uint_eq(n, 3);
    ck_assert_mem_eq(d, "\xff\x00" "a", 3);
    free(d);
    /* Only len bytes are read: what follows does not count. */
    d = sbxu_base64_decode_strict("Zm9vYmFyXXXX", 8, &n);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(d, "foobar");
    free(d);
}
END_TEST

START_TEST(strict_base64_refuses_anything_else)
{
    static const char *const bad[] = {
        "Zg=",          /* not a multiple of 4 */
        "Zg",           /* unpadded */
        "Zm9vY",        /* a stray character */
        "-_8=",         /* the URL-safe alphabet */
        "Zg==Zg==",     /* padding before the end */
        "Z===",         /* three pads */
        "Zm=v",         /* a pad then a character */
        "Zm9v!A==",     /* outside the alphabet */
        "Zm9 ",         /* whitespace */
        NULL,
    };
    for (size_t i = 0; bad[i]; i++) {
        size_t n = 99;
        ck_assert_msg(sbxu_base64_decode_strict(bad[i], strlen(bad[i]), &n) == NULL,
                      "accepted \"%s\"", bad[i]);
    }
    /* A NUL inside the given length is a bad character, not the end. */
    size_t n;
    ck_assert_ptr_null(sbxu_base64_decode_strict("Zm\0v", 4, &n));
}
END_TEST

/* --- exec errno ----------------------------------------------------------- */

START_TEST(exec_errno_gives_not_found_denied_or_start)
{
    /* Not found: the CLI's 127. */
    ck_assert_int_eq(sbxu_exec_start_code(ENOENT), SBX_E_EXEC_NOT_FOUND);
    ck_assert_int_eq(sbxu_exec_start_code(ENOTDIR), SBX_E_EXEC_NOT_FOUND);
    /* Found, cannot be run: the CLI's 126. */
    ck_assert_int_eq(sbxu_exec_start_code(EACCES), SBX_E_EXEC_DENIED);
    ck_assert_int_eq(sbxu_exec_start_code(EPERM), SBX_E_EXEC_DENIED);
    ck_assert_int_eq(sbxu_exec_start_code(ENOEXEC), SBX_E_EXEC_DENIED);
    ck_assert_int_eq(sbxu_exec_start_code(EISDIR), SBX_E_EXEC_DENIED);
    /* Anything else failed to start. */
    ck_assert_int_eq(sbxu_exec_start_code(E2BIG), SBX_E_EXEC_START);
    ck_assert_int_eq(sbxu_exec_start_code(ETXTBSY), SBX_E_EXEC_START);
    ck_assert_int_eq(sbxu_exec_start_code(0), SBX_E_EXEC_START);
}
END_TEST

/* --- files ---------------------------------------------------------------- */

/* A fresh directory under TMPDIR, its descriptor in *fd. */
static char *scratch_dir(int *fd)
{
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char *dir = NULL;
    ck_assert_int_ge(asprintf(&dir, "%s/sbxu-file-XXXXXX", base), 0);
    ck_assert_ptr_nonnull(mkdtemp(dir));
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ck_assert_int_ge(*fd, 0);
    return dir;
}

static void read_back(int dirfd, const char *name, const char *want, mode_t mode)
{
    char got[64] = {0};
    int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(read(fd, got, sizeof(got) - 1), (ssize_t)strlen(want));
    ck_assert_str_eq(got, want);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, mode);
    close(fd);
}

START_TEST(write_all_writes_every_byte_through_a_pipe)
{
    /* More than a pipe holds at once, read as it is written. */
    static char big[256 * 1024], back[sizeof(big)];
    for (size_t i = 0; i < sizeof(big); i++)
        big[i] = (char)(i * 7);
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(p[0]);
        _exit(sbxu_write_all(p[1], big, sizeof(big)) == 0 ? 0 : 1);
    }
    close(p[1]);
    size_t got = 0;
    ssize_t n;
    while ((n = read(p[0], back + got, sizeof(back) - got)) > 0)
        got += (size_t)n;
    close(p[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    ck_assert_uint_eq(got, sizeof(big));
    ck_assert_mem_eq(back, big, sizeof(big));
}
END_TEST

START_TEST(write_all_fails_with_errno_on_a_closed_pipe)
{
    int p[2];
    ck_assert_int_eq(pipe(p), 0);
    close(p[0]);
    signal(SIGPIPE, SIG_IGN);
    errno = 0;
    ck_assert_int_eq(sbxu_write_all(p[1], "x", 1), -1);
    ck_assert_int_eq(errno, EPIPE);
    close(p[1]);
    errno = 0;
    ck_assert_int_eq(sbxu_write_all(-1, "x", 1), -1);
    ck_assert_int_eq(errno, EBADF);
}
END_TEST

START_TEST(file_replace_makes_and_replaces_whole_files)
{
    int dirfd;
    char *dir = scratch_dir(&dirfd);

    ck_assert_int_eq(sbxu_file_replace(dirfd, ".a.tmp", "a", "first", 5, 0600), 0);
    read_back(dirfd, "a", "first", 0600);
    /* A stale temporary file of a writer that died is replaced too. */
    int stale = openat(dirfd, ".a.tmp", O_WRONLY | O_CREAT | O_EXCL, 0600);
    ck_assert_int_ge(stale, 0);
    close(stale);
    ck_assert_int_eq(sbxu_file_replace(dirfd, ".a.tmp", "a", "second", 6, 0640), 0);
    read_back(dirfd, "a", "second", 0640);
    ck_assert_int_eq(faccessat(dirfd, ".a.tmp", F_OK, 0), -1);
    /* AT_FDCWD and paths, as a caller with no directory descriptor gives. */
    char *path = NULL, *tmp = NULL;
    ck_assert_int_ge(asprintf(&path, "%s/b", dir), 0);
    ck_assert_int_ge(asprintf(&tmp, "%s/b.1.tmp", dir), 0);
    ck_assert_int_eq(sbxu_file_replace(AT_FDCWD, tmp, path, "", 0, 0600), 0);
    read_back(dirfd, "b", "", 0600);

    unlinkat(dirfd, "a", 0);
    unlinkat(dirfd, "b", 0);
    close(dirfd);
    ck_assert_int_eq(rmdir(dir), 0);
    free(path);
    free(tmp);
    free(dir);
}
END_TEST

START_TEST(file_replace_refuses_and_cleans_up)
{
    int dirfd;
    char *dir = scratch_dir(&dirfd);

    /* Over a directory: rename() fails, the temporary file is gone. */
    ck_assert_int_eq(mkdirat(dirfd, "d", 0700), 0);
    ck_assert_int_eq(mkdirat(dirfd, "d/x", 0700), 0);
    ck_assert_int_eq(sbxu_file_replace(dirfd, ".d.tmp", "d", "x", 1, 0600), EISDIR);
    ck_assert_int_eq(faccessat(dirfd, ".d.tmp", F_OK, 0), -1);
    /* A temporary path that cannot be made: its errno. */
    ck_assert_int_eq(sbxu_file_replace(dirfd, "none/.t", "t", "x", 1, 0600), ENOENT);
    ck_assert_int_eq(faccessat(dirfd, "t", F_OK, 0), -1);

    unlinkat(dirfd, "d/x", AT_REMOVEDIR);
    unlinkat(dirfd, "d", AT_REMOVEDIR);
    close(dirfd);
    ck_assert_int_eq(rmdir(dir), 0);
    free(dir);
}
END_TEST

START_TEST(temp_names_are_the_prefix_and_16_hex_digits_each_new)
{
    char a[32], b[32];
    ck_assert_int_eq(sbxu_temp_name(a, sizeof(a), ".sbx-cp-"), 0);
    ck_assert_int_eq(sbxu_temp_name(b, sizeof(b), ".sbx-cp-"), 0);
    ck_assert_uint_eq(strlen(a), 8 + 16);
    ck_assert_int_eq(strncmp(a, ".sbx-cp-", 8), 0);
    ck_assert_uint_eq(strspn(a + 8, "0123456789abcdef"), 16);
    ck_assert_str_ne(a, b);
    /* Too small a buffer is refused, not cut short. */
    char small[10];
    ck_assert_int_eq(sbxu_temp_name(small, sizeof(small), ".sbx-cp-"), ENAMETOOLONG);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("lib/ base");
    TCase *t = tcase_create("clock");
    tcase_add_test(t, wall_clock_is_unix_milliseconds);
    tcase_add_test(t, monotonic_clock_never_goes_back_and_counts_sleeps);
    suite_add_tcase(s, t);
    t = tcase_create("base64");
    tcase_add_test(t, strict_base64_takes_what_the_encoder_writes);
    tcase_add_test(t, strict_base64_refuses_anything_else);
    suite_add_tcase(s, t);
    t = tcase_create("file");
    tcase_add_test(t, write_all_writes_every_byte_through_a_pipe);
    tcase_add_test(t, write_all_fails_with_errno_on_a_closed_pipe);
    tcase_add_test(t, file_replace_makes_and_replaces_whole_files);
    tcase_add_test(t, file_replace_refuses_and_cleans_up);
    tcase_add_test(t, temp_names_are_the_prefix_and_16_hex_digits_each_new);
    suite_add_tcase(s, t);
    t = tcase_create("exec");
    tcase_add_test(t, exec_errno_gives_not_found_denied_or_start);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
