/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where the daemon is. The DSN wins; without a host in it, DOCKER_HOST is
 * read the way the docker CLI reads it, then the default socket. TLS follows
 * DOCKER_TLS_VERIFY and DOCKER_CERT_PATH; no dotfile is ever read, so TLS
 * needs DOCKER_CERT_PATH set (the CLI would fall back to ~/.docker).
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DK_DEFAULT_HOST "unix:///var/run/docker.sock"

dk_env dk_env_from_process(void)
{
    return (dk_env){
        .docker_host = getenv("DOCKER_HOST"),
        .tls_verify = getenv("DOCKER_TLS_VERIFY"),
        .cert_path = getenv("DOCKER_CERT_PATH"),
    };
}

void dk_endpoint_clear(dk_endpoint *ep)
{
    free(ep->socket_path);
    free(ep->host_port);
    free(ep->ca_file);
    free(ep->cert_file);
    free(ep->key_file);
    free(ep->display);
    free(ep->base_url);
    memset(ep, 0, sizeof(*ep));
}

static char *join_dir(const char *dir, const char *name)
{
    char *s = NULL;
    if (asprintf(&s, "%s/%s", dir, name) < 0)
        return NULL;
    return s;
}

/*
 * "host", "host:port", "[v6]:port" with an optional "/" after it, parsed by
 * curl's URL parser; user info, a path, a query or a fragment are refused.
 * Adds the default port (2375, or 2376 with TLS).
 */
static int tcp_host_port(const char *hp, bool tls, char **out, const char **why)
{
    char *url = NULL, *host = NULL, *port = NULL, *part = NULL;
    int rc = -1;
    CURLU *u = curl_url();
    *out = NULL;
    if (!u || asprintf(&url, "http://%s", hp) < 0) {
        curl_url_cleanup(u);
        return -2;
    }
    CURLUcode uc = curl_url_set(u, CURLUPART_URL, url, 0);
    free(url);
    if (uc == CURLUE_OUT_OF_MEMORY) {
        rc = -2;
    } else if (uc == CURLUE_BAD_PORT_NUMBER) {
        *why = "the port is not a number from 1 to 65535";
    } else if (uc != CURLUE_OK || curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
               !host[0]) {
        *why = hp[0] == '[' && !strchr(hp, ']') ? "an IPv6 address lacks its ']'"
               : !hp[0] || hp[0] == '/'         ? "a tcp address needs a host"
                                                : "the tcp host has a character hosts cannot have";
    } else if (curl_url_get(u, CURLUPART_USER, &part, 0) == CURLUE_OK ||
               curl_url_get(u, CURLUPART_QUERY, &part, 0) == CURLUE_OK ||
               curl_url_get(u, CURLUPART_FRAGMENT, &part, 0) == CURLUE_OK) {
        *why = "the tcp host has a character hosts cannot have";
    } else if (curl_url_get(u, CURLUPART_PATH, &part, 0) == CURLUE_OK && strcmp(part, "/") != 0) {
        *why = "a tcp address takes no path";
    } else {
        uc = curl_url_get(u, CURLUPART_PORT, &port, 0);
        long p = uc == CURLUE_OK ? strtol(port, NULL, 10) : tls ? 2376 : 2375;
        if (uc != CURLUE_OK && uc != CURLUE_NO_PORT)
            rc = uc == CURLUE_OUT_OF_MEMORY ? -2 : -1;
        else if (p < 1 || p > 65535)
            *why = "the port is not a number from 1 to 65535";
        else
            rc = asprintf(out, "%s:%ld", host, p) < 0 ? -2 : 0;
        if (rc == -1 && !*why)
            *why = "the port is not a number from 1 to 65535";
    }
    if (rc != 0)
        *out = NULL;
    curl_free(part);
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return rc;
}

static int tls_files(const dk_env *env, dk_endpoint *ep, const char **why)
{
    ep->tls = env->tls_verify && env->tls_verify[0];
    ep->tls_verify = ep->tls;
    if (!ep->tls)
        return 0;
    if (!env->cert_path || !env->cert_path[0]) {
        *why = "DOCKER_TLS_VERIFY is set but DOCKER_CERT_PATH is not (no default is read)";
        return -1;
    }
    ep->ca_file = join_dir(env->cert_path, "ca.pem");
    ep->cert_file = join_dir(env->cert_path, "cert.pem");
    ep->key_file = join_dir(env->cert_path, "key.pem");
    return ep->ca_file && ep->cert_file && ep->key_file ? 0 : -2;
}

int dk_endpoint_parse_url(const char *url, const dk_env *env, dk_endpoint *ep, const char **why)
{
    int rc;
    memset(ep, 0, sizeof(*ep));
    *why = NULL;
    if (strncmp(url, "unix://", 7) == 0) {
        const char *path = url + 7;
        if (path[0] != '/') {
            *why = "a unix socket path must be absolute (unix:///path)";
            return -1;
        }
        ep->transport = DK_UNIX;
        ep->socket_path = strdup(path);
        rc = ep->socket_path ? 0 : -2;
    } else if (strncmp(url, "tcp://", 6) == 0) {
        ep->transport = DK_TCP;
        rc = tls_files(env, ep, why);
        if (rc == 0)
            rc = tcp_host_port(url + 6, ep->tls, &ep->host_port, why);
    } else {
        *why = "only unix:// and tcp:// daemon addresses are supported";
        return -1;
    }
    if (rc == 0) {
        if (ep->transport == DK_UNIX)
            rc = asprintf(&ep->display, "unix://%s", ep->socket_path) < 0 ? -2 : 0;
        else
            rc = asprintf(&ep->display, "tcp://%s", ep->host_port) < 0 ? -2 : 0;
        if (rc)
            ep->display = NULL;
    }
    /* A unix socket still needs a host name in the URL; the engine ignores it. */
    if (rc == 0) {
        if (ep->transport == DK_UNIX)
            rc = asprintf(&ep->base_url, "http://docker") < 0 ? -2 : 0;
        else
            rc = asprintf(&ep->base_url, "%s://%s", ep->tls ? "https" : "http", ep->host_port) < 0
                     ? -2
                     : 0;
        if (rc)
            ep->base_url = NULL;
    }
    if (rc)
        dk_endpoint_clear(ep);
    return rc;
}

int dk_endpoint_from_dsn(const sbx_host *host, const sbx_plugin_dsn *dsn, const dk_env *env,
                         dk_endpoint *ep)
{
    const char *why = NULL;
    char *url = NULL;
    int rc;
    bool from_env = false;

    if (dsn->authority[0]) {
        if (dsn->path[0] && strcmp(dsn->path, "/") != 0)
            return host->set_error(SBX_E_DSN_BAD_AUTHORITY,
                                   "docker: a DSN with a host (tcp) takes no path; "
                                   "for a unix socket write docker:///path/to/docker.sock");
        rc = asprintf(&url, "tcp://%s", dsn->authority);
    } else if (dsn->path[0]) {
        rc = asprintf(&url, "unix://%s", dsn->path);
    } else {
        from_env = env->docker_host && env->docker_host[0];
        rc = asprintf(&url, "%s", from_env ? env->docker_host : DK_DEFAULT_HOST);
    }
    if (rc < 0)
        return host->set_error(SBX_E_NOMEM, "docker: out of memory");
    rc = dk_endpoint_parse_url(url, env, ep, &why);
    if (rc == -2)
        rc = host->set_error(SBX_E_NOMEM, "docker: out of memory");
    else if (rc && (from_env || strncmp(why, "DOCKER_", 7) == 0))
        /* Not the DSN's fault: the environment names an unusable daemon. */
        rc = host->set_error(SBX_E_BACKEND_UNAVAILABLE, "docker: DOCKER_HOST=%s: %s", url, why);
    else if (rc)
        rc = host->set_error(SBX_E_DSN_BAD_AUTHORITY, "docker: %s: %s", url, why);
    free(url);
    return rc;
}
