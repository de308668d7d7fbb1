/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A command in a Daytona sandbox, through the daemon's session API: each
 * exec has a session of its own (POST /process/session), so commands run
 * side by side and a command that exits cannot end another's shell, and
 * runs one asynchronous session command (`runAsync`, input echo
 * suppressed): a small Perl wrapper (wrapper.c) that runs the command,
 * writes its output into chunk files of a directory of its own and its
 * status as a file name, and reads control lines from its stdin.
 * The daemon's own log cannot carry the output: its labellers copy it line
 * by line, so a NUL byte is lost, a last line gains a newline, and the log
 * is answered whole each time it is asked for (daemon pkg/session, see
 * tests/doubles/README.md). Its input endpoint appends a newline to each
 * write and never gives EOF; hex lines and "e" make stdin exact.
 *
 * The adapter polls the directory (GET /files, after pauses of a quarter
 * of the time since output last came, 10 to 200 ms), streams each chunk
 * to the caller in order (GET /files/download) and deletes it, and reads
 * the exit code from the command's record (GET .../command/{id}) once the
 * status is there. The timeout, a cancel or a stopped output callback
 * send "k": the command's whole process group is killed, and deleting the
 * exec's session then reaches whatever is left of it (SIGTERM, then
 * SIGKILL, to every descendant).
 * The session of a command that ended by itself is deleted, with its dir,
 * by the sandbox's next exec, or goes with the sandbox (defer_cleanup):
 * a one-shot run makes no calls for it.
 */
#include "daytona.h"
#include <sbxu/clock.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sandboxio/errors.h>
#include <sandboxio/exec.h>

#include <sbxu/feed.h>

/* execvp()'s search path when PATH is unset (glibc's confstr _CS_PATH). */
#define NO_PATH_DEFAULT "/bin:/usr/bin"
/* Bytes of stdin in one input call (twice that in hex). */
#define INPUT_CHUNK 32768
/* How long a killed command may take to say so. */
#define KILL_WAIT_MS 10000
#define POLL_MIN_MS 10
#define POLL_MAX_MS 200

enum {
    S_RUNNING = DAYTONA_S_RUNNING,
    S_EXIT = DAYTONA_S_EXIT,
    S_SIGNAL = DAYTONA_S_SIGNAL,
    S_NOCWD = DAYTONA_S_NOCWD,
    S_NOEXEC = DAYTONA_S_NOEXEC,
    S_NOPERM = DAYTONA_S_NOPERM,
};

typedef struct run {
    daytona_sandbox *sb;
    const sbx_plugin_cmd *cmd;
    const sbx_plugin_io *io;
    char sid[64], dir[96], cmd_id[80];
    char cmd_path[256];                 /* /process/session/{sid}/command/{id} */
    uint64_t seq[3];                    /* the next chunk of stdout [1], stderr [2] */
    int status, value;                  /* from the wrapper's status */
    int cancel_fd;
    int64_t deadline;                   /* CLOCK_MONOTONIC ms; 0: none */
    int64_t killed_at;
    bool killed, timed_out, cancelled, aborted;
    sbxu_feed feed;                      /* stdin */
    bool input_gone;                    /* the command ended before its stdin did */
} run;

/* One control line to the wrapper (the daemon adds the newline). */
static int send_line(run *r, const char *line)
{
    char path[400];
    snprintf(path, sizeof(path), "%s/input", r->cmd_path);
    json_object *o = json_object_new_object();
    int bad = !o || sbxu_json_add_str(o, "data", line);
    char *body = bad ? NULL : sbxu_json_text(o);
    json_object_put(o);
    if (!body)
        return r->sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    long status = 0;
    int rc = daytona_tb_call(r->sb, "POST", path, body, SBXU_HTTP_RETRY_NEVER, "sending stdin",
                             NULL, &status);
    free(body);
    /* The command ended before it took its stdin (410): nothing more to send. */
    if (rc != SBX_OK && status == 410) {
        __atomic_store_n(&r->input_gone, true, __ATOMIC_RELAXED);
        rc = SBX_OK;
    }
    return rc;
}

/* One chunk of stdin as a hex line, or the end. */
static int send_chunk(void *ud, const void *data, size_t n)
{
    run *r = ud;
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = data;
    if (__atomic_load_n(&r->input_gone, __ATOMIC_RELAXED))
        return SBX_OK;
    if (n == 0)
        return send_line(r, "e");
    char *line = malloc(2 * n + 2);
    if (!line)
        return r->sb->host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    line[0] = 'd';
    for (size_t i = 0; i < n; i++) {
        line[1 + 2 * i] = hex[p[i] >> 4];
        line[2 + 2 * i] = hex[p[i] & 15];
    }
    line[1 + 2 * n] = '\0';
    int rc = send_line(r, line);
    free(line);
    return rc;
}

/* --- starting ------------------------------------------------------------------- */

static char *command_line(run *r)
{
    const sbx_plugin_cmd *cmd = r->cmd;
    const char *path;
    size_t nenv, nargv;
    /*
     * HOME is the home (the work dir) unless the command's environment
     * sets it: the wrapper assigns the words in order, the last one wins.
     */
    char count[24], *cwd = NULL, home[sizeof("HOME=") + sizeof(r->sb->home)];
    sbxu_remote_cmd_shape(cmd, NO_PATH_DEFAULT, 1, &path, &nenv, count, &nargv);
    /* Relative to the home, or absolute (SBX_CAP_CWD_ABS). */
    bool abs = cmd->cwd && cmd->cwd[0] == '/';
    if (asprintf(&cwd, "%s%s%s", abs ? "" : r->sb->home,
                 !abs && cmd->cwd && cmd->cwd[0] ? "/" : "", cmd->cwd ? cmd->cwd : "") < 0)
        return NULL;
    snprintf(home, sizeof(home), "HOME=%s", r->sb->home);
    const char **words = calloc(10 + nenv + nargv, sizeof(*words));
    char *line = NULL;
    if (words) {
        size_t n = 0;
        words[n++] = "perl";
        words[n++] = "-e";
        words[n++] = daytona_wrapper;
        words[n++] = r->dir;
        words[n++] = r->io->input ? "1" : "0";
        words[n++] = cwd;
        words[n++] = path;
        words[n++] = count;
        words[n++] = home;
        for (size_t i = 0; i < nenv; i++)
            words[n++] = cmd->envp[i];
        for (size_t i = 0; i < nargv; i++)
            words[n++] = cmd->argv[i];
        words[n] = NULL;
        line = daytona_quote_argv(words);
    }
    free(words);
    free(cwd);
    return line;
}

static int start(run *r)
{
    const sbx_host *host = r->sb->host;
    char path[200], *text = NULL;
    json_object *o = json_object_new_object();
    int bad = !o || sbxu_json_add_str(o, "sessionId", r->sid);
    text = bad ? NULL : sbxu_json_text(o);
    json_object_put(o);
    if (!text)
        return host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    int rc = daytona_tb_call(r->sb, "POST", "/process/session", text, SBXU_HTTP_RETRY_NEVER,
                             "making the command's session", NULL, NULL);
    free(text);
    if (rc)
        return rc;
    char *line = command_line(r);
    o = json_object_new_object();
    bad = !line || !o || sbxu_json_add_str(o, "command", line) ||
          sbxu_json_add(o, "runAsync", json_object_new_boolean(1)) ||
          sbxu_json_add(o, "suppressInputEcho", json_object_new_boolean(1));
    text = bad ? NULL : sbxu_json_text(o);
    json_object_put(o);
    free(line);
    if (!text)
        return host->set_error(SBX_E_NOMEM, "daytona: out of memory");
    json_object *ans = NULL;
    const char *id = NULL;
    snprintf(path, sizeof(path), "/process/session/%s/exec", r->sid);
    rc = daytona_tb_call(r->sb, "POST", path, text, SBXU_HTTP_RETRY_NEVER, "starting the command",
                         &ans, NULL);
    free(text);
    if (rc == SBX_OK)
        rc = sbxu_json_get_string(&id, host, DAYTONA_NAME, "starting the command", ans, "cmdId");
    if (rc == SBX_OK && (!id[0] || strlen(id) >= sizeof(r->cmd_id) || strchr(id, '/')))
        rc = host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the daemon gave a bad command id");
    if (rc == SBX_OK) {
        snprintf(r->cmd_id, sizeof(r->cmd_id), "%s", id);
        snprintf(r->cmd_path, sizeof(r->cmd_path), "/process/session/%s/command/%s", r->sid,
                 r->cmd_id);
    }
    json_object_put(ans);
    return rc;
}

/* --- output ----------------------------------------------------------------------- */

typedef struct sink_ctx {
    run *r;
    int stream;
} sink_ctx;

static int to_caller(void *ud, const void *data, size_t len)
{
    sink_ctx *s = ud;
    run *r = s->r;
    if (r->aborted || !len || !r->io->output)
        return 0;
    if (r->io->output(r->io->userdata, s->stream, data, len) != 0) {
        r->aborted = true;
        return 1;
    }
    return 0;
}

/* Stream the file at name in the exec's dir to sink. */
static int fetch(run *r, const char *name, int (*sink)(void *, const void *, size_t), void *ud)
{
    char file[160], path[600];
    snprintf(file, sizeof(file), "%s/%s", r->dir, name);
    int rc = daytona_tb_path(r->sb, path, sizeof(path), "/files/download", "path", file);
    if (rc)
        return rc;
    sbxu_http_request rq = {
        .method = "GET", .path = path, .sink = sink, .sink_ud = ud, .body_cap = 4096,
        /* A retry would repeat bytes the sink already has. */
        .retry = SBXU_HTTP_RETRY_NEVER,
    };
    sbxu_http_response rs = {0};
    rc = daytona_tb_send(r->sb, &rq, &rs);
    if (rc == SBX_OK && rs.status != 200 && !rs.sink_stopped)
        rc = daytona_tb_fail(r->sb, rs.status, rs.body.data, rs.body.len, "reading output");
    sbxu_http_response_clear(&rs);
    return rc;
}

static int remove_file(daytona_sandbox *sb, const char *file, bool recursive)
{
    char path[600];
    int rc = daytona_tb_path(sb, path, sizeof(path), "/files", "path", file);
    if (rc == SBX_OK && recursive && strlen(path) + 16 < sizeof(path))
        strcat(path, "&recursive=true");
    return rc ? rc : daytona_tb_call(sb, "DELETE", path, NULL, SBXU_HTTP_RETRY_AUTO,
                                     "removing output", NULL, NULL);
}

static bool listed(json_object *list, const char *name)
{
    size_t n = json_object_array_length(list);
    for (size_t i = 0; i < n; i++) {
        const char *e = sbxu_json_str(json_object_array_get_idx(list, i), "name");
        if (e && strcmp(e, name) == 0)
            return true;
    }
    return false;
}

/*
 * The wrapper's status is the name of an empty file, "status." and the
 * status with its spaces as dots ("status.exit.0"), so the listing that
 * shows it also says it: no call reads it.
 */
static int read_status(run *r, json_object *list)
{
    size_t n = json_object_array_length(list);
    for (size_t i = 0; i < n; i++) {
        const char *e = sbxu_json_str(json_object_array_get_idx(list, i), "name");
        if (!e || strncmp(e, "status.", 7) != 0)
            continue;
        char text[32];
        size_t len = strlen(e + 7);
        if (len >= sizeof(text))
            len = sizeof(text) - 1;
        memcpy(text, e + 7, len);
        for (size_t j = 0; j < len; j++)
            if (text[j] == '.')
                text[j] = ' ';
        if (daytona_status_parse(text, len, &r->status, &r->value) != 0)
            return r->sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the wrapper's status "
                                          "is garbled");
        return SBX_OK;
    }
    return SBX_OK;
}

/* A call whose failure is only logged: its HTTP status, 0 when none came. */
static long quietly(daytona_sandbox *sb, const char *method, const char *path)
{
    sbxu_http_request rq = {.method = method, .path = path, .retry = SBXU_HTTP_RETRY_AUTO,
                           .timeout_ms = SBXU_HTTP_AGENT_TIMEOUT_MS};
    sbxu_http_response rs = {0};
    long status = daytona_tb_send(sb, &rq, &rs) == SBX_OK ? rs.status : 0;
    sbxu_http_response_clear(&rs);
    return status;
}

/* One look at the exec's dir: the chunks that are there, in order, then the status. */
static int drain(run *r, bool *got)
{
    char path[600];
    json_object *list = NULL;
    long status = 0;
    *got = false;
    int rc = daytona_tb_path(r->sb, path, sizeof(path), "/files", "path", r->dir);
    if (rc == SBX_OK)
        rc = daytona_tb_call(r->sb, "GET", path, NULL, SBXU_HTTP_RETRY_AUTO, "watching the command",
                             &list, &status);
    /* The wrapper has not made its dir yet: nothing to see so far (one
     * call either way: a listing is not asked for twice). */
    if (rc != SBX_OK && status == 404)
        return SBX_OK;
    if (rc == SBX_OK && !json_object_is_type(list, json_type_array))
        rc = r->sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "daytona: the file list is not an "
                                    "array");
    for (int stream = SBX_STDOUT; rc == SBX_OK && stream <= SBX_STDERR; stream++) {
        for (;;) {
            char name[32];
            snprintf(name, sizeof(name), "%c.%09llu", stream == SBX_STDOUT ? 'o' : 'e',
                     (unsigned long long)r->seq[stream]);
            if (!listed(list, name))
                break;
            sink_ctx s = {.r = r, .stream = stream};
            rc = fetch(r, name, to_caller, &s);
            char file[160];
            snprintf(file, sizeof(file), "%s/%s", r->dir, name);
            if (rc == SBX_OK)
                rc = remove_file(r->sb, file, false);
            if (rc)
                break;
            r->seq[stream]++;
            *got = true;
        }
    }
    if (rc == SBX_OK)
        rc = read_status(r, list);
    json_object_put(list);
    return rc;
}

/* --- the loop ------------------------------------------------------------------------ */

static bool cancel_ready(run *r, int timeout_ms)
{
    struct pollfd p = {.fd = r->cancel_fd, .events = POLLIN};
    if (r->cancel_fd < 0) {
        if (timeout_ms > 0)
            usleep((useconds_t)timeout_ms * 1000);
        return false;
    }
    return poll(&p, 1, timeout_ms) > 0;
}

/*
 * Whether the daemon has an exit code for the command (it ended). A failed
 * look is the exec's failure: a 404 here is the proxy's for a sandbox that
 * is gone (the command's record exists from its start).
 */
static int record_ended(run *r, bool *ended, int *code)
{
    json_object *rec = NULL;
    int rc = daytona_tb_call(r->sb, "GET", r->cmd_path, NULL, SBXU_HTTP_RETRY_AUTO,
                             "reading the command's record", &rec, NULL);
    *ended = rc == SBX_OK && sbxu_json_at(rec, "exitCode");
    *code = *ended ? (int)sbxu_json_int(rec, "exitCode", -1) : 0;
    json_object_put(rec);
    return rc;
}

/* The wrapper ended without its status: it could not run (no perl?) or failed. */
static int no_status(run *r, int code)
{
    if (code == 127)
        return r->sb->host->set_error(SBX_E_EXEC_START,
                                      "daytona: cannot run \"%s\": the sandbox has no perl, which "
                                      "the daytona backend runs commands with (Debian's "
                                      "perl-base)", r->cmd->argv[0]);
    return r->sb->host->set_error(SBX_E_BACKEND_FAILED,
                                  "daytona: the command wrapper of \"%s\" failed (exit %d) "
                                  "without a status", r->cmd->argv[0], code);
}

static int watch(run *r)
{
    int rc = SBX_OK;
    int64_t looked = sbxu_mono_ms(), came = looked;
    /* The wrapper has just been handed to the session's shell: perl has
     * not started yet, so a look now would only find no dir. */
    if (cancel_ready(r, POLL_MIN_MS))
        r->cancelled = true;
    while (rc == SBX_OK && r->status == S_RUNNING) {
        int fed = sbxu_feed_failed(&r->feed);
        if (fed != SBX_OK) {
            /* Its stdin could not be sent: the command would wait for it for ever. */
            send_line(r, "k");
            return r->sb->host->set_error(fed, "daytona: the stdin of \"%s\" could not be sent; "
                                          "the command was killed", r->cmd->argv[0]);
        }
        if (!r->cancelled && cancel_ready(r, 0))
            r->cancelled = true;
        if (r->deadline && sbxu_mono_ms() >= r->deadline)
            r->timed_out = true;
        if (!r->killed && (r->cancelled || r->timed_out || r->aborted)) {
            r->killed = true;
            r->killed_at = sbxu_mono_ms();
            /* The command may have just ended (410): its status says so. */
            send_line(r, "k");
        }
        if (r->killed && sbxu_mono_ms() - r->killed_at > KILL_WAIT_MS)
            return r->sb->host->set_error(SBX_E_BACKEND_FAILED,
                                          "daytona: \"%s\" was killed and did not end within %d s",
                                          r->cmd->argv[0], KILL_WAIT_MS / 1000);
        bool got = false;
        rc = drain(r, &got);
        if (rc || r->status != S_RUNNING)
            break;
        int code;
        bool ended;
        if (!got && sbxu_mono_ms() - looked >= 1000) {
            looked = sbxu_mono_ms();
            /* Ended, and still no status after one more look: it never will have one. */
            if ((rc = record_ended(r, &ended, &code)) == SBX_OK && ended &&
                (rc = drain(r, &got)) == SBX_OK && r->status == S_RUNNING)
                return no_status(r, code);
            if (rc || r->status != S_RUNNING)
                break;
        }
        /* A quarter of the time since output last came (or the command was
         * handed over): what comes is seen at most a quarter late. */
        if (got)
            came = sbxu_mono_ms();
        int64_t pause = (sbxu_mono_ms() - came) / 4;
        pause = pause < POLL_MIN_MS ? POLL_MIN_MS : pause > POLL_MAX_MS ? POLL_MAX_MS : pause;
        if (!r->killed && cancel_ready(r, (int)pause))
            r->cancelled = true;
        else if (r->killed)
            usleep(POLL_MIN_MS * 1000);
    }
    return rc;
}

/* The command's record: the exit code the daemon wrote. */
static int record_exit(run *r, int *code)
{
    json_object *rec = NULL;
    int64_t v = 0;
    int rc = daytona_tb_call(r->sb, "GET", r->cmd_path, NULL, SBXU_HTTP_RETRY_AUTO,
                             "reading the command's record", &rec, NULL);
    for (int i = 0; rc == SBX_OK && i < 50 && !sbxu_json_at(rec, "exitCode"); i++) {
        /* The wrapper wrote its status just before it exited: the record follows. */
        json_object_put(rec);
        rec = NULL;
        usleep(20000);
        rc = daytona_tb_call(r->sb, "GET", r->cmd_path, NULL, SBXU_HTTP_RETRY_AUTO,
                             "reading the command's record", &rec, NULL);
    }
    if (rc == SBX_OK)
        rc = sbxu_json_get_int(&v, r->sb->host, DAYTONA_NAME, "the command's record", rec,
                              "exitCode");
    *code = (int)v;
    json_object_put(rec);
    return rc;
}

/* The exec dir of the session sid. */
static void exec_dir(char *out, size_t size, const char *sid)
{
    snprintf(out, size, "/tmp/.%s", sid);
}

/* The session sid and its exec's dir go; no error of theirs hides an exec's. */
static void cleanup(daytona_sandbox *sb, const char *sid)
{
    char path[600], dir[96];
    snprintf(path, sizeof(path), "/process/session/%s", sid);
    long status = quietly(sb, "DELETE", path);
    if (status != 204 && status != 404)
        sb->host->log(SBX_LOG_WARN, DAYTONA_NAME, "could not delete the session %s (HTTP %ld)",
                      sid, status);
    exec_dir(dir, sizeof(dir), sid);
    if (daytona_tb_path(sb, path, sizeof(path) - 16, "/files", "path", dir) == SBX_OK) {
        strcat(path, "&recursive=true");
        status = quietly(sb, "DELETE", path);
        if (status != 204 && status != 404)
            sb->host->log(SBX_LOG_WARN, DAYTONA_NAME, "could not remove %s (HTTP %ld)", dir,
                          status);
    }
}

/*
 * The session of an exec whose command ended by itself is left for later:
 * the sandbox's next exec deletes it before it starts, and the sandbox's
 * delete takes it with everything else, so a run's one exec makes no
 * calls for it. (Anything the command left running in the background
 * runs on until then.) A full list is cleaned up at once.
 */
static void defer_cleanup(daytona_sandbox *sb, const char *sid)
{
    pthread_mutex_lock(&sb->lock);
    bool kept = sb->n_ended < DAYTONA_ENDED_MAX;
    if (kept)
        snprintf(sb->ended[sb->n_ended++], sizeof(sb->ended[0]), "%s", sid);
    pthread_mutex_unlock(&sb->lock);
    if (!kept)
        cleanup(sb, sid);
}

/* The sessions left for later (defer_cleanup) go now. */
static void cleanup_ended(daytona_sandbox *sb)
{
    char ended[DAYTONA_ENDED_MAX][sizeof(sb->ended[0])];
    pthread_mutex_lock(&sb->lock);
    size_t n = sb->n_ended;
    memcpy(ended, sb->ended, n * sizeof(ended[0]));
    sb->n_ended = 0;
    pthread_mutex_unlock(&sb->lock);
    for (size_t i = 0; i < n; i++)
        cleanup(sb, ended[i]);
}

static int start_failure(run *r)
{
    return sbxu_remote_start_failure(r->sb->host, DAYTONA_NAME,
                                    SBXU_REMOTE_START_NOCWD + (r->status - S_NOCWD), r->cmd);
}

/* A call failed mid-command: the sandbox may be gone (its TTL, a delete). */
static int failed(run *r, int rc)
{
    if (rc != SBX_E_NOMEM && !daytona_sandbox_alive(r->sb))
        return r->sb->host->set_error(SBX_E_EXEC_SANDBOX_GONE,
                                      "daytona: the sandbox %s ended while \"%s\" ran (its TTL, "
                                      "or a delete)", r->sb->id, r->cmd->argv[0]);
    return rc;
}

int daytona_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
                 sbx_plugin_exit *exit_out)
{
    daytona_sandbox *sb = sandbox;
    const sbx_host *host = sb->host;
    run r = {.sb = sb, .cmd = cmd, .io = io, .cancel_fd = -1};
    if (SBX_STRUCT_HAS(io, cancel_fd))
        r.cancel_fd = io->cancel_fd;
    if (cancel_ready(&r, 0))
        return host->set_error(SBX_E_EXEC_CANCELLED, "daytona: \"%s\" was cancelled", cmd->argv[0]);
    if (cmd->timeout_ms)
        r.deadline = sbxu_mono_ms() + (int64_t)cmd->timeout_ms;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(r.sid, sizeof(r.sid), "sandboxio-%lx-%lx-%lx", (long)getpid(),
             __atomic_add_fetch(&sb->counter, 1, __ATOMIC_RELAXED), (long)ts.tv_nsec);
    exec_dir(r.dir, sizeof(r.dir), r.sid);
    cleanup_ended(sb);
    int rc = start(&r);
    if (rc == SBX_OK && io->input)
        rc = sbxu_feed_start(&r.feed, host, DAYTONA_NAME, io, INPUT_CHUNK, send_chunk, &r);
    if (rc == SBX_OK)
        rc = watch(&r);
    sbxu_feed_stop(&r.feed);
    int code = 0;
    if (rc == SBX_OK)
        rc = record_exit(&r, &code);
    if (rc != SBX_OK)
        rc = failed(&r, rc);
    /* A command that was killed or failed may have left a tree behind: its
     * session goes at once. */
    if (rc == SBX_OK && !r.killed && !r.cancelled && !r.aborted && !r.timed_out)
        defer_cleanup(sb, r.sid);
    else if (rc != SBX_E_EXEC_SANDBOX_GONE)
        cleanup(sb, r.sid);
    if (r.cancelled)
        return host->set_error(SBX_E_EXEC_CANCELLED, "daytona: \"%s\" was cancelled", cmd->argv[0]);
    if (r.aborted)
        return host->set_error(SBX_E_EXEC_ABORTED, "daytona: the output callback stopped \"%s\"",
                               cmd->argv[0]);
    if (rc != SBX_OK)
        return rc;
    if (r.timed_out) {
        *exit_out = (sbx_plugin_exit){.struct_size = exit_out->struct_size, .exited = 0,
                                      .signal = 9, .timed_out = 1};
        return SBX_OK;
    }
    if (r.status >= S_NOCWD)
        return start_failure(&r);
    uint32_t size = exit_out->struct_size;
    *exit_out = (sbx_plugin_exit){.struct_size = size};
    if (r.status == S_SIGNAL) {
        exit_out->signal = r.value;
        exit_out->exit_code = -1;
    } else {
        exit_out->exited = 1;
        exit_out->exit_code = code;
    }
    return SBX_OK;
}
