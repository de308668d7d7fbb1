/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the daytona backend's pure parts: a session command's log
 * split into stdout and stderr (markers cut at every byte, output before
 * the first marker, lookalike bytes, a callback that stops the feed), and
 * the policy's limits as members of the create request (exact requests for
 * each control, every refusal with its code), and the wait for a created
 * sandbox (its states, the errors naming them), and the command wrapper
 * run with the host's perl (perl-base, in every Debian system): the
 * status it names, the command's own process group, signals at their
 * defaults and none blocked. No server is needed.
 */
#include "../daytona.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sandboxio/caps.h>
#include <sandboxio/errors.h>
#include <sandboxio/exec.h>
#include <sandboxio/policy.h>

#include "../../../lib/tests/host.h"

/* --- logdemux --------------------------------------------------------------- */

typedef struct split_out {
    char out[256], err[256];
    size_t out_len, err_len;
    int calls;
    int stop_at;   /* return 9 at this call (0: never) */
} split_out;

static int on_output(void *ud, int stream, const void *data, size_t len)
{
    split_out *s = ud;
    ck_assert(stream == SBX_STDOUT || stream == SBX_STDERR);
    ck_assert_uint_gt(len, 0);
    char *to = stream == SBX_STDOUT ? s->out : s->err;
    size_t *n = stream == SBX_STDOUT ? &s->out_len : &s->err_len;
    ck_assert_uint_lt(*n + len, sizeof(s->out));
    memcpy(to + *n, data, len);
    *n += len;
    return ++s->calls == s->stop_at ? 9 : 0;
}

/* A log as the daemon writes it: each line labelled, stderr and stdout mixed. */
static const char LOG[] = "\1\1\1out one\n\2\2\2err one\n\1\1\1out two\n\2\2\2\n\1\1\1\1\2 bytes\n";

static void check_split(const split_out *s)
{
    ck_assert_uint_eq(s->out_len, strlen("out one\nout two\n\1\2 bytes\n"));
    ck_assert_mem_eq(s->out, "out one\nout two\n\1\2 bytes\n", s->out_len);
    ck_assert_uint_eq(s->err_len, strlen("err one\n\n"));
    ck_assert_mem_eq(s->err, "err one\n\n", s->err_len);
}

START_TEST(demux_whole_log_in_one_feed)
{
    split_out s = {0};
    daytona_demux d;
    daytona_demux_init(&d, on_output, &s);
    ck_assert_int_eq(daytona_demux_feed(&d, LOG, sizeof(LOG) - 1), SBX_OK);
    ck_assert_int_eq(daytona_demux_finish(&d), SBX_OK);
    check_split(&s);
}
END_TEST

/* The log cut into two feeds at every offset, then fed a byte at a time. */
START_TEST(demux_markers_cut_anywhere)
{
    for (size_t cut = 0; cut <= sizeof(LOG) - 1; cut++) {
        split_out s = {0};
        daytona_demux d;
        daytona_demux_init(&d, on_output, &s);
        ck_assert_int_eq(daytona_demux_feed(&d, LOG, cut), SBX_OK);
        ck_assert_int_eq(daytona_demux_feed(&d, LOG + cut, sizeof(LOG) - 1 - cut), SBX_OK);
        ck_assert_int_eq(daytona_demux_finish(&d), SBX_OK);
        check_split(&s);
    }
    split_out s = {0};
    daytona_demux d;
    daytona_demux_init(&d, on_output, &s);
    for (size_t i = 0; i < sizeof(LOG) - 1; i++)
        ck_assert_int_eq(daytona_demux_feed(&d, LOG + i, 1), SBX_OK);
    ck_assert_int_eq(daytona_demux_finish(&d), SBX_OK);
    check_split(&s);
}
END_TEST

/* Output streams as it comes: a feed's certain bytes are given out at once. */
START_TEST(demux_gives_output_out_as_it_is_fed)
{
    split_out s = {0};
    daytona_demux d;
    daytona_demux_init(&d, on_output, &s);
    ck_assert_int_eq(daytona_demux_feed(&d, "\1\1\1partial", 10), SBX_OK);
    ck_assert_uint_eq(s.out_len, 7);
    /* A trailing byte that may start a marker waits for the next feed. */
    ck_assert_int_eq(daytona_demux_feed(&d, " line\n\2", 7), SBX_OK);
    ck_assert_uint_eq(s.out_len, 13);
    ck_assert_int_eq(daytona_demux_feed(&d, "\2\2e\n", 4), SBX_OK);
    ck_assert_int_eq(daytona_demux_finish(&d), SBX_OK);
    ck_assert_mem_eq(s.out, "partial line\n", 13);
    ck_assert_uint_eq(s.err_len, 2);
    ck_assert_mem_eq(s.err, "e\n", 2);
}
END_TEST

START_TEST(demux_drops_bytes_before_the_first_marker)
{
    split_out s = {0};
    daytona_demux d;
    daytona_demux_init(&d, on_output, &s);
    ck_assert_int_eq(daytona_demux_feed(&d, "stray\1\1\2\2\2x\n", 12), SBX_OK);
    ck_assert_int_eq(daytona_demux_finish(&d), SBX_OK);
    ck_assert_uint_eq(s.out_len, 0);
    ck_assert_uint_eq(s.err_len, 2);
    ck_assert_mem_eq(s.err, "x\n", 2);
    /* At the end, held lookalike bytes are output, not a marker. */
    split_out t = {0};
    daytona_demux_init(&d, on_output, &t);
    ck_assert_int_eq(daytona_demux_feed(&d, "\1\1\1a\1\1", 6), SBX_OK);
    ck_assert_int_eq(daytona_demux_finish(&d), SBX_OK);
    ck_assert_uint_eq(t.out_len, 3);
    ck_assert_mem_eq(t.out, "a\1\1", 3);
}
END_TEST

START_TEST(demux_callback_stops_the_feed)
{
    split_out s = {.stop_at = 1};
    daytona_demux d;
    daytona_demux_init(&d, on_output, &s);
    ck_assert_int_eq(daytona_demux_feed(&d, LOG, sizeof(LOG) - 1), 9);
    ck_assert_int_eq(s.calls, 1);
}
END_TEST

/* --- policy ----------------------------------------------------------------- */

static sbx_plugin_limits limits_of(int network, const char *const *allow)
{
    sbx_plugin_limits l = {.struct_size = sizeof(l), .network = network, .net_allow = allow};
    return l;
}

/* The members daytona_policy_body adds, as compact JSON, or NULL on failure. */
static char body_text[1024];
static const char *body_for(const sbx_plugin_limits *l, int *rc)
{
    host_reset();
    json_object *body = json_object_new_object();
    *rc = daytona_policy_body(body, &host, l);
    snprintf(body_text, sizeof(body_text), "%s",
             json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN));
    json_object_put(body);
    return *rc == SBX_OK ? body_text : NULL;
}

START_TEST(policy_network_controls_are_exact_requests)
{
    int rc;
    sbx_plugin_limits l = limits_of(SBX_NET_NONE, NULL);
    ck_assert_str_eq(body_for(&l, &rc), "{\"networkBlockAll\":true}");
    l = limits_of(SBX_NET_OPEN, NULL);
    ck_assert_str_eq(body_for(&l, &rc), "{}");
    const char *const allow[] = {"10.0.0.0/8", "192.168.1.7", "0.0.0.0/0", NULL};
    l = limits_of(SBX_NET_ALLOWLIST, allow);
    ck_assert_str_eq(body_for(&l, &rc),
                     "{\"networkAllowList\":\"10.0.0.0\\/8,192.168.1.7\\/32,0.0.0.0\\/0\"}");
    const char *const none[] = {NULL};
    l = limits_of(SBX_NET_ALLOWLIST, none);
    ck_assert_str_eq(body_for(&l, &rc), "{\"networkBlockAll\":true}");
}
END_TEST

START_TEST(policy_allowlist_daytona_cannot_enforce_is_refused)
{
    static const char *const bad[][2] = {
        {"example.com", NULL}, {"example.com:443", NULL}, {"10.0.0.1:80", NULL},
        {"::1", NULL}, {"10.0.0.0/33", NULL}, {"10.0.0.0/", NULL}, {"10.0.0/8", NULL},
        {"", NULL}, {"10.0.0.0/8x", NULL},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int rc;
        sbx_plugin_limits l = limits_of(SBX_NET_ALLOWLIST, bad[i]);
        ck_assert_ptr_null(body_for(&l, &rc));
        ck_assert_int_eq(rc, SBX_E_POLICY_NETWORK_ALLOWLIST);
        ck_assert_int_eq(last_code, SBX_E_POLICY_NETWORK_ALLOWLIST);
    }
    const char *eleven[] = {"1.0.0.1", "1.0.0.2", "1.0.0.3", "1.0.0.4", "1.0.0.5", "1.0.0.6",
                                  "1.0.0.7", "1.0.0.8", "1.0.0.9", "1.0.0.10", "1.0.0.11", NULL};
    int rc;
    sbx_plugin_limits l = limits_of(SBX_NET_ALLOWLIST, (const char *const *)eleven);
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_NETWORK_ALLOWLIST);
    ck_assert_ptr_nonnull(strstr(last_msg, "at most 10"));
    eleven[10] = NULL;  /* ten is the most Daytona takes */
    ck_assert_ptr_nonnull(body_for(&l, &rc));
}
END_TEST

START_TEST(policy_whole_units_are_exact_requests)
{
    int rc;
    sbx_plugin_limits l = limits_of(SBX_NET_OPEN, NULL);
    l.cpu_millis = 2000;
    l.memory_bytes = 4 * DAYTONA_GIB;
    l.disk_bytes = 3 * DAYTONA_GIB;
    ck_assert_str_eq(body_for(&l, &rc), "{\"cpu\":2,\"memory\":4,\"disk\":3}");
}
END_TEST

START_TEST(policy_limit_that_would_round_up_is_refused)
{
    int rc;
    sbx_plugin_limits l = limits_of(SBX_NET_OPEN, NULL);
    l.cpu_millis = 1500;
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_CPU);
    l.cpu_millis = 0;
    l.memory_bytes = 512u << 20;
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_MEMORY);
    l.memory_bytes = DAYTONA_GIB + 1;
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_MEMORY);
    l.memory_bytes = 0;
    l.disk_bytes = 1000000000;  /* 1 GB is not 1 GiB */
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_DISK);
    l.disk_bytes = 0;
    l.pids = 64;
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_PIDS);
    ck_assert_int_eq(last_code, SBX_E_POLICY_PIDS);
}
END_TEST

/* The core's defaults are left out where Daytona cannot express them. */
START_TEST(policy_defaulted_limit_is_left_out_and_logged)
{
    int rc;
    sbx_plugin_limits l = limits_of(SBX_NET_NONE, NULL);
    l.pids = SBX_DEFAULT_PIDS;
    l.memory_bytes = SBX_DEFAULT_MEMORY;
    l.defaulted = SBX_CAP_LIMIT_PIDS | SBX_CAP_LIMIT_MEMORY;
    ck_assert_str_eq(body_for(&l, &rc), "{\"networkBlockAll\":true,\"memory\":2}");
    ck_assert_ptr_nonnull(strstr(logged, "default limit left out"));
    /* A core older than minor 2 passes no `defaulted`: the pids limit is refused. */
    l.struct_size = (uint32_t)offsetof(sbx_plugin_limits, disk_bytes);
    ck_assert_ptr_null(body_for(&l, &rc));
    ck_assert_int_eq(rc, SBX_E_POLICY_PIDS);
}
END_TEST

/* --- lifecycle ------------------------------------------------------------- */

static int state_of(const char *json, char *state)
{
    host_reset();
    json_object *rec = json_tokener_parse(json);
    ck_assert_ptr_nonnull(rec);
    int rc = daytona_start_state(rec, &host, state, 32);
    json_object_put(rec);
    return rc;
}

START_TEST(start_state_started_and_on_the_way)
{
    char state[32];
    ck_assert_int_eq(state_of("{\"id\":\"a\",\"state\":\"started\"}", state), SBX_OK);
    ck_assert_str_eq(state, "started");
    static const char *const way[] = {"creating", "starting", "pulling_snapshot",
                                      "pending_build", "building_snapshot", "restoring"};
    for (size_t i = 0; i < sizeof(way) / sizeof(way[0]); i++) {
        char json[128];
        snprintf(json, sizeof(json), "{\"id\":\"a\",\"state\":\"%s\"}", way[i]);
        ck_assert_int_eq(state_of(json, state), DAYTONA_STARTING);
        ck_assert_str_eq(state, way[i]);
        ck_assert_int_eq(last_code, 0);
    }
}
END_TEST

START_TEST(start_state_failure_names_state_and_reason)
{
    char state[32];
    ck_assert_int_eq(state_of("{\"id\":\"sb1\",\"state\":\"error\",\"errorReason\":\"no runner "
                              "available\"}", state), SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(last_code, SBX_E_BACKEND_FAILED);
    ck_assert_str_eq(last_msg, "daytona: sandbox sb1 did not start: Daytona reports it error: "
                               "no runner available");
    ck_assert_int_eq(state_of("{\"id\":\"sb1\",\"state\":\"build_failed\"}", state),
                     SBX_E_BACKEND_FAILED);
    /* A state a create never passes through fails at once, not at the bound. */
    ck_assert_int_eq(state_of("{\"id\":\"sb1\",\"state\":\"destroyed\"}", state),
                     SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(state_of("{\"id\":\"sb1\",\"state\":\"stopped\"}", state),
                     SBX_E_BACKEND_FAILED);
    ck_assert_int_eq(state_of("{\"id\":\"sb1\"}", state), SBX_E_BACKEND_PROTOCOL);
    ck_assert_int_eq(state_of("{\"id\":\"sb1\",\"state\":7}", state), SBX_E_BACKEND_PROTOCOL);
}
END_TEST

START_TEST(start_timeout_names_the_state_it_was_stuck_in)
{
    host_reset();
    ck_assert_int_eq(daytona_start_timeout(&host, "sb2", "creating", NULL, 60500),
                     SBX_E_BACKEND_START_TIMEOUT);
    ck_assert_int_eq(last_code, SBX_E_BACKEND_START_TIMEOUT);
    ck_assert_str_eq(last_msg, "daytona: sandbox sb2 did not start within 60 s: Daytona still "
                               "reports it creating");
    daytona_start_timeout(&host, "sb2", "pulling_snapshot", "pulling image", 1000);
    ck_assert_ptr_nonnull(strstr(last_msg, "pulling_snapshot: pulling image"));
}
END_TEST

/* --- endpoint.c ----------------------------------------------------------- */

static int parse(daytona_endpoint *ep, const char *authority, const sbx_plugin_kv *q, size_t n)
{
    sbx_plugin_dsn dsn = {.struct_size = sizeof(dsn), .scheme = "daytona",
                          .authority = authority, .path = "", .query_count = n, .query = q};
    host_reset();
    return daytona_endpoint_parse(ep, &host, &dsn);
}

START_TEST(endpoint_defaults_and_host)
{
    daytona_endpoint ep;
    unsetenv("DAYTONA_API_URL");
    ck_assert_int_eq(parse(&ep, "", NULL, 0), SBX_OK);
    ck_assert_str_eq(ep.api_url, DAYTONA_DEFAULT_API);
    ck_assert_str_eq(ep.snapshot, "");
    ck_assert_uint_eq(ep.ttl_s, 3600);
    daytona_endpoint_clear(&ep);
    ck_assert_int_eq(parse(&ep, "daytona.example.com:8443", NULL, 0), SBX_OK);
    ck_assert_str_eq(ep.api_url, "https://daytona.example.com:8443/api");
    daytona_endpoint_clear(&ep);
    setenv("DAYTONA_API_URL", "http://127.0.0.1:3000/api/", 1);
    ck_assert_int_eq(parse(&ep, "", NULL, 0), SBX_OK);
    ck_assert_str_eq(ep.api_url, "http://127.0.0.1:3000/api");
    daytona_endpoint_clear(&ep);
    unsetenv("DAYTONA_API_URL");
}
END_TEST

START_TEST(endpoint_refuses_what_it_cannot_use)
{
    daytona_endpoint ep;
    const sbx_plugin_kv both[] = {{"snapshot", "a"}, {"image", "b"}};
    ck_assert_int_eq(parse(&ep, "", both, 2), SBX_E_DSN_BAD_OPTION_VALUE);
    const sbx_plugin_kv short_ttl[] = {{"ttl", "59"}};
    ck_assert_int_eq(parse(&ep, "", short_ttl, 1), SBX_E_DSN_BAD_OPTION_VALUE);
    const sbx_plugin_kv odd[] = {{"snapshot", "a b"}};
    ck_assert_int_eq(parse(&ep, "", odd, 1), SBX_E_DSN_BAD_OPTION_VALUE);
    const sbx_plugin_kv unknown[] = {{"template", "x"}};
    ck_assert_int_eq(parse(&ep, "", unknown, 1), SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_int_eq(parse(&ep, "bad host", NULL, 0), SBX_E_DSN_BAD_AUTHORITY);
    /* The key would cross the network in clear. */
    setenv("DAYTONA_API_URL", "http://daytona.example.com/api", 1);
    ck_assert_int_eq(parse(&ep, "", NULL, 0), SBX_E_INSECURE_ENDPOINT);
    setenv("DAYTONA_API_URL", "ftp://daytona.example.com/api", 1);
    ck_assert_int_eq(parse(&ep, "", NULL, 0), SBX_E_DSN_BAD_AUTHORITY);
    unsetenv("DAYTONA_API_URL");
}
END_TEST

START_TEST(quote_argv_keeps_every_byte)
{
    const char *argv[] = {"printf", "it's", "", "$HOME;*", NULL};
    char *line = daytona_quote_argv(argv);
    ck_assert_str_eq(line, "'printf' 'it'\\''s' '' '$HOME;*'");
    free(line);
}
END_TEST

START_TEST(status_file_forms_are_read)
{
    static const struct {
        const char *text;
        int status, value;
    } ok[] = {
        {"exit 0", DAYTONA_S_EXIT, 0},      {"exit 255\n", DAYTONA_S_EXIT, 255},
        {"signal 9", DAYTONA_S_SIGNAL, 9},  {"start nocwd", DAYTONA_S_NOCWD, 0},
        {"start noexec", DAYTONA_S_NOEXEC, 0}, {"start noperm\n", DAYTONA_S_NOPERM, 0},
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        int status = -1, value = -1;
        ck_assert_int_eq(daytona_status_parse(ok[i].text, strlen(ok[i].text), &status, &value), 0);
        ck_assert_int_eq(status, ok[i].status);
        ck_assert_int_eq(value, ok[i].value);
    }
}
END_TEST

START_TEST(status_file_garbled_is_refused)
{
    /* Written where the command can write too: only the exact forms pass. */
    static const char *const bad[] = {
        "", "exit", "exit ", "exit 256", "exit -1", "exit 1x", "exit 99999999999999999999",
        "signal 0", "signal 128", "start", "start nope", "exit 1\n\n", " exit 1", "EXIT 1",
        "start nocwd extra",
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        int status = DAYTONA_S_RUNNING, value = 7;
        ck_assert_msg(daytona_status_parse(bad[i], strlen(bad[i]), &status, &value) == -1,
                      "'%s' was read", bad[i]);
        ck_assert_int_eq(status, DAYTONA_S_RUNNING);
    }
    /* Not NUL-terminated: the length is what counts. */
    int status = DAYTONA_S_RUNNING, value = 0;
    ck_assert_int_eq(daytona_status_parse("exit 12345", 6, &status, &value), 0);
    ck_assert_int_eq(value, 1);
}
END_TEST

/* --- the command wrapper ------------------------------------------------------ */

/*
 * Runs argv in the wrapper with the host's perl, its output into a fresh
 * dir (in *dir), as the session's shell would: no stdin to feed, control
 * lines none ("0"), the host's PATH. The wrapper starts with SIGUSR1
 * blocked and SIGINT and a real-time signal ignored when hostile is set. Returns its exit status.
 */
static int run_wrapper(char *dir, size_t size, bool hostile, const char *const *argv)
{
    char base[] = "/tmp/sbx-daytona-wrapper-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(base));
    snprintf(dir, size, "%s/out", base);
    const char *words[32] = {"perl", "-e", daytona_wrapper, dir, "0", "", getenv("PATH"), "0"};
    size_t n = 8;
    for (size_t i = 0; argv[i]; i++)
        words[n++] = argv[i];
    words[n] = NULL;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (hostile) {
            sigset_t set;
            sigemptyset(&set);
            sigaddset(&set, SIGUSR1);
            sigprocmask(SIG_BLOCK, &set, NULL);
            signal(SIGINT, SIG_IGN);
            signal(SIGRTMIN + 5, SIG_IGN);
        }
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0)
            _exit(120);
        execvp("perl", (char *const *)words);
        _exit(121);
    }
    int st = 0;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert_msg(WIFEXITED(st), "the wrapper died of signal %d", WTERMSIG(st));
    ck_assert_msg(WEXITSTATUS(st) != 121, "no perl on this host (Debian: perl-base)");
    return WEXITSTATUS(st);
}

static bool has_file(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* The first stdout chunk, whole. */
static void read_stdout(const char *dir, char *out, size_t size)
{
    char path[512];
    snprintf(path, sizeof(path), "%s/o.000000000", dir);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "no stdout chunk in %s", dir);
    size_t n = fread(out, 1, size - 1, f);
    out[n] = '\0';
    fclose(f);
}

static void remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof(cmd), "rm -rf '%.*s'", (int)(strrchr(dir, '/') - dir), dir);
    ck_assert_int_eq(system(cmd), 0);
}

START_TEST(wrapper_names_the_status_and_exits_with_it)
{
    static const struct {
        const char *script;
        int exit_status;
        const char *status_file;
    } cases[] = {
        {"exit 3", 3, "status.exit.3"},
        {"true", 0, "status.exit.0"},
        {"kill -TERM $$", 128 + SIGTERM, "status.signal.15"},
    };
    char dir[256];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *argv[] = {"sh", "-c", cases[i].script, NULL};
        ck_assert_int_eq(run_wrapper(dir, sizeof(dir), false, argv), cases[i].exit_status);
        ck_assert_msg(has_file(dir, cases[i].status_file), "%s: no %s", cases[i].script,
                      cases[i].status_file);
        remove_dir(dir);
    }
    const char *missing[] = {"no-such-program-4f1c", NULL};
    ck_assert_int_eq(run_wrapper(dir, sizeof(dir), false, missing), 127);
    ck_assert(has_file(dir, "status.start.noexec"));
    remove_dir(dir);
}
END_TEST

START_TEST(wrapper_runs_the_command_in_a_process_group_of_its_own)
{
    /* Field 5 of /proc/PID/stat is the process group (sh's comm has no space). */
    const char *argv[] = {"sh", "-c", "echo $$ $(cut -d' ' -f5 /proc/$$/stat)", NULL};
    char dir[256], out[128];
    ck_assert_int_eq(run_wrapper(dir, sizeof(dir), false, argv), 0);
    read_stdout(dir, out, sizeof(out));
    int pid = 0, pgrp = -1;
    ck_assert_int_eq(sscanf(out, "%d %d", &pid, &pgrp), 2);
    ck_assert_int_eq(pgrp, pid);
    ck_assert_int_ne(pgrp, getpgrp());
    remove_dir(dir);
}
END_TEST

START_TEST(wrapper_clears_a_blocked_mask_and_ignored_signals)
{
    const char *argv[] = {"grep", "-E", "^Sig(Blk|Ign):", "/proc/self/status", NULL};
    char dir[256], out[256];
    ck_assert_int_eq(run_wrapper(dir, sizeof(dir), true, argv), 0);
    read_stdout(dir, out, sizeof(out));
    unsigned long long blocked = 1, ignored = 1;
    ck_assert_msg(sscanf(out, "SigBlk: %llx SigIgn: %llx", &blocked, &ignored) == 2, "%s", out);
    ck_assert_msg(blocked == 0, "signals blocked: %s", out);
    /* Signals 32 and 33 are glibc's own: no glibc program can change them,
     * so what the wrapper was started with stays (bits 31 and 32). */
    ck_assert_msg((ignored & ~0x180000000ULL) == 0, "signals ignored: %s", out);
    remove_dir(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("daytona");
    add_tcase(s, "logdemux", (const TTest *[]){demux_whole_log_in_one_feed,
        demux_markers_cut_anywhere, demux_gives_output_out_as_it_is_fed,
        demux_drops_bytes_before_the_first_marker, demux_callback_stops_the_feed, NULL});
    add_tcase(s, "policy", (const TTest *[]){policy_network_controls_are_exact_requests,
        policy_allowlist_daytona_cannot_enforce_is_refused, policy_whole_units_are_exact_requests,
        policy_limit_that_would_round_up_is_refused, policy_defaulted_limit_is_left_out_and_logged,
        NULL});
    add_tcase(s, "lifecycle", (const TTest *[]){start_state_started_and_on_the_way,
        start_state_failure_names_state_and_reason, start_timeout_names_the_state_it_was_stuck_in,
        NULL});
    add_tcase(s, "endpoint", (const TTest *[]){endpoint_defaults_and_host,
        endpoint_refuses_what_it_cannot_use, quote_argv_keeps_every_byte, NULL});
    add_tcase(s, "status", (const TTest *[]){status_file_forms_are_read,
        status_file_garbled_is_refused, NULL});
    tcase_set_timeout(add_tcase(s, "wrapper", (const TTest *[]){
            wrapper_names_the_status_and_exits_with_it,
            wrapper_runs_the_command_in_a_process_group_of_its_own,
            wrapper_clears_a_blocked_mask_and_ignored_signals, NULL}), 30);
    return run_suite(s);
}
