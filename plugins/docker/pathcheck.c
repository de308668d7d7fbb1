/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Paths inside the container, checked against symlink escapes.
 *
 * The core has already refused absolute paths and "..". What is left is a
 * symlink planted in the work dir by a command (`ln -s /etc work/x`): the
 * engine resolves symlinks within the container's root, so it never leaves
 * the container, but it would leave the work dir. Each existing component
 * is stat'ed through HEAD /containers/{id}/archive, whose
 * X-Docker-Container-Path-Stat header gives the mode and, for a symlink,
 * the fully resolved target; a target outside the work dir is refused.
 *
 * A command running at the same time could swap a directory for a symlink
 * between this check and the transfer; the engine's own scoping still keeps
 * the transfer inside the container, which is the sandbox boundary.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Go's os.FileMode type bits, as the engine sends them. */
#define GO_MODE_DIR (1u << 31)
#define GO_MODE_SYMLINK (1u << 27)
#define GO_MODE_TYPE (GO_MODE_DIR | (1u << 30) | (1u << 29) | (1u << 28) | GO_MODE_SYMLINK | \
                      (1u << 26) | (1u << 25) | (1u << 24) | (1u << 21) | (1u << 19))

void dk_stat_clear(dk_stat *st)
{
    free(st->link_target);
    memset(st, 0, sizeof(*st));
}

void dk_resolved_clear(dk_resolved *r)
{
    free(r->real);
    dk_stat_clear(&r->st);
    memset(r, 0, sizeof(*r));
}

int dk_stat_path(dk_sandbox *sb, const char *abs, dk_stat *st)
{
    memset(st, 0, sizeof(*st));
    char *esc = sbxu_http_escape(&sb->conn.http, abs);
    char *path = NULL;
    if (!esc || asprintf(&path, "/containers/%s/archive?path=%s", sb->id, esc) < 0) {
        curl_free(esc);
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    curl_free(esc);
    sbxu_http_request rq = {.method = "HEAD", .path = path};
    sbxu_http_response rs = {0};
    int rc = dk_http(&sb->conn, &rq, &rs);
    free(path);
    if (rc == SBX_OK && rs.status == 404) {
        sbxu_http_response_clear(&rs);
        return SBX_OK;
    }
    if (rc == SBX_OK && rs.status != 200) {
        char context[300];
        snprintf(context, sizeof(context), "looking at %.200s in the container", abs);
        rc = dk_api_fail(&sb->conn, &rs, context);
    }
    const char *stat = rs.header[DK_HDR_PATH_STAT];
    char *decoded = rc == SBX_OK && stat ? sbxu_base64_decode(stat, NULL) : NULL;
    json_object *o = decoded ? json_tokener_parse(decoded) : NULL;
    free(decoded);
    if (rc == SBX_OK && !o)
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL,
                                 "docker: no usable X-Docker-Container-Path-Stat for %s", abs);
    if (rc == SBX_OK) {
        uint32_t mode = (uint32_t)sbxu_json_int(o, "mode", 0);
        const char *target = sbxu_json_str(o, "linkTarget");
        st->exists = true;
        st->size = (uint64_t)sbxu_json_int(o, "size", 0);
        st->mode = mode & 0777u;
        if (mode & GO_MODE_DIR)
            st->type = 2;
        else if (mode & GO_MODE_SYMLINK)
            st->type = 3;
        else if (mode & GO_MODE_TYPE)
            st->type = 4;
        else
            st->type = 1;
        if (st->type == 3 && target && target[0] && !(st->link_target = strdup(target)))
            rc = sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    }
    json_object_put(o);
    sbxu_http_response_clear(&rs);
    return rc;
}

static bool inside(const char *path, const char *root)
{
    size_t n = strlen(root);
    return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int dk_resolve(dk_sandbox *sb, const char *rel, bool follow_last, dk_resolved *out)
{
    const char *root = sb->opt.workdir;
    memset(out, 0, sizeof(*out));
    out->real = strdup(root);
    if (!out->real)
        return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
    int rc = dk_stat_path(sb, root, &out->st);
    if (rc == SBX_OK && !out->st.exists)
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "docker: the work dir %s is gone", root);
    const char *rest = rel;
    while (rc == SBX_OK && *rest) {
        size_t clen = strcspn(rest, "/");
        const char *next = rest + clen + (rest[clen] == '/');
        bool last = *next == '\0';
        if (out->st.type != 2)
            break;    /* the caller reports NOT_DIRECTORY for a non-empty rest */
        char *cand = NULL;
        if (asprintf(&cand, "%s/%.*s", strcmp(out->real, "/") ? out->real : "", (int)clen,
                     rest) < 0) {
            rc = sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
            break;
        }
        dk_stat cs;
        rc = dk_stat_path(sb, cand, &cs);
        if (rc == SBX_OK && !cs.exists) {
            free(cand);
            dk_stat_clear(&cs);
            break;
        }
        if (rc == SBX_OK && cs.type == 3 && (!last || follow_last)) {
            if (!cs.link_target || !inside(cs.link_target, root)) {
                rc = sb->host->set_error(SBX_E_PATH_ESCAPE,
                                         "docker: \"%.*s\" is a symlink to %s, outside the work "
                                         "dir %s",
                                         (int)(next - rel), rel,
                                         cs.link_target ? cs.link_target : "?", root);
            } else {
                dk_stat ts;
                rc = dk_stat_path(sb, cs.link_target, &ts);
                if (rc == SBX_OK && ts.exists) {
                    free(cand);
                    cand = strdup(cs.link_target);
                    dk_stat_clear(&cs);
                    cs = ts;
                    if (!cand)
                        rc = sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
                } else {
                    dk_stat_clear(&ts);    /* dangling: the link itself is what exists */
                }
            }
        }
        if (rc) {
            free(cand);
            dk_stat_clear(&cs);
            break;
        }
        free(out->real);
        out->real = cand;
        dk_stat_clear(&out->st);
        out->st = cs;
        rest = next;
    }
    out->rest = rest;
    if (rc)
        dk_resolved_clear(out);
    return rc;
}
