/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How commands end when they do not end by themselves, and how an end is
 * told apart: the engine has no call to kill an exec, so a second exec kills
 * the first one's session; and an exec killed by SIGKILL under a memory
 * limit is an OOM kill when the container's cgroup counted one more.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Kill every process of session $1, again until none is left (a fork storm
 * may add some while the first sweep runs). Builtins only: once started, the
 * sweep forks nothing. Starting it can still fail when a fork storm holds
 * every pid the limit allows (runc's own setup forks inside the cgroup):
 * then the whole container is killed and started again (see kill_all).
 */
static const char kill_script[] =
    "s=$1; n=0; while [ $n -lt 20 ]; do n=$((n + 1)); found=\n"
    "for d in /proc/[0-9]*; do read -r l < \"$d/stat\" || continue; set -f; set -- ${l##*) }; set +f\n"
    "  if [ \"$4\" = \"$s\" ]; then kill -9 \"${d#/proc/}\" 2>/dev/null; found=1; fi; done\n"
    "[ -n \"$found\" ] || break; done; exit 0\n";

/* POST path, expecting 204 (or 304: already in that state; or also_ok, if non-zero). */
static int post_simple(dk_sandbox *sb, const char *path, const char *context, long also_ok)
{
    sbxu_http_request rq = {.method = "POST", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_http(&sb->conn, &rq, &rs);
    if (rc == SBX_OK && rs.status != 204 && rs.status != 304 && rs.status != 200 &&
        (!also_ok || rs.status != also_ok))
        rc = dk_api_fail(&sb->conn, &rs, context);
    sbxu_http_response_clear(&rs);
    return rc;
}

/*
 * The last resort to end a command: SIGKILL the container's init, which ends
 * every process in its pid namespace, wait until it has stopped, and start it
 * again. The work directory is a volume, so the files survive; processes of
 * other execs running at that moment die too.
 */
static int kill_all(dk_sandbox *sb)
{
    char path[200];
    sb->host->log(SBX_LOG_WARN, "docker", "no process could be started in container %.12s to "
                  "end a command (every pid in use?): restarting the container", sb->id);
    snprintf(path, sizeof(path), "/containers/%s/kill?signal=KILL", sb->id);
    int rc = post_simple(sb, path, "killing the container to end a command", 0);
    if (rc == SBX_OK) {
        snprintf(path, sizeof(path), "/containers/%s/wait?condition=not-running", sb->id);
        rc = post_simple(sb, path, "waiting for the killed container to stop", 0);
    }
    if (rc == SBX_OK) {
        snprintf(path, sizeof(path), "/containers/%s/start", sb->id);
        rc = post_simple(sb, path, "starting the container again after killing it", 0);
    }
    return rc;
}

/* Kill the command's session with a second, detached exec, else everything. */
int dk_exec_kill_session(dk_sandbox *sb, long session)
{
    char sidtxt[32], id[80], path[160];
    snprintf(sidtxt, sizeof(sidtxt), "%ld", session);
    const char *const argv[] = {"/bin/sh", "-c", kill_script, "sbx-kill", sidtxt, NULL};
    json_object *body = json_object_new_object();
    json_object *cmd = json_object_new_array();
    for (size_t i = 0; argv[i]; i++)
        json_object_array_add(cmd, json_object_new_string(argv[i]));
    json_object_object_add(body, "Cmd", cmd);
    int rc = dk_exec_create(sb, body, id, sizeof(id));
    json_object_put(body);
    if (rc)
        return rc;
    snprintf(path, sizeof(path), "/exec/%s/start", id);
    sbxu_http_request rq = {.method = "POST", .path = path,
                           .body = "{\"Detach\":true,\"Tty\":false}"};
    sbxu_http_response rs = {0};
    rc = dk_api_call(&sb->conn, &rq, &rs, "starting the exec that kills a command");
    sbxu_http_response_clear(&rs);
    return rc ? kill_all(sb) : SBX_OK;
}

/* Did the memory limit kill something since the last look? (cgroup v2, then v1) */
bool dk_exec_oom_happened(dk_sandbox *sb)
{
    static const char *const argv[] = {
        "/bin/sh", "-c",
        "cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null",
        NULL};
    sbxu_buf out = {0};
    int code = -1;
    bool oom = false;
    if (dk_exec_simple(sb, argv, &out, 4096, &code) == SBX_OK && out.data) {
        const char *k = strstr(out.data, "oom_kill ");
        unsigned long long count = k ? strtoull(k + 9, NULL, 10) : 0;
        pthread_mutex_lock(&sb->lock);
        if (count > sb->oom_seen) {
            sb->oom_seen = count;
            oom = true;
        }
        pthread_mutex_unlock(&sb->lock);
    }
    sbxu_buf_clear(&out);
    return oom;
}

/* A one-shot container: SIGKILL its init, which ends every process in it. */
int dk_container_kill(dk_sandbox *sb)
{
    char path[200];
    snprintf(path, sizeof(path), "/containers/%s/kill?signal=KILL", sb->id);
    /* 409: it is not running any more, which is what was wanted. */
    return post_simple(sb, path, "killing the container of a one-shot run", 409);
}

/* A one-shot container's exit status, once it has stopped. */
int dk_container_wait(dk_sandbox *sb, int *code)
{
    char path[200];
    json_object *o = NULL;
    snprintf(path, sizeof(path), "/containers/%s/wait", sb->id);
    int rc = dk_api_json(&sb->conn, "POST", path, NULL, "waiting for the container", &o);
    int64_t status = rc == SBX_OK ? sbxu_json_int(o, "StatusCode", -1) : -1;
    if (rc == SBX_OK && (status < 0 || status > 255))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                 "docker: the container's wait answer has no status");
    json_object_put(o);
    if (rc == SBX_OK)
        *code = (int)status;
    return rc;
}

/* Did the memory limit kill a one-shot container's process? (the engine's own record) */
bool dk_container_oom_killed(dk_sandbox *sb)
{
    char path[200];
    json_object *o = NULL, *state = NULL;
    snprintf(path, sizeof(path), "/containers/%s/json", sb->id);
    bool oom = dk_api_json(&sb->conn, "GET", path, NULL, "inspecting the container", &o) == SBX_OK &&
               json_object_object_get_ex(o, "State", &state) && sbxu_json_bool(state, "OOMKilled");
    json_object_put(o);
    return oom;
}
