/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_online.h - `sandboxio doctor --online`: whether each backend's
 * service answers (sbx_client_ping()).
 */
#ifndef SBX_CLI_DOCTOR_ONLINE_H
#define SBX_CLI_DOCTOR_ONLINE_H

#include <stdio.h>
#include <json-c/json.h>
#include <sandboxio/sandboxio.h>

struct sbx_cli_online_item {
    const char *scheme;     /* the plugin list's */
    char *dsn;              /* the DSN contacted, redacted */
    int code;               /* SBX_OK, or why it did not answer */
    int reached;            /* 1: it answered; 0 with SBX_OK: nothing to contact */
    char *detail;           /* what answered, or NULL */
    char *message;          /* the error's message when code != SBX_OK */
};

struct sbx_cli_online {
    struct sbx_cli_online_item *items;
    size_t n;
};

/* Contact every backend of list that loaded. 0, or an exit status (out of memory). */
int sbx_cli_online_check(struct sbx_cli_online *out, sbx_client *client,
                         const sbx_plugin_list *list);
void sbx_cli_online_release(struct sbx_cli_online *o);
void sbx_cli_online_text(FILE *out, const struct sbx_cli_online *o);
/* [{"scheme", "dsn", "status", "reached", "code", "message", "detail"}], or NULL (no memory). */
json_object *sbx_cli_online_json(const struct sbx_cli_online *o);

#endif
