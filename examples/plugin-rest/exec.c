/* SPDX-License-Identifier: Apache-2.0 */
/* example: skip: built against the installed kit (tests/plugin-rest-passes-contract.sh) */
/*
 * One exec: POST the command, then read the answer as it flows on a
 * stream of the kit's (its own connection, so execs of one sandbox run at
 * once), handing stdout and stderr to the core frame by frame until the
 * end frame says how the command ended. Closing the connection is how the
 * command is stopped: the service kills its whole process group when its
 * client goes, which serves a cancel and an output callback that says stop.
 */
#include "restdemo.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <sbxu/json.h>

/* A frame: one byte of stream (1 stdout, 2 stderr, 0 the end), four of length, the bytes. */
typedef struct frames {
    const sbx_plugin_io *io;
    unsigned char head[5];
    size_t head_got;
    size_t left;           /* bytes of the current frame still to come */
    int stream;
    sbxu_buf end;           /* the end frame's JSON */
    int done;              /* the end frame came whole */
    int aborted;           /* the core's output callback asked to stop */
    int cancel_fd;
    int cancelled;
} frames;

static int on_bytes(void *ud, const void *data, size_t len)
{
    frames *f = ud;
    const unsigned char *p = data;
    while (len > 0) {
        if (f->head_got < sizeof(f->head)) {
            f->head[f->head_got++] = *p++;
            len--;
            if (f->head_got == sizeof(f->head)) {
                f->stream = f->head[0];
                f->left = (size_t)f->head[1] << 24 | (size_t)f->head[2] << 16 |
                          (size_t)f->head[3] << 8 | f->head[4];
                if (f->stream > 2 || (f->stream == 0 && f->left > 4096))
                    return -1; /* not our protocol: stop (caught below as no end frame) */
                f->done = f->stream == 0 && f->left == 0;
            }
            continue;
        }
        size_t n = len < f->left ? len : f->left;
        if (f->stream == 0) {
            if (sbxu_buf_append(&f->end, p, n))
                return -1;
        } else if (f->io->output(f->io->userdata, f->stream, p, n) != 0) {
            f->aborted = 1;
            return -1;
        }
        p += n;
        len -= n;
        f->left -= n;
        if (f->left == 0) {
            f->done = f->stream == 0;
            f->head_got = 0;
        }
    }
    return 0;
}

/* Between transfers: has the caller cancelled? (its descriptor turned readable) */
static int on_tick(void *ud)
{
    frames *f = ud;
    struct pollfd pfd = {.fd = f->cancel_fd, .events = POLLIN};
    if (f->cancel_fd >= 0 && poll(&pfd, 1, 0) > 0) {
        f->cancelled = 1;
        return SBX_E_EXEC_CANCELLED;
    }
    return 0;
}

/* {"argv": [...], "env": [...], "cwd": "dir" or absent, "timeout_ms": n} */
static char *request_body(const sbx_plugin_cmd *cmd)
{
    json_object *o = json_object_new_object();
    int bad = !o;
    bad |= sbxu_json_add(o, "argv", sbxu_json_str_array(cmd->argv));
    bad |= sbxu_json_add(o, "env", sbxu_json_str_array(cmd->envp));
    if (cmd->cwd)
        bad |= sbxu_json_add_str(o, "cwd", cmd->cwd);
    bad |= sbxu_json_add(o, "timeout_ms", json_object_new_int64((int64_t)cmd->timeout_ms));
    char *text = bad ? NULL : sbxu_json_text(o);
    json_object_put(o);
    return text;
}

static int read_end(rd_sandbox *sb, frames *f, sbx_plugin_exit *exit_out)
{
    json_object *end = NULL;
    int rc = sbxu_json_parse(&end, sb->host, RD_PLUGIN, "service", "running a command", f->end.data,
                            f->end.len);
    if (rc)
        return rc;
    exit_out->exited = sbxu_json_bool(end, "exited");
    exit_out->exit_code = exit_out->exited ? (int)sbxu_json_int(end, "exit_code", 0) : -1;
    exit_out->signal = (int)sbxu_json_int(end, "signal", 0);
    exit_out->timed_out = sbxu_json_bool(end, "timed_out");
    json_object_put(end);
    return SBX_OK;
}

int rd_exec(void *sandbox, const sbx_plugin_cmd *cmd, const sbx_plugin_io *io,
            sbx_plugin_exit *exit_out)
{
    rd_sandbox *sb = sandbox;
    char path[128];
    snprintf(path, sizeof(path), "%s/exec", sb->path);
    char *body = request_body(cmd);
    if (!body)
        return sb->host->set_error(SBX_E_NOMEM, RD_PLUGIN ": out of memory");
    frames f = {.io = io, .cancel_fd = SBX_STRUCT_HAS(io, cancel_fd) ? io->cancel_fd : -1};
    sbxu_http_request rq = {.method = "POST", .path = path, .body = body,
                           .content_type = "application/json", .sink = on_bytes, .sink_ud = &f};
    sbxu_http_watch watch = {.tick = on_tick, .ud = &f, .fd = f.cancel_fd, .every_ms = 100};
    sbxu_http_response rs = {0};
    int rc = sbxu_http_stream(&sb->api.http, &rq, &watch, &rs);
    if (f.cancelled)
        rc = sb->host->set_error(SBX_E_EXEC_CANCELLED, RD_PLUGIN ": the command was cancelled");
    else if (f.aborted)
        rc = sb->host->set_error(SBX_E_EXEC_ABORTED,
                                 RD_PLUGIN ": the output callback stopped the command");
    else if (rc == SBX_OK && (rs.status < 200 || rs.status > 299))
        rc = rd_api_fail(&sb->api, &rq, &rs, "running a command");
    else if (rc == SBX_OK && !f.done)
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, RD_PLUGIN
                                 ": running a command: the answer ended before the command did");
    else if (rc == SBX_OK)
        rc = read_end(sb, &f, exit_out);
    sbxu_http_response_clear(&rs);
    sbxu_buf_clear(&f.end);
    free(body);
    return rc;
}
