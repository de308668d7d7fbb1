/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Test harness for the fake backend: loads the built module with dlopen and
 * drives its descriptor through a minimal host table, so these tests do not
 * depend on the core library.
 */
#ifndef FAKE_TEST_HARNESS_H
#define FAKE_TEST_HARNESS_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sandboxio/plugin.h>
#include <sbxu/clock.h>

extern const sbx_plugin *th_plugin;
extern void *th_state;

/*
 * dlopen $SBX_TEST_BUILDDIR/plugins/fake/.libs/sandboxio-fake.so and init it
 * (exit 99 if that fails), run suite with a private TMPDIR, then fail if any
 * sandbox root was left behind. Returns the exit status for main().
 */
int th_run_suite(Suite *suite);

/* The last error the plugin reported on this thread. */
int th_last_code(void);
const char *th_last_message(void);

/* Open a sandbox on "fake://" (asserts success) and its root's host path. */
void *th_open(void);
const char *th_root(void *sb);

/* How an exec went. out/err are kept only when keep is set; counts always. */
typedef struct th_result {
    sbx_plugin_exit exit;
    bool keep;
    char *out, *err;
    size_t out_len, err_len;
    uint64_t out_count, err_count;
    uint64_t abort_after;       /* output callback returns 1 past this many bytes; 0 = never */
    const char *in;             /* stdin bytes, NULL = no stdin */
    size_t in_len, in_off;
    bool in_fail;               /* input callback returns -1 */
    uint64_t in_repeat;         /* feed in[] this many times (0 = once) */
    int cancel_fd;              /* given as io->cancel_fd; 0 = none (fd 0 is never one) */
} th_result;

/* Run argv with envp (NULL = empty), cwd, timeout; r must be zeroed or prepared by the caller. */
int th_exec(void *sb, const char *const *argv, const char *const *envp, const char *cwd,
            uint64_t timeout_ms, th_result *r);
void th_result_free(th_result *r);

/* Run `sh -c script` with only PATH set; asserts it ran and exited 0. */
void th_sh(void *sb, const char *script);

int th_write(void *sb, const char *path, const void *data, size_t len, uint32_t mode);
/* Read into a malloc'd buffer (NUL-terminated). */
int th_read(void *sb, const char *path, char **data, size_t *len);

/* Is pid gone (no such process, or a zombie nobody needs)? Waits up to wait_ms. */
bool th_pid_gone(long pid, int wait_ms);

/* Assert the call returned code, printing the plugin's message on failure. */
#define th_assert_code(call, code)                                                           \
    do {                                                                                     \
        int th_rc_ = (call);                                                                 \
        ck_assert_msg(th_rc_ == (code), "%s returned %d, expected %d (%s)", #call, th_rc_,   \
                      (int)(code), th_last_message());                                      \
    } while (0)

#endif
