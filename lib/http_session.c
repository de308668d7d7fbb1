/* SPDX-License-Identifier: Apache-2.0 */
/*
 * An HTTP session: one curl easy handle driven by one multi handle, whose
 * connection cache keeps the connection open between requests. Driving the
 * multi handle by hand also lets an answer be pulled on demand
 * (http_transfer.c), which libarchive's read model needs.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sandboxio/errors.h>

#include <sbxu/http.h>

int sbxu_http_init(sbxu_http *s, const sbx_host *host, const sbxu_http_config *cfg)
{
    memset(s, 0, sizeof(*s));
    s->host = host;
    s->cfg = *cfg;
    if (!s->cfg.display)
        s->cfg.display = s->cfg.base_url;
    if (!s->cfg.service)
        s->cfg.service = "the server";
    s->multi = curl_multi_init();
    s->easy = curl_easy_init();
    if (!s->multi || !s->easy || pthread_mutex_init(&s->lock, NULL) != 0) {
        if (s->easy)
            curl_easy_cleanup(s->easy);
        if (s->multi)
            curl_multi_cleanup(s->multi);
        memset(s, 0, sizeof(*s));
        return host->set_error(SBX_E_NOMEM, "%s: cannot set up a curl handle", cfg->plugin);
    }
    return SBX_OK;
}

void sbxu_http_clear(sbxu_http *s)
{
    if (!s->host)
        return;
    curl_easy_cleanup(s->easy);
    curl_multi_cleanup(s->multi);
    pthread_mutex_destroy(&s->lock);
    memset(s, 0, sizeof(*s));
}

void sbxu_http_response_clear(sbxu_http_response *rs)
{
    sbxu_buf_clear(&rs->body);
    for (size_t i = 0; i < SBXU_HTTP_CAPTURE_MAX; i++)
        free(rs->header[i]);
    memset(rs, 0, sizeof(*rs));
}

int sbxu_http_setup_handle(sbxu_http *s, CURL *h, char *errbuf)
{
    const sbxu_http_config *cfg = &s->cfg;
    CURLcode cc = CURLE_OK;
    errbuf[0] = '\0';
#define SET(opt, val) \
    if (cc == CURLE_OK) cc = curl_easy_setopt(h, opt, val)
    SET(CURLOPT_ERRORBUFFER, errbuf);
    SET(CURLOPT_NOSIGNAL, 1L);
    SET(CURLOPT_TCP_KEEPALIVE, 1L);
    SET(CURLOPT_CONNECTTIMEOUT_MS, cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : SBXU_HTTP_CONNECT_TIMEOUT_MS);
    /* Only the protocols a backend speaks; never a redirect elsewhere. */
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_FOLLOWLOCATION, 0L);
    if (cfg->unix_socket) {
        SET(CURLOPT_UNIX_SOCKET_PATH, cfg->unix_socket);
    } else if (strncmp(cfg->base_url, "https://", 8) == 0) {
        if (cfg->ca_file)
            SET(CURLOPT_CAINFO, cfg->ca_file);
        SET(CURLOPT_SSL_VERIFYPEER, 1L);
        SET(CURLOPT_SSL_VERIFYHOST, 2L);
        /* Client certificates are optional. */
        if (cfg->cert_file && cfg->key_file && access(cfg->cert_file, R_OK) == 0 &&
            access(cfg->key_file, R_OK) == 0) {
            SET(CURLOPT_SSLCERT, cfg->cert_file);
            SET(CURLOPT_SSLKEY, cfg->key_file);
        }
    }
#undef SET
    if (cc != CURLE_OK)
        return s->host->set_error(cc == CURLE_OUT_OF_MEMORY ? SBX_E_NOMEM : SBX_E_INTERNAL,
                                  "%s: setting up curl: %s", cfg->plugin, curl_easy_strerror(cc));
    return SBX_OK;
}

char *sbxu_http_escape(sbxu_http *s, const char *s_in)
{
    return curl_easy_escape(s->easy, s_in, 0);
}
