/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tools.c - tools/call: each tool reads its arguments strictly, runs
 * through the library, and answers with structuredContent (serialized in
 * the text content too), or with a sandboxio failure as an isError result.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sbxu/base64.h>

#include "server.h"
#include "progress.h"
#include "tools.h"
#include "args.h"
#include "tighten.h"
#include "result.h"
#include "../common/result_json.h"
#include "../encode.h"
#include "../common/output.h"

struct tool {
    const char *name;
    json_object *(*fn)(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a);
};

/* The command's result. */
static json_object *result_of(const sbx_result *result)
{
    json_object *obj;
    int rc = result_json(result, &obj);

    if (rc)
        return mcp_result_error(rc, "the output is too large to return; lower output_cap_bytes");
    return mcp_result_ok(obj);
}

/* The exec options run and sandbox_exec share, applied to cmd. */
static int exec_options(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a,
                        sbx_cmd *cmd)
{
    const struct policy_opts *po = &s->server->config->po;
    const char *stdin_text, *cwd;
    json_object *env = NULL;
    uint64_t v;
    int given, rc;

    if ((rc = sbx_cmd_set_cancel(cmd, call->cancel)))
        return rc;
    if ((rc = mcp_arg_string(a, "stdin", 0, &stdin_text)))
        return rc;
    if (stdin_text && (rc = sbx_cmd_set_stdin(cmd, stdin_text, strlen(stdin_text))))
        return rc;
    if ((rc = mcp_arg_string(a, "cwd", 0, &cwd)))
        return rc;
    if (cwd && (rc = sbx_cmd_set_cwd(cmd, cwd)))
        return rc;
    if ((rc = mcp_arg_uint(a, "timeout_ms", UINT64_MAX, &given, &v)))
        return rc;
    if (given) {
        /* Only tighter than the operator's ceiling: a longer one is refused. */
        if (v == 0) {
            snprintf(a->why, sizeof(a->why), "'timeout_ms' must be 1 or more");
            return SBX_E_MCP_BAD_ARGUMENTS;
        }
        if (po->timeout_ms && v > po->timeout_ms) {
            snprintf(a->why, sizeof(a->why), "timeout_ms %llu is longer than the server's --timeout (%llu ms)",
                     (unsigned long long)v, (unsigned long long)po->timeout_ms);
            return SBX_E_MCP_POLICY_WIDER;
        }
        if ((rc = sbx_cmd_set_timeout(cmd, v)))
            return rc;
    }
    if ((rc = mcp_arg_uint(a, "output_cap_bytes", SIZE_MAX, &given, &v)))
        return rc;
    if (given) {
        /* 0 would mean no cap at all: wider than any cap the server set. */
        if (po->output_cap && (v == 0 || v > po->output_cap)) {
            snprintf(a->why, sizeof(a->why), "output_cap_bytes %llu is more than the server's --output-cap (%zu)",
                     (unsigned long long)v, po->output_cap);
            return SBX_E_MCP_POLICY_WIDER;
        }
        if ((rc = sbx_cmd_set_output_cap(cmd, (size_t)v)))
            return rc;
    }
    if (a->obj && json_object_object_get_ex(a->obj, "env", &env)) {
        if (!json_object_is_type(env, json_type_object)) {
            snprintf(a->why, sizeof(a->why), "'env' must be an object of strings");
            return SBX_E_MCP_BAD_ARGUMENTS;
        }
        json_object_object_foreach(env, name, value) {
            if (!json_object_is_type(value, json_type_string)) {
                snprintf(a->why, sizeof(a->why), "'env.%.200s' must be a string", name);
                return SBX_E_MCP_BAD_ARGUMENTS;
            }
            if ((rc = mcp_tighten_env(s->server->config, a, name)) ||
                (rc = sbx_cmd_set_env(cmd, name, json_object_get_string(value))))
                return rc;
        }
    }
    return SBX_OK;
}

/* A failure of an argument check or of the library, as a tool result. */
static const char server_full[] =
    "the server has as many sandboxes open as its --max-total-sandboxes allows: try again later";

static json_object *failed(struct mcp_args *a, int rc)
{
    if (rc == SBX_E_MCP_BAD_ARGUMENTS || rc == SBX_E_MCP_POLICY_WIDER || rc == SBX_E_MCP_SANDBOX_LIMIT)
        return mcp_result_error(rc, a->why);
    return mcp_result_lib_error(rc, NULL);
}

static const char *const run_keys[] = { "argv", "code", "language", "stdin", "env", "cwd",
                                        "timeout_ms", "output_cap_bytes", MCP_TIGHTEN_KEYS, NULL };

/* run's code + language: the file name and the interpreter's argv. */
static int code_command(struct mcp_args *a, const char *language, const char **file,
                        const char *argv[3])
{
    static const struct { const char *language, *file, *interpreter; } langs[] = {
        { "python", "main.py", "python3" },
        { "sh", "main.sh", "sh" },
        { "node", "main.js", "node" },
    };

    for (size_t i = 0; i < sizeof(langs) / sizeof(langs[0]); i++) {
        if (language && strcmp(language, langs[i].language) == 0) {
            *file = langs[i].file;
            argv[0] = langs[i].interpreter, argv[1] = langs[i].file, argv[2] = NULL;
            return SBX_OK;
        }
    }
    snprintf(a->why, sizeof(a->why), "'language' must be python, sh or node with 'code'");
    return SBX_E_MCP_BAD_ARGUMENTS;
}

/*
 * Run cmd in sandbox (NULL: one of its own under policy, sbx_run_ext(),
 * the backend prepared once). The library captures the output under the
 * cap; for a call that asked for progress it also gives every chunk, as it
 * comes, to the progress reporter, where the backend can stream.
 */
static int exec_cmd(struct mcp_session *s, struct mcp_call *call, sbx_sandbox *sandbox,
                    const sbx_policy *policy, const sbx_cmd *cmd, sbx_result **result)
{
    const struct mcp_config *cfg = s->server->config;
    struct mcp_progress progress;
    sbx_exec_opts opts = SBX_EXEC_OPTS_INIT;

    if (call->progress_token) {
        mcp_progress_start(&progress, call);
        opts.flags |= SBX_EXEC_STREAM | SBX_EXEC_STREAM_IF_ABLE;
        opts.observer = mcp_progress_observe;
        opts.userdata = &progress;
    }
    if (sandbox)
        return sbx_exec_ext(result, sandbox, cmd, &opts);
    return sbx_run_ext(result, s->server->client, cfg->dsn, policy, cmd, &opts);
}

/* A pooled sandbox has the operator's policy: a tighter one is opened now. */
static int use_pool(struct mcp_session *s, const sbx_policy *policy)
{
    return s->server->pool && policy == s->server->config->po.policy;
}

/* A sandbox for one command: from the pool (--pool), else opened now. */
static int fresh_sandbox(struct mcp_session *s, const sbx_policy *policy, sbx_sandbox **out)
{
    const struct mcp_config *cfg = s->server->config;

    if (use_pool(s, policy))
        return sbx_pool_take(s->server->pool, out);
    return sbx_sandbox_open(out, s->server->client, cfg->dsn, policy);
}

/* A command in a sandbox of its own, destroyed after; code, if any, written first. */
static int run_code(struct mcp_session *s, struct mcp_call *call, const sbx_policy *policy,
                    const char *code, const char *file, const sbx_cmd *cmd, sbx_result **result)
{
    sbx_sandbox *sandbox = NULL;
    int rc = fresh_sandbox(s, policy, &sandbox);

    if (rc == SBX_OK && file)
        rc = sbx_file_write(sandbox, file, code, strlen(code), 0644);
    if (rc == SBX_OK)
        rc = exec_cmd(s, call, sandbox, policy, cmd, result);
    if (sandbox && use_pool(s, policy)) {
        /* Destroyed by the pool's thread after the response is on its way. */
        sbx_pool_retire(s->server->pool, sandbox);
    } else if (sandbox) {
        int destroyed = sbx_sandbox_destroy(sandbox);
        if (rc == SBX_OK && destroyed != SBX_OK) {
            sbx_result_free(*result);
            *result = NULL;
            rc = destroyed;
        }
        sbx_sandbox_free(sandbox);
    }
    return rc;
}

static json_object *tool_run(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    const struct mcp_config *cfg = s->server->config;
    const char *code, *language, *file = NULL, *code_argv[3];
    char **argv = NULL;
    sbx_cmd *cmd = NULL;
    sbx_result *result = NULL;
    struct mcp_tighten tighter = { .any = 0 };
    sbx_policy *own = NULL;
    const sbx_policy *policy = cfg->po.policy;
    json_object *out;
    int rc;

    if ((rc = mcp_arg_only(a, run_keys)) || (rc = mcp_arg_argv(a, "argv", &argv)) ||
        (rc = mcp_arg_string(a, "code", 0, &code)) ||
        (rc = mcp_arg_string(a, "language", 0, &language)))
        goto out;
    if ((rc = mcp_tighten_read(&tighter, s, a)))
        goto out;
    if (tighter.any) {
        if ((rc = mcp_tighten_policy(&own, cfg, &tighter)))
            goto out;
        policy = own;
    }
    if (!argv == !code) {
        snprintf(a->why, sizeof(a->why), "give either 'argv' or 'code' with 'language'");
        rc = SBX_E_MCP_BAD_ARGUMENTS;
        goto out;
    }
    if (!code && language) {
        snprintf(a->why, sizeof(a->why), "'language' goes with 'code', not 'argv'");
        rc = SBX_E_MCP_BAD_ARGUMENTS;
        goto out;
    }
    if (code && (rc = code_command(a, language, &file, code_argv)))
        goto out;
    if ((rc = sbx_cmd_new(&cmd, code ? code_argv : (const char *const *)argv)) ||
        (rc = exec_options(s, call, a, cmd)))
        goto out;
    /* Its sandbox counts among the server's while it lives. */
    if ((rc = mcp_server_reserve(s->server))) {
        snprintf(a->why, sizeof(a->why), "%s", server_full);
        goto out;
    }
    if (code || use_pool(s, policy))
        rc = run_code(s, call, policy, code, file, cmd, &result);
    else
        rc = exec_cmd(s, call, NULL, policy, cmd, &result);
    mcp_server_unreserve(s->server, 1);
out:
    out = rc ? failed(a, rc) : result_of(result);
    mcp_tighten_release(&tighter);
    sbx_policy_free(own);
    sbx_result_free(result);
    sbx_cmd_free(cmd);
    free(argv);
    return out;
}

static json_object *box_description(struct mcp_box *box)
{
    json_object *obj = json_object_new_object();
    int rc = obj ? SBX_OK : SBX_E_NOMEM;

    if (!rc) rc = sbx_cli_json_add(obj, "sandbox_id", json_object_new_string(box->id));
    if (!rc) rc = sbx_cli_json_add(obj, "backend", json_object_new_string(sbx_sandbox_backend(box->sandbox)));
    if (!rc) rc = sbx_cli_json_add(obj, "tier", json_object_new_string(sbx_tier_name(sbx_sandbox_tier(box->sandbox))));
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return obj;
}

static json_object *tool_create(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { MCP_TIGHTEN_KEYS, NULL };
    const struct mcp_config *cfg = s->server->config;
    sbx_sandbox *sandbox = NULL;
    struct mcp_tighten tighter = { .any = 0 };
    sbx_policy *own = NULL;
    struct mcp_box *box;
    json_object *obj;
    const char *full;
    int rc;

    (void)call;
    if ((rc = mcp_arg_only(a, keys)) || (rc = mcp_tighten_read(&tighter, s, a)) ||
        (tighter.any && (rc = mcp_tighten_policy(&own, cfg, &tighter)))) {
        obj = failed(a, rc);
        mcp_tighten_release(&tighter);
        return obj;
    }
    mcp_tighten_release(&tighter);
    if ((rc = mcp_session_reserve(s, &full))) {
        sbx_policy_free(own);
        return mcp_result_error(rc, strcmp(full, "server") == 0 ? server_full
                                : "destroy a sandbox of this session first (sandbox_list shows them)");
    }
    rc = sbx_sandbox_open(&sandbox, s->server->client, cfg->dsn, own ? own : cfg->po.policy);
    sbx_policy_free(own);
    if (rc == SBX_OK)
        rc = mcp_session_add_box(s, sandbox, &box);
    if (rc != SBX_OK) {
        json_object *err = mcp_result_lib_error(rc, "creating the sandbox");
        sbx_sandbox_free(sandbox);
        mcp_session_unreserve(s);
        return err;
    }
    obj = box_description(box);
    mcp_session_put_box(s, box);
    return mcp_result_ok(obj);
}

/* The sandbox named by the sandbox_id argument, referenced; NULL with *err set. */
static struct mcp_box *the_box(struct mcp_session *s, struct mcp_args *a, json_object **err)
{
    struct mcp_box *box = NULL;
    const char *id;
    int rc = mcp_arg_string(a, "sandbox_id", 1, &id);

    if (rc) {
        *err = failed(a, rc);
        return NULL;
    }
    if ((rc = mcp_session_get_box(s, id, &box)))
        *err = mcp_result_error(rc, "no sandbox with this id in this session");
    return box;
}

static json_object *tool_exec(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { "sandbox_id", "argv", "stdin", "env", "cwd", "timeout_ms",
                                        "output_cap_bytes", NULL };
    struct mcp_box *box;
    char **argv = NULL;
    sbx_cmd *cmd = NULL;
    sbx_result *result = NULL;
    json_object *out = NULL;
    int rc;

    if ((rc = mcp_arg_only(a, keys)))
        return failed(a, rc);
    if (!(box = the_box(s, a, &out)))
        return out;
    if (!(rc = mcp_arg_argv(a, "argv", &argv)) && !argv) {
        snprintf(a->why, sizeof(a->why), "'argv' is required");
        rc = SBX_E_MCP_BAD_ARGUMENTS;
    }
    if (!rc && !(rc = sbx_cmd_new(&cmd, (const char *const *)argv)) &&
        !(rc = exec_options(s, call, a, cmd)))
        rc = exec_cmd(s, call, box->sandbox, NULL, cmd, &result);
    out = rc ? failed(a, rc) : result_of(result);
    mcp_session_put_box(s, box);
    sbx_result_free(result);
    sbx_cmd_free(cmd);
    free(argv);
    return out;
}

static json_object *tool_write(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { "sandbox_id", "path", "content", "encoding", "mode", NULL };
    const char *path, *content, *encoding;
    char *bytes = NULL;
    size_t len = 0;
    uint64_t mode = 0644;
    int given, rc;
    struct mcp_box *box = NULL;
    json_object *out = NULL, *obj;

    (void)call;
    if ((rc = mcp_arg_only(a, keys)) || (rc = mcp_arg_string(a, "path", 1, &path)) ||
        (rc = mcp_arg_string(a, "encoding", 0, &encoding)) ||
        (rc = mcp_arg_uint(a, "mode", 0777, &given, &mode)))
        return failed(a, rc);
    /* content may hold NUL bytes in base64 only: read it as JSON, not C. */
    json_object *c = NULL;
    if (!json_object_object_get_ex(a->obj, "content", &c) || !json_object_is_type(c, json_type_string)) {
        snprintf(a->why, sizeof(a->why), "'content' is required and must be a string");
        return failed(a, SBX_E_MCP_BAD_ARGUMENTS);
    }
    content = json_object_get_string(c);
    len = (size_t)json_object_get_string_len(c);
    if (encoding && strcmp(encoding, "base64") == 0) {
        if (!(bytes = sbxu_base64_decode_strict(content, len, &len))) {
            snprintf(a->why, sizeof(a->why), "'content' is not valid base64");
            return failed(a, SBX_E_MCP_BAD_ARGUMENTS);
        }
        content = bytes;
    } else if (encoding && strcmp(encoding, "utf-8") != 0) {
        snprintf(a->why, sizeof(a->why), "'encoding' must be utf-8 or base64");
        return failed(a, SBX_E_MCP_BAD_ARGUMENTS);
    }
    if (!(box = the_box(s, a, &out))) {
        free(bytes);
        return out;
    }
    rc = sbx_file_write(box->sandbox, path, content, len, (uint32_t)mode);
    mcp_session_put_box(s, box);
    free(bytes);
    if (rc)
        return mcp_result_lib_error(rc, path);
    obj = json_object_new_object();
    if (!obj || sbx_cli_json_add(obj, "path", json_object_new_string(path)) ||
        sbx_cli_json_add(obj, "bytes", json_object_new_int64((int64_t)len))) {
        json_object_put(obj);
        return NULL;
    }
    return mcp_result_ok(obj);
}

static json_object *tool_read(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { "sandbox_id", "path", NULL };
    const char *path;
    struct mcp_box *box;
    void *data = NULL;
    size_t len = 0;
    char *b64 = NULL;
    json_object *out = NULL, *obj;
    int rc, utf8;

    (void)call;
    if ((rc = mcp_arg_only(a, keys)) || (rc = mcp_arg_string(a, "path", 1, &path)))
        return failed(a, rc);
    if (!(box = the_box(s, a, &out)))
        return out;
    rc = sbx_file_read(box->sandbox, path, &data, &len);
    mcp_session_put_box(s, box);
    if (rc)
        return mcp_result_lib_error(rc, path);
    if (len > INT32_MAX / 2) {
        sbx_free(data);
        return mcp_result_error(SBX_E_EXEC_TRUNCATED, "the file is too large to return");
    }
    utf8 = sbx_cli_utf8_valid(data, len);
    if (!utf8 && !(b64 = sbxu_base64_encode(data, len))) {
        sbx_free(data);
        return NULL;
    }
    obj = json_object_new_object();
    rc = obj ? SBX_OK : SBX_E_NOMEM;
    if (!rc) rc = sbx_cli_json_add(obj, "path", json_object_new_string(path));
    if (!rc) rc = sbx_cli_json_add(obj, "content", utf8 ? json_object_new_string_len(data, (int)len)
                                                        : json_object_new_string(b64));
    if (!rc) rc = sbx_cli_json_add(obj, "encoding", json_object_new_string(utf8 ? "utf-8" : "base64"));
    if (!rc) rc = sbx_cli_json_add(obj, "bytes", json_object_new_int64((int64_t)len));
    sbx_free(data);
    free(b64);
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return mcp_result_ok(obj);
}

static json_object *tool_list_files(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { "sandbox_id", "path", NULL };
    const char *path;
    struct mcp_box *box;
    sbx_dirlist *list = NULL;
    json_object *out = NULL, *obj, *entries;
    int rc;

    (void)call;
    if ((rc = mcp_arg_only(a, keys)) || (rc = mcp_arg_string(a, "path", 0, &path)))
        return failed(a, rc);
    if (!path)
        path = "";
    if (!(box = the_box(s, a, &out)))
        return out;
    rc = sbx_file_list(box->sandbox, path, &list);
    mcp_session_put_box(s, box);
    if (rc)
        return mcp_result_lib_error(rc, *path ? path : "the work directory");
    obj = json_object_new_object();
    entries = json_object_new_array();
    rc = obj && entries ? SBX_OK : SBX_E_NOMEM;
    for (size_t i = 0; !rc && i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *e = sbx_dirlist_get(list, i);
        json_object *entry = json_object_new_object();
        rc = entry ? SBX_OK : SBX_E_NOMEM;
        if (!rc) rc = sbx_cli_json_add(entry, "name", json_object_new_string(e->name));
        if (!rc) rc = sbx_cli_json_add(entry, "type", json_object_new_string(sbx_cli_file_type_name(e->type)));
        if (!rc) rc = sbx_cli_json_add(entry, "size", json_object_new_int64((int64_t)e->size));
        if (!rc) rc = sbx_cli_json_add(entry, "mode", json_object_new_int((int)(e->mode & 07777)));
        if (!rc) rc = sbx_cli_json_push(entries, entry);
        else json_object_put(entry);
    }
    sbx_dirlist_free(list);
    if (!rc) rc = sbx_cli_json_add(obj, "path", json_object_new_string(path));
    if (!rc) {
        rc = sbx_cli_json_add(obj, "entries", entries);
        entries = NULL;
    }
    json_object_put(entries);
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return mcp_result_ok(obj);
}

static json_object *tool_destroy(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { "sandbox_id", NULL };
    const char *id;
    json_object *obj;
    int rc;

    (void)call;
    if ((rc = mcp_arg_only(a, keys)) || (rc = mcp_arg_string(a, "sandbox_id", 1, &id)))
        return failed(a, rc);
    rc = mcp_session_drop_box(s, id);
    if (rc == SBX_E_MCP_NO_SANDBOX)
        return mcp_result_error(rc, "no sandbox with this id in this session");
    if (rc)
        return mcp_result_lib_error(rc, "destroying the sandbox");
    obj = json_object_new_object();
    if (!obj || sbx_cli_json_add(obj, "sandbox_id", json_object_new_string(id)) ||
        sbx_cli_json_add(obj, "destroyed", json_object_new_boolean(1))) {
        json_object_put(obj);
        return NULL;
    }
    return mcp_result_ok(obj);
}

static json_object *tool_list(struct mcp_session *s, struct mcp_call *call, struct mcp_args *a)
{
    static const char *const keys[] = { NULL };
    json_object *obj = json_object_new_object(), *list = json_object_new_array();
    uint64_t now = sbxu_mono_ms();
    int rc;

    (void)call;
    if ((rc = mcp_arg_only(a, keys))) {
        json_object_put(obj);
        json_object_put(list);
        return failed(a, rc);
    }
    rc = obj && list ? SBX_OK : SBX_E_NOMEM;
    pthread_mutex_lock(&s->lock);
    for (struct mcp_box *b = s->boxes; !rc && b; b = b->next) {
        json_object *d = box_description(b);
        rc = d ? sbx_cli_json_add(d, "idle_ms", json_object_new_int64(
                     b->refs ? 0 : (int64_t)(now - b->last_used_ms))) : SBX_E_NOMEM;
        if (!rc) rc = sbx_cli_json_push(list, d);
        else json_object_put(d);
    }
    pthread_mutex_unlock(&s->lock);
    if (!rc) {
        rc = sbx_cli_json_add(obj, "sandboxes", list);
        list = NULL;
    }
    json_object_put(list);
    if (rc) {
        json_object_put(obj);
        return NULL;
    }
    return mcp_result_ok(obj);
}

static const struct tool tools[] = {
    { "run", tool_run },
    { "sandbox_create", tool_create },
    { "sandbox_exec", tool_exec },
    { "sandbox_write_file", tool_write },
    { "sandbox_read_file", tool_read },
    { "sandbox_list_files", tool_list_files },
    { "sandbox_destroy", tool_destroy },
    { "sandbox_list", tool_list },
};

json_object *mcp_tools_call(struct mcp_session *s, struct mcp_call *call, const char *name,
                            json_object *arguments, int *known)
{
    struct mcp_args a = { .obj = arguments, .why = "" };

    for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
        if (strcmp(tools[i].name, name) == 0) {
            *known = 1;
            /* cppcheck-suppress returnDanglingLifetime ; a tool returns a new JSON object, never a pointer into a */
            return tools[i].fn(s, call, &a);
        }
    }
    *known = 0;
    return NULL;
}
