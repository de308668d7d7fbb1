/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Helpers shared by the core's Check tests: a client pointed at the test
 * plugins of the build tree, and the call log of the testcaps plugin.
 */
#ifndef SBX_TESTUTIL_H
#define SBX_TESTUTIL_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

/* Use the testcaps plugin with caps and tier; start an empty call log. */
static inline void testcaps_setup(uint64_t caps, int tier)
{
    char buf[64];
    snprintf(buf, sizeof(buf), "%llx", (unsigned long long)caps);
    setenv("SBX_TESTCAPS_CAPS", buf, 1);
    snprintf(buf, sizeof(buf), "%d", tier);
    setenv("SBX_TESTCAPS_TIER", buf, 1);
    unsetenv("SBX_TESTCAPS_PROBE");
    static char log[256];
    snprintf(log, sizeof(log), "%s/testcaps-%d.log", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    unlink(log);
    setenv("SBX_TESTCAPS_LOG", log, 1);
}

/* The call log so far ("" if none); caller frees. */
static inline char *testcaps_log(void)
{
    FILE *f = fopen(getenv("SBX_TESTCAPS_LOG"), "r");
    char *s = calloc(1, 65536);
    if (f) {
        size_t n = fread(s, 1, 65535, f);
        s[n] = '\0';
        fclose(f);
    }
    return s;
}

static inline int testcaps_log_has(const char *needle)
{
    char *log = testcaps_log();
    int has = strstr(log, needle) != NULL;
    free(log);
    return has;
}

/* Start a probe log (one line per probe() of testcaps, kept apart from the
 * call log); returns its path. */
static inline const char *testcaps_probe_log_start(void)
{
    static char plog[256];
    snprintf(plog, sizeof(plog), "%s.probes", getenv("SBX_TESTCAPS_LOG"));
    unlink(plog);
    setenv("SBX_TESTCAPS_PROBE_LOG", plog, 1);
    return plog;
}

/* How many probes the log at path holds. */
static inline int testcaps_probes_counted(const char *path)
{
    FILE *f = fopen(path, "r");
    int n = 0, c;
    if (!f)
        return 0;
    while ((c = fgetc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

/* Stop the probe log and remove it. */
static inline void testcaps_probe_log_stop(const char *path)
{
    unsetenv("SBX_TESTCAPS_PROBE_LOG");
    unlink(path);
}

/* A client whose search path holds the build tree's test plugins first. */
static inline sbx_client *test_client(void)
{
    sbx_client *c = NULL;
    ck_assert_int_eq(sbx_client_new(&c), SBX_OK);
    const char *b = getenv("SBX_TEST_BUILDDIR");
    ck_assert_ptr_nonnull(b);
    char dir[1024];
    snprintf(dir, sizeof(dir), "%s/tests/plugins/.libs", b);
    ck_assert_int_eq(sbx_client_add_plugin_dir(c, dir), SBX_OK);
    return c;
}

#define ck_assert_code(expr, code) \
    do { \
        int rc_ = (expr); \
        ck_assert_msg(rc_ == (code), "%s returned %d (%s: %s), expected %d", #expr, rc_, \
                      sbx_error_id(rc_), sbx_error_last() ? sbx_error_last()->message : "", \
                      (code)); \
    } while (0)

#endif
