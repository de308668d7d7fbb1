/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio-local-proxy: the egress proxy of a local sandbox under
 * --network allowlist, run by the plugin on the host, one per sandbox.
 *
 *   sandboxio-local-proxy [--test-resolver FILE] [--max-conns N]
 *                         [--idle-timeout S] ALLOW...
 *   fd 3: a listening TCP socket of the sandbox's network namespace (init
 *         made it there, 127.0.0.1:3128): the proxy accepts the sandbox's
 *         connections from it and connects out from the host's namespace.
 *   fd 4: the plugin's exit pipe: EOF (destroy, or the client's death) ends it.
 *   stderr: one line per refusal, which the plugin logs through the host.
 *
 * What it forwards: CONNECT host:port, and plain HTTP requests (absolute
 * form, or origin form with Host), when host:port is on the allowlist
 * (allow.c). Names are resolved here, never inside; an answer in a special
 * range (loopback, private, link-local, metadata, ...) or one of the host's
 * own addresses (self.h: listed at the start, and routed to the host now)
 * is refused unless a listed address or block covers it. After a CONNECT, a TLS ClientHello must
 * name the CONNECT host in its SNI and not hide the name it means by
 * Encrypted Client Hello (ECH); a plain request's Host header must name
 * its target. Every refusal is a 403 (or, once the
 * tunnel is up, a closed connection) with a one-line reason. Bounded: a
 * connection count, each connection's buffers, header and ClientHello
 * sizes (parse.h), idle timeouts.
 *
 * The event loop, buffers and DNS resolver are libevent's (event2, evdns):
 * a well-kept library, in Debian, rather than one more hand-written loop.
 * Once set up, the proxy runs under its own seccomp filter (confine.h).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/dns.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "allow.h"
#include "confine.h"
#include "parse.h"
#include "relay.h"
#include "self.h"

#define LISTEN_FD 3
#define EXIT_FD 4
#define MAX_RULES 256
#define HEAD_TIMEOUT_S 10
/*
 * Each socket's buffers, fixed (the kernel doubles them for its overhead):
 * without, TCP autotuning grows an upstream socket's receive buffer to
 * net.ipv4.tcp_rmem's maximum (32 MiB on some hosts) and the sandbox's
 * socket's send buffer to tcp_wmem's, and a sandbox that does not read
 * makes the proxy hold all of it, outside the sandbox's limits. With these,
 * a connection holds at most about 2 * (UPSTREAM + SANDBOX) + the relay's
 * pipe (relay.c), about 450 KiB: the sandbox reads, or the upstream
 * server's sending stops (backpressure). Upstream is the internet (a
 * 128 KiB window), the sandbox's side is on this host (a short round trip).
 */
#define UPSTREAM_BUF (128 * 1024)
#define SANDBOX_BUF (64 * 1024)

typedef struct px {
    struct event_base *base;
    struct evdns_base *dns;
    px_rule rules[MAX_RULES];
    size_t nrules;
    px_self self[PX_MAX_SELF]; /* the host's own addresses, at the start */
    size_t nself;
    size_t conns, max_conns;
    int idle_s;
    unsigned long refused;
} px;

enum { ST_HEAD, ST_RESOLVE, ST_CONNECT, ST_HELLO, ST_RELAY, ST_CLOSING };

typedef struct conn {
    px *px;
    struct bufferevent *in, *out;
    int state;
    px_request req;
    struct evdns_getaddrinfo_request *dns;
    px_relay *relay; /* ST_RELAY: moves the bytes (the bufferevents keep the sockets) */
} conn;

static void conn_free(conn *c)
{
    if (c->dns) {
        struct evdns_getaddrinfo_request *d = c->dns;
        c->dns = NULL;
        evdns_getaddrinfo_cancel(d);
    }
    px_relay_free(c->relay); /* before the sockets it watches close */
    if (c->in)
        bufferevent_free(c->in);
    if (c->out)
        bufferevent_free(c->out);
    c->px->conns--;
    free(c);
}

/* Close once the client has its last bytes. */
static void close_when_flushed(struct bufferevent *bev, void *arg)
{
    conn *c = arg;
    if (evbuffer_get_length(bufferevent_get_output(bev)) == 0)
        conn_free(c);
}

static void closing_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    (void)what;
    conn_free(arg);
}

/* Answer status with a one-line reason, log it and close. */
static void refuse(conn *c, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void refuse(conn *c, int status, const char *fmt, ...)
{
    char reason[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    for (char *p = reason; *p; p++)
        if (*p == '\r' || *p == '\n' || (unsigned char)*p < 0x20)
            *p = ' ';
    c->px->refused++;
    fprintf(stderr, "proxy refused: %s\n", reason);
    fflush(stderr);
    if (c->out) {
        bufferevent_free(c->out);
        c->out = NULL;
    }
    c->state = ST_CLOSING;
    if (status == 0) { /* inside a tunnel: no HTTP answer is possible */
        conn_free(c);
        return;
    }
    const char *text = status == 403 ? "Forbidden" : status == 400 ? "Bad Request"
                       : status == 502 ? "Bad Gateway" : "Service Unavailable";
    evbuffer_drain(bufferevent_get_input(c->in), evbuffer_get_length(bufferevent_get_input(c->in)));
    evbuffer_add_printf(bufferevent_get_output(c->in),
                        "HTTP/1.1 %d %s\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                        "Content-Length: %zu\r\n\r\nsandboxio proxy: %s\n",
                        status, text, strlen(reason) + 18, reason);
    bufferevent_disable(c->in, EV_READ);
    bufferevent_setcb(c->in, NULL, close_when_flushed, closing_event, c);
    bufferevent_enable(c->in, EV_WRITE);
}

static void relay_done(void *arg, const char *why)
{
    (void)why; /* an end, a reset or the idle timeout: nothing to tell */
    conn_free(arg);
}

/* What the handshake left on its way is out: the splice relay takes over. */
static void relay_flushed(struct bufferevent *bev, void *arg)
{
    conn *c = arg;
    (void)bev;
    if (evbuffer_get_length(bufferevent_get_output(c->in))
        || evbuffer_get_length(bufferevent_get_output(c->out)))
        return;
    bufferevent_disable(c->in, EV_READ | EV_WRITE);
    bufferevent_disable(c->out, EV_READ | EV_WRITE);
    c->relay = px_relay_new(c->px->base, bufferevent_getfd(c->in), bufferevent_getfd(c->out),
                            c->px->idle_s, relay_done, c);
    if (!c->relay) {
        fprintf(stderr, "proxy: cannot relay to %s:%u: %s\n", c->req.host, c->req.port,
                strerror(errno));
        fflush(stderr);
        conn_free(c);
    }
}

/*
 * The connection is allowed: from here on its bytes only go across. What
 * either side sent while it was checked (the rest of a ClientHello, a
 * server's first bytes) and what the proxy wrote (a plain request's head)
 * go out through the bufferevents; nothing more is read through them, the
 * relay (relay.c) reads the rest.
 */
static void start_relay(conn *c)
{
    struct timeval idle = { c->px->idle_s, 0 };
    c->state = ST_RELAY;
    evbuffer_add_buffer(bufferevent_get_output(c->out), bufferevent_get_input(c->in));
    evbuffer_add_buffer(bufferevent_get_output(c->in), bufferevent_get_input(c->out));
    bufferevent_disable(c->in, EV_READ);
    bufferevent_disable(c->out, EV_READ);
    bufferevent_set_timeouts(c->in, NULL, &idle);
    bufferevent_set_timeouts(c->out, NULL, &idle);
    bufferevent_setcb(c->in, NULL, relay_flushed, closing_event, c);
    bufferevent_setcb(c->out, NULL, relay_flushed, closing_event, c);
    bufferevent_enable(c->in, EV_WRITE);
    bufferevent_enable(c->out, EV_WRITE);
    relay_flushed(c->in, c);
}

/* The first bytes through a CONNECT tunnel: a ClientHello must name the host. */
static void hello_read(struct bufferevent *bev, void *arg)
{
    conn *c = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    size_t len = evbuffer_get_length(in);
    size_t look = len < PX_MAX_HELLO ? len : PX_MAX_HELLO;
    char sni[PX_MAX_HOST + 1];
    const char *why;
    int r = px_parse_sni(evbuffer_pullup(in, (ev_ssize_t)look), look, sni, sizeof sni, &why);
    struct in6_addr a6;
    struct in_addr a4;
    int literal = inet_pton(AF_INET, c->req.host, &a4) == 1 || inet_pton(AF_INET6, c->req.host, &a6) == 1;

    if (r == PX_MORE && len < PX_MAX_HELLO)
        return;
    if (r == PX_ECH) { /* whatever it names outside, the server sees the inner name */
        refuse(c, 0, "CONNECT %s:%u: the TLS ClientHello is encrypted (ECH), its server name "
               "cannot be checked", c->req.host, c->req.port);
        return;
    }
    if (r == PX_MORE || r == PX_BAD) {
        refuse(c, 0, "CONNECT %s:%u: bad TLS ClientHello: %s", c->req.host, c->req.port,
               r == PX_MORE ? "too large" : why);
        return;
    }
    if (r == PX_DONE && !literal && !sni[0]) {
        refuse(c, 0, "CONNECT %s:%u: the TLS ClientHello names no server (SNI)",
               c->req.host, c->req.port);
        return;
    }
    if (r == PX_DONE && !literal && strcmp(sni, c->req.host)) {
        refuse(c, 0, "CONNECT %s:%u: the TLS ClientHello names '%s' (SNI), not %s",
               c->req.host, c->req.port, sni, c->req.host);
        return;
    }
    start_relay(c);
}

/*
 * The server spoke before the client: no TLS (whose client speaks first),
 * so there is no ClientHello to check; the bytes can only go between the
 * sandbox and the allowed host and port.
 */
static void server_first(struct bufferevent *bev, void *arg)
{
    (void)bev;
    start_relay(arg);
}

static void upstream_event(struct bufferevent *bev, short what, void *arg)
{
    conn *c = arg;
    (void)bev;
    if (!(what & BEV_EVENT_CONNECTED)) {
        int e = EVUTIL_SOCKET_ERROR();
        refuse(c, 502, "cannot connect to %s:%u: %s", c->req.host, c->req.port,
               (what & BEV_EVENT_TIMEOUT) ? "timed out"
               : e ? evutil_socket_error_to_string(e) : "closed");
        return;
    }
    struct evbuffer *in = bufferevent_get_input(c->in);
    if (c->req.connect) {
        evbuffer_drain(in, c->req.head_len);
        evbuffer_add_printf(bufferevent_get_output(c->in),
                            "HTTP/1.1 200 Connection established\r\n\r\n");
        c->state = ST_HELLO;
        struct timeval t = { HEAD_TIMEOUT_S, 0 };
        bufferevent_set_timeouts(c->in, &t, NULL);
        bufferevent_setcb(c->in, hello_read, NULL, closing_event, c);
        bufferevent_setcb(c->out, server_first, NULL, closing_event, c);
        bufferevent_enable(c->in, EV_READ);
        bufferevent_enable(c->out, EV_READ);
        if (evbuffer_get_length(in))
            hello_read(c->in, c);
        return;
    }
    /* A plain request: its target in origin form, the rest as it came. */
    const char *h = (const char *)evbuffer_pullup(in, (ev_ssize_t)c->req.head_len);
    struct evbuffer *up = bufferevent_get_output(c->out);
    evbuffer_add(up, h, c->req.target_off);
    if (c->req.path_off == c->req.target_end)
        evbuffer_add(up, "/", 1);
    else
        evbuffer_add(up, h + c->req.path_off, c->req.target_end - c->req.path_off);
    evbuffer_add(up, h + c->req.target_end, c->req.head_len - c->req.target_end);
    evbuffer_drain(in, c->req.head_len);
    start_relay(c);
}

/* Fix a socket's buffers (set before it connects, as its window depends on them). */
static int set_buffers(int fd, int bytes)
{
    return setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes) < 0
           || setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes) < 0 ? -1 : 0;
}

static void connect_to(conn *c, const struct sockaddr *sa, socklen_t len)
{
    c->state = ST_CONNECT;
    int fd = socket(sa->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    struct timeval t = { HEAD_TIMEOUT_S, 0 };
    if (fd < 0 || set_buffers(fd, UPSTREAM_BUF) < 0) {
        refuse(c, 503, "cannot make a socket: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    c->out = bufferevent_socket_new(c->px->base, fd, BEV_OPT_CLOSE_ON_FREE);
    if (!c->out) {
        close(fd);
        refuse(c, 503, "out of memory");
        return;
    }
    bufferevent_set_timeouts(c->out, &t, &t);
    bufferevent_setcb(c->out, NULL, NULL, upstream_event, c);
    if (bufferevent_socket_connect(c->out, sa, (int)len) < 0) {
        refuse(c, 502, "cannot connect to %s:%u", c->req.host, c->req.port);
        return;
    }
}

static void resolved(int err, struct evutil_addrinfo *res, void *arg)
{
    conn *c = arg;
    if (err == EVUTIL_EAI_CANCEL)
        return; /* the connection is being freed */
    c->dns = NULL;
    if (err) {
        refuse(c, 502, "cannot resolve %s: %s", c->req.host, evutil_gai_strerror(err));
        return;
    }
    char why[512] = "";
    for (struct evutil_addrinfo *ai = res; ai; ai = ai->ai_next) {
        if (ai->ai_family == AF_INET)
            ((struct sockaddr_in *)ai->ai_addr)->sin_port = htons(c->req.port);
        else
            ((struct sockaddr_in6 *)ai->ai_addr)->sin6_port = htons(c->req.port);
        const char *special = px_addr_special(ai->ai_addr);
        int self = special ? 0 : px_self_has(c->px->self, c->px->nself, ai->ai_addr)
                   ? 1 : px_self_route(ai->ai_addr, (socklen_t)ai->ai_addrlen);
        if (self)
            special = self > 0 ? "an address of this host"
                               : "an address the proxy cannot tell from this host's";
        char text[INET6_ADDRSTRLEN] = "?";
        if (special && !px_allow_addr(c->px->rules, c->px->nrules, ai->ai_addr, c->req.port)) {
            const void *a = ai->ai_family == AF_INET
                            ? (const void *)&((struct sockaddr_in *)ai->ai_addr)->sin_addr
                            : (const void *)&((struct sockaddr_in6 *)ai->ai_addr)->sin6_addr;
            inet_ntop(ai->ai_family, a, text, sizeof text);
            if (!why[0])
                snprintf(why, sizeof why, "%s resolves to %s, %s, which is not on the allowlist",
                  c->req.host, text, special);
            continue;
        }
        connect_to(c, ai->ai_addr, (socklen_t)ai->ai_addrlen);
        evutil_freeaddrinfo(res);
        return;
    }
    evutil_freeaddrinfo(res);
    refuse(c, 403, "%s", why[0] ? why : "no address");
}

/*
 * Refused (1) if the allowed target of a plain request is not the one its
 * Host header names, as a ClientHello's SNI must name the CONNECT host:
 * else an allowed server (a CDN, a shared host) would serve another site.
 */
static int host_fronted(conn *c)
{
    uint16_t port = c->req.host_header_port;
    if (c->req.connect || !c->req.host_header[0]
        || (!strcmp(c->req.host_header, c->req.host) && (!port || port == c->req.port)))
        return 0;
    if (port)
        refuse(c, 403, "%s:%u: the Host header names %s:%u, not the request's target",
               c->req.host, c->req.port, c->req.host_header, port);
    else
        refuse(c, 403, "%s:%u: the Host header names %s, not the request's target",
               c->req.host, c->req.port, c->req.host_header);
    return 1;
}

/* The request head is in: check it against the allowlist and go on. */
static void head_read(struct bufferevent *bev, void *arg)
{
    conn *c = arg;
    struct evbuffer *in = bufferevent_get_input(bev);
    size_t len = evbuffer_get_length(in);
    size_t look = len < PX_MAX_HEAD ? len : PX_MAX_HEAD;
    const char *why;
    int r = px_parse_request((const char *)evbuffer_pullup(in, (ev_ssize_t)look), look, &c->req, &why);

    if (r == PX_MORE)
        return;
    if (r != PX_DONE) {
        refuse(c, 400, "bad request: %s", why);
        return;
    }
    bufferevent_disable(bev, EV_READ);
    union { struct sockaddr sa; struct sockaddr_in v4; struct sockaddr_in6 v6; } a;
    memset(&a, 0, sizeof a);
    if (inet_pton(AF_INET, c->req.host, &a.v4.sin_addr) == 1
        || inet_pton(AF_INET6, c->req.host, &a.v6.sin6_addr) == 1) {
        int v4 = !strchr(c->req.host, ':');
        a.sa.sa_family = v4 ? AF_INET : AF_INET6;
        if (!px_allow_addr(c->px->rules, c->px->nrules, &a.sa, c->req.port)) {
            refuse(c, 403, "%s:%u is not on the allowlist (an address must be listed itself)",
                   c->req.host, c->req.port);
            return;
        }
        if (host_fronted(c))
            return;
        if (v4)
            a.v4.sin_port = htons(c->req.port);
        else
            a.v6.sin6_port = htons(c->req.port);
        connect_to(c, &a.sa, v4 ? sizeof a.v4 : sizeof a.v6);
        return;
    }
    if (!px_allow_name(c->px->rules, c->px->nrules, c->req.host, c->req.port)) {
        refuse(c, 403, "%s:%u is not on the allowlist", c->req.host, c->req.port);
        return;
    }
    if (host_fronted(c))
        return;
    struct evutil_addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                                     .ai_protocol = IPPROTO_TCP };
    c->state = ST_RESOLVE;
    struct evdns_getaddrinfo_request *d = evdns_getaddrinfo(c->px->dns, c->req.host, NULL, &hints,
                                                            resolved, c);
    if (d) /* NULL: answered (and maybe freed) already */
        c->dns = d;
}

static void accepted(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa, int len,
                     void *arg)
{
    px *p = arg;
    (void)l;
    (void)sa;
    (void)len;
    conn *c = calloc(1, sizeof *c);
    if (!c || !(c->in = bufferevent_socket_new(p->base, fd, BEV_OPT_CLOSE_ON_FREE))) {
        free(c);
        evutil_closesocket(fd);
        return;
    }
    c->px = p;
    p->conns++;
    /* A connection the kernel accepted before the proxy sized the listener's
     * buffers (below) has the defaults: size it here too. */
    if (set_buffers(fd, SANDBOX_BUF) < 0) {
        refuse(c, 503, "cannot size a socket's buffers: %s", strerror(errno));
        return;
    }
    if (p->conns > p->max_conns) {
        refuse(c, 503, "too many connections (at most %zu)", p->max_conns);
        return;
    }
    struct timeval t = { HEAD_TIMEOUT_S, 0 };
    bufferevent_set_timeouts(c->in, &t, &t);
    bufferevent_setcb(c->in, head_read, NULL, closing_event, c);
    bufferevent_enable(c->in, EV_READ | EV_WRITE);
}

static void exit_read(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(arg);
}

static int usage(void)
{
    fputs("usage: sandboxio-local-proxy [--test-resolver FILE] [--max-conns N] "
          "[--idle-timeout S] ALLOW...\n", stderr);
    return 2;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "test-resolver", required_argument, NULL, 'r' },
        { "max-conns", required_argument, NULL, 'c' },
        { "idle-timeout", required_argument, NULL, 'i' },
        { NULL, 0, NULL, 0 },
    };
    static px p = { .max_conns = 256, .idle_s = 300 };
    const char *resolver = NULL;
    int o;

    while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (o == 'r')
            resolver = optarg;
        else if (o == 'c')
            p.max_conns = strtoul(optarg, NULL, 10);
        else if (o == 'i')
            p.idle_s = atoi(optarg);
        else
            return usage();
    }
    if (optind == argc || p.max_conns == 0 || p.idle_s <= 0)
        return usage();
    for (int i = optind; i < argc; i++) {
        const char *why;
        if (p.nrules == MAX_RULES || px_rule_parse(argv[i], &p.rules[p.nrules++], &why) < 0) {
            fprintf(stderr, "proxy: bad allowlist entry '%s': %s\n", argv[i],
                    p.nrules == MAX_RULES ? "too many" : why);
            return 2;
        }
    }
    /* Two descriptors per connection, and a few more. */
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    /* The host's own addresses, which a name may lead to only when listed:
     * all of them, or the proxy does not start (the filter below allows no
     * netlink socket to look again; px_self_route() sees those it gains). */
    int nself = px_self_addrs(p.self, PX_MAX_SELF);
    if (nself < 0 || nself > PX_MAX_SELF) {
        fprintf(stderr, "proxy: cannot list the host's addresses: %s\n",
                nself < 0 ? strerror(errno) : "more than " PX_MAX_SELF_TEXT);
        return 1;
    }
    p.nself = (size_t)nself;
    signal(SIGPIPE, SIG_IGN);
    p.base = event_base_new();
    if (!p.base)
        return 1;
    /* Test mode: only the names of the test's file, no nameserver at all. */
    p.dns = evdns_base_new(p.base, resolver ? 0 : EVDNS_BASE_INITIALIZE_NAMESERVERS);
    if (!p.dns || (resolver && evdns_base_load_hosts(p.dns, resolver) != 0)) {
        fprintf(stderr, "proxy: cannot set up the resolver%s%s\n", resolver ? " from " : "",
                resolver ? resolver : "");
        return 1;
    }
    /* The sandbox's connections inherit the listener's buffers. */
    if (set_buffers(LISTEN_FD, SANDBOX_BUF) < 0) {
        fprintf(stderr, "proxy: cannot size fd %d's buffers: %s\n", LISTEN_FD, strerror(errno));
        return 1;
    }
    evutil_make_socket_nonblocking(LISTEN_FD);
    struct evconnlistener *l = evconnlistener_new(p.base, accepted, &p,
                                                  LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC,
                                                  0, LISTEN_FD);
    struct event *ex = event_new(p.base, EXIT_FD, EV_READ, exit_read, p.base);
    if (!l || !ex || event_add(ex, NULL) < 0) {
        fprintf(stderr, "proxy: cannot listen on fd %d or watch fd %d\n", LISTEN_FD, EXIT_FD);
        return 1;
    }
    /* Set up: from here on it may only relay (confine.h, filter-rules.c). */
    if (px_confine() < 0) {
        fprintf(stderr, "proxy: cannot load its seccomp filter: %s\n", strerror(errno));
        return 1;
    }
    event_base_dispatch(p.base);
    /* Straight out: exit handlers (a sanitizer's leak check) may need more
     * than the filter allows, and the kernel frees everything. */
    _exit(0);
}
