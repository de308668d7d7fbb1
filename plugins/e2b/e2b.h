/*
 * Internal declarations of the e2b backend: sandboxes are E2B sandboxes,
 * driven through E2B's control-plane REST API and envd's Connect RPC (JSON
 * encoding over HTTP/1.1). Nothing here is exported. The backend is being
 * built; docs/backends/e2b.md says what it will map each capability to.
 *
 * Files by concern:
 *   envelope.c  Connect's server-streaming body: 5-byte envelopes, the
 *               end-of-stream frame and its error
 *   process_end.c  envd's end event of a command as an exit report
 *   endpoint.c  where E2B is: the DSN, E2B_DOMAIN, E2B_API_URL, E2B_SANDBOX_URL
 */
#ifndef SBX_E2B_H
#define SBX_E2B_H

#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>
#include <sandboxio/plugin.h>

/* --- envelope.c ------------------------------------------------------------ */

/* Connect envelope flags (connect protocol, "Streaming RPCs"). */
#define E2B_ENV_COMPRESSED 0x01u
#define E2B_ENV_END_STREAM 0x02u
/* The largest message accepted: envd's data events are far smaller. */
#define E2B_ENV_MAX_MESSAGE (16u * 1024 * 1024)

/*
 * A decoder of a Connect server stream: each envelope is a flags byte, a
 * big-endian uint32 length and that many bytes of JSON. A read may end
 * anywhere, so the decoder keeps the partial header and message. Each whole
 * message goes to on_message; the end-of-stream message (flag 0x02) to
 * on_end. A non-zero return of a callback stops the feed and is returned.
 */
typedef struct e2b_envelope {
    unsigned char hdr[5];
    size_t hdr_len;
    uint8_t flags;
    uint32_t need;         /* bytes of the current message still to come */
    char *msg;
    size_t msg_len, msg_cap;
    bool in_message;
    bool ended;            /* the end-of-stream message was read */
    const char *why;       /* static reason of a protocol error */
    int (*on_message)(void *ud, const char *json, size_t len);
    int (*on_end)(void *ud, const char *json, size_t len);
    void *ud;
} e2b_envelope;

void e2b_envelope_init(e2b_envelope *e, int (*on_message)(void *ud, const char *json, size_t len),
                       int (*on_end)(void *ud, const char *json, size_t len), void *ud);
/* Feed bytes of the body: SBX_OK, a callback's code, or SBX_E_BACKEND_PROTOCOL (e->why). */
int e2b_envelope_feed(e2b_envelope *e, const void *data, size_t len);
/* At the body's end: SBX_OK only after a whole end-of-stream message. */
int e2b_envelope_finish(e2b_envelope *e);
void e2b_envelope_clear(e2b_envelope *e);

/*
 * The end-of-stream message's error, if any: {} is none (*has_error false);
 * {"error":{"code":"...","message":"..."}} gives both (truncated to fit,
 * message may be absent). SBX_OK, or SBX_E_BACKEND_PROTOCOL for anything
 * else (not JSON, an error without a code).
 */
int e2b_end_error(const char *json, size_t len, bool *has_error, char *code, size_t code_size,
                  char *message, size_t message_size);

/* --- process_end.c ------------------------------------------------------------ */

/*
 * e2b_process_end - fill x (exited, exit_code, signal) from envd's end
 * event `end` ({"exitCode","exited","status"}). SBX_OK, or
 * SBX_E_BACKEND_PROTOCOL when the event says neither an exit code in
 * 0..255 nor a signal Go would name. timed_out and oom_killed are left.
 */
int e2b_process_end(json_object *end, sbx_plugin_exit *x);

/* --- endpoint.c ---------------------------------------------------------------- */

#define E2B_URL_MAX 512
#define E2B_ENVD_PORT 49983

/* A DSN resolved: its options, and where the control plane and envd are. */
typedef struct e2b_endpoint {
    char *template_id;             /* template=ID or alias (default "base") */
    uint64_t timeout_s;            /* timeout=SECONDS: the sandbox's life (default 300) */
    char domain[E2B_URL_MAX / 2];  /* the authority, E2B_DOMAIN, or "e2b.app" */
    char api_url[E2B_URL_MAX];     /* no final '/' */
    char sandbox_url[E2B_URL_MAX]; /* E2B_SANDBOX_URL, or "" for 49983-<id>.<domain> */
} e2b_endpoint;

/*
 * e2b_endpoint_parse - ep from the DSN and the environment. SBX_OK, or:
 * SBX_E_DSN_BAD_AUTHORITY (a bad domain, a path, a URL that is not
 * http(s)), SBX_E_DSN_UNKNOWN_OPTION / SBX_E_DSN_BAD_OPTION_VALUE,
 * SBX_E_INSECURE_ENDPOINT (http:// to an address not loopback); the detail
 * through host->set_error. Free with e2b_endpoint_clear().
 */
int e2b_endpoint_parse(e2b_endpoint *ep, const sbx_host *host, const sbx_plugin_dsn *dsn);
/* e2b_endpoint_envd_url - envd's base URL for a sandbox into out. */
int e2b_endpoint_envd_url(char *out, size_t size, const e2b_endpoint *ep, const char *sandbox_id);
void e2b_endpoint_clear(e2b_endpoint *ep);

#endif
