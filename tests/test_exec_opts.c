/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The options form of an exec (sbx_exec_ext(), sbx_run_ext()): capture
 * only, stream only, or both, where the observer sees every byte and the
 * result keeps what fits under the cap with the truncated flag for the
 * rest; a backend prepared once per run; and each bad input refused with
 * its exact code before anything runs.
 */
#include "testutil.h"

static sbx_client *client;
static sbx_policy *policy;
static sbx_sandbox *sb;

/* The testcaps plugin: caps on top of exec; with_run: it has a one-shot run. */
static void setup_with(uint64_t caps, int with_run)
{
    testcaps_setup(caps | SBX_CAP_EXEC | SBX_CAP_NET_NONE, SBX_TIER_NAMESPACE);
    if (with_run)
        setenv("SBX_TESTCAPS_RUN", "1", 1);
    else
        unsetenv("SBX_TESTCAPS_RUN");
    client = test_client();
    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
}

static void open_with(uint64_t caps)
{
    setup_with(caps, 0);
    ck_assert_code(sbx_sandbox_open(&sb, client, "testcaps://", policy), SBX_OK);
}

static void teardown(void)
{
    sbx_sandbox_free(sb);
    sb = NULL;
    sbx_policy_free(policy);
    policy = NULL;
    sbx_client_free(client);
    client = NULL;
}

/* testcaps' "emit N": N bytes of 'x' on stdout, in chunks of up to 1000. */
static sbx_cmd *emit(const char *n)
{
    const char *argv[] = {"emit", n, NULL};
    sbx_cmd *cmd = NULL;
    ck_assert_int_eq(sbx_cmd_new(&cmd, argv), SBX_OK);
    return cmd;
}

/* What an observer saw. */
struct seen {
    size_t bytes;
    size_t calls;
    int all_x;        /* every byte was the command's */
    int stop_after;   /* non-zero: stop the command after this many calls */
};

static int observe(void *ud, int stream, const void *data, size_t len)
{
    struct seen *s = ud;
    const char *p = data;
    ck_assert_int_eq(stream, SBX_STDOUT);
    for (size_t i = 0; i < len; i++)
        if (p[i] != 'x')
            s->all_x = 0;
    s->bytes += len;
    s->calls++;
    return s->stop_after && (int)s->calls >= s->stop_after;
}

static sbx_exec_opts opts_of(unsigned flags, struct seen *s)
{
    sbx_exec_opts o = SBX_EXEC_OPTS_INIT;
    o.flags = flags;
    if (s) {
        s->all_x = 1;
        o.observer = observe;
        o.userdata = s;
    }
    return o;
}

static size_t stdout_len(const sbx_result *r)
{
    size_t len = 99;
    sbx_result_stdout(r, &len);
    return len;
}

START_TEST(capture_only_keeps_the_output_and_calls_no_observer)
{
    open_with(SBX_CAP_STREAM);
    sbx_cmd *cmd = emit("2500");
    sbx_exec_opts o = opts_of(SBX_EXEC_CAPTURE, NULL);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_OK);
    ck_assert_uint_eq(stdout_len(r), 2500);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 0);
    ck_assert_int_eq(sbx_result_streamed(r), 0);
    sbx_result_free(r);
    /* NULL options are the same: capture alone. */
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, NULL), SBX_OK);
    ck_assert_uint_eq(stdout_len(r), 2500);
    ck_assert_int_eq(sbx_result_streamed(r), 0);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(stream_only_gives_every_byte_and_captures_nothing)
{
    open_with(SBX_CAP_STREAM);
    ck_assert_int_eq(sbx_policy_set_output_cap(policy, 100), SBX_OK);
    sbx_cmd *cmd = emit("2500");
    struct seen s = {0};
    sbx_exec_opts o = opts_of(SBX_EXEC_STREAM, &s);
    sbx_result *r = NULL;
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_OK);
    ck_assert_uint_eq(s.bytes, 2500);
    ck_assert(s.all_x);
    ck_assert_uint_eq(stdout_len(r), 0);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 0);
    ck_assert_int_eq(sbx_result_streamed(r), 1);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(both_observer_sees_every_byte_and_result_keeps_them_under_the_cap)
{
    open_with(SBX_CAP_STREAM);
    sbx_cmd *cmd = emit("2500");
    struct seen s = {0};
    sbx_exec_opts o = opts_of(SBX_EXEC_CAPTURE | SBX_EXEC_STREAM, &s);
    sbx_result *r = NULL;
    /* No cap in the way: all of it, both sides. */
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_OK);
    ck_assert_uint_eq(s.bytes, 2500);
    ck_assert_uint_eq(stdout_len(r), 2500);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 0);
    ck_assert_int_eq(sbx_result_streamed(r), 1);
    sbx_result_free(r);
    /* A cap: the observer still sees all, the result keeps the first 1500. */
    ck_assert_int_eq(sbx_cmd_set_output_cap(cmd, 1500), SBX_OK);
    s = (struct seen){.all_x = 1};
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_OK);
    ck_assert_uint_eq(s.bytes, 2500);
    ck_assert(s.all_x);
    size_t len = 0;
    const char *out = sbx_result_stdout(r, &len);
    ck_assert_uint_eq(len, 1500);
    for (size_t i = 0; i < len; i++)
        ck_assert_int_eq(out[i], 'x');
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 1);
    ck_assert_int_eq(sbx_result_truncated(r, SBX_STDERR), 0);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(both_observer_can_stop_the_command)
{
    open_with(SBX_CAP_STREAM);
    sbx_cmd *cmd = emit("5000");
    struct seen s = {0};
    sbx_exec_opts o = opts_of(SBX_EXEC_CAPTURE | SBX_EXEC_STREAM, &s);
    s.stop_after = 2;
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_E_EXEC_ABORTED);
    ck_assert_ptr_null(r);
    ck_assert_uint_eq(s.calls, 2);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(stream_needs_the_cap_unless_if_able)
{
    open_with(0);
    sbx_cmd *cmd = emit("700");
    struct seen s = {0};
    sbx_exec_opts o = opts_of(SBX_EXEC_CAPTURE | SBX_EXEC_STREAM, &s);
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_E_CAP_STREAM);
    ck_assert_ptr_null(r);
    ck_assert(!testcaps_log_has("exec "));
    /* If able: captured instead, the observer never called. */
    o.flags = SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE;
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, &o), SBX_OK);
    ck_assert_uint_eq(s.calls, 0);
    ck_assert_uint_eq(stdout_len(r), 700);
    ck_assert_int_eq(sbx_result_streamed(r), 0);
    sbx_result_free(r);
    sbx_cmd_free(cmd);
}
END_TEST

START_TEST(run_ext_both_prepares_the_backend_once)
{
    for (int with_run = 0; with_run <= 1; with_run++) {
        setup_with(SBX_CAP_STREAM, with_run);
        const char *plog = testcaps_probe_log_start();
        ck_assert_int_eq(sbx_policy_set_output_cap(policy, 1000), SBX_OK);
        sbx_cmd *cmd = emit("1800");
        struct seen s = {0};
        sbx_exec_opts o = opts_of(SBX_EXEC_CAPTURE | SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE, &s);
        sbx_result *r = NULL;
        ck_assert_code(sbx_run_ext(&r, client, "testcaps://", policy, cmd, &o), SBX_OK);
        ck_assert_int_eq(testcaps_probes_counted(plog), 1);
        ck_assert(testcaps_log_has(with_run ? "run " : "destroy"));
        ck_assert_uint_eq(s.bytes, 1800);
        ck_assert_uint_eq(stdout_len(r), 1000);
        ck_assert_int_eq(sbx_result_truncated(r, SBX_STDOUT), 1);
        ck_assert_int_eq(sbx_result_streamed(r), 1);
        testcaps_probe_log_stop(plog);
        sbx_result_free(r);
        sbx_cmd_free(cmd);
        teardown();
    }
}
END_TEST

START_TEST(opts_init_gives_capture_only)
{
    sbx_exec_opts o;
    memset(&o, 0xff, sizeof(o));
    ck_assert_code(sbx_exec_opts_init(&o, SBX_EXEC_OPTS_VERSION), SBX_OK);
    ck_assert_uint_eq(o.version, SBX_EXEC_OPTS_VERSION);
    ck_assert_uint_eq(o.flags, SBX_EXEC_CAPTURE);
    ck_assert_ptr_null((void *)o.observer);
    ck_assert_ptr_null(o.userdata);
    ck_assert_code(sbx_exec_opts_init(NULL, SBX_EXEC_OPTS_VERSION), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_exec_opts_init(&o, 0), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_exec_opts_init(&o, SBX_EXEC_OPTS_VERSION + 1), SBX_E_INVALID_ARGUMENT);
}
END_TEST

/* opts must be refused with code, *out NULL, nothing run. */
static void assert_refused(sbx_cmd *cmd, const sbx_exec_opts *o, int code)
{
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_exec_ext(&r, sb, cmd, o), code);
    ck_assert_ptr_null(r);
    r = (sbx_result *)1;
    ck_assert_code(sbx_run_ext(&r, client, "testcaps://", policy, cmd, o), code);
    ck_assert_ptr_null(r);
    ck_assert_msg(!testcaps_log_has("exec ") && !testcaps_log_has("run "),
                  "refused options reached the plugin");
}

START_TEST(bad_options_have_exact_codes)
{
    open_with(SBX_CAP_STREAM);
    sbx_cmd *cmd = emit("10");
    struct seen s = {0};
    sbx_exec_opts o = opts_of(SBX_EXEC_CAPTURE, NULL);

    o.version = 0;
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    o.version = SBX_EXEC_OPTS_VERSION + 1;
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    o = opts_of(SBX_EXEC_CAPTURE | 0x80u, NULL);
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    o = opts_of(0, NULL);                       /* neither capture nor stream */
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    o = opts_of(SBX_EXEC_STREAM_IF_ABLE, &s);   /* if-able alone streams nothing */
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    o = opts_of(SBX_EXEC_STREAM, NULL);         /* stream without an observer */
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    o = opts_of(SBX_EXEC_CAPTURE, &s);          /* an observer without stream */
    assert_refused(cmd, &o, SBX_E_INVALID_ARGUMENT);
    ck_assert_uint_eq(s.calls, 0);

    /* The arguments around the options, as sbx_exec() and sbx_run(). */
    o = opts_of(SBX_EXEC_CAPTURE, NULL);
    sbx_result *r = (sbx_result *)1;
    ck_assert_code(sbx_exec_ext(NULL, sb, cmd, &o), SBX_E_INVALID_ARGUMENT);
    ck_assert_code(sbx_exec_ext(&r, NULL, cmd, &o), SBX_E_INVALID_ARGUMENT);
    ck_assert_ptr_null(r);
    r = (sbx_result *)1;
    ck_assert_code(sbx_exec_ext(&r, sb, NULL, &o), SBX_E_INVALID_ARGUMENT);
    ck_assert_ptr_null(r);
    r = (sbx_result *)1;
    ck_assert_code(sbx_run_ext(&r, NULL, "testcaps://", NULL, cmd, &o), SBX_E_INVALID_ARGUMENT);
    ck_assert_ptr_null(r);
    r = (sbx_result *)1;
    ck_assert_code(sbx_run_ext(&r, client, NULL, NULL, cmd, &o), SBX_E_INVALID_ARGUMENT);
    ck_assert_ptr_null(r);
    r = (sbx_result *)1;
    ck_assert_code(sbx_run_ext(&r, client, "nosuchbackend://", NULL, cmd, &o),
                   SBX_E_PLUGIN_NOT_FOUND);
    ck_assert_ptr_null(r);
    ck_assert(!testcaps_log_has("exec ") && !testcaps_log_has("run "));
    sbx_cmd_free(cmd);
}
END_TEST

static Suite *opts_suite(void)
{
    Suite *s = suite_create("exec-opts");
    TCase *tc = tcase_create("exec-opts");
    tcase_add_checked_fixture(tc, NULL, teardown);
    tcase_add_test(tc, capture_only_keeps_the_output_and_calls_no_observer);
    tcase_add_test(tc, stream_only_gives_every_byte_and_captures_nothing);
    tcase_add_test(tc, both_observer_sees_every_byte_and_result_keeps_them_under_the_cap);
    tcase_add_test(tc, both_observer_can_stop_the_command);
    tcase_add_test(tc, stream_needs_the_cap_unless_if_able);
    tcase_add_test(tc, run_ext_both_prepares_the_backend_once);
    tcase_add_test(tc, opts_init_gives_capture_only);
    tcase_add_test(tc, bad_options_have_exact_codes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(opts_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
