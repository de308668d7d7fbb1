/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The e2b plugin's ABI minor 2 members, called through its descriptor as
 * the core calls them, against the rig (e2b-lifecycle-members.sh starts
 * it): open_named with a name, a TTL and a policy; a second sandbox of the
 * same name refused; detach keeps it; list finds it with its name, policy,
 * expiry and state; attach by name reaches the same files; set_ttl moves
 * the expiry (0 refused); pause and resume; attach of an unknown name is
 * SBX_E4004; destroy through the attached handle removes it.
 */
#include "config.h"

#include <dlfcn.h>
#include <time.h>
#include <sandboxio/policy.h>

#include "../../../lib/tests/host.h"

static const sbx_plugin *P;
static void *state;

static const sbx_plugin_kv query[] = {{"template", "base"}, {"timeout", "300"}};
static const sbx_plugin_dsn dsn = {sizeof(dsn), "e2b", "", "", 2, query};
static const sbx_plugin_limits limits = {.struct_size = sizeof(limits), .network = SBX_NET_NONE};

static int64_t now_ms(void)
{
    return (int64_t)time(NULL) * 1000;
}

typedef struct found {
    int count;
    char id[64], name[64], policy[64];
    int64_t expires_ms;
    int state;
} found;

static int on_entry(void *ud, const sbx_plugin_sandbox_info *info)
{
    found *f = ud;
    f->count++;
    snprintf(f->id, sizeof(f->id), "%s", info->id);
    snprintf(f->name, sizeof(f->name), "%s", info->name);
    snprintf(f->policy, sizeof(f->policy), "%s", info->policy ? info->policy : "(none)");
    f->expires_ms = info->expires_ms;
    f->state = info->state;
    return 0;
}

static found list_all(void)
{
    found f = {0};
    ck_assert_int_eq(P->list(state, &dsn, on_entry, &f), SBX_OK);
    return f;
}

typedef struct src {
    const char *data;
    size_t left;
} src;

static long pull(void *ud, void *buf, size_t len)
{
    src *s = ud;
    size_t n = len < s->left ? len : s->left;
    memcpy(buf, s->data, n);
    s->data += n;
    s->left -= n;
    return (long)n;
}

static int sink(void *ud, const void *data, size_t len)
{
    strncat(ud, data, len);
    return 0;
}

START_TEST(named_sandbox_outlives_its_handle)
{
    sbx_plugin_sandbox_opts opts = {sizeof(opts), "keep-1", 120000, "{\"network\":\"none\"}"};
    void *a = NULL, *b = NULL, *dup = NULL;
    ck_assert_msg(P->open_named(state, &dsn, &limits, &opts, &a) == SBX_OK, "%s", last_msg);
    char id[64];
    snprintf(id, sizeof(id), "%s", P->sandbox_id(a));
    src s = {"kept\n", 5};
    ck_assert_msg(P->file_write(a, "mark.txt", 5, 0644, pull, &s) == SBX_OK, "%s", last_msg);

    ck_assert_int_eq(P->open_named(state, &dsn, &limits, &opts, &dup), SBX_E_BACKEND_CONFLICT);
    ck_assert_int_eq(list_all().count, 1);    /* the refused one made nothing */

    ck_assert_int_eq(P->detach(a), SBX_OK);
    found f = list_all();
    ck_assert_int_eq(f.count, 1);
    ck_assert_str_eq(f.id, id);
    ck_assert_str_eq(f.name, "keep-1");
    ck_assert_str_eq(f.policy, "{\"network\":\"none\"}");
    ck_assert_int_eq(f.state, SBX_PLUGIN_STATE_RUNNING);
    ck_assert_msg(llabs(f.expires_ms - (now_ms() + 120000)) < 15000, "expires %lld",
                  (long long)f.expires_ms);

    sbx_plugin_sandbox_info info = {.struct_size = sizeof(info)};
    ck_assert_msg(P->attach(state, &dsn, "keep-1", &b, &info) == SBX_OK, "%s", last_msg);
    ck_assert_str_eq(info.id, id);
    ck_assert_str_eq(info.name, "keep-1");
    ck_assert_str_eq(info.policy, "{\"network\":\"none\"}");
    char got[64] = "";
    ck_assert_msg(P->file_read(b, "mark.txt", sink, got) == SBX_OK, "%s", last_msg);
    ck_assert_str_eq(got, "kept\n");

    ck_assert_int_eq(P->set_ttl(b, 0), SBX_E_INVALID_ARGUMENT);
    ck_assert_msg(P->set_ttl(b, 3600000) == SBX_OK, "%s", last_msg);
    f = list_all();
    ck_assert_msg(llabs(f.expires_ms - (now_ms() + 3600000)) < 15000, "expires %lld",
                  (long long)f.expires_ms);

    ck_assert_msg(P->pause(b) == SBX_OK, "%s", last_msg);
    ck_assert_int_eq(list_all().state, SBX_PLUGIN_STATE_PAUSED);
    ck_assert_msg(P->resume(b) == SBX_OK, "%s", last_msg);
    ck_assert_int_eq(list_all().state, SBX_PLUGIN_STATE_RUNNING);
    got[0] = '\0';
    ck_assert_msg(P->file_read(b, "mark.txt", sink, got) == SBX_OK, "%s", last_msg);
    ck_assert_str_eq(got, "kept\n");

    void *none = NULL;
    ck_assert_int_eq(P->attach(state, &dsn, "no-such-name", &none, &info), SBX_E_NOT_FOUND);

    ck_assert_msg(P->destroy(b) == SBX_OK, "%s", last_msg);
    ck_assert_int_eq(list_all().count, 0);
}
END_TEST

int main(void)
{
    const char *so = getenv("SBX_E2B_PLUGIN");
    void *h = so ? dlopen(so, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (!h) {
        fprintf(stderr, "cannot load the e2b plugin (SBX_E2B_PLUGIN): %s\n", so ? dlerror() : "unset");
        return 1;
    }
    sbx_plugin_entry_fn entry = (sbx_plugin_entry_fn)dlsym(h, SBX_PLUGIN_ENTRY);
    P = entry ? entry() : NULL;
    if (!P || P->init(&host, &state) != SBX_OK) {
        fprintf(stderr, "the e2b plugin did not initialise: %s\n", last_msg);
        return 1;
    }
    Suite *s = suite_create("e2b_lifecycle");
    TCase *tc = tcase_create("members");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, named_sandbox_outlives_its_handle);
    suite_add_tcase(s, tc);
    int rc = run_suite(s);
    P->fini(state);
    dlclose(h);
    return rc;
}
