/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A plugin with one deliberate defect, chosen at build time: tests/loader.mk
 * builds this file once per defect (BROKEN_* names it, PLUGIN_NAME is the
 * scheme in the module's file name). Without a BROKEN_* macro it is a valid,
 * minimal plugin. The loader must refuse each defect with its own code and
 * without harm to the host process.
 */
#include <sys/socket.h>
#include <sandboxio/plugin.h>

#ifndef PLUGIN_NAME
#error "PLUGIN_NAME must name the scheme of the module file"
#endif

/* Each defect leaves some of the parts below unused. */
#define MAYBE_UNUSED __attribute__((unused))

MAYBE_UNUSED static int plain_init(const sbx_host *host, void **state)
{
    (void)host;
    *state = NULL;
    return SBX_OK;
}

#if defined(BROKEN_INIT_FAILS)
/* The host must keep this text in its SBX_E_PLUGIN_INIT_FAILED message. */
static int failing_init(const sbx_host *host, void **state)
{
    (void)state;
    return host->set_error(SBX_E_BACKEND_UNAVAILABLE,
                           "broken-init-marker: this plugin refuses to start");
}
#define INIT failing_init
#elif defined(BROKEN_SOCKET_IN_INIT)
/*
 * Breaks the rule "init opens no socket". The socket is never closed: a
 * plugin that does this is wrong however tidy it is, and the no-socket test
 * must catch it.
 */
static int socket_init(const sbx_host *host, void **state)
{
    (void)host;
    *state = NULL;
    return socket(AF_INET, SOCK_STREAM, 0) < 0 ? SBX_E_SYSTEM : SBX_OK;
}
#define INIT socket_init
#else
#define INIT plain_init
#endif

MAYBE_UNUSED static int plain_open(void *state, const sbx_plugin_dsn *dsn,
                                   const sbx_plugin_limits *limits, void **sandbox)
{
    static int handle;

    (void)state, (void)dsn, (void)limits;
    *sandbox = &handle;
    return SBX_OK;
}

MAYBE_UNUSED static int plain_destroy(void *sandbox)
{
    (void)sandbox;
    return SBX_OK;
}

#if defined(OLD_MINOR_3) || defined(NAMES_CREDENTIALS)
/* Names for credential_env; an OLD_MINOR_3 plugin has them only past its
 * struct_size, where a plugin built before minor 4 has whatever follows. */
static const char *const credential_names[] = {"SBX_TEST_CRED_A", "SBX_TEST_CRED_B", NULL};
#endif

MAYBE_UNUSED static const sbx_plugin descriptor = {
#ifdef BROKEN_SHORT_DESCRIPTOR
    /* Holds the ABI version but stops before the last member of minor 0. */
    .struct_size = (uint32_t)offsetof(sbx_plugin, gc),
#elif defined(OLD_MINOR_3)
    /* Not broken: built before minor 4 appended credential_env. */
    .struct_size = (uint32_t)offsetof(sbx_plugin, credential_env),
#else
    .struct_size = sizeof(sbx_plugin),
#endif
#ifdef BROKEN_ABI_MAJOR
    .abi_major = SBX_PLUGIN_ABI_MAJOR + 1,
#else
    .abi_major = SBX_PLUGIN_ABI_MAJOR,
#endif
#ifdef BROKEN_ABI_MINOR
    .abi_minor = SBX_PLUGIN_ABI_MINOR + 1,
#elif defined(OLD_MINOR_3)
    .abi_minor = 3,
#else
    .abi_minor = SBX_PLUGIN_ABI_MINOR,
#endif
#ifdef BROKEN_NAME
    .name = "someone-else",
#else
    .name = PLUGIN_NAME,
#endif
    .version = "0",
    .description = "a deliberately broken plugin for the loader's tests",
    .caps = 0,
#ifdef BROKEN_TIER
    .tier = 42,
#else
    .tier = SBX_TIER_NONE,
#endif
    .init = INIT,
#ifndef BROKEN_NO_OPEN
    .open = plain_open,
#endif
#ifndef BROKEN_NO_DESTROY
    .destroy = plain_destroy,
#endif
#if defined(OLD_MINOR_3) || defined(NAMES_CREDENTIALS)
    .credential_env = credential_names,
#endif
};

#if defined(BROKEN_NO_ENTRY)
/* A near miss: the right idea under the wrong name. */
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin(void);
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin(void)
{
    return &descriptor;
}
#elif defined(BROKEN_V2_ONLY)
/* Built for a future ABI major: only that major's entry point exists. */
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v2(void);
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v2(void)
{
    return &descriptor;
}
#else
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void);
SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void)
{
#ifdef BROKEN_NULL_DESCRIPTOR
    return NULL;
#else
    return &descriptor;
#endif
}
#endif
