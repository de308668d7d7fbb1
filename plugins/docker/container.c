/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandbox's life cycle: a container created from the DSN's image with
 * the policy's limits, kept alive by an init between execs, labelled with
 * its owner so `sandboxio gc` can find it if this process dies, and removed
 * with its work volume on destroy.
 *
 * Hardening is not optional: every capability dropped, no-new-privileges,
 * a read-only root with only the work dir (a volume, which the archive
 * endpoints can reach) and /tmp (a tmpfs) writable, no network unless the
 * policy asks for it, and a seccomp profile of our own: the engine's default
 * profile with the socket families refused that "no network" does not cover
 * (AF_VSOCK first; seccomp-gen.c makes it at build time). With a disk limit
 * the work dir's volume is a tmpfs of that size (the local volume driver
 * mounts it on the daemon's side, so the archive endpoints still reach it),
 * else a plain volume on the daemon's disk.
 */
#include "docker.h"
#include "plugins/docker/seccomp-profile.h" /* generated in the build tree */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The container's own command: docker-init (Init) reaps, this idles. */
static const char *const keepalive_cmd[] = {
    "-c", "trap 'exit 0' TERM; while :; do sleep 86400 & wait $!; done", NULL};

int dk_connect(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_conn *c)
{
    dk_env env = dk_env_from_process();
    dk_endpoint ep;
    int rc = dk_endpoint_from_dsn(host, dsn, &env, &ep);
    if (rc)
        return rc;
    rc = dk_conn_init(c, host, &ep);
    if (rc)
        return rc;
    rc = dk_api_negotiate(c);
    if (rc)
        dk_conn_clear(c);
    return rc;
}

/* Pull progress: log each new status line of the engine's JSON stream. */
typedef struct pull_log {
    dk_conn *c;
    const char *image;
    sbxu_buf line;
    char error[512];
} pull_log;

static void pull_line(pull_log *pl, const char *line)
{
    json_object *o = json_tokener_parse(line);
    if (!o)
        return;
    const char *err = sbxu_json_str(o, "error");
    const char *status = sbxu_json_str(o, "status");
    const char *id = sbxu_json_str(o, "id");
    const char *progress = sbxu_json_str(o, "progress");
    if (err)
        snprintf(pl->error, sizeof(pl->error), "%s", err);
    else if (status && pl->c->host->log)
        pl->c->host->log(SBX_LOG_INFO, DK_NAME, "pulling %s: %s%s%s%s%s", pl->image,
                         id ? id : "", id ? ": " : "", status, progress ? " " : "",
                         progress ? progress : "");
    json_object_put(o);
}

static int pull_sink(void *ud, const void *data, size_t len)
{
    pull_log *pl = ud;
    const char *p = data;
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '\n') {
            pull_line(pl, pl->line.data ? pl->line.data : "");
            pl->line.len = 0;
            if (pl->line.data)
                pl->line.data[0] = '\0';
        } else if (pl->line.len < 65536 && sbxu_buf_append(&pl->line, p + i, 1)) {
            return 1;
        }
    }
    return 0;
}

static int image_pull(dk_conn *c, const char *image)
{
    /* fromImage takes "name[:tag]" or "name@digest"; tag defaults to latest. */
    const char *slash = strrchr(image, '/');
    const char *colon = strrchr(image, ':');
    bool tagged = strchr(image, '@') || (colon && (!slash || colon > slash));
    char *esc = sbxu_http_escape(&c->http, image);
    char path[1200];
    if (!esc)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    snprintf(path, sizeof(path), "/images/create?fromImage=%s%s", esc, tagged ? "" : "&tag=latest");
    curl_free(esc);
    pull_log pl = {.c = c, .image = image};
    sbxu_http_request rq = {.method = "POST", .path = path, .sink = pull_sink, .sink_ud = &pl};
    sbxu_http_response rs = {0};
    char context[700];
    snprintf(context, sizeof(context), "pulling image %s", image);
    if (c->host->log)
        c->host->log(SBX_LOG_INFO, DK_NAME, "image %s is not present: pulling it", image);
    int rc = dk_api_call(c, &rq, &rs, context);
    if (rc == SBX_OK && pl.line.len)
        pull_line(&pl, pl.line.data);
    if (rc == SBX_OK && pl.error[0])
        /* The engine reports pull failures inside a 200 answer. */
        rc = c->host->set_error(dk_errmap_status(500, pl.error), "docker: %s: %s", context,
                                pl.error);
    sbxu_buf_clear(&pl.line);
    sbxu_http_response_clear(&rs);
    return rc;
}

static int image_ensure(dk_conn *c, const dk_options *opt)
{
    char *esc = sbxu_http_escape(&c->http, opt->image);
    char path[1200], context[700];
    if (!esc)
        return c->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    snprintf(path, sizeof(path), "/images/%s/json", esc);
    curl_free(esc);
    sbxu_http_request rq = {.method = "GET", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_http(c, &rq, &rs);
    if (rc == SBX_OK && rs.status == 404) {
        if (opt->pull == DK_PULL_NEVER)
            rc = c->host->set_error(SBX_E_NOT_FOUND,
                                    "docker: image %s is not on %s and pull=never", opt->image,
                                    c->ep.display);
        else
            rc = image_pull(c, opt->image);
    } else if (rc == SBX_OK && (rs.status < 200 || rs.status >= 300)) {
        snprintf(context, sizeof(context), "looking up image %s", opt->image);
        rc = dk_api_fail(c, &rs, context);
    }
    sbxu_http_response_clear(&rs);
    return rc;
}

/*
 * The owner's labels; a named sandbox adds its name, policy, user and exact
 * end. One with a TTL of its own outlives its owner: it carries no owner
 * pid, so gc judges it by its TTL alone.
 */
static json_object *labels(const dk_options *opt, const sbx_plugin_sandbox_opts *named)
{
    uint64_t ttl_ms = named ? named->ttl_ms : 0;
    sbxu_owner_labels me;
    sbxu_owner_labels_make(&me, ttl_ms ? (ttl_ms + 999) / 1000 : opt->ttl_s);
    json_object *l = json_object_new_object();
    for (size_t i = 0; i < SBXU_OWNER_LABELS; i++)
        if (!ttl_ms || (strcmp(me.kv[i].key, SBXU_LABEL_PID) != 0 &&
                        strcmp(me.kv[i].key, SBXU_LABEL_START) != 0))
            sbxu_json_add_str(l, me.kv[i].key, me.kv[i].value);
    if (!named)
        return l;
    char uid[24], expires[24];
    int64_t now_ms = sbxu_wall_ms();
    snprintf(uid, sizeof(uid), "%lu", (unsigned long)geteuid());
    snprintf(expires, sizeof(expires), "%" PRId64, ttl_ms ? now_ms + (int64_t)ttl_ms : 0);
    sbxu_json_add_str(l, DK_LABEL_NAME, named->name ? named->name : "");
    sbxu_json_add_str(l, DK_LABEL_POLICY, named->policy ? named->policy : "");
    sbxu_json_add_str(l, DK_LABEL_UID, uid);
    sbxu_json_add_str(l, DK_LABEL_EXPIRES, expires);
    return l;
}

/*
 * The work dir with a size: an anonymous volume of the local driver that is
 * a tmpfs of that many bytes. Anonymous, it goes with the container (v=1).
 */
static json_object *work_tmpfs_mount(const char *workdir, uint64_t bytes)
{
    char o[80];
    snprintf(o, sizeof(o), "size=%" PRIu64 ",nosuid,nodev", bytes);
    json_object *opts = json_object_new_object();
    sbxu_json_add_str(opts, "type", "tmpfs");
    sbxu_json_add_str(opts, "device", "tmpfs");
    sbxu_json_add_str(opts, "o", o);
    json_object *driver = json_object_new_object();
    sbxu_json_add_str(driver, "Name", "local");
    json_object_object_add(driver, "Options", opts);
    json_object *vopts = json_object_new_object();
    json_object_object_add(vopts, "DriverConfig", driver);
    json_object *m = json_object_new_object();
    sbxu_json_add_str(m, "Type", "volume");
    sbxu_json_add_str(m, "Target", workdir);
    json_object_object_add(m, "VolumeOptions", vopts);
    json_object *a = json_object_new_array();
    json_object_array_add(a, m);
    return a;
}

/*
 * The container's config: the keep-alive as its process, or (one-shot) the
 * exec wrapper's arguments to /bin/sh in sh_args, with the output (and
 * stdin) attached.
 */
static json_object *create_body(const dk_options *opt, const sbx_plugin_limits *limits,
                                const dk_process *proc, json_object *sh_args,
                                const sbx_plugin_sandbox_opts *named)
{
    static const char *const entry[] = {"/bin/sh", NULL};
    static const char *const drop[] = {"ALL", NULL};
    json_object *b = json_object_new_object();
    sbxu_json_add_str(b, "Image", opt->image);
    json_object_object_add(b, "Entrypoint", sbxu_json_str_array(entry));
    if (proc) {
        json_object_object_add(b, "Cmd", json_object_get(sh_args));
        json_object_object_add(b, "AttachStdout", json_object_new_boolean(1));
        json_object_object_add(b, "AttachStderr", json_object_new_boolean(1));
        if (proc->stdin_attached) {
            /* Stdin stays open until the attached client closes its side. */
            json_object_object_add(b, "AttachStdin", json_object_new_boolean(1));
            json_object_object_add(b, "OpenStdin", json_object_new_boolean(1));
            json_object_object_add(b, "StdinOnce", json_object_new_boolean(1));
        }
    } else {
        json_object_object_add(b, "Cmd", sbxu_json_str_array(keepalive_cmd));
    }
    sbxu_json_add_str(b, "WorkingDir", opt->workdir);
    json_object_object_add(b, "Labels", labels(opt, named));
    json_object *h = json_object_new_object();
    uint64_t disk = limits && SBX_STRUCT_HAS(limits, disk_bytes)
                        ? limits->disk_bytes : 0;
    if (disk) {
        json_object_object_add(h, "Mounts", work_tmpfs_mount(opt->workdir, disk));
    } else {
        json_object *vols = json_object_new_object();
        json_object_object_add(vols, opt->workdir, json_object_new_object());
        json_object_object_add(b, "Volumes", vols);
    }

    json_object_object_add(h, "Init", json_object_new_boolean(1));
    int network = limits && SBX_STRUCT_HAS(limits, network) ? limits->network
                                                                           : SBX_NET_NONE;
    /*
     * SBX_NET_OPEN takes the daemon's default network; anything else gets
     * none. NetworkDisabled makes it runc's own fresh network namespace, with
     * only the loopback (which runc brings up): the engine then skips its
     * network sandbox and the prestart hook that re-executes the daemon,
     * 150-200 ms of every start here. The engine adds no /etc/hosts then.
     */
    if (network != SBX_NET_OPEN) {
        sbxu_json_add_str(h, "NetworkMode", "none");
        json_object_object_add(b, "NetworkDisabled", json_object_new_boolean(1));
    }
    json_object_object_add(h, "ReadonlyRootfs", json_object_new_boolean(1));
    json_object *tmpfs = json_object_new_object();
    sbxu_json_add_str(tmpfs, "/tmp", "rw,nosuid,nodev,exec,size=268435456");
    json_object_object_add(h, "Tmpfs", tmpfs);
    json_object_object_add(h, "CapDrop", sbxu_json_str_array(drop));
    const char *const secopt[] = {"no-new-privileges:true", dk_seccomp_secopt, NULL};
    json_object_object_add(h, "SecurityOpt", sbxu_json_str_array(secopt));
    if (limits && SBX_STRUCT_HAS(limits, pids)) {
        if (limits->memory_bytes) {
            json_object_object_add(h, "Memory", json_object_new_int64((int64_t)limits->memory_bytes));
            /* Equal to Memory: no swap to spill into. */
            json_object_object_add(h, "MemorySwap",
                                   json_object_new_int64((int64_t)limits->memory_bytes));
        }
        if (limits->cpu_millis)
            json_object_object_add(h, "NanoCpus",
                                   json_object_new_int64((int64_t)limits->cpu_millis * 1000000));
        if (limits->pids)
            json_object_object_add(h, "PidsLimit", json_object_new_int64(limits->pids));
    }
    json_object_object_add(b, "HostConfig", h);
    return b;
}

int dk_container_remove(dk_conn *c, const char *id)
{
    char path[160];
    snprintf(path, sizeof(path), "/containers/%s?force=1&v=1", id);
    sbxu_http_request rq = {.method = "DELETE", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_http(c, &rq, &rs);
    if (rc == SBX_OK && rs.status != 204 && rs.status != 200 && rs.status != 404)
        rc = dk_api_fail(c, &rs, "removing the container");
    sbxu_http_response_clear(&rs);
    return rc;
}

static int create_container(dk_sandbox *sb, const sbx_plugin_limits *limits,
                            const dk_process *proc, json_object **out)
{
    json_object *sh_args = proc ? dk_exec_sh_args(sb->opt.workdir, proc->cmd) : NULL;
    if (proc && !sh_args)
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    json_object *body = create_body(&sb->opt, limits, proc, sh_args, sb->named);
    json_object_put(sh_args);
    const char *text = json_object_to_json_string_ext(body, JSON_C_TO_STRING_PLAIN);
    char context[700], path[160] = "/containers/create";
    /* The core checked the name: [a-z0-9][a-z0-9_.-]{0,62}, fit for the engine. */
    if (sb->named && sb->named->name)
        snprintf(path, sizeof(path), "/containers/create?name=" DK_NAME_PREFIX "%s",
                 sb->named->name);
    snprintf(context, sizeof(context), "creating a container of %s", sb->opt.image);
    int rc = text ? dk_api_json(&sb->conn, "POST", path, text, context, out)
                  : sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    json_object_put(body);
    return rc;
}

/*
 * The engine drops a resource limit the kernel cannot enforce with only a
 * warning in the create answer ("... Limitation discarded."). A policy is
 * never silently weakened: such a warning refuses the sandbox with the
 * policy code of the control, unless the limit was only the core's default;
 * other warnings are logged.
 */
static int check_warnings(dk_sandbox *sb, const sbx_plugin_limits *limits, json_object *created)
{
    uint64_t defaulted = limits && SBX_STRUCT_HAS(limits, defaulted)
                             ? limits->defaulted : 0;
    json_object *w = NULL;
    if (!json_object_object_get_ex(created, "Warnings", &w) ||
        !json_object_is_type(w, json_type_array))
        return SBX_OK;
    for (size_t i = 0; i < json_object_array_length(w); i++) {
        const char *text = json_object_get_string(json_object_array_get_idx(w, i));
        if (!text || !text[0])
            continue;
        int code = dk_errmap_limit_warning(text);
        uint64_t control = code == SBX_E_POLICY_MEMORY ? SBX_CAP_LIMIT_MEMORY
                           : code == SBX_E_POLICY_PIDS ? SBX_CAP_LIMIT_PIDS
                           : code == SBX_E_POLICY_CPU  ? SBX_CAP_LIMIT_CPU : 0;
        /* A default limit protects the host where it can; it refuses nothing. */
        if (code && (defaulted & control)) {
            if (sb->host->log)
                sb->host->log(SBX_LOG_WARN, DK_NAME, "default limit left out: %s", text);
            continue;
        }
        if (code)
            return sb->host->set_error(code, "docker: the daemon cannot enforce a limit of the "
                                             "policy: %s",
                                       text);
        if (sb->host->log)
            sb->host->log(SBX_LOG_WARN, DK_NAME, "the daemon warns: %s", text);
    }
    return SBX_OK;
}

void dk_sandbox_free(dk_sandbox *sb)
{
    free(sb->policy);
    dk_conn_clear(&sb->conn);
    dk_options_clear(&sb->opt);
    pthread_mutex_destroy(&sb->lock);
    free(sb);
}

int dk_sandbox_new(const sbx_host *host, const sbx_plugin_dsn *dsn, dk_sandbox **out)
{
    dk_sandbox *sb = calloc(1, sizeof(*sb));
    if (!sb || pthread_mutex_init(&sb->lock, NULL) != 0) {
        free(sb);
        host->set_error(SBX_E_NOMEM, "docker: out of memory");
        return SBX_E_NOMEM; /* a constant: the analyzer cannot see set_error's */
    }
    sb->host = host;
    int rc = dk_options_parse(host, dsn, &sb->opt);
    if (rc == SBX_OK)
        rc = dk_connect(host, dsn, &sb->conn);
    if (rc) {
        dk_options_clear(&sb->opt);
        pthread_mutex_destroy(&sb->lock);
        free(sb);
        return rc;
    }
    *out = sb;
    return SBX_OK;
}

int dk_sandbox_create(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
                      const dk_process *proc, const sbx_plugin_sandbox_opts *named,
                      dk_sandbox **out)
{
    dk_state *st = state;
    const sbx_host *host = st->host;
    dk_sandbox *sb;
    int rc = dk_sandbox_new(host, dsn, &sb);
    if (rc)
        return rc;
    sb->named = named;
    /* Create first: the image is looked up (and pulled) only when missing. */
    json_object *created = NULL;
    rc = create_container(sb, limits, proc, &created);
    if (rc == SBX_E_NOT_FOUND) {
        rc = image_ensure(&sb->conn, &sb->opt);
        if (rc == SBX_OK)
            rc = create_container(sb, limits, proc, &created);
    }
    const char *id = rc == SBX_OK ? sbxu_json_str(created, "Id") : NULL;
    if (rc == SBX_OK && (!id || !id[0] || strlen(id) >= sizeof(sb->id) ||
                         strspn(id, "0123456789abcdef") != strlen(id)))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL,
                             "docker: the daemon's answer to create has no usable Id");
    if (rc == SBX_OK)
        snprintf(sb->id, sizeof(sb->id), "%s", id);
    if (rc == SBX_OK && (rc = check_warnings(sb, limits, created)) != SBX_OK)
        (void)dk_container_remove(&sb->conn, sb->id);
    json_object_put(created);
    if (rc) {
        dk_sandbox_free(sb);
        return rc;
    }
    sb->memory_limited = limits && SBX_STRUCT_HAS(limits, memory_bytes) &&
                         limits->memory_bytes;
    *out = sb;
    return SBX_OK;
}

int dk_container_start(dk_sandbox *sb)
{
    char path[160];
    snprintf(path, sizeof(path), "/containers/%s/start", sb->id);
    sbxu_http_request rq = {.method = "POST", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_api_call(&sb->conn, &rq, &rs, "starting the container");
    sbxu_http_response_clear(&rs);
    return rc;
}

int dk_open(void *state, const sbx_plugin_dsn *dsn, const sbx_plugin_limits *limits,
            void **sandbox)
{
    dk_sandbox *sb;
    int rc = dk_sandbox_create(state, dsn, limits, NULL, NULL, &sb);
    if (rc)
        return rc;
    rc = dk_container_start(sb);
    if (rc) {
        /* Fail closed: nothing half-made stays behind. */
        (void)dk_container_remove(&sb->conn, sb->id);
        dk_sandbox_free(sb);
        return rc;
    }
    *sandbox = sb;
    return SBX_OK;
}

int dk_destroy(void *sandbox)
{
    dk_sandbox *sb = sandbox;
    int (*remove)(dk_conn *, const char *) = sb->kept ? dk_kept_remove : dk_container_remove;
    int rc = remove(&sb->conn, sb->id);
    /* One retry for a dropped connection; the core never calls destroy twice. */
    if (rc == SBX_E_BACKEND_TRANSPORT)
        rc = remove(&sb->conn, sb->id);
    /* The handle goes whatever happened; a container left behind carries
     * its owner and TTL labels, so `sandboxio gc` removes it later. */
    dk_sandbox_free(sb);
    return rc;
}

const char *dk_sandbox_id(void *sandbox)
{
    dk_sandbox *sb = sandbox;
    return sb->id;
}
