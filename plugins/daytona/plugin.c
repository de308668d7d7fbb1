/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The daytona backend's descriptor. init() only sets up libcurl's global
 * state: listing plugins must not reach Daytona, so the first request is
 * made when a sandbox is opened, gc runs or ping is asked (doctor
 * --online). The plugin's state is the host table and the pool of HTTP
 * sessions its sandboxes share (daytona.h).
 */
#include "daytona.h"

#include <stdlib.h>
#include <sandboxio/errors.h>

/* DAYTONA_SPEC_DATE, made from spec/SOURCES at build time (daytona.mk). */
#include "plugins/daytona/spec-date.h"

/*
 * Only what the contract suite proves against the doubles. Not declared:
 * net-allowlist, limit-memory, limit-cpu, limit-disk (Daytona enforces
 * them in its runner, which the doubles do not stand for, so the contract
 * cannot prove them here; policy.c maps them for when it can), limit-pids
 * (Daytona has none), oom-report, attach and pause (not built yet),
 * snapshot, ports, pty, native.
 */
#define DAYTONA_CAPS                                                                       \
    (SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV |         \
     SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_NET_NONE | SBX_CAP_PERSIST | SBX_CAP_FILE_META | \
     SBX_CAP_CWD_ABS)

static int daytona_init(const sbx_host *host, void **state)
{
    daytona_state *st = calloc(1, sizeof(*st));
    if (!st)
        return host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    CURLcode cc = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (cc != CURLE_OK) {
        free(st);
        return host->set_error(SBX_E_PLUGIN_INIT_FAILED, "daytona: curl_global_init: %s",
                               curl_easy_strerror(cc));
    }
    st->host = host;
    int rc = sbxu_http_pool_init(&st->pool, host, DAYTONA_NAME);
    if (rc) {
        curl_global_cleanup();
        free(st);
        return rc;
    }
    *state = st;
    return SBX_OK;
}

static void daytona_fini(void *state)
{
    daytona_state *st = state;
    sbxu_http_pool_clear(&st->pool);
    curl_global_cleanup();
    free(st);
}

/* The API key, or a JWT with its organisation (api.c); doctor names them. */
static const char *const credential_env[] = {"DAYTONA_API_KEY", "DAYTONA_JWT_TOKEN", "DAYTONA_ORGANIZATION_ID", NULL};

static const sbx_plugin descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = DAYTONA_NAME,
    .version = DAYTONA_VERSION "+spec." DAYTONA_SPEC_DATE,
    .description = "Daytona sandboxes, through Daytona's API and the toolbox daemon",
    .caps = DAYTONA_CAPS,
    /* Not proved by any dated Daytona document: see docs/backends/daytona.md. */
    .tier = SBX_TIER_UNKNOWN,
    .init = daytona_init,
    .fini = daytona_fini,
    .open = daytona_open,
    .destroy = daytona_destroy,
    .exec = daytona_exec,
    .file_write = daytona_file_write,
    .file_read = daytona_file_read,
    .file_list = daytona_file_list,
    .file_remove = daytona_file_remove,
    .file_mkdir = daytona_file_mkdir,
    .sandbox_id = daytona_sandbox_id,
    .gc = daytona_gc,
    .ping = daytona_ping,
    .file_symlink = daytona_file_symlink,
    .file_set_meta = daytona_file_set_meta,
    .credential_env = credential_env,
};

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &descriptor;
}
