/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the e2b backend's pure parts: the Connect server-stream
 * decoder (envelopes split at every byte, the end-of-stream frame and its
 * error, every malformed body), envd's end event of a command as an exit
 * report, where E2B is for a DSN and an environment, and the wrapper every
 * command runs in, run by the host's /bin/sh. No server is needed.
 */
#include "../e2b.h"

#include <sandboxio/errors.h>

#include "../../../lib/tests/host.h"

#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* --- envelope --------------------------------------------------------------- */

typedef struct seen {
    char text[1024];    /* the messages, each followed by '|' */
    char end[256];
    int messages, ends;
    int stop_at;        /* return 7 at this message (0: never) */
} seen;

static int on_message(void *ud, const char *json, size_t len)
{
    seen *s = ud;
    ck_assert_uint_eq(strlen(json), len);    /* NUL-terminated, no NUL inside */
    strncat(s->text, json, sizeof(s->text) - strlen(s->text) - 2);
    strcat(s->text, "|");
    return ++s->messages == s->stop_at ? 7 : 0;
}

static int on_end(void *ud, const char *json, size_t len)
{
    seen *s = ud;
    ck_assert_uint_lt(len, sizeof(s->end));
    memcpy(s->end, json, len + 1);
    s->ends++;
    return 0;
}

/* Appends one envelope to buf at *n. */
static void put(unsigned char *buf, size_t *n, unsigned flags, const char *json)
{
    size_t len = strlen(json);
    buf[(*n)++] = (unsigned char)flags;
    buf[(*n)++] = (unsigned char)(len >> 24);
    buf[(*n)++] = (unsigned char)(len >> 16);
    buf[(*n)++] = (unsigned char)(len >> 8);
    buf[(*n)++] = (unsigned char)len;
    memcpy(buf + *n, json, len);
    *n += len;
}

static size_t start_stream(unsigned char *buf)
{
    size_t n = 0;
    put(buf, &n, 0, "{\"event\":{\"start\":{\"pid\":7}}}");
    put(buf, &n, 0, "");
    put(buf, &n, 0, "{\"event\":{\"data\":{\"stdout\":\"aGkK\"}}}");
    put(buf, &n, 0, "{\"event\":{\"end\":{\"exited\":true,\"status\":\"exit status 0\"}}}");
    put(buf, &n, E2B_ENV_END_STREAM, "{}");
    return n;
}

static const char *const START_TEXT =
    "{\"event\":{\"start\":{\"pid\":7}}}||{\"event\":{\"data\":{\"stdout\":\"aGkK\"}}}|"
    "{\"event\":{\"end\":{\"exited\":true,\"status\":\"exit status 0\"}}}|";

START_TEST(envelope_whole_stream_in_one_read)
{
    unsigned char buf[512];
    size_t n = start_stream(buf);
    seen s = {0};
    e2b_envelope e;
    e2b_envelope_init(&e, on_message, on_end, &s);
    ck_assert_int_eq(e2b_envelope_feed(&e, buf, n), SBX_OK);
    ck_assert_int_eq(e2b_envelope_finish(&e), SBX_OK);
    ck_assert_str_eq(s.text, START_TEXT);
    ck_assert_int_eq(s.messages, 4);
    ck_assert_int_eq(s.ends, 1);
    ck_assert_str_eq(s.end, "{}");
    e2b_envelope_clear(&e);
}
END_TEST

/* Every split point of the body into two reads, and one byte per read. */
START_TEST(envelope_split_anywhere)
{
    unsigned char buf[512];
    size_t n = start_stream(buf);
    for (size_t cut = 0; cut <= n; cut++) {
        seen s = {0};
        e2b_envelope e;
        e2b_envelope_init(&e, on_message, on_end, &s);
        ck_assert_int_eq(e2b_envelope_feed(&e, buf, cut), SBX_OK);
        ck_assert_int_eq(e2b_envelope_feed(&e, buf + cut, n - cut), SBX_OK);
        ck_assert_int_eq(e2b_envelope_finish(&e), SBX_OK);
        ck_assert_str_eq(s.text, START_TEXT);
        e2b_envelope_clear(&e);
    }
    seen s = {0};
    e2b_envelope e;
    e2b_envelope_init(&e, on_message, on_end, &s);
    for (size_t i = 0; i < n; i++)
        ck_assert_int_eq(e2b_envelope_feed(&e, buf + i, 1), SBX_OK);
    ck_assert_int_eq(e2b_envelope_finish(&e), SBX_OK);
    ck_assert_str_eq(s.text, START_TEXT);
    e2b_envelope_clear(&e);
}
END_TEST

/* A body cut anywhere before its end-of-stream message is an error. */
START_TEST(envelope_cut_before_end_is_protocol_error)
{
    unsigned char buf[512];
    size_t n = start_stream(buf);
    for (size_t cut = 0; cut < n; cut++) {
        seen s = {0};
        e2b_envelope e;
        e2b_envelope_init(&e, on_message, on_end, &s);
        ck_assert_int_eq(e2b_envelope_feed(&e, buf, cut), SBX_OK);
        ck_assert_int_eq(e2b_envelope_finish(&e), SBX_E_BACKEND_PROTOCOL);
        ck_assert_ptr_nonnull(e.why);
        ck_assert_int_eq(s.ends, 0);
        e2b_envelope_clear(&e);
    }
}
END_TEST

static int feed_one(unsigned flags, const char *json, const char **why)
{
    unsigned char buf[64];
    size_t n = 0;
    put(buf, &n, flags, json);
    seen s = {0};
    e2b_envelope e;
    e2b_envelope_init(&e, on_message, on_end, &s);
    int rc = e2b_envelope_feed(&e, buf, n);
    *why = e.why;
    e2b_envelope_clear(&e);
    return rc;
}

START_TEST(envelope_bad_frames_refused)
{
    const char *why;
    ck_assert_int_eq(feed_one(E2B_ENV_COMPRESSED, "x", &why), SBX_E_BACKEND_PROTOCOL);
    ck_assert_str_eq(why, "a compressed message, though none was asked for");
    ck_assert_int_eq(feed_one(0x80, "{}", &why), SBX_E_BACKEND_PROTOCOL);
    ck_assert_str_eq(why, "an envelope with unknown flags");

    /* A length over the cap is refused before anything is allocated. */
    unsigned char big[5] = {0, 0x01, 0x00, 0x00, 0x01};
    seen s = {0};
    e2b_envelope e;
    e2b_envelope_init(&e, on_message, on_end, &s);
    ck_assert_int_eq(e2b_envelope_feed(&e, big, sizeof(big)), SBX_E_BACKEND_PROTOCOL);
    ck_assert_str_eq(e.why, "a message larger than 16 MiB");
    ck_assert_ptr_null(e.msg);
    e2b_envelope_clear(&e);

    /* Nothing may follow the end-of-stream message. */
    unsigned char buf[64];
    size_t n = 0;
    put(buf, &n, E2B_ENV_END_STREAM, "{}");
    put(buf, &n, 0, "{}");
    memset(&s, 0, sizeof(s));
    e2b_envelope_init(&e, on_message, on_end, &s);
    ck_assert_int_eq(e2b_envelope_feed(&e, buf, n), SBX_E_BACKEND_PROTOCOL);
    ck_assert_str_eq(e.why, "data after the end-of-stream message");
    ck_assert_int_eq(s.ends, 1);
    e2b_envelope_clear(&e);
}
END_TEST

START_TEST(envelope_callback_stops_the_feed)
{
    unsigned char buf[512];
    size_t n = start_stream(buf);
    seen s = {.stop_at = 2};
    e2b_envelope e;
    e2b_envelope_init(&e, on_message, on_end, &s);
    ck_assert_int_eq(e2b_envelope_feed(&e, buf, n), 7);
    ck_assert_int_eq(s.messages, 2);
    e2b_envelope_clear(&e);
}
END_TEST

START_TEST(end_error_parsed)
{
    bool has;
    char code[32], msg[16];
    ck_assert_int_eq(e2b_end_error("{}", 2, &has, code, sizeof(code), msg, sizeof(msg)), SBX_OK);
    ck_assert(!has);
    const char *dl = "{\"error\":{\"code\":\"deadline_exceeded\",\"message\":\"the deadline passed\"}}";
    ck_assert_int_eq(e2b_end_error(dl, strlen(dl), &has, code, sizeof(code), msg, sizeof(msg)),
                     SBX_OK);
    ck_assert(has);
    ck_assert_str_eq(code, "deadline_exceeded");
    ck_assert_str_eq(msg, "the deadline pa");    /* cut to fit, terminated */
    const char *nomsg = "{\"error\":{\"code\":\"unavailable\"}}";
    ck_assert_int_eq(
        e2b_end_error(nomsg, strlen(nomsg), &has, code, sizeof(code), msg, sizeof(msg)), SBX_OK);
    ck_assert(has);
    ck_assert_str_eq(code, "unavailable");
    ck_assert_str_eq(msg, "");
}
END_TEST

START_TEST(end_error_malformed_is_protocol_error)
{
    bool has;
    char code[32], msg[32];
    const char *bad[] = {"", "[]", "{", "{} x", "{\"error\":{}}", "{\"error\":{\"code\":3}}",
                         "{\"error\":\"x\"}"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_msg(e2b_end_error(bad[i], strlen(bad[i]), &has, code, sizeof(code), msg,
                                    sizeof(msg)) == SBX_E_BACKEND_PROTOCOL,
                      "accepted %s", bad[i]);
}
END_TEST

/* --- process_end ------------------------------------------------------------- */

static int end_of(const char *json, sbx_plugin_exit *x)
{
    json_object *o = json_tokener_parse(json);
    ck_assert_ptr_nonnull(o);
    memset(x, 0x55, sizeof(*x));
    int rc = e2b_process_end(o, x);
    json_object_put(o);
    return rc;
}

START_TEST(process_end_exit_codes)
{
    sbx_plugin_exit x;
    /* exitCode 0 is omitted on the wire, as every JSON zero value. */
    ck_assert_int_eq(end_of("{\"exited\":true,\"status\":\"exit status 0\"}", &x), SBX_OK);
    ck_assert_int_eq(x.exited, 1);
    ck_assert_int_eq(x.exit_code, 0);
    ck_assert_int_eq(x.signal, 0);
    ck_assert_int_eq(end_of("{\"exitCode\":3,\"exited\":true,\"status\":\"exit status 3\","
                            "\"error\":\"exit status 3\"}", &x), SBX_OK);
    ck_assert_int_eq(x.exited, 1);
    ck_assert_int_eq(x.exit_code, 3);
}
END_TEST

START_TEST(process_end_signals)
{
    sbx_plugin_exit x;
    ck_assert_int_eq(end_of("{\"exitCode\":-1,\"status\":\"signal: killed\","
                            "\"error\":\"signal: killed\"}", &x), SBX_OK);
    ck_assert_int_eq(x.exited, 0);
    ck_assert_int_eq(x.signal, 9);
    ck_assert_int_eq(x.exit_code, 0);
    ck_assert_int_eq(end_of("{\"exitCode\":-1,\"status\":\"signal: terminated\"}", &x), SBX_OK);
    ck_assert_int_eq(x.signal, 15);
    ck_assert_int_eq(end_of("{\"exitCode\":-1,\"status\":\"signal: segmentation fault (core dumped)\"}",
                            &x), SBX_OK);
    ck_assert_int_eq(x.signal, 11);
    ck_assert_int_eq(end_of("{\"exitCode\":-1,\"status\":\"signal: bad system call\"}", &x), SBX_OK);
    ck_assert_int_eq(x.signal, 31);
    ck_assert_int_eq(end_of("{\"exitCode\":-1,\"status\":\"signal: signal 34\"}", &x), SBX_OK);
    ck_assert_int_eq(x.signal, 34);
}
END_TEST

START_TEST(process_end_malformed_is_protocol_error)
{
    sbx_plugin_exit x;
    const char *bad[] = {
        "{}",                                                   /* neither exit nor signal */
        "{\"exited\":true,\"exitCode\":-1}",                   /* an exit code out of range */
        "{\"exited\":true,\"exitCode\":256}",
        "{\"exited\":\"yes\",\"exitCode\":1}",                 /* wrong types */
        "{\"exited\":true,\"exitCode\":\"1\"}",
        "{\"status\":\"signal: \"}",                            /* no name */
        "{\"status\":\"signal: sleepy\"}",                      /* not a name Go gives */
        "{\"status\":\"signal: signal 0\"}",
        "{\"status\":\"signal: signal 12x\"}",
        "{\"status\":\"stopped\"}",
        "[]",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_msg(end_of(bad[i], &x) == SBX_E_BACKEND_PROTOCOL, "accepted %s", bad[i]);
}
END_TEST

/* --- endpoint ------------------------------------------------------------------ */

static void clear_env(void)
{
    unsetenv("E2B_DOMAIN");
    unsetenv("E2B_API_URL");
    unsetenv("E2B_SANDBOX_URL");
}

/* Parses e2b://AUTHORITY?k=v (one option at most). */
static int endpoint(e2b_endpoint *ep, const char *authority, const char *key, const char *value)
{
    sbx_plugin_kv kv = {.key = key, .value = value};
    sbx_plugin_dsn dsn = {.struct_size = sizeof(dsn), .scheme = "e2b", .authority = authority,
                          .path = "", .query_count = key ? 1 : 0, .query = &kv};
    host_reset();
    return e2b_endpoint_parse(ep, &host, &dsn);
}

START_TEST(endpoint_defaults_are_e2b_cloud)
{
    clear_env();
    e2b_endpoint ep;
    ck_assert_int_eq(endpoint(&ep, "", NULL, NULL), SBX_OK);
    ck_assert_str_eq(ep.domain, "e2b.app");
    ck_assert_str_eq(ep.api_url, "https://api.e2b.app");
    ck_assert_str_eq(ep.template_id, "base");
    ck_assert_uint_eq(ep.timeout_s, 300);
    char url[E2B_URL_MAX];
    ck_assert_int_eq(e2b_endpoint_envd_url(url, sizeof(url), &ep, "abc123"), SBX_OK);
    ck_assert_str_eq(url, "https://49983-abc123.e2b.app");
    e2b_endpoint_clear(&ep);
    ck_assert_ptr_null(ep.template_id);
}
END_TEST

START_TEST(endpoint_domain_from_dsn_then_environment)
{
    clear_env();
    setenv("E2B_DOMAIN", "e2b.example.org", 1);
    e2b_endpoint ep;
    ck_assert_int_eq(endpoint(&ep, "", "template", "python-3"), SBX_OK);
    ck_assert_str_eq(ep.api_url, "https://api.e2b.example.org");
    ck_assert_str_eq(ep.template_id, "python-3");
    e2b_endpoint_clear(&ep);
    /* The DSN's authority wins over E2B_DOMAIN. */
    ck_assert_int_eq(endpoint(&ep, "sandbox.test:8443", "timeout", "60"), SBX_OK);
    ck_assert_str_eq(ep.api_url, "https://api.sandbox.test:8443");
    ck_assert_uint_eq(ep.timeout_s, 60);
    e2b_endpoint_clear(&ep);
    clear_env();
}
END_TEST

START_TEST(endpoint_urls_from_environment)
{
    clear_env();
    setenv("E2B_API_URL", "http://127.0.0.1:4010/", 1);
    setenv("E2B_SANDBOX_URL", "http://localhost:5000", 1);
    e2b_endpoint ep;
    ck_assert_int_eq(endpoint(&ep, "", NULL, NULL), SBX_OK);
    ck_assert_str_eq(ep.api_url, "http://127.0.0.1:4010");
    char url[E2B_URL_MAX];
    ck_assert_int_eq(e2b_endpoint_envd_url(url, sizeof(url), &ep, "abc123"), SBX_OK);
    ck_assert_str_eq(url, "http://localhost:5000");
    e2b_endpoint_clear(&ep);
    setenv("E2B_API_URL", "https://e2b.internal", 1);
    setenv("E2B_SANDBOX_URL", "http://[::1]:5000", 1);
    ck_assert_int_eq(endpoint(&ep, "", NULL, NULL), SBX_OK);
    ck_assert_str_eq(ep.api_url, "https://e2b.internal");
    e2b_endpoint_clear(&ep);
    clear_env();
}
END_TEST

/* A key or a token must never go to a remote host in clear text. */
START_TEST(endpoint_plain_http_only_to_loopback)
{
    const char *remote[] = {"http://10.0.0.5:3000", "http://api.e2b.app", "http://127example.com",
                            "http://localhost.evil.com", "http://[::2]:80"};
    for (size_t i = 0; i < sizeof(remote) / sizeof(remote[0]); i++) {
        clear_env();
        setenv(i % 2 ? "E2B_SANDBOX_URL" : "E2B_API_URL", remote[i], 1);
        e2b_endpoint ep;
        ck_assert_int_eq(endpoint(&ep, "", NULL, NULL), SBX_E_INSECURE_ENDPOINT);
        ck_assert_int_eq(last_code, SBX_E_INSECURE_ENDPOINT);
        ck_assert_msg(strstr(last_msg, i % 2 ? "E2B_SANDBOX_URL" : "E2B_API_URL"), "%s", last_msg);
        ck_assert_ptr_null(ep.template_id);
    }
    clear_env();
}
END_TEST

START_TEST(endpoint_bad_input_refused)
{
    clear_env();
    e2b_endpoint ep;
    ck_assert_int_eq(endpoint(&ep, "bad domain", NULL, NULL), SBX_E_DSN_BAD_AUTHORITY);
    ck_assert_int_eq(endpoint(&ep, "-x.org", NULL, NULL), SBX_E_DSN_BAD_AUTHORITY);
    ck_assert_int_eq(endpoint(&ep, "a.org:1:2", NULL, NULL), SBX_E_DSN_BAD_AUTHORITY);
    ck_assert_int_eq(endpoint(&ep, "", "image", "x"), SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_int_eq(endpoint(&ep, "", "template", "a b"), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(endpoint(&ep, "", "timeout", "soon"), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(endpoint(&ep, "", "timeout", "0"), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_int_eq(endpoint(&ep, "", "timeout", "86401"), SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_ptr_null(ep.template_id);
    setenv("E2B_API_URL", "ftp://x", 1);
    ck_assert_int_eq(endpoint(&ep, "", NULL, NULL), SBX_E_DSN_BAD_AUTHORITY);
    clear_env();
}
END_TEST

/* --- the wrapper -------------------------------------------------------------- */

/* The command the wrapper runs prints "SESSION PID" from its /proc stat. */
static const char SAY_SESSION[] =
    "read -r s </proc/$$/stat; s=${s##*) }; set -- $s; echo \"$4 $$\"";

typedef struct wrapped {
    long said;          /* the pid of the wrapper's "\001sbx-pid N" line */
    long session, pid;  /* what the command printed */
    int status;
} wrapped;

static void read_line(int fd, char *buf, size_t size)
{
    size_t n = 0;
    while (n + 1 < size && read(fd, buf + n, 1) == 1 && buf[n] != '\n')
        n++;
    buf[n] = '\0';
}

/* Runs the wrapper as envd would, the shell leading its own process group
 * or not. */
static wrapped run_wrapper(bool group_leader)
{
    int out[2], err[2];
    ck_assert_int_eq(pipe(out), 0);
    ck_assert_int_eq(pipe(err), 0);
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        if (group_leader && setpgid(0, 0) != 0)
            _exit(90);
        if (dup2(out[1], 1) < 0 || dup2(err[1], 2) < 0)
            _exit(91);
        execl("/bin/sh", "sh", "-c", e2b_exec_wrapper, "sh", "0", "", "/usr/bin:/bin",
              "/bin/sh", "-c", SAY_SESSION, (char *)NULL);
        _exit(92);
    }
    close(out[1]);
    close(err[1]);
    char line[128];
    wrapped w = {0};
    read_line(err[0], line, sizeof(line));
    ck_assert_msg(strncmp(line, "\001sbx-pid ", 9) == 0, "first stderr line: '%s'", line);
    w.said = strtol(line + 9, NULL, 10);
    read_line(out[0], line, sizeof(line));
    ck_assert_int_eq(sscanf(line, "%ld %ld", &w.session, &w.pid), 2);
    ck_assert_int_eq(waitpid(child, &w.status, 0), child);
    close(out[0]);
    close(err[0]);
    return w;
}

/* The pid the wrapper says is the command's session, which the deadline's
 * `kill -KILL -- -N` ends with all its processes: with setsid in place
 * (envd's child leads no group) and with setsid forking (it does). */
START_TEST(wrapper_says_the_commands_session)
{
    wrapped w = run_wrapper(false);
    ck_assert_int_eq(w.session, w.pid);
    ck_assert_int_eq(w.said, w.session);
    ck_assert(WIFEXITED(w.status) && WEXITSTATUS(w.status) == 0);

    w = run_wrapper(true);
    ck_assert_int_eq(w.session, w.pid);
    ck_assert_int_eq(w.said, w.session);
    ck_assert(WIFEXITED(w.status) && WEXITSTATUS(w.status) == 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("e2b");
    add_tcase(s, "envelope", (const TTest *[]){envelope_whole_stream_in_one_read,
        envelope_split_anywhere, envelope_cut_before_end_is_protocol_error,
        envelope_bad_frames_refused, envelope_callback_stops_the_feed, end_error_parsed,
        end_error_malformed_is_protocol_error, NULL});
    add_tcase(s, "process_end", (const TTest *[]){process_end_exit_codes, process_end_signals,
        process_end_malformed_is_protocol_error, NULL});
    add_tcase(s, "endpoint", (const TTest *[]){endpoint_defaults_are_e2b_cloud,
        endpoint_domain_from_dsn_then_environment, endpoint_urls_from_environment,
        endpoint_plain_http_only_to_loopback, endpoint_bad_input_refused, NULL});
    add_tcase(s, "wrapper", (const TTest *[]){wrapper_says_the_commands_session, NULL});
    return run_suite(s);
}
