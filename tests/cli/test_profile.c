/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_profile.c - the YAML profiles reader: what it accepts, and for each
 * kind of mistake the exact code and the file:line:column it names.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "../../src/cli/profile.h"

static struct profile_set set;
static struct profile_error err;

static void setup(void)
{
    memset(&set, 0, sizeof(set));
}

static void teardown(void)
{
    profile_set_free(&set);
}

static int parse(const char *text)
{
    return profile_set_parse(&set, "p.yaml", text, strlen(text), &err);
}

/* text is refused with code, and the message starts with "p.yaml:where: " and holds has. */
static void refused(const char *text, int code, const char *where, const char *has)
{
    char prefix[64];

    ck_assert_int_eq(parse(text), code);
    ck_assert_int_eq(err.code, code);
    snprintf(prefix, sizeof(prefix), "p.yaml:%s: ", where);
    ck_assert_msg(strncmp(err.message, prefix, strlen(prefix)) == 0, "'%s' does not start '%s'",
                  err.message, prefix);
    ck_assert_msg(strstr(err.message, has), "'%s' lacks '%s'", err.message, has);
    ck_assert_uint_eq(set.n, 0);
}

static const char *value_of(const struct profile *p, enum profile_key key, size_t nth)
{
    for (size_t i = 0; i < p->n_items; i++) {
        if (p->items[i].key == key && nth-- == 0)
            return p->items[i].value;
    }
    return NULL;
}

START_TEST(every_setting_is_read_with_its_place)
{
    const struct profile *p;

    ck_assert_int_eq(parse("# a comment\n"
                           "python:\n"
                           "  dsn: \"docker:///var/run/docker.sock?image=python:3.12-slim\"\n"
                           "  network: allowlist\n"
                           "  allow-hosts: [pypi.org, files.pythonhosted.org:443]\n"
                           "  memory: 512M\n"
                           "  cpus: 1.5\n"
                           "  pids: 256\n"
                           "  disk: 1G\n"
                           "  default-limits: false\n"
                           "  min-tier: container\n"
                           "  timeout: 2m\n"
                           "  output-cap: 1M\n"
                           "  env:\n"
                           "    LANG: C.UTF-8\n"
                           "    EMPTY: \"\"\n"
                           "  env-pass:\n"
                           "    - TERM\n"
                           "  ttl: 1h\n"
                           "quick: {timeout: 5}\n"),
                     SBX_OK);
    ck_assert_uint_eq(set.n, 2);
    ck_assert_uint_eq(set.n_files, 1);
    p = profile_set_find(&set, "python");
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(p->file, "p.yaml");
    ck_assert_int_eq(p->line, 2);
    ck_assert_int_eq(p->column, 1);
    ck_assert_str_eq(value_of(p, PROFILE_DSN, 0), "docker:///var/run/docker.sock?image=python:3.12-slim");
    ck_assert_str_eq(value_of(p, PROFILE_NETWORK, 0), "allowlist");
    ck_assert_str_eq(value_of(p, PROFILE_ALLOW_HOSTS, 0), "pypi.org");
    ck_assert_str_eq(value_of(p, PROFILE_ALLOW_HOSTS, 1), "files.pythonhosted.org:443");
    ck_assert_str_eq(value_of(p, PROFILE_MEMORY, 0), "512M");
    ck_assert_str_eq(value_of(p, PROFILE_CPUS, 0), "1.5");
    ck_assert_str_eq(value_of(p, PROFILE_PIDS, 0), "256");
    ck_assert_str_eq(value_of(p, PROFILE_DISK, 0), "1G");
    ck_assert_str_eq(value_of(p, PROFILE_DEFAULT_LIMITS, 0), "false");
    ck_assert_str_eq(value_of(p, PROFILE_MIN_TIER, 0), "container");
    ck_assert_str_eq(value_of(p, PROFILE_TIMEOUT, 0), "2m");
    ck_assert_str_eq(value_of(p, PROFILE_OUTPUT_CAP, 0), "1M");
    ck_assert_str_eq(value_of(p, PROFILE_ENV, 0), "LANG=C.UTF-8");
    ck_assert_str_eq(value_of(p, PROFILE_ENV, 1), "EMPTY=");
    ck_assert_str_eq(value_of(p, PROFILE_ENV_PASS, 0), "TERM");
    ck_assert_str_eq(value_of(p, PROFILE_TTL, 0), "1h");
    ck_assert_uint_eq(p->ttl_ms, 3600000);
    ck_assert_int_eq(p->items[0].line, 3);
    ck_assert_int_eq(p->items[0].column, 8);
    p = profile_set_find(&set, "quick");
    ck_assert_ptr_nonnull(p);
    ck_assert_str_eq(value_of(p, PROFILE_TIMEOUT, 0), "5");
    ck_assert_ptr_null(profile_set_find(&set, "nope"));
}
END_TEST

START_TEST(an_empty_file_holds_no_profiles)
{
    ck_assert_int_eq(parse(""), SBX_OK);
    ck_assert_int_eq(parse("# nothing yet\n"), SBX_OK);
    ck_assert_int_eq(parse("---\n~\n"), SBX_OK);
    ck_assert_uint_eq(set.n, 0);
    ck_assert_uint_eq(set.n_files, 3);
}
END_TEST

START_TEST(an_unknown_key_is_refused_with_a_suggestion)
{
    refused("p:\n  dsn: fake://\n  netwrok: open\n", SBX_E_PROFILE_UNKNOWN_KEY, "3:3",
            "unknown key 'netwrok' (did you mean 'network'?)");
    refused("p:\n  --memory: 1G\n", SBX_E_PROFILE_UNKNOWN_KEY, "2:3", "did you mean 'memory'");
    refused("p:\n  colour: blue\n", SBX_E_PROFILE_UNKNOWN_KEY, "2:3", "unknown key 'colour'");
    refused("p:\n  <<: {memory: 1G}\n", SBX_E_PROFILE_UNKNOWN_KEY, "2:3", "'<<'");
}
END_TEST

START_TEST(a_wrong_type_is_refused)
{
    refused("p:\n  allow-hosts: pypi.org\n", SBX_E_PROFILE_BAD_TYPE, "2:16", "takes a list");
    refused("p:\n  memory: [1G]\n", SBX_E_PROFILE_BAD_TYPE, "2:11", "not a list");
    refused("p:\n  memory:\n  pids: 3\n", SBX_E_PROFILE_BAD_TYPE, "2:10", "'memory' has no value");
    refused("p:\n  memory: ~\n", SBX_E_PROFILE_BAD_TYPE, "2:11", "has no value");
    refused("p:\n  default-limits: \"false\"\n", SBX_E_PROFILE_BAD_TYPE, "2:19", "true or false");
    refused("p:\n  env: [A=b]\n", SBX_E_PROFILE_BAD_TYPE, "2:8", "mapping of NAME: VALUE");
    refused("p:\n  env: {A: [b]}\n", SBX_E_PROFILE_BAD_TYPE, "2:12", "'env' value of 'A'");
    refused("p:\n  allow-hosts: [[a]]\n", SBX_E_PROFILE_BAD_TYPE, "2:17", "not a list");
    refused("p: docker://\n", SBX_E_PROFILE_BAD_TYPE, "1:4", "must be a mapping of settings");
    refused("- p\n", SBX_E_PROFILE_BAD_TYPE, "1:1", "the file must be a mapping");
    refused("? [a]\n: {}\n", SBX_E_PROFILE_BAD_TYPE, "1:3", "a profile name must be a single value");
}
END_TEST

START_TEST(a_duplicate_key_is_refused)
{
    refused("a: {}\nb: {}\na: {}\n", SBX_E_PROFILE_DUPLICATE_KEY, "3:1",
            "profile 'a' is defined twice (first at line 1)");
    refused("p:\n  memory: 1G\n  pids: 2\n  memory: 2G\n", SBX_E_PROFILE_DUPLICATE_KEY, "4:3",
            "'memory' is given twice in profile 'p' (first at line 2)");
    refused("p:\n  env:\n    A: x\n    A: y\n", SBX_E_PROFILE_DUPLICATE_KEY, "4:5",
            "'env' sets 'A' twice (first at line 3)");
}
END_TEST

START_TEST(a_bad_value_is_refused)
{
    refused("p:\n  memory: 512MB\n", SBX_E_PROFILE_BAD_VALUE, "2:11", "'512MB' is not a size");
    refused("p:\n  timeout: 10 sec\n", SBX_E_PROFILE_BAD_VALUE, "2:12", "not a duration");
    refused("p:\n  ttl: 0\n", SBX_E_PROFILE_BAD_VALUE, "2:8", "a duration above zero");
    refused("p:\n  cpus: lots\n", SBX_E_PROFILE_BAD_VALUE, "2:9", "a number of CPUs");
    refused("p:\n  pids: 1.5\n", SBX_E_PROFILE_BAD_VALUE, "2:9", "a number of processes");
    refused("p:\n  network: wide\n", SBX_E_PROFILE_BAD_VALUE, "2:12", "none, open or allowlist");
    refused("p:\n  min-tier: steel\n", SBX_E_PROFILE_BAD_VALUE, "2:13", "a tier");
    refused("p:\n  dsn: nothing\n", SBX_E_PROFILE_BAD_VALUE, "2:8", "a DSN");
    refused("p:\n  env-pass: [A=b]\n", SBX_E_PROFILE_BAD_VALUE, "2:14", "a variable name");
    refused("p:\n  default-limits: no\n", SBX_E_PROFILE_BAD_VALUE, "2:19", "true or false");
    refused("p:\n  network: none\n  allow-hosts: [a.example]\n", SBX_E_PROFILE_BAD_VALUE, "3:17",
            "allow-hosts needs network: allowlist, not none");
    refused("p:\n  network: allowlist\n", SBX_E_PROFILE_BAD_VALUE, "2:12",
            "needs at least one allow-hosts");
    refused("my profile: {}\n", SBX_E_PROFILE_BAD_VALUE, "1:1", "is not a profile name");
}
END_TEST

START_TEST(yaml_errors_aliases_tags_and_documents_are_refused)
{
    refused("p:\n  memory: \"1G\n", SBX_E_PROFILE_SYNTAX, "3:1", "not valid YAML");
    refused("p:\n\tmemory: 1G\n", SBX_E_PROFILE_SYNTAX, "2:1", "not valid YAML");
    refused("p:\n  memory: &m 1G\nq:\n  memory: *m\n", SBX_E_PROFILE_SYNTAX, "4:11",
            "aliases");
    refused("p:\n  memory: !!str 1G\n", SBX_E_PROFILE_SYNTAX, "2:11", "tags");
    refused("p: {}\n---\nq: {}\n", SBX_E_PROFILE_SYNTAX, "2:1", "one YAML document");
}
END_TEST

START_TEST(a_later_file_replaces_a_profile_and_a_failed_one_changes_nothing)
{
    const char *second = "a:\n  pids: 9\nc: {}\n";

    ck_assert_int_eq(parse("a:\n  pids: 1\nb: {}\n"), SBX_OK);
    ck_assert_int_eq(profile_set_parse(&set, "later.yaml", second, strlen(second), &err), SBX_OK);
    ck_assert_uint_eq(set.n, 3);
    ck_assert_str_eq(profile_set_find(&set, "a")->file, "later.yaml");
    ck_assert_str_eq(value_of(profile_set_find(&set, "a"), PROFILE_PIDS, 0), "9");
    ck_assert_uint_eq(profile_set_find(&set, "a")->n_items, 1);
    ck_assert_str_eq(profile_set_find(&set, "b")->file, "p.yaml");
    ck_assert_int_eq(parse("a:\n  pids: 2\nd:\n  pids: x\n"), SBX_E_PROFILE_BAD_VALUE);
    ck_assert_uint_eq(set.n, 3);
    ck_assert_uint_eq(set.n_files, 2);
    ck_assert_str_eq(value_of(profile_set_find(&set, "a"), PROFILE_PIDS, 0), "9");
    ck_assert_ptr_null(profile_set_find(&set, "d"));
}
END_TEST

START_TEST(files_missing_unreadable_and_the_search_path)
{
    char dir[] = "/tmp/sbx-profile-XXXXXX", a[64], b[64], path[160];
    FILE *f;

    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(a, sizeof(a), "%s/a.yaml", dir);
    snprintf(b, sizeof(b), "%s/b.yaml", dir);
    ck_assert_int_eq(profile_set_load(&set, a, 0, &err), SBX_OK);
    ck_assert_uint_eq(set.n_files, 0);
    ck_assert_int_eq(profile_set_load(&set, a, 1, &err), SBX_E_PROFILE_UNREADABLE);
    ck_assert_int_eq(profile_set_load(&set, dir, 0, &err), SBX_E_PROFILE_UNREADABLE);
    ck_assert_ptr_nonnull(strstr(err.message, "not a regular file"));
    f = fopen(a, "w");
    fputs("x:\n  pids: 1\n", f);
    fclose(f);
    f = fopen(b, "w");
    fputs("x:\n  pids: 2\n", f);
    fclose(f);
    snprintf(path, sizeof(path), "%s:%s/none.yaml:%s", a, dir, b);
    setenv("SANDBOXIO_PROFILE_PATH", path, 1);
    ck_assert_int_eq(profile_set_load_default(&set, &err), SBX_OK);
    ck_assert_uint_eq(set.n_files, 2);
    ck_assert_str_eq(profile_set_find(&set, "x")->file, b);
    ck_assert_str_eq(value_of(profile_set_find(&set, "x"), PROFILE_PIDS, 0), "2");
    unsetenv("SANDBOXIO_PROFILE_PATH");
    unlink(a);
    unlink(b);
    rmdir(dir);
}
END_TEST

static Suite *profile_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc = tcase_create("reader");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, every_setting_is_read_with_its_place);
    tcase_add_test(tc, an_empty_file_holds_no_profiles);
    tcase_add_test(tc, an_unknown_key_is_refused_with_a_suggestion);
    tcase_add_test(tc, a_wrong_type_is_refused);
    tcase_add_test(tc, a_duplicate_key_is_refused);
    tcase_add_test(tc, a_bad_value_is_refused);
    tcase_add_test(tc, yaml_errors_aliases_tags_and_documents_are_refused);
    tcase_add_test(tc, a_later_file_replaces_a_profile_and_a_failed_one_changes_nothing);
    tcase_add_test(tc, files_missing_unreadable_and_the_search_path);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(profile_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
