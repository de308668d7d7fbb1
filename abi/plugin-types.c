/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plugin-types.c - every type of the plugin ABI (include/sandboxio/plugin.h)
 * in one exported function's signature, so that abidw records their layout:
 * scripts/check-abi.sh builds this into a small shared object and compares
 * its ABI with abi/plugin-types.abi. A new struct in plugin.h gets a
 * parameter here.
 */
#include <sandboxio/plugin.h>

SBX_PLUGIN_EXPORT void sbx_abi_plugin_types(const sbx_host *host, const sbx_plugin_kv *kv,
                                            const sbx_plugin_dsn *dsn,
                                            const sbx_plugin_limits *limits,
                                            const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                                            const sbx_plugin_exit *exit_out,
                                            const sbx_plugin_dirent *dirent,
                                            const sbx_plugin *plugin, sbx_plugin_entry_fn entry);

void sbx_abi_plugin_types(const sbx_host *host, const sbx_plugin_kv *kv, const sbx_plugin_dsn *dsn,
                          const sbx_plugin_limits *limits, const sbx_plugin_cmd *cmd,
                          const sbx_plugin_io *io, const sbx_plugin_exit *exit_out,
                          const sbx_plugin_dirent *dirent, const sbx_plugin *plugin,
                          sbx_plugin_entry_fn entry)
{
    (void)host, (void)kv, (void)dsn, (void)limits, (void)cmd, (void)io;
    (void)exit_out, (void)dirent, (void)plugin, (void)entry;
}
