/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The seccomp profile the docker backend sends is the engine's default
 * profile it was built from (configure's --with-docker-seccomp-base), with
 * only the socket calls' rules and the compat ABIs changed: every other
 * rule is there, unchanged and in order; socket and socketpair are allowed
 * only with a family test; socketcall is gone.
 */
#include "config.h"

#include <check.h>
#include <string.h>
#include <json-c/json.h>
#include "../../../lib/tests/run-suite.h"

#include "plugins/docker/seccomp-profile.h" /* generated in the build tree */

static json_object *base, *sent;

static void setup(void)
{
    base = json_object_from_file(SBX_DOCKER_SECCOMP_BASE);
    ck_assert_msg(base, "cannot read %s", SBX_DOCKER_SECCOMP_BASE);
    ck_assert_int_eq(strncmp(dk_seccomp_secopt, "seccomp=", 8), 0);
    sent = json_tokener_parse(dk_seccomp_secopt + 8);
    ck_assert_msg(sent, "the profile sent is not JSON");
}

static void teardown(void)
{
    json_object_put(base);
    json_object_put(sent);
}

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    ck_assert_msg(json_object_object_get_ex(o, key, &v), "no \"%s\"", key);
    return v;
}

static int is_socket_call(const char *name)
{
    return !strcmp(name, "socket") || !strcmp(name, "socketpair") || !strcmp(name, "socketcall");
}

/* A rule of the base without the socket calls; NULL if nothing is left. */
static json_object *without_socket_calls(json_object *rule)
{
    json_object *copy = NULL, *names = json_object_new_array();
    json_object_deep_copy(rule, &copy, NULL);
    json_object *orig = get(rule, "names");
    for (size_t i = 0; i < json_object_array_length(orig); i++) {
        const char *n = json_object_get_string(json_object_array_get_idx(orig, i));
        if (!is_socket_call(n))
            json_object_array_add(names, json_object_new_string(n));
    }
    if (json_object_array_length(names) == 0) {
        json_object_put(names);
        json_object_put(copy);
        return NULL;
    }
    json_object_object_add(copy, "names", names);
    return copy;
}

START_TEST(every_other_rule_of_the_default_profile_is_kept_in_order)
{
    ck_assert(json_object_equal(get(base, "defaultAction"), get(sent, "defaultAction")));
    json_object *b = get(base, "syscalls"), *s = get(sent, "syscalls");
    size_t j = 0;
    for (size_t i = 0; i < json_object_array_length(b); i++) {
        json_object *want = without_socket_calls(json_object_array_get_idx(b, i));
        if (!want)
            continue;
        ck_assert_msg(j < json_object_array_length(s), "rule %zu of the base is missing", i);
        ck_assert_msg(json_object_equal(want, json_object_array_get_idx(s, j)),
                      "rule %zu of the base differs: %s", i,
                      json_object_to_json_string(want));
        json_object_put(want);
        j++;
    }
    /* What follows is ours: socket calls alone, each with a family test. */
    for (; j < json_object_array_length(s); j++) {
        json_object *rule = json_object_array_get_idx(s, j), *names = get(rule, "names");
        for (size_t k = 0; k < json_object_array_length(names); k++) {
            const char *n = json_object_get_string(json_object_array_get_idx(names, k));
            ck_assert_msg(!strcmp(n, "socket") || !strcmp(n, "socketpair"),
                          "added rule %zu names %s", j, n);
        }
        json_object *args = get(rule, "args"), *a0 = json_object_array_get_idx(args, 0);
        ck_assert_msg(a0 && json_object_get_int(get(a0, "index")) == 0,
                      "added rule %zu does not test the family", j);
    }
}
END_TEST

START_TEST(no_unconditional_socket_call_and_no_compat_abi)
{
    json_object *s = get(sent, "syscalls");
    for (size_t i = 0; i < json_object_array_length(s); i++) {
        json_object *rule = json_object_array_get_idx(s, i), *names = get(rule, "names"), *args;
        int has_args = json_object_object_get_ex(rule, "args", &args) && args &&
                       json_object_array_length(args) > 0;
        for (size_t k = 0; k < json_object_array_length(names); k++) {
            const char *n = json_object_get_string(json_object_array_get_idx(names, k));
            ck_assert_msg(strcmp(n, "socketcall") != 0, "socketcall is still in rule %zu", i);
            if (is_socket_call(n))
                ck_assert_msg(has_args, "rule %zu allows %s of every family", i, n);
        }
    }
    json_object *map = get(sent, "archMap"), *bmap = get(base, "archMap");
    ck_assert_uint_eq(json_object_array_length(map), json_object_array_length(bmap));
    for (size_t i = 0; i < json_object_array_length(map); i++) {
        json_object *e = json_object_array_get_idx(map, i);
        ck_assert(json_object_equal(get(e, "architecture"),
                                    get(json_object_array_get_idx(bmap, i), "architecture")));
        ck_assert_uint_eq(json_object_array_length(get(e, "subArchitectures")), 0);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("docker-seccomp");
    TCase *t = tcase_create("profile");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, every_other_rule_of_the_default_profile_is_kept_in_order);
    tcase_add_test(t, no_unconditional_socket_call_and_no_compat_abi);
    suite_add_tcase(s, t);
    return run_suite(s);
}
