/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pure parts of lib/: base64, credentials, DSN options, JSON
 * helpers, owner labels and the gc sweep, each failure with its exact code.
 */
#include "config.h"

#include <check.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/base64.h>
#include <sbxu/cred.h>
#include <sbxu/json.h>
#include <sbxu/opts.h>
#include <sbxu/owner.h>
#include "host.h"

/* --- base64 --------------------------------------------------------------- */

START_TEST(base64_encodes_the_rfc4648_vectors)
{
    static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar", NULL};
    static const char *const coded[] = {"", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=",
                                        "Zm9vYmFy", NULL};
    for (size_t i = 0; plain[i]; i++) {
        char *e = sbxu_base64_encode(plain[i], strlen(plain[i]));
        ck_assert_str_eq(e, coded[i]);
        size_t n = 99;
        char *d = sbxu_base64_decode(e, &n);
        ck_assert_uint_eq(n, strlen(plain[i]));
        ck_assert_str_eq(d, plain[i]);
        free(d);
        free(e);
    }
    unsigned char bin[] = {0x00, 0xff, 0xfb, 0x10};
    char *e = sbxu_base64_encode(bin, sizeof(bin));
    ck_assert_str_eq(e, "AP/7EA==");
    free(e);
    /* The URL-safe alphabet decodes too. */
    size_t n = 0;
    char *d = sbxu_base64_decode("AP_7EA", &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(memcmp(d, bin, 4), 0);
    free(d);
}
END_TEST

/* --- credentials ---------------------------------------------------------- */

START_TEST(cred_missing_names_the_variable_never_a_value)
{
    const char *v = "untouched";
    host_reset();
    unsetenv("SBX_TEST_API_KEY");
    ck_assert_int_eq(sbxu_cred_get(&v, &host, "e2b", "SBX_TEST_API_KEY", "create one in the console"),
                     SBX_E_CREDENTIAL_MISSING);
    ck_assert_int_eq(last_code, SBX_E_CREDENTIAL_MISSING);
    ck_assert_ptr_null(v);
    ck_assert_str_eq(last_msg, "e2b: the environment variable SBX_TEST_API_KEY is not set "
                               "(credentials are read from the environment only); create one in "
                               "the console");
    /* Empty is missing too. */
    setenv("SBX_TEST_API_KEY", "", 1);
    ck_assert_int_eq(sbxu_cred_get(&v, &host, "e2b", "SBX_TEST_API_KEY", NULL),
                     SBX_E_CREDENTIAL_MISSING);
    ck_assert_ptr_nonnull(strstr(last_msg, "SBX_TEST_API_KEY is not set"));

    host_reset();
    setenv("SBX_TEST_API_KEY", "e2b_53cr3t", 1);
    ck_assert_int_eq(sbxu_cred_get(&v, &host, "e2b", "SBX_TEST_API_KEY", NULL), SBX_OK);
    ck_assert_str_eq(v, "e2b_53cr3t");
    ck_assert_int_eq(last_code, 0);
    ck_assert_str_eq(logged, "");
    unsetenv("SBX_TEST_API_KEY");
}
END_TEST

/* --- options -------------------------------------------------------------- */

typedef struct t_opts {
    char *template;
    uint64_t timeout_s;
    int region;
} t_opts;

static bool template_ok(const char *s)
{
    return s[0] && strspn(s, "abcdefghijklmnopqrstuvwxyz-") == strlen(s);
}

static const char *const regions[] = {"eu", "us", "ap", NULL};
static const sbxu_opt table[] = {
    {"template", SBXU_OPT_STRING, "base", offsetof(t_opts, template), template_ok, NULL,
     " is not a template name"},
    {"timeout", SBXU_OPT_SECONDS, "300", offsetof(t_opts, timeout_s), NULL, NULL, NULL},
    {"region", SBXU_OPT_CHOICE, "us", offsetof(t_opts, region), NULL, regions, NULL},
    {NULL},
};

static sbx_plugin_dsn dsn(size_t n, const sbx_plugin_kv *q)
{
    return (sbx_plugin_dsn){.struct_size = sizeof(sbx_plugin_dsn), .scheme = "t", .authority = "",
                            .path = "", .query_count = n, .query = q};
}

START_TEST(opts_defaults_and_values_land_in_the_struct)
{
    t_opts o = {0};
    sbx_plugin_dsn d = dsn(0, NULL);
    ck_assert_int_eq(sbxu_opts_parse(&o, &host, "t", table, &d), SBX_OK);
    ck_assert_str_eq(o.template, "base");
    ck_assert_uint_eq(o.timeout_s, 300);
    ck_assert_int_eq(o.region, 1);
    sbxu_opts_clear(&o, table);
    ck_assert_ptr_null(o.template);

    sbx_plugin_kv q[] = {{"region", "ap"}, {"template", "code-interpreter"}, {"timeout", "0"}};
    d = dsn(3, q);
    ck_assert_int_eq(sbxu_opts_parse(&o, &host, "t", table, &d), SBX_OK);
    ck_assert_str_eq(o.template, "code-interpreter");
    ck_assert_uint_eq(o.timeout_s, 0);
    ck_assert_int_eq(o.region, 2);
    sbxu_opts_clear(&o, table);
}
END_TEST

START_TEST(opts_unknown_and_bad_values_have_their_codes)
{
    t_opts o = {0};
    sbx_plugin_kv unknown[] = {{"colour", "blue"}};
    sbx_plugin_dsn d = dsn(1, unknown);
    host_reset();
    ck_assert_int_eq(sbxu_opts_parse(&o, &host, "t", table, &d), SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_str_eq(last_msg, "t: unknown option \"colour\" (known: template, timeout, region)");
    ck_assert_ptr_null(o.template);    /* nothing left to free */

    static const struct { sbx_plugin_kv kv[1]; const char *msg; } bad[] = {
        {{{"template", "Big Box"}}, "t: template=Big Box is not a template name"},
        {{{"template", ""}}, "t: template= is not a template name"},
        {{{"timeout", "5m"}}, "t: timeout=5m is not a number of seconds"},
        {{{"timeout", "-1"}}, "t: timeout=-1 is not a number of seconds"},
        {{{"timeout", "1234567890123"}}, "t: timeout=1234567890123 is not a number of seconds"},
        {{{"region", "mars"}}, "t: region=mars: use region=eu, region=us or region=ap"},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        d = dsn(1, bad[i].kv);
        ck_assert_int_eq(sbxu_opts_parse(&o, &host, "t", table, &d), SBX_E_DSN_BAD_OPTION_VALUE);
        ck_assert_str_eq(last_msg, bad[i].msg);
        ck_assert_ptr_null(o.template);
    }
}
END_TEST

/* A table with a value only its plugin can read: "size" with a unit. */
typedef struct c_opts {
    char *template;
    unsigned long size;
    int calls;
} c_opts;

static const sbxu_opt custom_table[] = {
    {"template", SBXU_OPT_STRING, "base", offsetof(c_opts, template), template_ok, NULL,
     " is not a template name"},
    {"size", SBXU_OPT_CUSTOM, "1k", 0, NULL, NULL, NULL},
    {NULL},
};

static int parse_size(void *out, const sbx_host *h, const char *name, const char *value)
{
    c_opts *o = out;
    char *end;
    o->calls++;
    o->size = strtoul(value, &end, 10);
    if (end == value || strcmp(end, "k") != 0)
        return h->set_error(SBX_E_DSN_BAD_OPTION_VALUE, "c: %s='%s' is not a size", name, value);
    o->size *= 1024;
    return SBX_OK;
}

START_TEST(opts_custom_rows_go_to_the_plugins_parser_in_query_order)
{
    c_opts o = {0};
    sbx_plugin_dsn d = dsn(0, NULL);
    /* The default goes through the parser too. */
    ck_assert_int_eq(sbxu_opts_parse_custom(&o, &host, "c", custom_table, &d, parse_size), SBX_OK);
    ck_assert_uint_eq(o.size, 1024);
    ck_assert_int_eq(o.calls, 1);
    ck_assert_str_eq(o.template, "base");
    sbxu_opts_clear(&o, custom_table);

    sbx_plugin_kv q[] = {{"size", "8k"}, {"template", "code"}};
    d = dsn(2, q);
    memset(&o, 0, sizeof(o));
    ck_assert_int_eq(sbxu_opts_parse_custom(&o, &host, "c", custom_table, &d, parse_size), SBX_OK);
    ck_assert_uint_eq(o.size, 8192);
    ck_assert_str_eq(o.template, "code");
    sbxu_opts_clear(&o, custom_table);

    /* The parser's own code and words; the first bad key in the query wins. */
    sbx_plugin_kv bad[] = {{"size", "8q"}, {"colour", "blue"}};
    d = dsn(2, bad);
    memset(&o, 0, sizeof(o));
    host_reset();
    ck_assert_int_eq(sbxu_opts_parse_custom(&o, &host, "c", custom_table, &d, parse_size),
                     SBX_E_DSN_BAD_OPTION_VALUE);
    ck_assert_str_eq(last_msg, "c: size='8q' is not a size");
    ck_assert_ptr_null(o.template);
    sbx_plugin_kv unknown[] = {{"colour", "blue"}, {"size", "8q"}};
    d = dsn(2, unknown);
    ck_assert_int_eq(sbxu_opts_parse_custom(&o, &host, "c", custom_table, &d, parse_size),
                     SBX_E_DSN_UNKNOWN_OPTION);
    ck_assert_str_eq(last_msg, "c: unknown option \"colour\" (known: template, size)");
    ck_assert_ptr_null(o.template);

    /* A custom row and no parser is the plugin's bug, not the user's. */
    d = dsn(0, NULL);
    ck_assert_int_eq(sbxu_opts_parse(&o, &host, "c", custom_table, &d), SBX_E_INTERNAL);
    ck_assert_ptr_null(o.template);
}
END_TEST

/* --- json ----------------------------------------------------------------- */

static const char answer[] =
    "{\"sandbox\":{\"id\":\"sb-1\",\"ports\":[{\"host\":\"h1\",\"port\":8080}],\"ready\":true}}";

START_TEST(json_getters_name_the_path_that_is_missing)
{
    json_object *root = NULL;
    ck_assert_int_eq(sbxu_json_parse(&root, &host, "t", "API", "creating", answer, strlen(answer)),
                     SBX_OK);
    const char *s = NULL;
    int64_t n = 0;
    bool b = false;
    ck_assert_int_eq(sbxu_json_get_string(&s, &host, "t", "creating", root, "sandbox.id"), SBX_OK);
    ck_assert_str_eq(s, "sb-1");
    ck_assert_int_eq(sbxu_json_get_string(&s, &host, "t", "creating", root, "sandbox.ports[0].host"),
                     SBX_OK);
    ck_assert_str_eq(s, "h1");
    ck_assert_int_eq(sbxu_json_get_int(&n, &host, "t", "creating", root, "sandbox.ports[0].port"),
                     SBX_OK);
    ck_assert_int_eq(n, 8080);
    ck_assert_int_eq(sbxu_json_get_bool(&b, &host, "t", "creating", root, "sandbox.ready"), SBX_OK);
    ck_assert(b);

    host_reset();
    ck_assert_int_eq(sbxu_json_get_string(&s, &host, "t", "creating", root, "sandbox.ports[1].host"),
                     SBX_E_BACKEND_PROTOCOL);
    ck_assert_ptr_null(s);
    ck_assert_str_eq(last_msg, "t: creating: the answer has no string at sandbox.ports[1].host");
    ck_assert_int_eq(sbxu_json_get_int(&n, &host, "t", "creating", root, "sandbox.id"),
                     SBX_E_BACKEND_PROTOCOL);
    ck_assert_str_eq(last_msg, "t: creating: the answer has no int at sandbox.id");
    ck_assert_int_eq(sbxu_json_get_bool(&b, &host, "t", "creating", root, "sandbox.gone"),
                     SBX_E_BACKEND_PROTOCOL);
    json_object *a = NULL;
    ck_assert_int_eq(sbxu_json_get(&a, json_type_array, &host, "t", "x", root, "sandbox.ports"), SBX_OK);
    ck_assert_uint_eq(json_object_array_length(a), 1);
    ck_assert_ptr_null(sbxu_json_at(root, "sandbox.ports[x]"));
    ck_assert_ptr_null(sbxu_json_at(root, "sandbox.id.deeper"));

    /* Lenient lookups for optional members. */
    json_object *sb = sbxu_json_at(root, "sandbox");
    ck_assert_str_eq(sbxu_json_str(sb, "id"), "sb-1");
    ck_assert_ptr_null(sbxu_json_str(sb, "ready"));
    ck_assert_int_eq(sbxu_json_int(sb, "missing", -7), -7);
    ck_assert(sbxu_json_bool(sb, "ready"));
    ck_assert(!sbxu_json_bool(sb, "missing"));
    json_object_put(root);

    host_reset();
    ck_assert_int_eq(sbxu_json_parse(&root, &host, "t", "API", "creating", "<html>", 6),
                     SBX_E_BACKEND_PROTOCOL);
    ck_assert_ptr_null(root);
    ck_assert_str_eq(last_msg, "t: creating: the API's answer is not JSON");
    ck_assert_int_eq(sbxu_json_parse(&root, &host, "t", "API", "creating", "", 0),
                     SBX_E_BACKEND_PROTOCOL);
}
END_TEST

START_TEST(json_bodies_and_error_messages)
{
    json_object *o = json_object_new_object();
    static const char *const argv[] = {"sh", "-c", "echo \"hi\"", NULL};
    ck_assert_int_eq(sbxu_json_add_str(o, "template", "base") |
                         sbxu_json_add(o, "cmd", sbxu_json_str_array(argv)) |
                         sbxu_json_add(o, "timeout", json_object_new_int(30)),
                     0);
    char *text = sbxu_json_text(o);
    ck_assert_str_eq(text, "{\"template\":\"base\",\"cmd\":[\"sh\",\"-c\",\"echo \\\"hi\\\"\"],\"timeout\":30}");
    free(text);
    ck_assert_int_eq(sbxu_json_add(o, "x", NULL), -1);
    json_object_put(o);

    char msg[64];
    const char *body = "{\"message\":\"No such container: abc\"}";
    sbxu_json_message(body, strlen(body), msg, sizeof(msg));
    ck_assert_str_eq(msg, "No such container: abc");
    sbxu_json_message("bad\ngateway \n", 13, msg, sizeof(msg));
    ck_assert_str_eq(msg, "bad gateway");
    sbxu_json_message("plain\ttext\n", 11, msg, sizeof(msg));
    ck_assert_str_eq(msg, "plain text");
    sbxu_json_message(NULL, 0, msg, sizeof(msg));
    ck_assert_str_eq(msg, "");
}
END_TEST

/* --- owner labels and gc -------------------------------------------------- */


/* --- gc verdict ----------------------------------------------------------- */

static unsigned long long fake_start(long pid)
{
    return pid == 100 ? 5000 : 0;    /* only pid 100 runs, started at 5000 */
}

START_TEST(gc_verdicts)
{
    sbxu_owner me = {.host = "box", .boot = "b1", .pid = 1, .start = 1};
    ck_assert_str_eq(sbxu_gc_verdict(&me, "far", "b9", "100", "5000", "1000", "60", 1060, fake_start),
                     "TTL passed");
    ck_assert_ptr_null(sbxu_gc_verdict(&me, "far", "b9", "7", "1", "1000", "60", 1059, fake_start));
    ck_assert_ptr_null(sbxu_gc_verdict(&me, "box", "b1", "100", "5000", "1000", "0", 999999,
                                     fake_start));
    ck_assert_str_eq(sbxu_gc_verdict(&me, "box", "b1", "7", "1", "1000", "60", 1001, fake_start),
                     "owner process gone");
    ck_assert_str_eq(sbxu_gc_verdict(&me, "box", "b1", "100", "4999", "1000", "60", 1001,
                                   fake_start),
                     "owner process gone (pid reused)");
    ck_assert_str_eq(sbxu_gc_verdict(&me, "box", "b0", "100", "5000", "1000", "60", 1001,
                                   fake_start),
                     "owner gone (machine rebooted)");
    ck_assert_ptr_null(sbxu_gc_verdict(&me, "box", "b1", "100", "5000", "1000", "60", 1001,
                                     fake_start));
    ck_assert_ptr_null(sbxu_gc_verdict(&me, "box", "b1", "junk", "x", "y", "z", 1001, fake_start));
    ck_assert_ptr_null(sbxu_gc_verdict(&me, NULL, NULL, NULL, NULL, NULL, NULL, 1001, fake_start));
}
END_TEST

START_TEST(base64_decodes_the_path_stat_header)
{
    size_t n = 0;
    char *s = sbxu_base64_decode("eyJuYW1lIjoiYSJ9", &n);
    ck_assert_str_eq(s, "{\"name\":\"a\"}");
    ck_assert_uint_eq(n, 12);
    free(s);
    s = sbxu_base64_decode("YQ==", &n);
    ck_assert_str_eq(s, "a");
    free(s);
    ck_assert_ptr_null(sbxu_base64_decode("a*b", &n));
}
END_TEST

START_TEST(owner_labels_name_this_process)
{
    sbxu_owner_labels l;
    sbxu_owner_labels_make(&l, 90);
    ck_assert_str_eq(l.kv[0].key, SBXU_LABEL_MARK);
    ck_assert_str_eq(l.kv[0].value, "1");
    char pid[24];
    snprintf(pid, sizeof(pid), "%ld", (long)getpid());
    for (size_t i = 0; i < SBXU_OWNER_LABELS; i++) {
        if (strcmp(l.kv[i].key, SBXU_LABEL_PID) == 0)
            ck_assert_str_eq(l.kv[i].value, pid);
        if (strcmp(l.kv[i].key, SBXU_LABEL_TTL) == 0)
            ck_assert_str_eq(l.kv[i].value, "90");
    }
    ck_assert_uint_gt(sbxu_owner_proc_start(getpid()), 0);
    /* Our own labels say: keep (the owner runs). */
    sbxu_owner self;
    sbxu_owner_self(&self);
    ck_assert_ptr_null(sbxu_gc_verdict(&self, l.kv[1].value, l.kv[2].value, l.kv[3].value,
                                      l.kv[4].value, l.kv[5].value, l.kv[6].value,
                                      (int64_t)time(NULL), sbxu_owner_proc_start));
}
END_TEST

/* Three sandboxes: one expired, one not ours (no id), one alive. */
typedef struct fake_list {
    const char *ids[3];
    const char *created[3];
    int removed[3];
    int fail_remove;
} fake_list;

static const char *f_id(void *ud, size_t i)
{
    return ((fake_list *)ud)->ids[i];
}

static const char *f_label(void *ud, size_t i, const char *key)
{
    fake_list *f = ud;
    if (strcmp(key, SBXU_LABEL_CREATED) == 0)
        return f->created[i];
    if (strcmp(key, SBXU_LABEL_TTL) == 0)
        return "60";
    return NULL;
}

static int f_remove(void *ud, size_t i)
{
    fake_list *f = ud;
    if (f->fail_remove)
        return host.set_error(SBX_E_BACKEND_UNAVAILABLE, "t: gone away");
    f->removed[i]++;
    return SBX_OK;
}

static char reported[256];

static int f_report(void *ud, const char *id, const char *reason)
{
    (void)ud;
    size_t n = strlen(reported);
    snprintf(reported + n, sizeof(reported) - n, "%s: %s\n", id, reason);
    return 0;
}

START_TEST(gc_sweep_removes_only_what_the_verdict_says)
{
    fake_list f = {.ids = {"old", NULL, "new"}, .created = {"1000", "1000", NULL}};
    sbxu_gc_list l = {.count = 3, .id = f_id, .label = f_label, .remove = f_remove, .ud = &f};
    size_t removed = 99;
    reported[0] = '\0';
    ck_assert_int_eq(sbxu_gc_sweep(&l, f_report, NULL, &removed), SBX_OK);
    ck_assert_uint_eq(removed, 1);
    ck_assert_int_eq(f.removed[0], 1);
    ck_assert_int_eq(f.removed[1], 0);
    ck_assert_int_eq(f.removed[2], 0);
    ck_assert_str_eq(reported, "old: TTL passed\n");

    f = (fake_list){.ids = {"old", NULL, "new"}, .created = {"1000", "1000", NULL},
                    .fail_remove = 1};
    ck_assert_int_eq(sbxu_gc_sweep(&l, NULL, NULL, &removed), SBX_E_BACKEND_UNAVAILABLE);
    ck_assert_uint_eq(removed, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lib/");
    TCase *t = tcase_create("pure");
    tcase_add_test(t, base64_encodes_the_rfc4648_vectors);
    tcase_add_test(t, base64_decodes_the_path_stat_header);
    tcase_add_test(t, cred_missing_names_the_variable_never_a_value);
    tcase_add_test(t, opts_defaults_and_values_land_in_the_struct);
    tcase_add_test(t, opts_unknown_and_bad_values_have_their_codes);
    tcase_add_test(t, opts_custom_rows_go_to_the_plugins_parser_in_query_order);
    tcase_add_test(t, json_getters_name_the_path_that_is_missing);
    tcase_add_test(t, json_bodies_and_error_messages);
    tcase_add_test(t, gc_verdicts);
    tcase_add_test(t, owner_labels_name_this_process);
    tcase_add_test(t, gc_sweep_removes_only_what_the_verdict_says);
    suite_add_tcase(s, t);
    return run_suite(s);
}
