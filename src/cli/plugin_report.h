/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plugin_report.h - describe the plugins a client finds, as a table or as
 * JSON; shared by `plugins` and `doctor`.
 */
#ifndef SBX_CLI_PLUGIN_REPORT_H
#define SBX_CLI_PLUGIN_REPORT_H

#include <stdio.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>

/*
 * A new client and the result of loading every plugin it finds. On failure
 * the error is reported and its exit status returned; nothing is left to free.
 */
int sbx_cli_plugins_load(sbx_client **client, sbx_plugin_list **list);

/*
 * The JSON array of every entry of list (see docs/cli.md), or NULL if out of
 * memory. With a client, each loaded plugin is probed (sbx_cli_plugin_probe)
 * and its entry says which declared capabilities this machine can enforce.
 */
json_object *sbx_cli_plugins_json(sbx_client *client, const sbx_plugin_list *list);

/*
 * The table of every entry of list, one row each, with a second line for a
 * failure and, with a client, one for declared capabilities its probe says
 * are not enforceable here.
 */
void sbx_cli_plugins_table(FILE *out, sbx_client *client, const sbx_plugin_list *list);

/*
 * The date of the provider specs a plugin is built against, from the
 * semver build metadata of its version ("0.1.0+spec.2026-08-21"): written
 * into buf (11 bytes at least) and returned, or NULL when it has none.
 */
const char *sbx_cli_spec_date(const char *version, char *buf, size_t size);

/* One line per loaded plugin with a spec date, under a heading; nothing when none has one. */
void sbx_cli_spec_dates_text(FILE *out, const sbx_plugin_list *list);

/* JSON array of the names of the bits of caps, or NULL if out of memory. */
json_object *sbx_cli_caps_json(uint64_t caps);

/*
 * What each loaded plugin of list can guarantee on this machine, probed with
 * its bare DSN "scheme://" (doctor_enforce.c): a text block, or a JSON object
 * keyed by scheme with dsn, probe_code, capabilities and not_enforceable.
 */
void sbx_cli_enforceable_text(FILE *out, sbx_client *client, const sbx_plugin_list *list);

/*
 * Probe a loaded plugin with its bare DSN "scheme://" (written into dsn):
 * what it can guarantee on this machine, in *caps (sbx_client_probe()).
 * Loads the plugin only: opens no socket.
 */
int sbx_cli_plugin_probe(sbx_client *client, const sbx_plugin_info *info, uint64_t *caps,
                         char *dsn, size_t size);

/* "exec,stream,..." for the named bits of caps, "-" for none. */
void sbx_cli_caps_names_text(FILE *out, uint64_t caps);
json_object *sbx_cli_enforceable_json(sbx_client *client, const sbx_plugin_list *list);

#endif
