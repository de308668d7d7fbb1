/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The docker backend's descriptor. init() only sets up libcurl's global
 * state: listing plugins must not reach the daemon, so the first connection
 * is made when a sandbox is opened or gc runs.
 */
#include "docker.h"

#include <stdlib.h>

/*
 * Only what the contract suite proves against a real engine. Not declared:
 * net-allowlist (the engine has no per-host egress filter), snapshot, ports
 * and native.
 */
#define DK_CAPS                                                                           \
    (SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV |        \
     SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_NET_NONE | SBX_CAP_LIMIT_MEMORY |            \
     SBX_CAP_LIMIT_CPU | SBX_CAP_LIMIT_PIDS | SBX_CAP_PERSIST | SBX_CAP_OOM_REPORT |        \
     SBX_CAP_LIMIT_DISK | SBX_CAP_ATTACH | SBX_CAP_PAUSE | SBX_CAP_PTY |                  \
     SBX_CAP_FILE_META | SBX_CAP_CWD_ABS)

static int dk_init(const sbx_host *host, void **state)
{
    dk_state *st = calloc(1, sizeof(*st));
    if (!st)
        return host->set_error(SBX_E_NOMEM, "docker: out of memory");
    CURLcode cc = curl_global_init(CURL_GLOBAL_DEFAULT);
    if (cc != CURLE_OK) {
        free(st);
        return host->set_error(SBX_E_PLUGIN_INIT_FAILED, "docker: curl_global_init: %s",
                               curl_easy_strerror(cc));
    }
    st->host = host;
    *state = st;
    return SBX_OK;
}

static void dk_fini(void *state)
{
    curl_global_cleanup();
    free(state);
}

/* Where the daemon is and the TLS client key that opens it (endpoint.c); doctor names them. */
static const char *const credential_env[] = {"DOCKER_HOST", "DOCKER_CERT_PATH", NULL};

static const sbx_plugin descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = DK_NAME,
    .version = DK_VERSION,
    .description = "containers of a Docker Engine, through its API (unix socket or tcp)",
    .caps = DK_CAPS,
    .tier = SBX_TIER_CONTAINER,
    .init = dk_init,
    .fini = dk_fini,
    .probe = NULL,
    .open = dk_open,
    .destroy = dk_destroy,
    .exec = dk_exec,
    .file_write = dk_file_write,
    .file_read = dk_file_read,
    .file_list = dk_file_list,
    .file_remove = dk_file_remove,
    .file_mkdir = dk_file_mkdir,
    .native = NULL,
    .sandbox_id = dk_sandbox_id,
    .gc = dk_gc,
    .run = dk_run,
    .open_named = dk_open_named,
    .attach = dk_attach,
    .detach = dk_detach,
    .list = dk_list,
    .set_ttl = dk_set_ttl,
    .pause = dk_pause,
    .resume = dk_resume,
    .ping = dk_ping,
    .file_symlink = dk_file_symlink,
    .file_set_meta = dk_file_set_meta,
    .credential_env = credential_env,
};

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &descriptor;
}
