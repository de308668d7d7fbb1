/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A client is documented as usable from several threads at once: threads
 * that add plugin directories while others list plugins and read the search
 * path must see a consistent path and never touch memory an add is moving.
 * The checks below catch a torn read only sometimes; a race detector
 * (helgrind, ThreadSanitizer) flags the unguarded access every time, so run
 * it under one too (CK_FORK=no valgrind --tool=helgrind ./test...).
 */
#include "config.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "testutil.h"

enum { WRITERS = 2, READERS = 2, ADDS = 48, LISTINGS = 6 };

static sbx_client *client;

static void *add_dirs(void *arg)
{
    int w = (int)(intptr_t)arg;
    for (int i = 0; i < ADDS; i++) {
        char dir[64];
        snprintf(dir, sizeof(dir), "/nonexistent/sbx-writer-%d-%d", w, i);
        if (sbx_client_add_plugin_dir(client, dir) != SBX_OK)
            return (void *)"sbx_client_add_plugin_dir failed";
    }
    return NULL;
}

/* Reads the whole search path and lists the plugins, again and again. */
static void *read_dirs(void *arg)
{
    (void)arg;
    for (int round = 0; round < LISTINGS; round++) {
        size_t n = sbx_client_plugin_dir_count(client);
        for (size_t i = 0; i < n; i++)
            if (!sbx_client_plugin_dir_at(client, i))
                return (void *)"a directory below the count is NULL";
        sbx_plugin_list *list = NULL;
        if (sbx_client_plugins(client, &list) != SBX_OK)
            return (void *)"sbx_client_plugins failed";
        bool testcaps = false;
        for (size_t i = 0; i < sbx_plugin_list_count(list); i++)
            testcaps |= strcmp(sbx_plugin_list_get(list, i)->scheme, "testcaps") == 0;
        sbx_plugin_list_free(list);
        if (!testcaps)
            return (void *)"the listing lost the test plugin";
    }
    return NULL;
}

START_TEST(adding_dirs_while_listing_keeps_the_path_whole)
{
    client = test_client();
    size_t before = sbx_client_plugin_dir_count(client);
    pthread_t t[WRITERS + READERS];
    for (int i = 0; i < WRITERS + READERS; i++)
        ck_assert_int_eq(pthread_create(&t[i], NULL, i < WRITERS ? add_dirs : read_dirs,
                                        (void *)(intptr_t)i), 0);
    for (int i = 0; i < WRITERS + READERS; i++) {
        void *why = NULL;
        ck_assert_int_eq(pthread_join(t[i], &why), 0);
        ck_assert_msg(why == NULL, "thread %d: %s", i, (const char *)why);
    }
    size_t n = sbx_client_plugin_dir_count(client);
    ck_assert_uint_eq(n, before + WRITERS * ADDS);
    /* The installed directory stays last, after every added one. */
    ck_assert_str_eq(sbx_client_plugin_dir_at(client, n - 1), sbx_plugin_dir_default());
    ck_assert_ptr_null(sbx_client_plugin_dir_at(client, n));
    sbx_client_free(client);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("plugin-dirs-threads");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, adding_dirs_while_listing_keeps_the_path_whole);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
