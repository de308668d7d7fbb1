/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_profiles.c - `sandboxio profiles`: the profiles found and the file of
 * each; `sandboxio profiles check FILE` validates one file.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "profile.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"

static void usage(FILE *out)
{
    fputs("Usage: sandboxio profiles [--json]\n"
          "       sandboxio profiles check [--json] FILE\n"
          "\n"
          "List the profiles of /etc/sandboxio/profiles.yaml and\n"
          "$XDG_CONFIG_HOME/sandboxio/profiles.yaml (or of the files of\n"
          "$SANDBOXIO_PROFILE_PATH), later files replacing earlier profiles of\n"
          "the same name, with the file and line of each. `check` reads FILE\n"
          "alone and exits 0 when it is valid. An error names the file, line and\n"
          "column (exit 120). See docs/profiles.md.\n"
          "\n"
          "Options:\n"
          "  --json      print one JSON object instead of a table\n"
          "  -h, --help  show this help\n",
          out);
}

static json_object *settings_json(const struct profile *p)
{
    json_object *obj = json_object_new_object();
    int rc = obj ? SBX_OK : SBX_E_NOMEM;

    for (size_t i = 0; !rc && i < p->n_items; i++) {
        const struct profile_item *item = &p->items[i];
        const char *key = profile_key_name(item->key);
        json_object *slot = NULL;

        switch (item->key) {
        case PROFILE_ALLOW_HOSTS:
        case PROFILE_ENV_PASS:
            if (!json_object_object_get_ex(obj, key, &slot)) {
                rc = sbx_cli_json_add(obj, key, json_object_new_array());
                if (!rc)
                    json_object_object_get_ex(obj, key, &slot);
            }
            if (!rc)
                rc = sbx_cli_json_push(slot, json_object_new_string(item->value));
            break;
        case PROFILE_ENV: {
            const char *eq = strchr(item->value, '=');
            if (!json_object_object_get_ex(obj, key, &slot)) {
                rc = sbx_cli_json_add(obj, key, json_object_new_object());
                if (!rc)
                    json_object_object_get_ex(obj, key, &slot);
            }
            if (!rc) {
                char name[256];
                snprintf(name, sizeof(name), "%.*s", (int)(eq - item->value), item->value);
                rc = sbx_cli_json_add(slot, name, json_object_new_string(eq + 1));
            }
            break;
        }
        case PROFILE_DEFAULT_LIMITS:
            rc = sbx_cli_json_add(obj, key,
                                  json_object_new_boolean(strcmp(item->value, "true") == 0));
            break;
        default:
            rc = sbx_cli_json_add(obj, key, json_object_new_string(item->value));
        }
    }
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static int print_json(const struct profile_set *set)
{
    json_object *obj = json_object_new_object(), *files = json_object_new_array();
    json_object *list = json_object_new_array();
    int rc = obj && files && list ? SBX_OK : SBX_E_NOMEM;

    for (size_t i = 0; !rc && i < set->n_files; i++)
        rc = sbx_cli_json_push(files, json_object_new_string(set->files[i]));
    for (size_t i = 0; !rc && i < set->n; i++) {
        const struct profile *p = &set->profiles[i];
        json_object *one = json_object_new_object();

        rc = one ? SBX_OK : SBX_E_NOMEM;
        if (!rc) rc = sbx_cli_json_add(one, "name", json_object_new_string(p->name));
        if (!rc) rc = sbx_cli_json_add(one, "file", json_object_new_string(p->file));
        if (!rc) rc = sbx_cli_json_add(one, "line", json_object_new_int(p->line));
        if (!rc) rc = sbx_cli_json_add(one, "settings", settings_json(p));
        if (!rc) {
            rc = sbx_cli_json_push(list, one);
            one = NULL;
        }
        json_object_put(one);
    }
    if (!rc) {
        rc = sbx_cli_json_add(obj, "files", files);
        files = NULL;
    }
    if (!rc) {
        rc = sbx_cli_json_add(obj, "profiles", list);
        list = NULL;
    }
    json_object_put(files);
    json_object_put(list);
    if (rc) {
        json_object_put(obj);
        return sbx_cli_error(SBX_E_NOMEM, "out of memory building the profile list");
    }
    return sbx_cli_exit_code(sbx_cli_print_json(obj, 1));
}

static const char *dsn_of(const struct profile *p)
{
    for (size_t i = 0; i < p->n_items; i++) {
        if (p->items[i].key == PROFILE_DSN)
            return p->items[i].value;
    }
    return "-";
}

static void print_table(const struct profile_set *set)
{
    if (!set->n) {
        printf("no profiles (files read: %zu)\n", set->n_files);
        return;
    }
    printf("%-16s %-20s %s\n", "NAME", "DSN", "FILE:LINE");
    for (size_t i = 0; i < set->n; i++) {
        const struct profile *p = &set->profiles[i];
        printf("%-16s %-20s %s:%d\n", p->name, dsn_of(p), p->file, p->line);
    }
}

int cmd_profiles(int argc, char **argv)
{
    struct profile_set set = { 0 };
    struct profile_error err = { 0 };
    int json = 0, status, rc;

    int done = sbx_cli_json_options("profiles", argc, argv, 1, usage, &json);
    if (done >= 0)
        return done;
    if (optind < argc && strcmp(argv[optind], "check") == 0) {
        if (optind + 2 != argc)
            return sbx_cli_usage_error("profiles", "check takes one FILE");
        rc = profile_set_load(&set, argv[optind + 1], 1, &err);
    } else if (optind < argc) {
        return sbx_cli_usage_error("profiles", "unexpected argument '%s'", argv[optind]);
    } else {
        rc = profile_set_load_default(&set, &err);
    }
    if (rc != SBX_OK)
        status = sbx_cli_error(err.code, "%s", err.message);
    else if (json)
        status = print_json(&set);
    else
        status = (print_table(&set), 0);
    profile_set_free(&set);
    return status;
}
