/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_contract_report.c - the suite's reports: JUnit XML escapes what a
 * backend's message may hold, counts match, skips and failures are told
 * apart; the JSON document parses back with the same outcomes; capability
 * lists name every bit.
 */
#include "config.h"

#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../runner.h"

static void noop_case(sbxc_ctx *ctx)
{
}

static const sbxc_case case_a = { "SBX-TEST-001", "a <case> & \"friends\"", SBXC_MUST,
                                   SBX_CAP_EXEC, 0, 10, noop_case };
static const sbxc_case case_b = { "SBX-TEST-002", "skipped one", SBXC_MUST, SBX_CAP_FILES, 0, 10,
                                   noop_case };
static const sbxc_case case_c = { "SBX-TEST-003", "passing one", SBXC_MUST, 0, 0, 10, noop_case };

static sbxc_backend backend(void)
{
    sbxc_backend b = { .declared = SBX_CAP_EXEC | SBX_CAP_STREAM,
                       .caps = SBX_CAP_EXEC, .tier = SBX_TIER_NONE };
    snprintf(b.name, sizeof b.name, "fake");
    snprintf(b.version, sizeof b.version, "1.2'3");
    return b;
}

static void outcomes(sbxc_outcome o[3])
{
    memset(o, 0, 3 * sizeof *o);
    o[0] = (sbxc_outcome){ .c = &case_a, .status = SBXC_FAIL, .seconds = 1.5 };
    snprintf(o[0].reason, sizeof o[0].reason, "got <%s> & 'quotes' \"too\"", "x\x01y");
    o[1] = (sbxc_outcome){ .c = &case_b, .status = SBXC_SKIP, .seconds = 0.25 };
    snprintf(o[1].reason, sizeof o[1].reason, "capability files not declared");
    o[2] = (sbxc_outcome){ .c = &case_c, .status = SBXC_PASS, .seconds = 0.125 };
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

START_TEST(junit_escapes_and_counts)
{
    char path[] = "/tmp/sbxc-junit-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    sbxc_backend b = backend();
    sbxc_outcome o[3];
    outcomes(o);
    ck_assert_int_eq(sbxc_write_junit(path, "fake://?x=<1>&y=2", &b, o, 3), 0);
    const char *xml = slurp(path);
    unlink(path);
    ck_assert_ptr_nonnull(strstr(xml, "tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""));
    ck_assert_ptr_nonnull(strstr(xml, "value=\"fake://?x=&lt;1&gt;&amp;y=2\""));
    ck_assert_ptr_nonnull(strstr(xml, "value=\"1.2&apos;3\""));
    ck_assert_ptr_nonnull(
        strstr(xml, "name=\"SBX-TEST-001 a &lt;case&gt; &amp; &quot;friends&quot;\" time=\"1.500\""));
    /* The control byte is dropped: XML 1.0 cannot carry it. */
    ck_assert_ptr_nonnull(strstr(
        xml, "<failure message=\"got &lt;xy&gt; &amp; &apos;quotes&apos; &quot;too&quot;\"/>"));
    ck_assert_ptr_nonnull(strstr(xml, "<skipped message=\"capability files not declared\"/>"));
    ck_assert_ptr_nonnull(strstr(xml, "name=\"SBX-TEST-003 passing one\" time=\"0.125\"/>"));
    ck_assert_ptr_null(strstr(xml, "\x01"));
}
END_TEST

START_TEST(junit_unwritable_path_fails)
{
    sbxc_backend b = backend();
    sbxc_outcome o[3];
    outcomes(o);
    ck_assert_int_eq(sbxc_write_junit("/nonexistent-dir/x.xml", "fake://", &b, o, 3), -1);
}
END_TEST

START_TEST(json_round_trips)
{
    char path[] = "/tmp/sbxc-json-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    sbxc_backend b = backend();
    sbxc_outcome o[3];
    outcomes(o);
    ck_assert_int_eq(sbxc_print_json(f, "fake://", &b, o, 3), 0);
    fclose(f);
    json_object *root = json_object_from_file(path);
    unlink(path);
    ck_assert_ptr_nonnull(root);
    json_object *v, *cases, *sum;
    ck_assert(json_object_object_get_ex(root, "plugin", &v));
    ck_assert_str_eq(json_object_get_string(v), "fake");
    ck_assert(json_object_object_get_ex(root, "declared_caps", &v));
    ck_assert_int_eq((int)json_object_array_length(v), 2);
    ck_assert(json_object_object_get_ex(root, "cases", &cases));
    ck_assert_int_eq((int)json_object_array_length(cases), 3);
    json_object *c0 = json_object_array_get_idx(cases, 0);
    ck_assert(json_object_object_get_ex(c0, "status", &v));
    ck_assert_str_eq(json_object_get_string(v), "fail");
    ck_assert(json_object_object_get_ex(c0, "reason", &v));
    ck_assert_str_eq(json_object_get_string(v), "got <x\x01y> & 'quotes' \"too\"");
    ck_assert(json_object_object_get_ex(c0, "needs", &v));
    ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(v, 0)), "exec");
    ck_assert(json_object_object_get_ex(root, "summary", &sum));
    ck_assert(json_object_object_get_ex(sum, "passed", &v));
    ck_assert_int_eq(json_object_get_int(v), 1);
    ck_assert(json_object_object_get_ex(sum, "failed", &v));
    ck_assert_int_eq(json_object_get_int(v), 1);
    ck_assert(json_object_object_get_ex(sum, "skipped", &v));
    ck_assert_int_eq(json_object_get_int(v), 1);
    json_object_put(root);
}
END_TEST

START_TEST(caps_text_names_every_bit)
{
    char buf[512];
    sbxc_caps_text(0, buf, sizeof buf);
    ck_assert_str_eq(buf, "-");
    sbxc_caps_text(SBX_CAP_EXEC | SBX_CAP_NET_NONE | SBX_CAP_OOM_REPORT, buf, sizeof buf);
    ck_assert_str_eq(buf, "exec,net-none,oom-report");
    sbxc_caps_text(UINT64_C(1) << 40, buf, sizeof buf);
    ck_assert_str_eq(buf, "bit40");
    ck_assert_str_eq(sbxc_status_word(SBXC_PASS), "PASS");
    ck_assert_str_eq(sbxc_status_word(SBXC_SKIP), "SKIP");
    ck_assert_str_eq(sbxc_status_word(SBXC_FAIL), "FAIL");
}
END_TEST

START_TEST(case_table_ids_are_unique_and_complete)
{
    size_t n = 0;
    for (const sbxc_case *c = sbxc_cases; c->id; c++, n++) {
        ck_assert_ptr_nonnull(c->name);
        ck_assert_ptr_nonnull(c->fn);
        ck_assert_int_gt((int)c->limit_s, 0);
        ck_assert_int_eq(strncmp(c->id, "SBX-", 4), 0);
        for (const sbxc_case *d = c + 1; d->id; d++)
            ck_assert_str_ne(c->id, d->id);
    }
    ck_assert_int_ge((int)n, 30);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("contract report");
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, junit_escapes_and_counts);
    tcase_add_test(tc, junit_unwritable_path_fails);
    tcase_add_test(tc, json_round_trips);
    tcase_add_test(tc, caps_text_names_every_bit);
    tcase_add_test(tc, case_table_ids_are_unique_and_complete);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
