/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the docker backend's pure parts: the stream demultiplexer,
 * the control-line filter, error mapping, DOCKER_HOST and DSN parsing and the
 * DSN options. No daemon is needed.
 */
#include "../docker.h"

#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A host table that records the last error (shared with sbxu's tests). */
#include "../../../lib/tests/host.h"

/* --- demux ---------------------------------------------------------------- */

typedef struct sink {
    sbxu_buf out[3];
    int stop_after;    /* stop at the n-th call (0 = never) */
    int calls;
} sink;

static int sink_out(void *ud, int stream, const void *data, size_t len)
{
    sink *s = ud;
    s->calls++;
    sbxu_buf_append(&s->out[stream], data, len);
    return s->stop_after && s->calls >= s->stop_after ? 7 : 0;
}

static void sink_clear(sink *s)
{
    for (int i = 0; i < 3; i++)
        sbxu_buf_clear(&s->out[i]);
}

static size_t frame(unsigned char *p, int stream, const char *payload)
{
    size_t n = strlen(payload);
    p[0] = (unsigned char)stream;
    p[1] = p[2] = p[3] = 0;
    p[4] = (unsigned char)(n >> 24);
    p[5] = (unsigned char)(n >> 16);
    p[6] = (unsigned char)(n >> 8);
    p[7] = (unsigned char)n;
    memcpy(p + 8, payload, n);
    return n + 8;
}

START_TEST(demux_frames_split_at_every_byte_reassemble)
{
    unsigned char buf[256];
    size_t n = frame(buf, 1, "hello ");
    n += frame(buf + n, 2, "oops");
    n += frame(buf + n, 1, "");
    n += frame(buf + n, 1, "world");
    sink s = {0};
    dk_demux d;
    dk_demux_init(&d, sink_out, &s);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(dk_demux_feed(&d, buf + i, 1), 0);
    ck_assert(dk_demux_idle(&d));
    ck_assert_str_eq(s.out[1].data, "hello world");
    ck_assert_str_eq(s.out[2].data, "oops");
    sink_clear(&s);
}
END_TEST

START_TEST(demux_zero_length_frames_pass_nothing)
{
    unsigned char buf[64];
    size_t n = frame(buf, 1, "");
    n += frame(buf + n, 2, "");
    sink s = {0};
    dk_demux d;
    dk_demux_init(&d, sink_out, &s);
    ck_assert_int_eq(dk_demux_feed(&d, buf, n), 0);
    ck_assert_int_eq(s.calls, 0);
    ck_assert(dk_demux_idle(&d));
}
END_TEST

START_TEST(demux_half_frame_is_not_idle)
{
    unsigned char buf[64];
    size_t n = frame(buf, 1, "abcdef");
    sink s = {0};
    dk_demux d;
    dk_demux_init(&d, sink_out, &s);
    ck_assert_int_eq(dk_demux_feed(&d, buf, 5), 0);
    ck_assert(!dk_demux_idle(&d));
    ck_assert_int_eq(dk_demux_feed(&d, buf + 5, 6), 0);
    ck_assert(!dk_demux_idle(&d));
    ck_assert_str_eq(s.out[1].data, "abc");
    ck_assert_int_eq(dk_demux_feed(&d, buf + 11, n - 11), 0);
    ck_assert(dk_demux_idle(&d));
    ck_assert_str_eq(s.out[1].data, "abcdef");
    sink_clear(&s);
}
END_TEST

START_TEST(demux_bad_header_is_refused)
{
    unsigned char bad[8] = {3, 0, 0, 0, 0, 0, 0, 1};
    unsigned char bad2[8] = {1, 9, 0, 0, 0, 0, 0, 1};
    sink s = {0};
    dk_demux d;
    dk_demux_init(&d, sink_out, &s);
    ck_assert_int_eq(dk_demux_feed(&d, bad, 8), -1);
    dk_demux_init(&d, sink_out, &s);
    ck_assert_int_eq(dk_demux_feed(&d, bad2, 8), -1);
}
END_TEST

START_TEST(demux_stops_when_the_sink_asks)
{
    unsigned char buf[64];
    size_t n = frame(buf, 1, "one");
    n += frame(buf + n, 1, "two");
    sink s = {.stop_after = 1};
    dk_demux d;
    dk_demux_init(&d, sink_out, &s);
    ck_assert_int_eq(dk_demux_feed(&d, buf, n), 7);
    ck_assert_str_eq(s.out[1].data, "one");
    sink_clear(&s);
}
END_TEST

/* --- control lines -------------------------------------------------------- */

static void feed_str(dk_control *c, int stream, const char *s)
{
    ck_assert_int_eq(dk_control_feed(c, stream, s, strlen(s)), 0);
}

START_TEST(control_lines_are_taken_out_anywhere)
{
    sink s = {0};
    dk_control c;
    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 2, "\001sbx-pid 41\n");
    feed_str(&c, 2, "warning: x\n");
    feed_str(&c, 1, "partial line");
    feed_str(&c, 1, "[INFO  tini (41)] Spawned child process 'env' with pid '47'\n"
                    "[INFO  tini (41)] Main child exited normally (with status '137')\n");
    dk_control_flush(&c);
    ck_assert_int_eq(c.session, 41);
    ck_assert_int_eq(c.ended, DK_END_EXITED);
    ck_assert_int_eq(c.status, 137);
    ck_assert_str_eq(s.out[1].data, "partial line");
    ck_assert_str_eq(s.out[2].data, "warning: x\n");
    sink_clear(&s);
    dk_control_clear(&c);
}
END_TEST

START_TEST(control_line_split_across_reads_is_held_then_taken)
{
    const char *line = "[INFO  tini (9)] Main child exited with signal (with signal 'Killed')\n";
    sink s = {0};
    dk_control c;
    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 2, "\001sbx-pid 9\n");
    feed_str(&c, 1, "out[put");
    for (size_t i = 0; line[i]; i++)
        ck_assert_int_eq(dk_control_feed(&c, 1, line + i, 1), 0);
    feed_str(&c, 1, "[tail]");
    dk_control_flush(&c);
    ck_assert_int_eq(c.ended, DK_END_SIGNALED);
    ck_assert_str_eq(s.out[1].data, "out[put[tail]");
    sink_clear(&s);
    dk_control_clear(&c);
}
END_TEST

START_TEST(control_lines_of_another_tini_pass_through)
{
    const char *foreign = "[INFO  tini (5)] Main child exited normally (with status '3')\n";
    sink s = {0};
    dk_control c;
    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 2, "\001sbx-pid 9\n");
    feed_str(&c, 1, foreign);
    feed_str(&c, 2, "\001sbx-noexec\n");    /* the command's own, once it runs */
    dk_control_flush(&c);
    ck_assert_int_eq(c.ended, DK_END_UNKNOWN);
    ck_assert_int_eq(c.start_fail, DK_START_OK);
    ck_assert_str_eq(s.out[1].data, foreign);
    ck_assert_str_eq(s.out[2].data, "\001sbx-noexec\n");
    sink_clear(&s);
    dk_control_clear(&c);
}
END_TEST

START_TEST(control_wrapper_failures_and_fatal_are_recorded)
{
    sink s = {0};
    dk_control c;
    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 2, "\001sbx-nocwd\n");
    dk_control_flush(&c);
    ck_assert_int_eq(c.start_fail, DK_START_NOCWD);
    ck_assert_int_eq(s.calls, 0);
    dk_control_clear(&c);

    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 2, "\001sbx-pid 3\n");
    feed_str(&c, 2, "[FATAL tini (3)] exec env failed: No such file or directory\n");
    dk_control_flush(&c);
    ck_assert_str_eq(c.fatal, "exec env failed: No such file or directory");
    ck_assert_int_eq(s.calls, 0);
    dk_control_clear(&c);
}
END_TEST

START_TEST(control_unfinished_prefix_is_flushed_at_the_end)
{
    sink s = {0};
    dk_control c;
    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 2, "\001sbx-pid 3\n");
    feed_str(&c, 1, "x[INFO  ti");
    ck_assert_str_eq(s.out[1].data, "x");
    dk_control_flush(&c);
    ck_assert_str_eq(s.out[1].data, "x[INFO  ti");
    sink_clear(&s);
    dk_control_clear(&c);
}
END_TEST

START_TEST(control_lines_on_a_terminal_come_as_stdout_with_crlf)
{
    sink s = {0};
    dk_control c;
    dk_control_init(&c, sink_out, &s);
    c.tty = true;
    feed_str(&c, 1, "typed\r\n\001sbx-pid 17\r\n");
    feed_str(&c, 1, "[INFO  tini (17)] Spawned child process 'env' with pid '20'\r\n"
                    "sbx$ exit 3\r\n"
                    "[INFO  tini (17)] Main child exited normally (with status '3')\r\n");
    dk_control_flush(&c);
    ck_assert_int_eq(c.session, 17);
    ck_assert_int_eq(c.ended, DK_END_EXITED);
    ck_assert_int_eq(c.status, 3);
    ck_assert_str_eq(s.out[1].data, "typed\r\nsbx$ exit 3\r\n");
    ck_assert_int_eq((int)s.out[2].len, 0);
    sink_clear(&s);
    dk_control_clear(&c);

    /* Not on a terminal, the wrapper's line is its own only on stderr. */
    dk_control_init(&c, sink_out, &s);
    feed_str(&c, 1, "\001sbx-pid 17\r\n");
    dk_control_flush(&c);
    ck_assert_int_eq(c.session, 0);
    ck_assert_str_eq(s.out[1].data, "\001sbx-pid 17\r\n");
    sink_clear(&s);
    dk_control_clear(&c);
}
END_TEST

/* --- error mapping -------------------------------------------------------- */

START_TEST(errmap_http_statuses)
{
    ck_assert_int_eq(dk_errmap_status(404, "No such image: nope:latest"), SBX_E_NOT_FOUND);
    ck_assert_int_eq(dk_errmap_status(404, "No such container: abc"), SBX_E_NOT_FOUND);
    ck_assert_int_eq(dk_errmap_status(400, "client version 1.12 is too old. Minimum supported "
                                           "API version is 1.24"),
                     SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(dk_errmap_status(400, "invalid reference format"), SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(dk_errmap_status(401, "unauthorized"), SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(dk_errmap_status(403, "forbidden"), SBX_E_BACKEND_PERMISSION);
    ck_assert_int_eq(dk_errmap_status(409, "Conflict. The container name \"/x\" is already in "
                                           "use"),
                     SBX_E_EXISTS);
    ck_assert_int_eq(dk_errmap_status(409, "Container abc is not running"), SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(dk_errmap_status(500, "write /var/lib/docker/x: no space left on device"),
                     SBX_E_BACKEND_QUOTA);
    ck_assert_int_eq(dk_errmap_status(500, "pull access denied for x, repository does not exist"),
                     SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(dk_errmap_status(500, "manifest unknown"), SBX_E_NOT_FOUND);
    ck_assert_int_eq(dk_errmap_status(500, "OCI runtime create failed"), SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(dk_errmap_status(500, "Get \"https://registry-1.docker.io/v2/\": dial tcp: "
                                           "lookup registry-1.docker.io: no such host"),
                     SBX_E_BACKEND_TRANSPORT);
    ck_assert_int_eq(dk_errmap_status(502, NULL), SBX_E_BACKEND_TRANSPORT);
    ck_assert_int_eq(dk_errmap_status(503, NULL), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(dk_errmap_status(200, NULL), SBX_E_BACKEND_PROTOCOL);
}
END_TEST


START_TEST(errmap_dropped_limits_refuse_the_policy)
{
    ck_assert_int_eq(dk_errmap_limit_warning("Your kernel does not support memory limit "
                                             "capabilities or the cgroup is not mounted. "
                                             "Limitation discarded."),
                     SBX_E_POLICY_MEMORY);
    ck_assert_int_eq(dk_errmap_limit_warning("Your kernel does not support swap limit "
                                             "capabilities or the cgroup is not mounted. Memory "
                                             "limited without swap."),
                     0);
    ck_assert_int_eq(dk_errmap_limit_warning("Your kernel does not support pids limit "
                                             "capabilities or the cgroup is not mounted. PIDs "
                                             "limit discarded."),
                     SBX_E_POLICY_PIDS);
    ck_assert_int_eq(dk_errmap_limit_warning("Your kernel does not support CPU CFS scheduler. "
                                             "NanoCPUs discarded."),
                     SBX_E_POLICY_CPU);
    ck_assert_int_eq(dk_errmap_limit_warning("Published ports are discarded when using host "
                                             "network mode"),
                     0);
    ck_assert_int_eq(dk_errmap_limit_warning("IPv4 forwarding is disabled."), 0);
}
END_TEST

/* --- endpoints ------------------------------------------------------------ */

START_TEST(docker_host_unix_and_tcp_parse)
{
    dk_env env = {0};
    dk_endpoint ep;
    const char *why;
    ck_assert_int_eq(dk_endpoint_parse_url("unix:///var/run/docker.sock", &env, &ep, &why), 0);
    ck_assert_int_eq(ep.transport, DK_UNIX);
    ck_assert_str_eq(ep.socket_path, "/var/run/docker.sock");
    ck_assert_str_eq(ep.display, "unix:///var/run/docker.sock");
    dk_endpoint_clear(&ep);

    ck_assert_int_eq(dk_endpoint_parse_url("tcp://10.0.0.2", &env, &ep, &why), 0);
    ck_assert_int_eq(ep.transport, DK_TCP);
    ck_assert_str_eq(ep.host_port, "10.0.0.2:2375");
    ck_assert(!ep.tls);
    dk_endpoint_clear(&ep);

    ck_assert_int_eq(dk_endpoint_parse_url("tcp://[::1]:2380/", &env, &ep, &why), 0);
    ck_assert_str_eq(ep.host_port, "[::1]:2380");
    dk_endpoint_clear(&ep);
}
END_TEST

START_TEST(docker_host_tls_follows_the_environment)
{
    dk_env env = {.tls_verify = "1", .cert_path = "/certs"};
    dk_endpoint ep;
    const char *why;
    ck_assert_int_eq(dk_endpoint_parse_url("tcp://docker.example:2376", &env, &ep, &why), 0);
    ck_assert(ep.tls && ep.tls_verify);
    ck_assert_str_eq(ep.ca_file, "/certs/ca.pem");
    ck_assert_str_eq(ep.cert_file, "/certs/cert.pem");
    ck_assert_str_eq(ep.key_file, "/certs/key.pem");
    dk_endpoint_clear(&ep);

    ck_assert_int_eq(dk_endpoint_parse_url("tcp://docker.example", &env, &ep, &why), 0);
    ck_assert_str_eq(ep.host_port, "docker.example:2376");
    dk_endpoint_clear(&ep);

    dk_env no_path = {.tls_verify = "1"};
    ck_assert_int_eq(dk_endpoint_parse_url("tcp://docker.example", &no_path, &ep, &why), -1);
    ck_assert_ptr_nonnull(strstr(why, "DOCKER_CERT_PATH"));
}
END_TEST

START_TEST(docker_host_bad_urls_are_refused)
{
    static const char *const bad[] = {
        "unix://relative.sock", "tcp://", "tcp://h:0", "tcp://h:65536", "tcp://h:12x",
        "tcp://h:1/path", "tcp://user@h:1", "ssh://user@host", "npipe:////./pipe/docker",
        "/var/run/docker.sock", "tcp://[::1", NULL};
    dk_env env = {0};
    for (size_t i = 0; bad[i]; i++) {
        dk_endpoint ep;
        const char *why = NULL;
        ck_assert_msg(dk_endpoint_parse_url(bad[i], &env, &ep, &why) == -1, "%s accepted", bad[i]);
        ck_assert_ptr_nonnull(why);
    }
}
END_TEST

static sbx_plugin_dsn dsn_of(const char *authority, const char *path, size_t n,
                             const sbx_plugin_kv *query)
{
    return (sbx_plugin_dsn){.struct_size = sizeof(sbx_plugin_dsn), .scheme = "docker",
                            .authority = authority, .path = path, .query_count = n,
                            .query = query};
}

START_TEST(dsn_names_the_daemon_before_docker_host)
{
    dk_env env = {.docker_host = "tcp://from-env:2375"};
    dk_endpoint ep;
    sbx_plugin_dsn d = dsn_of("", "/run/user/1000/docker.sock", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &env, &ep), SBX_OK);
    ck_assert_str_eq(ep.socket_path, "/run/user/1000/docker.sock");
    dk_endpoint_clear(&ep);

    d = dsn_of("builder:2375", "", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &env, &ep), SBX_OK);
    ck_assert_str_eq(ep.host_port, "builder:2375");
    dk_endpoint_clear(&ep);

    d = dsn_of("", "", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &env, &ep), SBX_OK);
    ck_assert_str_eq(ep.host_port, "from-env:2375");
    dk_endpoint_clear(&ep);

    dk_env none = {0};
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &none, &ep), SBX_OK);
    ck_assert_str_eq(ep.socket_path, "/var/run/docker.sock");
    dk_endpoint_clear(&ep);
}
END_TEST

START_TEST(dsn_and_docker_host_errors_have_their_codes)
{
    dk_endpoint ep;
    dk_env env = {.docker_host = "ssh://me@far"};
    sbx_plugin_dsn d = dsn_of("", "", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &env, &ep), SBX_E_BACKEND_UNAVAILABLE);
    d = dsn_of("h:2375", "/x", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &env, &ep), SBX_E_DSN_BAD_AUTHORITY);
    d = dsn_of("h:99999", "", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &env, &ep), SBX_E_DSN_BAD_AUTHORITY);
    dk_env tls = {.tls_verify = "1"};
    d = dsn_of("h:2376", "", 0, NULL);
    ck_assert_int_eq(dk_endpoint_from_dsn(&host, &d, &tls, &ep), SBX_E_BACKEND_UNAVAILABLE);
}
END_TEST

/* --- DSN options ---------------------------------------------------------- */

START_TEST(options_have_documented_defaults)
{
    dk_options o;
    sbx_plugin_dsn d = dsn_of("", "", 0, NULL);
    ck_assert_int_eq(dk_options_parse(&host, &d, &o), SBX_OK);
    ck_assert_str_eq(o.image, "busybox");
    ck_assert_str_eq(o.workdir, "/work");
    ck_assert_uint_eq(o.ttl_s, 3600);
    ck_assert_int_eq(o.pull, DK_PULL_MISSING);
    dk_options_clear(&o);

    sbx_plugin_kv q[] = {{"image", "python:3.12-slim"}, {"workdir", "/srv/app"},
                         {"ttl", "0"}, {"pull", "never"}};
    d = dsn_of("", "", 4, q);
    ck_assert_int_eq(dk_options_parse(&host, &d, &o), SBX_OK);
    ck_assert_str_eq(o.image, "python:3.12-slim");
    ck_assert_str_eq(o.workdir, "/srv/app");
    ck_assert_uint_eq(o.ttl_s, 0);
    ck_assert_int_eq(o.pull, DK_PULL_NEVER);
    dk_options_clear(&o);
}
END_TEST

START_TEST(options_refuse_unknown_keys_and_bad_values)
{
    static const sbx_plugin_kv cases[][1] = {
        {{"image", ""}},      {{"image", "-rm"}},    {{"image", "a b"}},
        {{"workdir", "work"}}, {{"workdir", "/"}},    {{"workdir", "/a/../b"}},
        {{"workdir", "/a/"}},  {{"workdir", "/a//b"}}, {{"ttl", "-1"}},
        {{"ttl", "1h"}},       {{"ttl", ""}},         {{"pull", "always"}},
    };
    dk_options o;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        sbx_plugin_dsn d = dsn_of("", "", 1, cases[i]);
        ck_assert_msg(dk_options_parse(&host, &d, &o) == SBX_E_DSN_BAD_OPTION_VALUE,
                      "%s=%s accepted", cases[i][0].key, cases[i][0].value);
    }
    sbx_plugin_kv unknown[] = {{"colour", "blue"}};
    sbx_plugin_dsn d = dsn_of("", "", 1, unknown);
    ck_assert_int_eq(dk_options_parse(&host, &d, &o), SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_str_eq(last_msg, "docker: unknown option \"colour\" (known: image, workdir, ttl, pull)");
    /* The messages are the ones the backend has always given. */
    static const struct { sbx_plugin_kv kv[1]; const char *msg; } said[] = {
        {{{"image", "-rm"}}, "docker: image=-rm is not an image reference"},
        {{{"workdir", "work"}}, "docker: workdir=work must be a clean absolute path other than /"},
        {{{"ttl", "soon"}}, "docker: ttl=soon is not a number of seconds"},
        {{{"pull", "always"}}, "docker: pull=always: use pull=missing or pull=never"},
    };
    for (size_t i = 0; i < sizeof(said) / sizeof(said[0]); i++) {
        d = dsn_of("", "", 1, said[i].kv);
        ck_assert_int_eq(dk_options_parse(&host, &d, &o), SBX_E_DSN_BAD_OPTION_VALUE);
        ck_assert_str_eq(last_msg, said[i].msg);
    }
}
END_TEST



static Suite *suite(void)
{
    Suite *s = suite_create("docker");
    TCase *t = tcase_create("pure");
    tcase_add_test(t, demux_frames_split_at_every_byte_reassemble);
    tcase_add_test(t, demux_zero_length_frames_pass_nothing);
    tcase_add_test(t, demux_half_frame_is_not_idle);
    tcase_add_test(t, demux_bad_header_is_refused);
    tcase_add_test(t, demux_stops_when_the_sink_asks);
    tcase_add_test(t, control_lines_are_taken_out_anywhere);
    tcase_add_test(t, control_line_split_across_reads_is_held_then_taken);
    tcase_add_test(t, control_lines_of_another_tini_pass_through);
    tcase_add_test(t, control_wrapper_failures_and_fatal_are_recorded);
    tcase_add_test(t, control_unfinished_prefix_is_flushed_at_the_end);
    tcase_add_test(t, control_lines_on_a_terminal_come_as_stdout_with_crlf);
    tcase_add_test(t, errmap_http_statuses);
    tcase_add_test(t, errmap_dropped_limits_refuse_the_policy);
    tcase_add_test(t, docker_host_unix_and_tcp_parse);
    tcase_add_test(t, docker_host_tls_follows_the_environment);
    tcase_add_test(t, docker_host_bad_urls_are_refused);
    tcase_add_test(t, dsn_names_the_daemon_before_docker_host);
    tcase_add_test(t, dsn_and_docker_host_errors_have_their_codes);
    tcase_add_test(t, options_have_documented_defaults);
    tcase_add_test(t, options_refuse_unknown_keys_and_bad_values);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(suite());
}
