/* SPDX-License-Identifier: Apache-2.0 */
/*
 * example: compile-only: a plugin, not a program (tests/plugin-hello-passes-contract.sh runs it)
 *
 * hello://, the smallest sandboxio backend: built out of tree against the
 * installed plugin headers alone (pkg-config sandboxio-plugin).
 *
 * A hello sandbox is only a name: it runs no command and holds no file, so
 * the plugin declares tier "none" and one capability, native, whose one
 * operation "greet" answers {"greeting": "hello from <id>"}. Everything it
 * does not declare, the core refuses for it (the contract suite checks
 * that each such refusal happens and runs nothing).
 */
#include <sandboxio/plugin.h>

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

typedef struct hello_state {
    const sbx_host *host;
    atomic_uint next_id;
} hello_state;

typedef struct hello_sandbox {
    const sbx_host *host;
    char id[32];
} hello_sandbox;

static int hello_init(const sbx_host *host, void **state)
{
    hello_state *st = host->alloc(sizeof(*st));
    if (!st)
        return host->set_error(SBX_E_NOMEM, "hello: out of memory");
    st->host = host;
    atomic_init(&st->next_id, 1);
    *state = st;
    return SBX_OK;
}

static void hello_fini(void *state)
{
    hello_state *st = state;
    st->host->free(st);
}

/* hello:// takes no authority, path or option: refuse them rather than ignore them. */
static int hello_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                      void **sandbox)
{
    hello_state *st = state;
    (void)limits; /* the core passes no limit: none is declared */
    if (dsn && ((dsn->authority && *dsn->authority) ||
                (dsn->path && *dsn->path && strcmp(dsn->path, "/") != 0)))
        return st->host->set_error(SBX_E_DSN_BAD_AUTHORITY, "hello: use hello:// alone");
    if (dsn && dsn->query_count > 0)
        return st->host->set_error(SBX_E_DSN_UNKNOWN_OPTION,
                                   "hello: unknown option \"%s\": hello:// takes none",
                                   dsn->query[0].key);
    hello_sandbox *sb = st->host->alloc(sizeof(*sb));
    if (!sb)
        return st->host->set_error(SBX_E_NOMEM, "hello: out of memory");
    sb->host = st->host;
    snprintf(sb->id, sizeof(sb->id), "hello-%u", atomic_fetch_add(&st->next_id, 1));
    *sandbox = sb;
    return SBX_OK;
}

static int hello_destroy(void *sandbox)
{
    hello_sandbox *sb = sandbox;
    sb->host->free(sb);
    return SBX_OK;
}

static const char *hello_sandbox_id(void *sandbox)
{
    return ((hello_sandbox *)sandbox)->id;
}

/* "greet" -> {"greeting": "hello from hello-N"}; *json_out from host->alloc. */
static int hello_native(void *sandbox, const char *op, const char *json_in, char **json_out)
{
    hello_sandbox *sb = sandbox;
    (void)json_in;
    if (!op || strcmp(op, "greet") != 0)
        return sb->host->set_error(SBX_E_INVALID_ARGUMENT,
                                   "hello: unknown native op \"%s\" (hello knows: greet)",
                                   op ? op : "(null)");
    char buf[96];
    int n = snprintf(buf, sizeof(buf), "{\"greeting\": \"hello from %s\"}", sb->id);
    char *out = sb->host->alloc((size_t)n + 1);
    if (!out)
        return sb->host->set_error(SBX_E_NOMEM, "hello: out of memory");
    memcpy(out, buf, (size_t)n + 1);
    *json_out = out;
    return SBX_OK;
}

static const sbx_plugin hello_descriptor = {
    .struct_size = sizeof(sbx_plugin),
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
    .name = "hello",
    .version = "1.0.0",
    .description = "example out-of-tree backend: named sandboxes that only greet; no isolation",
    .caps = SBX_CAP_NATIVE,
    .tier = SBX_TIER_NONE,
    .init = hello_init,
    .fini = hello_fini,
    .open = hello_open,
    .destroy = hello_destroy,
    .native = hello_native,
    .sandbox_id = hello_sandbox_id,
    /* A backend that reads a key names its variables, for `sandboxio doctor`:
     * (const char *const[]){"HELLO_API_KEY", NULL}. This one reads none. */
    .credential_env = NULL,
};

/* The one symbol the core looks up; -fvisibility=hidden keeps all else local. */
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);

SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
    return &hello_descriptor;
}
