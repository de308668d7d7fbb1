/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The e2b backend's descriptor. init() only sets up libcurl's global state:
 * listing plugins must not reach E2B, so the first request is made when a
 * sandbox is opened, gc runs or ping is asked (doctor --online).
 */
#include "e2b.h"
/* E2B_SPEC_DATE, made from spec/SOURCES at build time (e2b.mk). */
#include "plugins/e2b/spec-date.h"

#include <stdlib.h>
#include <sandboxio/errors.h>

/*
 * Only what the contract suite proves against the doubles. Not declared:
 * limit-memory, limit-cpu, limit-pids, limit-disk (the template fixes them;
 * E2B cannot set them per sandbox, so the core refuses a policy that asks),
 * oom-report (envd does not say), net-allowlist (E2B's egress rules have no
 * ports: it would allow more than the policy), snapshot, ports,
 * pty, native. attach and pause are proved by e2b-lifecycle-members.sh
 * through the descriptor until the contract suite has cases for them.
 */
#define E2B_CAPS                                                                          \
    (SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV |        \
     SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_NET_NONE | SBX_CAP_PERSIST | SBX_CAP_PAUSE |   \
     SBX_CAP_ATTACH | SBX_CAP_FILE_META | SBX_CAP_CWD_ABS)

static int e2b_init(const sbx_host *host, void **state)
{
    e2b_state *st = calloc(1, sizeof(*st));
    if (!st)
        return host->set_error(SBX_E_NOMEM, "e2b: out of memory");
    CURLcode cc = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (cc != CURLE_OK) {
        free(st);
        return host->set_error(SBX_E_PLUGIN_INIT_FAILED, "e2b: curl_global_init: %s",
                               curl_easy_strerror(cc));
    }
    st->host = host;
    int rc = sbxu_http_pool_init(&st->pool, host, E2B_NAME);
    if (rc) {
        curl_global_cleanup();
        free(st);
        return rc;
    }
    *state = st;
    return SBX_OK;
}

static void e2b_fini(void *state)
{
    e2b_state *st = state;
    sbxu_http_pool_clear(&st->pool);
    curl_global_cleanup();
    free(st);
}

/* Where the API key is read from (api.c); doctor names it. */
static const char *const credential_env[] = {"E2B_API_KEY", NULL};

static const sbx_plugin descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = E2B_NAME,
    /* The stored specs' date as semver build metadata: doctor shows it. */
    .version = E2B_VERSION "+spec." E2B_SPEC_DATE,
    .description = "E2B sandboxes (Firecracker microVMs), through E2B's API and envd",
    .caps = E2B_CAPS,
    .tier = SBX_TIER_MICROVM,
    .init = e2b_init,
    .fini = e2b_fini,
    .open = e2b_open,
    .destroy = e2b_destroy,
    .exec = e2b_exec,
    .file_write = e2b_file_write,
    .file_read = e2b_file_read,
    .file_list = e2b_file_list,
    .file_remove = e2b_file_remove,
    .file_mkdir = e2b_file_mkdir,
    .sandbox_id = e2b_sandbox_id,
    .gc = e2b_gc,
    .open_named = e2b_open_named,
    .attach = e2b_attach,
    .detach = e2b_detach,
    .list = e2b_list,
    .set_ttl = e2b_set_ttl,
    .pause = e2b_pause,
    .resume = e2b_resume,
    .ping = e2b_ping,
    .file_symlink = e2b_file_symlink,
    .file_set_meta = e2b_file_set_meta,
    .credential_env = credential_env,
};

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &descriptor;
}
