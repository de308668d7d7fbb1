/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loader refuses every broken plugin with its own code and a message
 * naming the file, the host process keeps running, and a good plugin (the
 * fake) still opens afterwards through the same client.
 *
 * The broken modules are built by tests/loader.mk (from tests/plugins/broken.c), one per directory; the
 * cases that need no module (a missing file, a text file) are set up here in
 * a temporary directory.
 */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>
#include <sandboxio/plugin.h>

struct broken_case {
    const char *scheme;   /* also the name of its build directory */
    int code;
    const char *detail;   /* must also appear in the message, or NULL */
    bool module;          /* built by tests/loader.mk (from tests/plugins/broken.c) (else set up here) */
};

static const struct broken_case cases[] = {
    {"missing", SBX_E_PLUGIN_NOT_FOUND, NULL, false},
    {"garbage", SBX_E_PLUGIN_NOT_LOADABLE, NULL, false},
    {"noentry", SBX_E_PLUGIN_NO_ENTRY, "sandboxio_plugin_v1", true},
    {"abiv2", SBX_E_PLUGIN_ABI_MAJOR, NULL, true},
    {"abimajor", SBX_E_PLUGIN_ABI_MAJOR, NULL, true},
    {"nulldesc", SBX_E_PLUGIN_NULL_DESCRIPTOR, NULL, true},
    {"shortdesc", SBX_E_PLUGIN_SHORT_DESCRIPTOR, NULL, true},
    {"initfail", SBX_E_PLUGIN_INIT_FAILED, "broken-init-marker", true},
    {"abiminor", SBX_E_PLUGIN_ABI_MINOR, NULL, true},
    {"misnamed", SBX_E_PLUGIN_NAME_MISMATCH, "someone-else", true},
    {"noopen", SBX_E_PLUGIN_INCOMPLETE, "open", true},
    {"nodestroy", SBX_E_PLUGIN_INCOMPLETE, "destroy", true},
    {"badtier", SBX_E_PLUGIN_BAD_DESCRIPTOR, NULL, true},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static char scratch[256]; /* a private temporary directory per test */

static const char *builddir(void)
{
    const char *b = getenv("SBX_TEST_BUILDDIR");

    ck_assert_msg(b && *b, "SBX_TEST_BUILDDIR is not set (run through make check)");
    return b;
}

static void setup(void)
{
    snprintf(scratch, sizeof(scratch), "%s/sbx-loader-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    ck_assert_msg(mkdtemp(scratch) != NULL, "mkdtemp: %s", strerror(errno));
}

static void teardown(void)
{
    char cmd[300];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
    ck_assert_int_eq(system(cmd), 0);
}

/* The directory to search for c, made here when no module is built for it. */
static char *case_dir(const struct broken_case *c)
{
    char *dir = NULL;

    if (c->module) {
        ck_assert_int_ge(asprintf(&dir, "%s/tests/plugins/%s/.libs", builddir(), c->scheme), 0);
        return dir;
    }
    ck_assert_int_ge(asprintf(&dir, "%s/%s", scratch, c->scheme), 0);
    ck_assert_msg(mkdir(dir, 0700) == 0, "mkdir %s: %s", dir, strerror(errno));
    if (strcmp(c->scheme, "garbage") == 0) {
        char *path = NULL;
        ck_assert_int_ge(asprintf(&path, "%s/sandboxio-garbage.so", dir), 0);
        FILE *f = fopen(path, "w");
        ck_assert_ptr_nonnull(f);
        fputs("this is not a shared object\n", f);
        ck_assert_int_eq(fclose(f), 0);
        free(path);
    }
    return dir;
}

static char *fake_dir(void)
{
    char *dir = NULL;

    ck_assert_int_ge(asprintf(&dir, "%s/plugins/fake/.libs", builddir()), 0);
    return dir;
}

/* The fake refuses the default "network none" (it cannot enforce it). */
static void assert_fake_opens(sbx_client *client)
{
    sbx_policy *policy = NULL;
    sbx_sandbox *sb = NULL;

    ck_assert_int_eq(sbx_policy_new(&policy), SBX_OK);
    ck_assert_int_eq(sbx_policy_set_network(policy, SBX_NET_OPEN), SBX_OK);
    int rc = sbx_sandbox_open(&sb, client, "fake://", policy);
    ck_assert_msg(rc == SBX_OK, "fake:// after a broken plugin: %d %s", rc,
                  sbx_error_last() ? sbx_error_last()->message : "");
    ck_assert_str_eq(sbx_sandbox_backend(sb), "fake");
    ck_assert_int_eq(sbx_sandbox_destroy(sb), SBX_OK);
    sbx_sandbox_free(sb);
    sbx_policy_free(policy);
}

static void assert_refused(sbx_client *client, const struct broken_case *c)
{
    char dsn[64], file[64];
    sbx_sandbox *sb = (sbx_sandbox *)0x1;

    snprintf(dsn, sizeof(dsn), "%s://", c->scheme);
    snprintf(file, sizeof(file), "sandboxio-%s.so", c->scheme);
    sbx_error_clear();
    int rc = sbx_sandbox_open(&sb, client, dsn, NULL);
    const sbx_error *e = sbx_error_last();
    ck_assert_msg(rc == c->code, "%s: code %d, expected %d (%s)", c->scheme, rc, c->code,
                  e ? e->message : "no message");
    ck_assert_ptr_null(sb);
    ck_assert_ptr_nonnull(e);
    ck_assert_int_eq(e->code, c->code);
    ck_assert_msg(strstr(e->message, file), "%s: message does not name %s: %s", c->scheme,
                  file, e->message);
    if (c->detail)
        ck_assert_msg(strstr(e->message, c->detail), "%s: message lacks \"%s\": %s", c->scheme,
                      c->detail, e->message);
}

START_TEST(broken_plugin_is_refused_and_fake_still_opens)
{
    const struct broken_case *c = &cases[_i];
    char *dir = case_dir(c), *fake = fake_dir();
    sbx_client *client = NULL;

    ck_assert_int_eq(setenv("SANDBOXIO_PLUGIN_PATH", dir, 1), 0);
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    ck_assert_int_eq(sbx_client_add_plugin_dir(client, fake), SBX_OK);
    assert_refused(client, c);
    /* A second attempt fails the same way: nothing half-loaded was kept. */
    assert_refused(client, c);
    assert_fake_opens(client);
    sbx_client_free(client);
    free(dir);
    free(fake);
}
END_TEST

START_TEST(every_broken_plugin_in_turn_through_one_client)
{
    sbx_client *client = NULL;
    char *fake = fake_dir();

    ck_assert_int_eq(setenv("SANDBOXIO_PLUGIN_PATH", fake, 1), 0);
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    for (size_t i = 0; i < NCASES; i++) {
        char *dir = case_dir(&cases[i]);
        ck_assert_int_eq(sbx_client_add_plugin_dir(client, dir), SBX_OK);
        free(dir);
    }
    for (size_t i = 0; i < NCASES; i++)
        assert_refused(client, &cases[i]);
    assert_fake_opens(client);
    sbx_client_free(client);
    free(fake);
}
END_TEST

/* A scheme that could name a path is refused by the DSN parser, before any lookup. */
START_TEST(path_like_scheme_is_refused_by_the_dsn_parser)
{
    static const struct {
        const char *dsn;
        long position;
    } bad[] = {{"../x://", 0}, {"a/b://", 1}, {"x/..://", 1}};
    sbx_client *client = NULL;
    char *fake = fake_dir();

    ck_assert_int_eq(setenv("SANDBOXIO_PLUGIN_PATH", fake, 1), 0);
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        sbx_sandbox *sb = NULL;
        ck_assert_int_eq(sbx_sandbox_open(&sb, client, bad[i].dsn, NULL), SBX_E_DSN_BAD_SCHEME);
        ck_assert_int_eq(sbx_error_last()->position, bad[i].position);
        ck_assert_ptr_null(sb);
    }
    assert_fake_opens(client);
    sbx_client_free(client);
    free(fake);
}
END_TEST

static void link_into(const char *dir, const char *target, const char *scheme)
{
    char *link = NULL;

    ck_assert_int_ge(asprintf(&link, "%s/sandboxio-%s.so", dir, scheme), 0);
    ck_assert_msg(symlink(target, link) == 0, "symlink %s: %s", link, strerror(errno));
    free(link);
}

START_TEST(listing_a_directory_of_broken_plugins_reports_each)
{
    char *all = NULL, *target = NULL;
    sbx_client *client = NULL;
    sbx_plugin_list *list = NULL;

    ck_assert_int_ge(asprintf(&all, "%s/all", scratch), 0);
    ck_assert_int_eq(mkdir(all, 0700), 0);
    for (size_t i = 0; i < NCASES; i++) {
        char *dir = case_dir(&cases[i]);
        if (strcmp(cases[i].scheme, "missing") != 0) {
            ck_assert_int_ge(asprintf(&target, "%s/sandboxio-%s.so", dir, cases[i].scheme), 0);
            link_into(all, target, cases[i].scheme);
            free(target);
        }
        free(dir);
    }
    ck_assert_int_ge(asprintf(&target, "%s/plugins/fake/.libs/sandboxio-fake.so", builddir()), 0);
    link_into(all, target, "fake");
    free(target);

    ck_assert_int_eq(setenv("SANDBOXIO_PLUGIN_PATH", all, 1), 0);
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    ck_assert_int_eq(sbx_client_plugins(client, &list), SBX_OK);
    size_t found = 0;
    for (size_t k = 0; k < sbx_plugin_list_count(list); k++) {
        const sbx_plugin_info *info = sbx_plugin_list_get(list, k);
        int expected = -1;
        if (strcmp(info->scheme, "fake") == 0)
            expected = SBX_OK;
        for (size_t i = 0; i < NCASES; i++)
            if (strcmp(info->scheme, cases[i].scheme) == 0)
                expected = cases[i].code;
        if (expected < 0)
            continue; /* something installed on this machine: not ours to judge */
        found++;
        ck_assert_msg(info->load_code == expected, "%s listed with %d, expected %d",
                      info->scheme, info->load_code, expected);
        if (expected == SBX_OK)
            ck_assert_ptr_null(info->load_message);
        else
            ck_assert_msg(info->load_message && strstr(info->load_message, info->scheme),
                          "%s: message does not name its file", info->scheme);
    }
    /* Every case but "missing" (it has no file) plus the fake. */
    ck_assert_uint_eq(found, NCASES);
    sbx_plugin_list_free(list);
    assert_fake_opens(client);
    sbx_client_free(client);
    free(all);
}
END_TEST

/* sbx_client_free() runs the plugin's fini() but leaves the module loaded. */
START_TEST(freed_client_leaves_its_plugin_resident)
{
    char *dir = fake_dir(), *so = NULL;
    sbx_client *client = NULL;

    ck_assert_int_ge(asprintf(&so, "%s/sandboxio-fake.so", dir), 0);
    ck_assert_int_eq(setenv("SANDBOXIO_PLUGIN_PATH", dir, 1), 0);
    const char *fork_mode = getenv("CK_FORK");
    if (!fork_mode || strcmp(fork_mode, "no") != 0) /* a fresh child: nothing loaded it yet */
        ck_assert_msg(dlopen(so, RTLD_NOW | RTLD_NOLOAD) == NULL, "%s loaded before any client", so);
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    assert_fake_opens(client);
    sbx_client_free(client);
    void *h = dlopen(so, RTLD_NOW | RTLD_NOLOAD);
    ck_assert_msg(h != NULL, "%s was unloaded with its client", so);
    dlclose(h); /* only the reference NOLOAD took */
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    assert_fake_opens(client);
    sbx_client_free(client);
    free(so);
    free(dir);
}
END_TEST

/* The one-entry listing of scheme, from the build directory of its module. */
static sbx_plugin_list *info_of(const char *scheme)
{
    sbx_client *client = NULL;
    char *dir = NULL;
    sbx_plugin_list *list = NULL;

    ck_assert_int_ge(asprintf(&dir, "%s/tests/plugins/%s/.libs", builddir(), scheme), 0);
    ck_assert_int_eq(sbx_client_new(&client), SBX_OK);
    ck_assert_int_eq(sbx_client_add_plugin_dir(client, dir), SBX_OK);
    int rc = sbx_client_plugin_info(client, scheme, &list);
    ck_assert_msg(rc == SBX_OK, "%s: %d %s", scheme, rc,
                  sbx_error_last() ? sbx_error_last()->message : "");
    free(dir);
    /* The list outlives the client: its strings are copies, and the names
     * are the resident module's static data. */
    sbx_client_free(client);
    return list;
}

/*
 * credential_env (ABI 1.4) reaches the listing; a plugin built before it
 * still loads and names none, though the bytes past its struct_size hold
 * names (the loader reads a member only where struct_size covers it).
 */
START_TEST(credential_names_are_read_only_where_the_descriptor_has_them)
{
    sbx_plugin_list *list = info_of("namescreds");
    const sbx_plugin_info *info = sbx_plugin_list_get(list, 0);
    ck_assert_uint_eq(info->abi_minor, SBX_PLUGIN_ABI_MINOR);
    ck_assert_ptr_nonnull(info->credential_env);
    ck_assert_str_eq(info->credential_env[0], "SBX_TEST_CRED_A");
    ck_assert_str_eq(info->credential_env[1], "SBX_TEST_CRED_B");
    ck_assert_ptr_null(info->credential_env[2]);
    sbx_plugin_list_free(list);

    list = info_of("oldminor");
    info = sbx_plugin_list_get(list, 0);
    ck_assert_uint_eq(info->abi_minor, 3);
    ck_assert_ptr_null(info->credential_env);
    sbx_plugin_list_free(list);
}
END_TEST

static Suite *loader_suite(void)
{
    Suite *s = suite_create("loader-broken");
    TCase *tc = tcase_create("broken");

    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_loop_test(tc, broken_plugin_is_refused_and_fake_still_opens, 0, NCASES);
    tcase_add_test(tc, every_broken_plugin_in_turn_through_one_client);
    tcase_add_test(tc, path_like_scheme_is_refused_by_the_dsn_parser);
    tcase_add_test(tc, listing_a_directory_of_broken_plugins_reports_each);
    tcase_add_test(tc, freed_client_leaves_its_plugin_resident);
    tcase_add_test(tc, credential_names_are_read_only_where_the_descriptor_has_them);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(loader_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
