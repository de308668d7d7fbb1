/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu_http_stream against the scripted server on 127.0.0.1: the sink gets
 * a 2xx body as it comes and a binary request body goes whole; the watch's
 * tick stops a stream with its code, and a readable descriptor wakes it
 * before its period; an error answer is collected, not sunk; a cut answer
 * says what failed; a stream is never retried and no session deadline
 * cuts it.
 */
#include "config.h"

#include <check.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/http.h>
#include "host.h"
#include "scripted-server.h"

static server srv;
static sbxu_http http;
static char base[64];
static char sunk[256];
static size_t sunk_len;

static int sink(void *ud, const void *data, size_t len)
{
    (void)ud;
    if (sunk_len + len < sizeof(sunk)) {
        memcpy(sunk + sunk_len, data, len);
        sunk_len += len;
        sunk[sunk_len] = '\0';
    }
    return 0;
}

static void start(const char *const *script, long deadline_ms)
{
    host_reset();
    sunk_len = 0;
    sunk[0] = '\0';
    server_start(&srv, script, 0);
    snprintf(base, sizeof(base), "http://127.0.0.1:%d", srv.port);
    sbxu_http_config cfg = {.plugin = "test", .base_url = base, .connect_timeout_ms = 5000,
                           .retry = {.attempts = 5, .base_ms = 10, .max_ms = 50,
                                     .deadline_ms = deadline_ms}};
    ck_assert_int_eq(sbxu_http_init(&http, &host, &cfg), SBX_OK);
}

static void stop(void)
{
    sbxu_http_clear(&http);
    server_stop(&srv);
}

static const sbxu_http_request post = {.method = "POST", .path = "/s", .sink = sink,
                                      .retry = SBXU_HTTP_RETRY_ALWAYS};

START_TEST(stream_sink_gets_the_body_and_a_binary_request_goes_whole)
{
    static const char *const script[] = {"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                                         NULL};
    start(script, 0);
    sbxu_http_request rq = post;
    rq.body = "a\0b\0cd";
    rq.body_len = 6;
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_stream(&http, &rq, NULL, &rs), SBX_OK);
    ck_assert_int_eq(rs.status, 200);
    ck_assert_str_eq(sunk, "hello");
    ck_assert_ptr_nonnull(strcasestr(srv.last_request, "Content-Length: 6\r\n"));
    sbxu_http_response_clear(&rs);
    stop();
}
END_TEST

static int ticks;

static int stop_on_third(void *ud)
{
    (void)ud;
    return ++ticks == 3 ? host.set_error(SBX_E_EXEC_CANCELLED, "cancelled") : SBX_OK;
}

START_TEST(stream_tick_stops_it_with_its_code)
{
    static const char *const script[] = {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", NULL};
    start(script, 0);
    atomic_store(&srv.answer_after_ms, 3000);
    ticks = 0;
    sbxu_http_watch w = {.tick = stop_on_third, .fd = -1, .every_ms = 20};
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_stream(&http, &post, &w, &rs), SBX_E_EXEC_CANCELLED);
    ck_assert_int_eq(ticks, 3);
    ck_assert_int_eq(rs.status, 0);
    ck_assert_uint_eq(sunk_len, 0);
    sbxu_http_response_clear(&rs);
    stop();
}
END_TEST

static int pipe_fd[2];

static int stop_when_readable(void *ud)
{
    (void)ud;
    struct pollfd p = {.fd = pipe_fd[0], .events = POLLIN};
    return poll(&p, 1, 0) > 0 ? host.set_error(SBX_E_EXEC_CANCELLED, "woken") : SBX_OK;
}

static void *write_later(void *ud)
{
    (void)ud;
    usleep(200 * 1000);
    ssize_t w = write(pipe_fd[1], "x", 1);
    (void)w;
    return NULL;
}

START_TEST(stream_readable_fd_wakes_the_tick_before_its_period)
{
    static const char *const script[] = {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", NULL};
    start(script, 0);
    /* The answer comes after 3 s and the tick's period is 60 s: only the
     * descriptor can call the tick that stops the stream. */
    atomic_store(&srv.answer_after_ms, 3000);
    ck_assert_int_eq(pipe(pipe_fd), 0);
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, write_later, NULL), 0);
    sbxu_http_watch w = {.tick = stop_when_readable, .fd = pipe_fd[0], .every_ms = 60000};
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_stream(&http, &post, &w, &rs), SBX_E_EXEC_CANCELLED);
    ck_assert_uint_eq(sunk_len, 0);
    pthread_join(t, NULL);
    close(pipe_fd[0]);
    close(pipe_fd[1]);
    sbxu_http_response_clear(&rs);
    stop();
}
END_TEST

START_TEST(stream_error_answer_is_collected_not_sunk_and_never_retried)
{
    static const char *const script[] = {
        "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\nbusy",
        "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", NULL};
    start(script, 0);
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_stream(&http, &post, NULL, &rs), SBX_OK);
    ck_assert_int_eq(rs.status, 503);
    ck_assert_str_eq(rs.body.data, "busy");
    ck_assert_uint_eq(sunk_len, 0);
    ck_assert_int_eq(atomic_load(&srv.requests), 1);
    sbxu_http_response_clear(&rs);
    stop();
}
END_TEST

START_TEST(stream_cut_answer_says_what_failed)
{
    static const char *const script[] = {
        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial", NULL};
    start(script, 0);
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_stream(&http, &post, NULL, &rs), SBX_E_BACKEND_TRANSPORT);
    ck_assert_int_eq(last_code, SBX_E_BACKEND_TRANSPORT);
    ck_assert_int_eq(rs.status, 200);
    ck_assert_int_eq(rs.curl_code, CURLE_PARTIAL_FILE);
    ck_assert_str_eq(sunk, "partial");
    sbxu_http_response_clear(&rs);
    stop();
}
END_TEST

START_TEST(stream_outlives_the_session_deadline)
{
    static const char *const script[] = {"HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlate",
                                         NULL};
    /* The session's requests give up after 200 ms; a stream is bounded by
     * its own timeout only. */
    start(script, 200);
    atomic_store(&srv.answer_after_ms, 600);
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_stream(&http, &post, NULL, &rs), SBX_OK);
    ck_assert_int_eq(rs.status, 200);
    ck_assert_str_eq(sunk, "late");
    sbxu_http_response_clear(&rs);
    stop();
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lib/ http stream");
    TCase *t = tcase_create("stream");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, stream_sink_gets_the_body_and_a_binary_request_goes_whole);
    tcase_add_test(t, stream_tick_stops_it_with_its_code);
    tcase_add_test(t, stream_readable_fd_wakes_the_tick_before_its_period);
    tcase_add_test(t, stream_error_answer_is_collected_not_sunk_and_never_retried);
    tcase_add_test(t, stream_cut_answer_says_what_failed);
    tcase_add_test(t, stream_outlives_the_session_deadline);
    suite_add_tcase(s, t);
    return run_suite(s);
}
