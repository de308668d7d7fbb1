/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lib/http against a scripted HTTP server on 127.0.0.1 (a thread of
 * this test): retry on 429 with Retry-After, on 503, on a refused
 * connection; a deadline that stops retrying and is the request's own (not
 * spent waiting for another thread's); a POST that is never retried;
 * and no secret header value in any error, log line or trace.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/clock.h>
#include <sbxu/http.h>
#include "host.h"
#include "scripted-server.h"

#define SECRET_AUTH "Bearer tok-4f9a1c77e2d3b5a0"
#define SECRET_KEY "key-8c2e61b0d9f34a57"
#define SECRET_CUSTOM "hush-31d7a9e0c4b2"

static long ms_since(int64_t t0)
{
    return (long)(sbxu_mono_ms() - t0);
}

/* Every try's trace, redacted headers included, as text. */
static char traced[16384];
static int tries_traced;

static void on_trace(void *ud, const sbxu_http_trace *t)
{
    (void)ud;
    size_t n = strlen(traced);
    n += (size_t)snprintf(traced + n, sizeof(traced) - n, "%s %s try %d status %ld curl %d wait %ld (%s)\n",
                          t->method, t->url, t->attempt, t->status, t->curl_code, t->wait_ms, t->why);
    for (size_t i = 0; t->headers[i] && n < sizeof(traced); i++)
        n += (size_t)snprintf(traced + n, sizeof(traced) - n, "  %s\n", t->headers[i]);
    tries_traced++;
}

static void count_tries(void *ud, const sbxu_http_trace *t)
{
    (void)t;
    (*(int *)ud)++;
}

static const char *const secret_headers[] = {"Authorization: " SECRET_AUTH, "X-API-Key: " SECRET_KEY,
                                             "X-Provider-Secret: " SECRET_CUSTOM, NULL};
static const char *const redact_more[] = {"X-Provider-Secret", NULL};

/* A server and a session on it, with the response of the test's request. */
typedef struct rig {
    server srv;
    sbxu_http h;
    char base[64];
    sbxu_http_response rs;
    int64_t t0;
} rig;

static void rig_start(rig *r, const char *const *script, long listen_after_ms,
                      sbxu_http_retry retry)
{
    memset(r, 0, sizeof(*r));
    server_start(&r->srv, script, listen_after_ms);
    snprintf(r->base, sizeof(r->base), "http://127.0.0.1:%d", r->srv.port);
    sbxu_http_config cfg = {.plugin = "test", .base_url = r->base, .headers = secret_headers,
                           .redact = redact_more, .retry = retry, .trace = on_trace,
                           .connect_timeout_ms = 2000};
    host_reset();
    traced[0] = '\0';
    tries_traced = 0;
    ck_assert_int_eq(sbxu_http_init(&r->h, &host, &cfg), SBX_OK);
}

/* Send rq; the time it took is ms_since(r->t0). */
static int rig_send(rig *r, const sbxu_http_request *rq)
{
    r->t0 = sbxu_mono_ms();
    return sbxu_http_send(&r->h, rq, &r->rs);
}

static void assert_no_secret(const char *text, const char *what)
{
    ck_assert_msg(!strstr(text, "tok-4f9a1c77e2d3b5a0"), "%s shows the bearer token: %s", what, text);
    ck_assert_msg(!strstr(text, SECRET_KEY), "%s shows the API key: %s", what, text);
    ck_assert_msg(!strstr(text, SECRET_CUSTOM), "%s shows the custom secret: %s", what, text);
}

/* Ends every test: no secret anywhere, and everything freed. */
static void rig_stop(rig *r)
{
    assert_no_secret(last_msg, "the error");
    assert_no_secret(logged, "the log");
    assert_no_secret(traced, "the trace");
    sbxu_http_response_clear(&r->rs);
    sbxu_http_clear(&r->h);
    server_stop(&r->srv);
}

#define OK_ANSWER "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
#define UNAVAILABLE "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbusy"

static const sbxu_http_retry patient = {.attempts = 5, .base_ms = 100, .max_ms = 400,
                                       .deadline_ms = 10000};

START_TEST(http_429_waits_as_retry_after_says_then_succeeds)
{
    static const char *const script[] = {
        "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Length: 0\r\n"
        "Connection: close\r\n\r\n",
        OK_ANSWER, NULL};
    rig r;
    rig_start(&r, script, 0, patient);
    sbxu_http_request rq = {.method = "GET", .path = "/things"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    long took = ms_since(r.t0);
    ck_assert_int_eq(r.rs.status, 200);
    ck_assert_str_eq(r.rs.body.data, "ok");
    ck_assert_int_eq(r.rs.attempts, 2);
    ck_assert_int_eq(atomic_load(&r.srv.requests), 2);
    ck_assert_msg(took >= 950, "Retry-After: 1 was not honoured (%ld ms)", took);
    ck_assert_msg(strstr(traced, "try 1 status 429 curl 0 wait 1000 (rate limited (429))"), "%s", traced);
    ck_assert_msg(strstr(logged, "try 2 in 1000 ms"), "no retry logged: %s", logged);
    /* The secrets went out, and are redacted in the trace. */
    ck_assert(strstr(r.srv.last_request, SECRET_KEY) != NULL);
    ck_assert_msg(strstr(traced, "X-API-Key: [redacted]") && strstr(traced, "Authorization: [redacted]") &&
                      strstr(traced, "X-Provider-Secret: [redacted]"),
                  "%s", traced);
    rig_stop(&r);
}
END_TEST

START_TEST(http_503_then_success_is_retried)
{
    static const char *const script[] = {UNAVAILABLE, OK_ANSWER, NULL};
    rig r;
    rig_start(&r, script, 0, patient);
    sbxu_http_request rq = {.method = "DELETE", .path = "/things/1"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_eq(r.rs.status, 200);
    ck_assert_int_eq(r.rs.attempts, 2);
    ck_assert_int_eq(atomic_load(&r.srv.requests), 2);
    ck_assert_msg(strstr(traced, "try 1 status 503 curl 0"), "%s", traced);
    /* A request's own hook takes the place of the session's. */
    int own = 0;
    sbxu_http_request mine = {.method = "GET", .path = "/x", .trace = count_tries, .trace_ud = &own};
    sbxu_http_response_clear(&r.rs);
    tries_traced = 0;
    ck_assert_int_eq(rig_send(&r, &mine), SBX_OK);
    ck_assert_int_eq(own, 1);
    ck_assert_int_eq(tries_traced, 0);
    rig_stop(&r);
}
END_TEST

START_TEST(http_connection_refused_then_success_is_retried)
{
    static const char *const script[] = {OK_ANSWER, NULL};
    rig r;
    /* Bound, not listening: connections are refused for the first 250 ms. */
    rig_start(&r, script, 250,
              (sbxu_http_retry){.attempts = 8, .base_ms = 100, .max_ms = 200, .deadline_ms = 10000});
    sbxu_http_request rq = {.method = "GET", .path = "/ping"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_eq(r.rs.status, 200);
    ck_assert_int_ge(r.rs.attempts, 2);
    ck_assert_int_eq(atomic_load(&r.srv.requests), 1);
    char want[64];
    snprintf(want, sizeof(want), "try 1 status 0 curl %d", (int)CURLE_COULDNT_CONNECT);
    ck_assert_msg(strstr(traced, want) && strstr(traced, "(connection refused)"), "%s", traced);
    rig_stop(&r);
}
END_TEST

START_TEST(http_retry_after_as_a_past_date_retries_at_once)
{
    static const char *const script[] = {
        "HTTP/1.1 503 Service Unavailable\r\nRetry-After: Wed, 21 Oct 2015 07:28:00 GMT\r\n"
        "Content-Length: 0\r\nConnection: close\r\n\r\n",
        OK_ANSWER, NULL};
    rig r;
    rig_start(&r, script, 0, patient);
    sbxu_http_request rq = {.method = "GET", .path = "/things"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_eq(r.rs.status, 200);
    ck_assert_int_eq(r.rs.attempts, 2);
    ck_assert_msg(strstr(traced, "try 1 status 503 curl 0 wait 0 "), "%s", traced);
    rig_stop(&r);
}
END_TEST

START_TEST(http_deadline_stops_retrying)
{
    static const char *const script[] = {UNAVAILABLE, NULL};
    rig r;
    rig_start(&r, script, 0,
              (sbxu_http_retry){.attempts = 50, .base_ms = 200, .max_ms = 200, .deadline_ms = 700});
    sbxu_http_request rq = {.method = "GET", .path = "/slow"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    long took = ms_since(r.t0);
    ck_assert_int_eq(r.rs.status, 503);
    ck_assert_msg(r.rs.attempts >= 2 && r.rs.attempts < 50, "%d tries", r.rs.attempts);
    /* Without the deadline, 50 tries 200 ms apart take 9.8 s at least; the
     * bound leaves a loaded machine room for the tries in flight. */
    ck_assert_msg(took < 5000, "the deadline of 700 ms let it run %ld ms", took);
    ck_assert_msg(strstr(traced, "(the deadline comes first)"), "%s", traced);
    ck_assert_int_eq(sbxu_http_fail(&r.h, &rq, &r.rs, "listing things", r.rs.body.data),
                     SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_msg(strstr(last_msg, "test: listing things: busy (HTTP 503 from http://127.0.0.1:"),
                  "%s", last_msg);
    rig_stop(&r);
}
END_TEST

/* Another thread's request on the session, sent while it is held up. */
typedef struct other_request {
    rig *r;
    int rc;
    long status;
} other_request;

static void *send_other(void *ud)
{
    other_request *o = ud;
    sbxu_http_request rq = {.method = "GET", .path = "/first"};
    sbxu_http_response rs = {0};
    o->rc = sbxu_http_send(&o->r->h, &rq, &rs);
    o->status = rs.status;
    sbxu_http_response_clear(&rs);
    return NULL;
}

START_TEST(http_deadline_does_not_count_the_wait_for_another_request)
{
    static const char *const script[] = {OK_ANSWER, NULL};
    rig r;
    rig_start(&r, script, 0, (sbxu_http_retry){.attempts = 1, .deadline_ms = 4000});
    atomic_store(&r.srv.answer_after_ms, 2500);
    other_request o = {.r = &r};
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, send_other, &o), 0);
    while (atomic_load(&r.srv.requests) < 1)
        usleep(10000);
    /* This request waits about 2.5 s for the session, then takes 2.5 s of its
     * own: a deadline counted from before the wait would leave it 1.5 s. */
    sbxu_http_request rq = {.method = "GET", .path = "/second"};
    int rc = rig_send(&r, &rq);
    pthread_join(t, NULL);
    ck_assert_int_eq(o.rc, SBX_OK);
    ck_assert_int_eq(o.status, 200);
    ck_assert_msg(rc == SBX_OK, "the waiting request failed: %s", last_msg);
    ck_assert_int_eq(r.rs.status, 200);
    ck_assert_int_eq(atomic_load(&r.srv.requests), 2);
    rig_stop(&r);
}
END_TEST

START_TEST(http_retry_after_past_the_deadline_is_not_waited_for)
{
    static const char *const script[] = {
        "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\nContent-Length: 4\r\n"
        "Connection: close\r\n\r\nslow",
        NULL};
    rig r;
    rig_start(&r, script, 0, (sbxu_http_retry){.attempts = 5, .deadline_ms = 2000});
    sbxu_http_request rq = {.method = "GET", .path = "/slow"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_lt(ms_since(r.t0), 1500);
    ck_assert_int_eq(r.rs.status, 429);
    ck_assert_int_eq(r.rs.attempts, 1);
    ck_assert_int_eq(sbxu_http_fail(&r.h, &rq, &r.rs, "listing things", r.rs.body.data),
                     SBX_E_BACKEND_RATE_LIMITED);
    ck_assert_msg(strstr(last_msg, "slow (HTTP 429 from") &&
                      strstr(last_msg, "; rate limited, retry after 30 s"),
                  "%s", last_msg);
    rig_stop(&r);
}
END_TEST

START_TEST(http_long_retry_after_without_a_deadline_is_not_waited_for)
{
    static const char *const script[] = {
        "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 30\r\nContent-Length: 0\r\n"
        "Connection: close\r\n\r\n",
        NULL};
    rig r;
    rig_start(&r, script, 0, (sbxu_http_retry){.attempts = 5, .max_ms = 400});
    sbxu_http_request rq = {.method = "GET", .path = "/slow"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_lt(ms_since(r.t0), 1500);
    ck_assert_int_eq(r.rs.attempts, 1);
    ck_assert_msg(strstr(traced, "(Retry-After is longer than the longest wait)"), "%s", traced);
    ck_assert_int_eq(sbxu_http_fail(&r.h, &rq, &r.rs, "listing things", NULL),
                     SBX_E_BACKEND_RATE_LIMITED);
    ck_assert_msg(strstr(last_msg, "listing things: no message (HTTP 429 from ") &&
                      strstr(last_msg, "retry after 30 s"),
                  "%s", last_msg);
    rig_stop(&r);
}
END_TEST

START_TEST(http_post_is_never_retried)
{
    static const char *const script[] = {UNAVAILABLE, OK_ANSWER, NULL};
    rig r;
    rig_start(&r, script, 0, patient);
    sbxu_http_request rq = {.method = "POST", .path = "/sandboxes", .body = "{}",
                           .content_type = "application/json"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_eq(r.rs.status, 503);
    ck_assert_int_eq(r.rs.attempts, 1);
    ck_assert_int_eq(atomic_load(&r.srv.requests), 1);
    ck_assert_msg(strstr(traced, "(not idempotent: never retried)"), "%s", traced);
    rig_stop(&r);
}
END_TEST

START_TEST(http_post_to_a_refusing_server_is_tried_once)
{
    static const char *const script[] = {OK_ANSWER, NULL};
    rig r;
    rig_start(&r, script, 1000, patient);
    sbxu_http_request rq = {.method = "POST", .path = "/sandboxes", .body = "{}"};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(last_code, SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_msg(strstr(last_msg, "test: cannot connect to the server at http://127.0.0.1:"),
                  "%s", last_msg);
    ck_assert_int_eq(r.rs.attempts, 1);
    ck_assert_int_eq(tries_traced, 1);
    rig_stop(&r);
}
END_TEST

START_TEST(http_secrets_echoed_by_the_server_are_redacted)
{
    static const char *const script[] = {"ECHO", NULL};
    rig r;
    rig_start(&r, script, 0, patient);
    static const char *const more[] = {"X-Access-Token: acc-5e0b7d21f9c8", NULL};
    sbxu_http_request rq = {.method = "GET", .path = "/me", .headers = more};
    ck_assert_int_eq(rig_send(&r, &rq), SBX_OK);
    ck_assert_int_eq(r.rs.status, 401);
    ck_assert(strstr(r.rs.body.data, SECRET_KEY) != NULL);    /* the server did echo them */
    ck_assert_int_eq(sbxu_http_fail(&r.h, &rq, &r.rs, "asking who I am", r.rs.body.data),
                     SBX_E_BACKEND_AUTH);
    ck_assert_msg(strstr(last_msg, "[redacted]"), "%s", last_msg);
    ck_assert_msg(!strstr(last_msg, "acc-5e0b7d21f9c8") && !strstr(traced, "acc-5e0b7d21f9c8"),
                  "%s\n%s", last_msg, traced);
    rig_stop(&r);
}
END_TEST

START_TEST(http_status_table_maps_each_failure)
{
    ck_assert_int_eq(sbxu_http_status_code(401), SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(sbxu_http_status_code(403), SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(sbxu_http_status_code(404), SBX_E_NOT_FOUND);
    ck_assert_int_eq(sbxu_http_status_code(409), SBX_E_BACKEND_CONFLICT);
    ck_assert_int_eq(sbxu_http_status_code(429), SBX_E_BACKEND_RATE_LIMITED);
    ck_assert_int_eq(sbxu_http_status_code(500), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_status_code(503), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_status_code(599), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_status_code(400), SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(sbxu_http_status_code(0), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(sbxu_http_status_code(200), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(sbxu_http_status_code(302), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(sbxu_http_status_code(700), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_COULDNT_CONNECT, 111), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_COULDNT_CONNECT, 13), SBX_E_BACKEND_PERMISSION);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_PEER_FAILED_VERIFICATION, 0), SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_WEIRD_SERVER_REPLY, 0), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_OPERATION_TIMEDOUT, 0), SBX_E_BACKEND_TRANSPORT);
    char out[128];
    sbxu_http_redact_header("x-api-key: abc", NULL, out, sizeof(out));
    ck_assert_str_eq(out, "x-api-key: [redacted]");
    sbxu_http_redact_header("Accept: */*", NULL, out, sizeof(out));
    ck_assert_str_eq(out, "Accept: */*");
}
END_TEST

START_TEST(http_transport_failures_have_their_codes)
{
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_OK, 0), SBX_OK);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_COULDNT_CONNECT, ENOENT), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_COULDNT_CONNECT, ECONNREFUSED),
                     SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_COULDNT_CONNECT, EACCES), SBX_E_BACKEND_PERMISSION);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_COULDNT_RESOLVE_HOST, 0), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_PEER_FAILED_VERIFICATION, 0), SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_SSL_CACERT_BADFILE, 0), SBX_E_BACKEND_AUTH);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_RECV_ERROR, 0), SBX_E_BACKEND_TRANSPORT);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_OPERATION_TIMEDOUT, 0), SBX_E_BACKEND_TRANSPORT);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_WEIRD_SERVER_REPLY, 0), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(sbxu_http_curl_code(CURLE_OUT_OF_MEMORY, 0), SBX_E_NOMEM);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lib/ http");
    TCase *t = tcase_create("retry");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, http_429_waits_as_retry_after_says_then_succeeds);
    tcase_add_test(t, http_503_then_success_is_retried);
    tcase_add_test(t, http_connection_refused_then_success_is_retried);
    tcase_add_test(t, http_retry_after_as_a_past_date_retries_at_once);
    tcase_add_test(t, http_deadline_stops_retrying);
    tcase_add_test(t, http_deadline_does_not_count_the_wait_for_another_request);
    tcase_add_test(t, http_retry_after_past_the_deadline_is_not_waited_for);
    tcase_add_test(t, http_long_retry_after_without_a_deadline_is_not_waited_for);
    tcase_add_test(t, http_post_is_never_retried);
    tcase_add_test(t, http_post_to_a_refusing_server_is_tried_once);
    tcase_add_test(t, http_secrets_echoed_by_the_server_are_redacted);
    tcase_add_test(t, http_status_table_maps_each_failure);
    tcase_add_test(t, http_transport_failures_have_their_codes);
    suite_add_tcase(s, t);
    return run_suite(s);
}
