/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostproc.h - a minimal host-process backend, built into each of the
 * deliberately broken plugins the contract suite must catch. Each plugin
 * sets one flaw in its hostproc_flaws and declares the rest honestly.
 *
 * The self-test runs each in a session of its own and kills what is left
 * of that session afterwards: a broken plugin leaks nothing past the test.
 */
#ifndef SBX_SELFTEST_HOSTPROC_H
#define SBX_SELFTEST_HOSTPROC_H

#include <sandboxio/plugin.h>

typedef struct hostproc_flaws {
    int leak_on_destroy;    /* destroy leaves the sandbox's processes running */
    int ignore_timeout;     /* exec never kills on a deadline */
    size_t crop_after;      /* drop output past this many bytes per stream, silently; 0 = never */
    int crash_in_exec;      /* every exec dies of SIGSEGV, taking its caller with it */
    int hang_in_exec;       /* every exec blocks forever */
    int ignore_cancel;      /* exec never looks at cancel_fd */
} hostproc_flaws;

/* Capabilities the host-process backend honours. */
#define HOSTPROC_CAPS \
    (SBX_CAP_EXEC | SBX_CAP_STREAM | SBX_CAP_ENV | SBX_CAP_TIMEOUT | SBX_CAP_PERSIST)

/* Defined by each broken plugin. */
extern const hostproc_flaws hostproc_flaws_of_this_plugin;

int hostproc_init(const sbx_host *host, void **state);
void hostproc_fini(void *state);
int hostproc_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                  void **sandbox);
int hostproc_destroy(void *sandbox);
int hostproc_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                  sbx_plugin_exit *exit_out);

/* The descriptor every broken plugin fills in the same way. */
#define HOSTPROC_DESCRIPTOR(NAME, DESCRIPTION, CAPS, TIER)    \
    static const sbx_plugin descriptor = {                   \
        .struct_size = sizeof(sbx_plugin),                   \
        .abi_major = SBX_PLUGIN_ABI_MAJOR,                   \
        .abi_minor = SBX_PLUGIN_ABI_MINOR,                   \
        .name = NAME,                                        \
        .version = "0.0.0-selftest",                         \
        .description = DESCRIPTION,                          \
        .caps = (CAPS),                                      \
        .tier = (TIER),                                      \
        .init = hostproc_init,                               \
        .fini = hostproc_fini,                               \
        .open = hostproc_open,                               \
        .destroy = hostproc_destroy,                         \
        .exec = hostproc_exec,                               \
    };                                                       \
    SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void); \
    SBX_PLUGIN_EXPORT const sbx_plugin *sandboxio_plugin_v1(void) \
    {                                                        \
        return &descriptor;                                  \
    }

#endif
