/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_doctor.c - `sandboxio doctor`: an environment report to paste into an
 * issue. It names the credential variables that are set but never prints
 * their values, and opens no socket unless --online asks it to contact the
 * backends.
 */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sandboxio/sandboxio.h>
#include <sandboxio/plugin.h>

#include "commands.h"
#include "common/dsn.h"
#include "doctor_install.h"
#include "doctor_online.h"
#include "doctor_probe.h"
#include "plugin_report.h"
#include "common/error.h"
#include "common/options.h"
#include "common/output.h"


struct doctor {
    sbx_client *client;
    sbx_plugin_list *plugins;   /* NULL if listing failed */
    int plugins_code;           /* why it failed */
    char *dsn_redacted;         /* SANDBOXIO_DSN redacted, NULL if unset */
    struct sbx_cli_kernel_facts kernel;
    int online;                 /* --online: the backends were contacted */
    struct sbx_cli_online contacted;
    char library_buf[PATH_MAX];
    const char *library;        /* the libsandboxio file loaded, NULL if unknown */
    struct sbx_cli_install installs[2];
    size_t n_installs;          /* /usr and /usr/local: more than one is a warning */
};

static void usage(FILE *out)
{
    fputs("Usage: sandboxio doctor [--online] [--json]\n"
          "\n"
          "Print a report of this environment to paste into an issue: versions,\n"
          "the libsandboxio file loaded (and a warning when more than one install\n"
          "is on the machine), plugin directories, each plugin's load result, the\n"
          "kernel and its sandboxing features, and which credential variables are\n"
          "set (their names only, never their values). Opens no socket: what a backend\n"
          "declares is shown, not whether its service answers.\n"
          "\n"
          "Options:\n"
          "  --online    also contact each backend (the docker daemon: a ping and\n"
          "              its version; E2B: a check of the API key) and report\n"
          "              whether it answers\n"
          "  --json      print one JSON object instead of text\n"
          "  -h, --help  show this help\n",
          out);
}

static int dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Gather everything; a part that cannot be had is reported inside the report. */
static int doctor_gather(struct doctor *d)
{
    const char *dsn = sbx_cli_env_dsn();
    int rc;

    sbx_cli_kernel_probe(&d->kernel);
    d->library = sbx_cli_library_file(d->library_buf, sizeof(d->library_buf));
    d->n_installs = sbx_cli_installs_find("", d->installs, sizeof(d->installs) / sizeof(d->installs[0]));
    if (dsn) {
        /* On a parse error the library still gives "<invalid DSN>": the text never shows. */
        rc = sbx_dsn_redact(dsn, &d->dsn_redacted);
        if (!d->dsn_redacted)
            return sbx_cli_error_lib(rc, "redacting SANDBOXIO_DSN");
    }
    rc = sbx_client_new(&d->client);
    if (rc != SBX_OK)
        return sbx_cli_error_lib(rc, "creating the client");
    d->plugins_code = sbx_client_plugins(d->client, &d->plugins);
    if (d->plugins_code != SBX_OK)
        d->plugins = NULL;
    if (d->online && d->plugins)
        return sbx_cli_online_check(&d->contacted, d->client, d->plugins);
    return 0;
}

static void doctor_release(struct doctor *d)
{
    sbx_cli_online_release(&d->contacted);
    sbx_plugin_list_free(d->plugins);
    sbx_client_free(d->client);
    sbx_free(d->dsn_redacted);
}

static json_object *long_or_null(long v)
{
    return v < 0 ? NULL : json_object_new_int64(v);
}

static int add_long(json_object *obj, const char *key, long v)
{
    return v < 0 ? sbx_cli_json_add_null(obj, key) : sbx_cli_json_add(obj, key, long_or_null(v));
}

static json_object *kernel_json(const struct sbx_cli_kernel_facts *k)
{
    json_object *obj = json_object_new_object();
    int rc;

    if (!obj)
        return NULL;
    if (k->uname_ok) {
        rc = sbx_cli_json_add(obj, "sysname", json_object_new_string(k->uts.sysname));
        if (!rc) rc = sbx_cli_json_add(obj, "release", json_object_new_string(k->uts.release));
        if (!rc) rc = sbx_cli_json_add(obj, "version", json_object_new_string(k->uts.version));
        if (!rc) rc = sbx_cli_json_add(obj, "machine", json_object_new_string(k->uts.machine));
    } else {
        rc = sbx_cli_json_add_null(obj, "sysname");
    }
    if (!rc) rc = add_long(obj, "unprivileged_userns_clone", k->userns_clone);
    if (!rc) rc = add_long(obj, "max_user_namespaces", k->max_user_namespaces);
    if (!rc) rc = add_long(obj, "apparmor_restrict_unprivileged_userns", k->apparmor_restrict_userns);
    if (!rc) rc = sbx_cli_json_add(obj, "cgroup2", json_object_new_boolean(k->cgroup2));
    if (!rc) rc = sbx_cli_json_add(obj, "cgroup_controllers", json_object_new_string(k->cgroup_controllers));
    if (!rc) rc = sbx_cli_json_add(obj, "seccomp", json_object_new_boolean(k->seccomp_available));
    if (!rc) rc = add_long(obj, "seccomp_mode", k->seccomp_mode);
    if (!rc) rc = add_long(obj, "no_new_privs", k->no_new_privs);
    if (!rc) rc = add_long(obj, "euid", k->euid);
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static json_object *dirs_json(const sbx_client *client)
{
    json_object *array = json_object_new_array();
    size_t n = sbx_client_plugin_dir_count(client);

    for (size_t i = 0; array && i < n; i++) {
        const char *dir = sbx_client_plugin_dir_at(client, i);
        json_object *obj = json_object_new_object();

        if (!obj || sbx_cli_json_add(obj, "path", json_object_new_string(dir)) ||
            sbx_cli_json_add(obj, "exists", json_object_new_boolean(dir_exists(dir)))) {
            json_object_put(obj);
            json_object_put(array);
            return NULL;
        }
        if (sbx_cli_json_push(array, obj)) {
            json_object_put(array);
            return NULL;
        }
    }
    return array;
}

/* Whether a plugin before entry i of plugins, or entry i before name k, names v. */
static bool named_before(const sbx_plugin_list *plugins, size_t i, size_t k, const char *v)
{
    for (size_t j = 0; j <= i; j++) {
        const char *const *names = sbx_plugin_list_get(plugins, j)->credential_env;
        for (size_t m = 0; names && names[m] && (j < i || m < k); m++)
            if (strcmp(names[m], v) == 0)
                return true;
    }
    return false;
}

/*
 * Calls each(name, ud) once for every variable that a plugin found names as
 * holding (or pointing at) a credential (its descriptor's credential_env),
 * in the order of the plugins (by scheme); non-zero stops. Only whether a
 * variable is set is ever shown.
 */
static int each_credential_var(const sbx_plugin_list *plugins,
                               int (*each)(const char *name, void *ud), void *ud)
{
    size_t n = sbx_plugin_list_count(plugins);
    for (size_t i = 0; i < n; i++) {
        const char *const *names = sbx_plugin_list_get(plugins, i)->credential_env;
        for (size_t k = 0; names && names[k]; k++) {
            /* Two plugins may read one variable: it is listed once. */
            int rc = named_before(plugins, i, k, names[k]) ? 0 : each(names[k], ud);
            if (rc)
                return rc;
        }
    }
    return 0;
}

static int credential_json(const char *name, void *ud)
{
    return sbx_cli_json_add(ud, name, json_object_new_boolean(getenv(name) != NULL));
}

static json_object *credentials_json(const sbx_plugin_list *plugins)
{
    json_object *obj = json_object_new_object();

    if (obj && each_credential_var(plugins, credential_json, obj)) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static int credential_text(const char *name, void *ud)
{
    (void)ud;
    printf("  %-20s %s\n", name, getenv(name) ? "set" : "not set");
    return 0;
}

/* The core's default limits, applied where a backend can enforce them. */
static json_object *default_limits_json(void)
{
    json_object *obj = json_object_new_object();

    if (!obj || sbx_cli_json_add(obj, "pids", json_object_new_int64(SBX_DEFAULT_PIDS)) ||
        sbx_cli_json_add(obj, "memory", json_object_new_int64((int64_t)SBX_DEFAULT_MEMORY)) ||
        sbx_cli_json_add(obj, "disk", json_object_new_int64((int64_t)SBX_DEFAULT_DISK))) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

/* [{"prefix", "file"}] of each install of libsandboxio found. */
static json_object *installs_json(const struct doctor *d)
{
    json_object *array = json_object_new_array();

    for (size_t i = 0; array && i < d->n_installs; i++) {
        json_object *obj = json_object_new_object();
        if (!obj || sbx_cli_json_add(obj, "prefix", json_object_new_string(d->installs[i].prefix)) ||
            sbx_cli_json_add(obj, "file", json_object_new_string(d->installs[i].file)) ||
            sbx_cli_json_push(array, obj)) {
            json_object_put(array);
            return NULL;
        }
    }
    return array;
}

static void print_installs_text(const struct doctor *d)
{
    printf("libsandboxio loaded: %s\n", d->library ? d->library : "unknown");
    if (d->n_installs < 2)
        return;
    printf("warning: libsandboxio is installed %zu times:", d->n_installs);
    for (size_t i = 0; i < d->n_installs; i++)
        printf(" %s (%s)%s", d->installs[i].prefix, d->installs[i].file,
               i + 1 < d->n_installs ? "," : "\n");
    printf("  each install's plugins and headers are meant for its own library: remove one\n"
           "  (`make uninstall` in the source tree, or the distribution's packages)\n");
}

static int print_report_json(const struct doctor *d)
{
    json_object *obj = json_object_new_object();
    char abi[24];
    int rc;

    if (!obj)
        return sbx_cli_error(SBX_E_NOMEM, "out of memory building the report");
    snprintf(abi, sizeof(abi), "%d.%d", SBX_PLUGIN_ABI_MAJOR, SBX_PLUGIN_ABI_MINOR);
    rc = sbx_cli_json_add(obj, "sandboxio_version", json_object_new_string(PACKAGE_VERSION));
    if (!rc) rc = sbx_cli_json_add(obj, "libsandboxio_version", json_object_new_string(sbx_version()));
    if (!rc) rc = sbx_cli_json_add(obj, "plugin_abi", json_object_new_string(abi));
    if (!rc) rc = d->library ? sbx_cli_json_add(obj, "libsandboxio_file", json_object_new_string(d->library))
                             : sbx_cli_json_add_null(obj, "libsandboxio_file");
    if (!rc) rc = sbx_cli_json_add(obj, "libsandboxio_installs", installs_json(d));
    if (!rc) rc = sbx_cli_json_add(obj, "plugin_dirs", dirs_json(d->client));
    if (!rc && d->plugins) {
        rc = sbx_cli_json_add(obj, "plugins", sbx_cli_plugins_json(NULL, d->plugins));
        if (!rc) rc = sbx_cli_json_add(obj, "enforceable",
                                       sbx_cli_enforceable_json(d->client, d->plugins));
        if (!rc) rc = sbx_cli_json_add_null(obj, "plugins_error");
    } else if (!rc) {
        rc = sbx_cli_json_add(obj, "plugins", json_object_new_array());
        if (!rc) rc = sbx_cli_json_add(obj, "plugins_error",
                                       json_object_new_string(sbx_error_id(d->plugins_code)));
    }
    /* null: not contacted (the default, offline doctor). */
    if (!rc) rc = d->online ? sbx_cli_json_add(obj, "online", sbx_cli_online_json(&d->contacted))
                            : sbx_cli_json_add_null(obj, "online");
    if (!rc) rc = sbx_cli_json_add(obj, "default_limits", default_limits_json());
    if (!rc) rc = sbx_cli_json_add(obj, "kernel", kernel_json(&d->kernel));
    if (!rc) rc = sbx_cli_json_add(obj, "credentials_set", credentials_json(d->plugins));
    if (!rc) rc = d->dsn_redacted
                 ? sbx_cli_json_add(obj, "sandboxio_dsn", json_object_new_string(d->dsn_redacted))
                 : sbx_cli_json_add_null(obj, "sandboxio_dsn");
    if (rc) {
        json_object_put(obj);
        return sbx_cli_error(SBX_E_NOMEM, "out of memory building the report");
    }
    return sbx_cli_exit_code(sbx_cli_print_json(obj, 1));
}

static const char *known(long v, char *buf, size_t size)
{
    if (v < 0)
        return "unknown";
    snprintf(buf, size, "%ld", v);
    return buf;
}

static void print_kernel_text(const struct sbx_cli_kernel_facts *k)
{
    char a[32], b[32], c[32];

    if (k->uname_ok)
        printf("Kernel: %s %s %s %s\n", k->uts.sysname, k->uts.release, k->uts.version,
               k->uts.machine);
    else
        printf("Kernel: unknown (uname failed)\n");
    printf("Kernel features:\n");
    printf("  user namespaces: unprivileged_userns_clone=%s max_user_namespaces=%s"
           " apparmor_restrict_unprivileged_userns=%s\n",
           k->userns_clone < 0 ? "absent" : known(k->userns_clone, a, sizeof(a)),
           known(k->max_user_namespaces, b, sizeof(b)),
           k->apparmor_restrict_userns < 0 ? "absent" : known(k->apparmor_restrict_userns, c, sizeof(c)));
    printf("  cgroup v2: %s (controllers: %s)\n", k->cgroup2 ? "mounted at /sys/fs/cgroup" : "not mounted",
           k->cgroup_controllers[0] ? k->cgroup_controllers : "none");
    printf("  seccomp: %s (this process: mode %s, no_new_privs %s)\n",
           k->seccomp_available ? "available" : "not available", known(k->seccomp_mode, a, sizeof(a)),
           known(k->no_new_privs, b, sizeof(b)));
    printf("  effective uid: %ld\n", k->euid);
}

static int print_report_text(const struct doctor *d)
{
    size_t n = sbx_client_plugin_dir_count(d->client);

    printf("sandboxio %s (libsandboxio %s, plugin ABI %d.%d)\n", PACKAGE_VERSION, sbx_version(),
           SBX_PLUGIN_ABI_MAJOR, SBX_PLUGIN_ABI_MINOR);
    print_installs_text(d);
    print_kernel_text(&d->kernel);
    printf("Plugin directories (searched in this order):\n");
    for (size_t i = 0; i < n; i++) {
        const char *dir = sbx_client_plugin_dir_at(d->client, i);
        printf("  %s%s\n", dir, dir_exists(dir) ? "" : " (missing)");
    }
    printf("Plugins:\n");
    if (d->plugins) {
        sbx_cli_plugins_table(stdout, NULL, d->plugins);
        sbx_cli_spec_dates_text(stdout, d->plugins);
        printf("Enforceable here (declared capabilities the backend's probe confirms):\n");
        sbx_cli_enforceable_text(stdout, d->client, d->plugins);
        if (d->online) {
            printf("Backends contacted (--online):\n");
            sbx_cli_online_text(stdout, &d->contacted);
        } else {
            printf("Backends: not contacted; `sandboxio doctor --online` checks that each\n"
                   "  answers (a backend listed above may still be unreachable)\n");
        }
    } else
        printf("  listing failed: %s: %s\n", sbx_error_id(d->plugins_code),
               sbx_strerror(d->plugins_code));
    printf("Default limits (where a backend can enforce them and none is set;\n"
           "  change with --pids/--memory/--disk, turn off with --no-default-limits):\n"
           "  pids %u, memory %llu MiB, disk %llu MiB\n", SBX_DEFAULT_PIDS,
           (unsigned long long)(SBX_DEFAULT_MEMORY >> 20),
           (unsigned long long)(SBX_DEFAULT_DISK >> 20));
    printf("Credentials the plugins read (names only, values never shown):\n");
    each_credential_var(d->plugins, credential_text, NULL);
    printf("  %-20s %s\n", "SANDBOXIO_DSN", d->dsn_redacted ? d->dsn_redacted : "not set");
    return 0;
}

int cmd_doctor(int argc, char **argv)
{
    struct doctor d = { 0 };
    int json = 0, status;

    static const struct option options[] = {
        { "json", no_argument, NULL, 'j' },
        { "online", no_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int opt;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, "+:h", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            return 0;
        case 'j':
            json = 1;
            break;
        case 'o':
            d.online = 1;
            break;
        default:
            return sbx_cli_option_error("doctor", argv, opt, options);
        }
    }
    if (optind < argc)
        return sbx_cli_usage_error("doctor", "unexpected argument '%s'", argv[optind]);

    status = doctor_gather(&d);
    if (status == 0)
        status = json ? print_report_json(&d) : print_report_text(&d);
    doctor_release(&d);
    return status;
}
