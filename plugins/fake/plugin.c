/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake backend's descriptor and the small operations that need no file
 * of their own: plugin state, the sandbox id and the "root" native op.
 */
#include "fake.h"

#include <stdlib.h>
#include <string.h>

static int fake_init(const sbx_host *host, void **state)
{
    fake_state *st;

    if (host == NULL || state == NULL)
        return SBX_E_INVALID_ARGUMENT;
    st = calloc(1, sizeof(*st));
    if (st == NULL)
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    st->host = host;
    *state = st;
    return SBX_OK;
}

static void fake_fini(void *state)
{
    free(state);
}

static const char *fake_sandbox_id(void *sandbox)
{
    return ((fake_sandbox *)sandbox)->id;
}

/* Append s to out as a JSON string body; out has room for 6 bytes per byte of s. */
static char *json_escape_into(char *out, const char *s)
{
    static const char hex[] = "0123456789abcdef";

    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            *out++ = '\\';
            *out++ = (char)c;
        } else if (c < 0x20) {
            *out++ = '\\';
            *out++ = 'u';
            *out++ = '0';
            *out++ = '0';
            *out++ = hex[c >> 4];
            *out++ = hex[c & 0xf];
        } else {
            *out++ = (char)c;
        }
    }
    return out;
}

/*
 * Native operations (outside the semver contract):
 *   "root" -> {"root": "<absolute host path of the sandbox's work dir>"}
 */
static int fake_native(void *sandbox, const char *op, const char *json_in, char **json_out)
{
    fake_sandbox *sb = sandbox;
    static const char head[] = "{\"root\": \"";
    static const char tail[] = "\"}";
    char *out, *p;

    if (op == NULL || json_out == NULL)
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT, "fake: native needs an op");
    if (strcmp(op, "root") != 0)
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT,
                                   "fake: unknown native op \"%s\" (the fake knows: root)", op);
    out = sb->host->alloc(sizeof(head) + 6 * strlen(sb->root) + sizeof(tail));
    if (out == NULL)
        return sb->host->set_error(SBX_E_NOMEM, "fake: out of memory");
    p = out;
    memcpy(p, head, sizeof(head) - 1);
    p = json_escape_into(p + sizeof(head) - 1, sb->root);
    memcpy(p, tail, sizeof(tail));
    *json_out = out;
    return SBX_OK;
}

static const sbx_plugin fake_descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = FAKE_NAME,
    .version = PACKAGE_VERSION,
    .description = "host processes in a private temp dir; for tests, NOT a security boundary",
    .caps = SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_FILES | SBX_CAP_ENV |
            SBX_CAP_CWD | SBX_CAP_TIMEOUT | SBX_CAP_PERSIST | SBX_CAP_NATIVE | SBX_CAP_ATTACH |
            SBX_CAP_PAUSE | SBX_CAP_FILE_META,
    .tier = SBX_TIER_NONE,
    .init = fake_init,
    .fini = fake_fini,
    .probe = NULL,
    .open = fake_open,
    .destroy = fake_destroy,
    .exec = fake_exec,
    .file_write = fake_file_write,
    .file_read = fake_file_read,
    .file_list = fake_file_list,
    .file_remove = fake_file_remove,
    .file_mkdir = fake_file_mkdir,
    .native = fake_native,
    .sandbox_id = fake_sandbox_id,
    .gc = fake_gc,
    .run = NULL,
    .open_named = fake_open_named,
    .attach = fake_attach,
    .detach = fake_detach,
    .list = fake_list,
    .set_ttl = fake_set_ttl,
    .pause = fake_pause,
    .resume = fake_resume,
    .ping = NULL,
    .file_symlink = fake_file_symlink,
    .file_set_meta = fake_file_set_meta,
};

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &fake_descriptor;
}
