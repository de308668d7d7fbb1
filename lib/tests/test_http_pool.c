/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sbxu's session pool against a keep-alive HTTP server on 127.0.0.1
 * (threads of this test): a session given back is taken again with its
 * connection still open; sessions are told apart by endpoint and headers;
 * a busy session is never shared; past the pool's slots a call has a
 * session of its own; the strings that tell sessions apart are the pool's
 * own copies.
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/http_pool.h>
#include "host.h"
#include "loopback.h"

typedef struct server {
    int fd, port;
    atomic_int connections, requests;
    pthread_mutex_t lock;
    char last_request[4096];
    pthread_t thread;
} server;

typedef struct conn {
    server *s;
    int fd;
} conn;

/* Answer every request of one connection 200 until the client closes it. */
static void *serve_conn(void *ud)
{
    conn *c = ud;
    char buf[4096];
    size_t n = 0;
    for (;;) {
        ssize_t got = read(c->fd, buf + n, sizeof(buf) - n - 1);
        if (got <= 0)
            break;
        n += (size_t)got;
        buf[n] = '\0';
        char *end;
        while ((end = strstr(buf, "\r\n\r\n"))) {
            size_t head = (size_t)(end + 4 - buf);
            pthread_mutex_lock(&c->s->lock);
            snprintf(c->s->last_request, sizeof(c->s->last_request), "%.*s", (int)head, buf);
            pthread_mutex_unlock(&c->s->lock);
            atomic_fetch_add(&c->s->requests, 1);
            static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
            if (write(c->fd, ok, sizeof(ok) - 1) < 0)
                break;
            memmove(buf, buf + head, n - head + 1);
            n -= head;
        }
    }
    close(c->fd);
    free(c);
    return NULL;
}

static void *serve(void *ud)
{
    server *s = ud;
    for (;;) {
        int fd = accept(s->fd, NULL, NULL);
        if (fd < 0)
            return NULL;
        atomic_fetch_add(&s->connections, 1);
        conn *c = malloc(sizeof(*c));
        pthread_t t;
        c->s = s;
        c->fd = fd;
        if (pthread_create(&t, NULL, serve_conn, c) == 0)
            pthread_detach(t);
    }
}

static void server_start(server *s)
{
    memset(s, 0, sizeof(*s));
    pthread_mutex_init(&s->lock, NULL);
    s->fd = loopback_bind(&s->port);
    ck_assert_int_eq(listen(s->fd, 16), 0);
    ck_assert_int_eq(pthread_create(&s->thread, NULL, serve, s), 0);
}

static void server_stop(server *s)
{
    shutdown(s->fd, SHUT_RDWR);
    close(s->fd);
    pthread_join(s->thread, NULL);
}

static server srv;
static char base[64];
static const char *const key_a[] = {"Authorization: Bearer key-a", NULL};
static const char *const key_b[] = {"Authorization: Bearer key-b", NULL};

static sbxu_http_config config(const char *const *headers)
{
    snprintf(base, sizeof(base), "http://127.0.0.1:%d", srv.port);
    return (sbxu_http_config){.plugin = "test", .base_url = base, .headers = headers,
                             .connect_timeout_ms = 5000};
}

static void get(sbxu_http *s)
{
    sbxu_http_request rq = {.method = "GET", .path = "/", .timeout_ms = 5000};
    sbxu_http_response rs = {0};
    ck_assert_int_eq(sbxu_http_send(s, &rq, &rs), SBX_OK);
    ck_assert_int_eq(rs.status, 200);
    sbxu_http_response_clear(&rs);
}

static bool in_slots(const sbxu_http_pool *p, const sbxu_http *s)
{
    for (size_t i = 0; i < SBXU_HTTP_POOL_SLOTS; i++)
        if (&p->slot[i].http == s)
            return true;
    return false;
}

static sbxu_http_pool pool;

/* A session from the pool for cfg, which must be had. */
static sbxu_http *take(const sbxu_http_config *cfg)
{
    sbxu_http *s = NULL;
    ck_assert_int_eq(sbxu_http_pool_take(&s, &pool, &host, cfg), SBX_OK);
    ck_assert_ptr_nonnull(s);
    return s;
}

static void setup(void)
{
    host_reset();
    server_start(&srv);
    ck_assert_int_eq(sbxu_http_pool_init(&pool, &host, "test"), SBX_OK);
}

static void teardown(void)
{
    sbxu_http_pool_clear(&pool);
    server_stop(&srv);
}

START_TEST(pool_session_given_back_is_taken_again_with_its_connection)
{
    sbxu_http_config cfg = config(key_a);
    sbxu_http *first = take(&cfg);
    ck_assert_ptr_nonnull(first);
    get(first);
    sbxu_http_pool_give(&pool, first);
    for (int i = 0; i < 3; i++) {
        sbxu_http *again = take(&cfg);
        ck_assert_ptr_eq(again, first);
        get(again);
        sbxu_http_pool_give(&pool, again);
    }
    ck_assert_int_eq(atomic_load(&srv.requests), 4);
    ck_assert_int_eq(atomic_load(&srv.connections), 1);
}
END_TEST

START_TEST(pool_tells_sessions_apart_by_endpoint_and_headers)
{
    sbxu_http_config a = config(key_a), b = config(key_b);
    sbxu_http *sa = take(&a);
    ck_assert_ptr_nonnull(sa);
    sbxu_http_pool_give(&pool, sa);
    sbxu_http *sb = take(&b);
    ck_assert_ptr_nonnull(sb);
    ck_assert_ptr_ne(sb, sa);
    get(sb);
    ck_assert_ptr_nonnull(strstr(srv.last_request, "Bearer key-b"));
    sbxu_http_pool_give(&pool, sb);
    /* No headers at all is another set again. */
    sbxu_http_config none = config(NULL);
    sbxu_http *sn = take(&none);
    ck_assert_ptr_ne(sn, sa);
    ck_assert_ptr_ne(sn, sb);
    get(sn);
    ck_assert_ptr_null(strstr(srv.last_request, "Authorization"));
    sbxu_http_pool_give(&pool, sn);
    sbxu_http *again = take(&a);
    ck_assert_ptr_eq(again, sa);
    get(again);
    ck_assert_ptr_nonnull(strstr(srv.last_request, "Bearer key-a"));
    sbxu_http_pool_give(&pool, again);
}
END_TEST

START_TEST(pool_busy_session_is_not_shared)
{
    sbxu_http_config cfg = config(key_a);
    sbxu_http *one = take(&cfg);
    sbxu_http *two = take(&cfg);
    ck_assert_ptr_nonnull(one);
    ck_assert_ptr_nonnull(two);
    ck_assert_ptr_ne(one, two);
    get(one);
    get(two);
    ck_assert_int_eq(atomic_load(&srv.connections), 2);
    sbxu_http_pool_give(&pool, one);
    sbxu_http_pool_give(&pool, two);
}
END_TEST

START_TEST(pool_past_its_slots_a_call_has_a_session_of_its_own)
{
    sbxu_http_config cfg = config(key_a);
    sbxu_http *taken[SBXU_HTTP_POOL_SLOTS + 2];
    for (size_t i = 0; i < SBXU_HTTP_POOL_SLOTS + 2; i++) {
        taken[i] = take(&cfg);
        ck_assert_ptr_nonnull(taken[i]);
        for (size_t j = 0; j < i; j++)
            ck_assert_ptr_ne(taken[i], taken[j]);
        ck_assert(in_slots(&pool, taken[i]) == (i < SBXU_HTTP_POOL_SLOTS));
        get(taken[i]);
    }
    /* The own sessions are freed as they come back (valgrind and ASan see to it). */
    for (size_t i = 0; i < SBXU_HTTP_POOL_SLOTS + 2; i++)
        sbxu_http_pool_give(&pool, taken[i]);
    sbxu_http *after = take(&cfg);
    ck_assert(in_slots(&pool, after));
    sbxu_http_pool_give(&pool, after);
}
END_TEST

START_TEST(pool_idle_session_of_another_endpoint_makes_way_when_full)
{
    sbxu_http_config a = config(key_a), b = config(key_b);
    sbxu_http *taken[SBXU_HTTP_POOL_SLOTS];
    for (size_t i = 0; i < SBXU_HTTP_POOL_SLOTS; i++)
        taken[i] = take(&a);
    for (size_t i = 0; i < SBXU_HTTP_POOL_SLOTS; i++)
        sbxu_http_pool_give(&pool, taken[i]);
    sbxu_http *other = take(&b);
    ck_assert(in_slots(&pool, other));
    get(other);
    ck_assert_ptr_nonnull(strstr(srv.last_request, "Bearer key-b"));
    sbxu_http_pool_give(&pool, other);
}
END_TEST

START_TEST(pool_keeps_its_own_copies_of_what_tells_sessions_apart)
{
    char header[64], url[64];
    const char *headers[] = {header, NULL};
    snprintf(header, sizeof(header), "Authorization: Bearer key-c");
    sbxu_http_config cfg = config(headers);
    snprintf(url, sizeof(url), "%s", base);
    cfg.base_url = url;
    sbxu_http *first = take(&cfg);
    ck_assert_ptr_nonnull(first);
    get(first);
    sbxu_http_pool_give(&pool, first);
    /* The maker's strings change (a sandbox freed, its memory reused). */
    snprintf(header, sizeof(header), "Authorization: Bearer key-d");
    memset(url, 'x', sizeof(url) - 1);
    url[sizeof(url) - 1] = '\0';
    static const char *const key_c[] = {"Authorization: Bearer key-c", NULL};
    sbxu_http_config same = config(key_c);
    sbxu_http *again = take(&same);
    ck_assert_ptr_eq(again, first);
    get(again);
    ck_assert_ptr_nonnull(strstr(srv.last_request, "Bearer key-c"));
    ck_assert_int_eq(atomic_load(&srv.connections), 1);
    sbxu_http_pool_give(&pool, again);
}
END_TEST

START_TEST(pool_refuses_more_headers_than_a_slot_holds)
{
    const char *many[SBXU_HTTP_POOL_HEADERS + 2];
    for (size_t i = 0; i <= SBXU_HTTP_POOL_HEADERS; i++)
        many[i] = "X-Test: 1";
    many[SBXU_HTTP_POOL_HEADERS + 1] = NULL;
    sbxu_http_config cfg = config(many);
    sbxu_http *s = (sbxu_http *)&pool;
    ck_assert_int_eq(sbxu_http_pool_take(&s, &pool, &host, &cfg), SBX_E_BACKEND_FAILED);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(last_code, SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(atomic_load(&srv.connections), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lib/ http pool");
    TCase *t = tcase_create("pool");
    tcase_set_timeout(t, 60);
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, pool_session_given_back_is_taken_again_with_its_connection);
    tcase_add_test(t, pool_tells_sessions_apart_by_endpoint_and_headers);
    tcase_add_test(t, pool_busy_session_is_not_shared);
    tcase_add_test(t, pool_past_its_slots_a_call_has_a_session_of_its_own);
    tcase_add_test(t, pool_idle_session_of_another_endpoint_makes_way_when_full);
    tcase_add_test(t, pool_keeps_its_own_copies_of_what_tells_sessions_apart);
    tcase_add_test(t, pool_refuses_more_headers_than_a_slot_holds);
    suite_add_tcase(s, t);
    return run_suite(s);
}
