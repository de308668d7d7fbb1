/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_mcp.c - `sandboxio mcp`: the operator's options (the policy options
 * of `run`, and the server's own limits), then the chosen transport.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "../interrupt.h"
#include "../commands.h"
#include "../common/error.h"
#include "../common/options.h"
#include "../common/parse.h"

enum { OPT_HTTP = OPT_POLICY_END, OPT_TOKEN_FILE, OPT_MAX_SANDBOXES, OPT_IDLE_TTL, OPT_MAX_REQUEST,
       OPT_POOL, OPT_SESSION_TTL, OPT_AGENT_ENV,
       OPT_REPLAY_BUFFER, OPT_RESUME_WINDOW, OPT_MAX_TOTAL_SANDBOXES, OPT_MAX_SESSIONS };

static const struct option options[] = {
    POLICY_OPTIONS,
    { "http", required_argument, NULL, OPT_HTTP },
    { "token-file", required_argument, NULL, OPT_TOKEN_FILE },
    { "max-sandboxes", required_argument, NULL, OPT_MAX_SANDBOXES },
    { "max-total-sandboxes", required_argument, NULL, OPT_MAX_TOTAL_SANDBOXES },
    { "max-sessions", required_argument, NULL, OPT_MAX_SESSIONS },
    { "idle-ttl", required_argument, NULL, OPT_IDLE_TTL },
    { "session-ttl", required_argument, NULL, OPT_SESSION_TTL },
    { "max-request", required_argument, NULL, OPT_MAX_REQUEST },
    { "pool", required_argument, NULL, OPT_POOL },
    { "agent-env", required_argument, NULL, OPT_AGENT_ENV },
    { "replay-buffer", required_argument, NULL, OPT_REPLAY_BUFFER },
    { "resume-window", required_argument, NULL, OPT_RESUME_WINDOW },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static void usage(FILE *out)
{
    fputs("Usage: sandboxio mcp [OPTIONS]\n"
          "\n"
          "Serve the Model Context Protocol: agents run code in sandboxes through the\n"
          "tools run, sandbox_create, sandbox_exec, sandbox_write_file,\n"
          "sandbox_read_file, sandbox_list_files, sandbox_destroy and sandbox_list.\n"
          "The options below fix the backend and the policy; a tool's arguments may\n"
          "only tighten them. See docs/mcp.md.\n"
          "\n"
          "Policy (as for `sandboxio run`; --timeout is the ceiling of every command):\n",
          out);
    fputs(policy_opts_usage, out);
    fputs("\n"
          "Server:\n"
          "  --http ADDR:PORT   serve streamable HTTP at http://ADDR:PORT/mcp instead of\n"
          "                     stdio (ADDR 127.0.0.1 unless given; another address\n"
          "                     needs a token)\n"
          "  --token-file FILE  the bearer token HTTP clients must send (else\n"
          "                     $SANDBOXIO_MCP_TOKEN)\n"
          "  --max-sandboxes N  sandboxes one client may have open (default 8)\n"
          "  --max-total-sandboxes N  sandboxes the whole server may have at once, run's\n"
          "                     included (default 64)\n"
          "  --max-sessions N   HTTP sessions the token may have open at once (default 64)\n"
          "  --idle-ttl S       destroy a sandbox unused this long (default 10m; 0: never)\n"
          "  --session-ttl S    end an HTTP session that sent nothing this long, and\n"
          "                     destroy its sandboxes (default 30m; 0: never)\n"
          "  --max-request SIZE largest JSON-RPC message accepted (default 4M)\n"
          "  --replay-buffer SIZE  HTTP: events of a session kept so that a client\n"
          "                     that lost a stream resumes it with Last-Event-ID\n"
          "                     (default 1M; 0: streams cannot be resumed)\n"
          "  --resume-window S  HTTP: cancel a call whose stream was lost and not\n"
          "                     resumed this long (default 30s)\n"
          "  --pool N           keep N sandboxes ready for `run` (default 0: none);\n"
          "                     each serves one command and is destroyed\n"
          "  --agent-env NAME   a tool's env may set NAME, a shell pattern such as\n"
          "                     'PY*' or '*' (repeatable; without it, none), but\n"
          "                     never a variable --env or --env-pass sets\n"
          "  -h, --help         show this help\n"
          "\n"
          "Every sandbox a client opened is destroyed when its session ends (HTTP:\n"
          "DELETE, or --session-ttl), at EOF of stdin, and on SIGTERM or SIGINT.\n",
          out);
}

/* --agent-env PATTERN: a name or a shell pattern of names (see fnmatch(3)). */
static int add_agent_env(struct mcp_config *cfg, const char *pattern)
{
    const char **grown;

    if (!*pattern || strchr(pattern, '='))
        return sbx_cli_usage_error("mcp", "--agent-env: '%s' is not a variable name or pattern", pattern);
    if (!(grown = realloc(cfg->agent_env, (cfg->n_agent_env + 1) * sizeof(*grown))))
        return sbx_cli_error(SBX_E_NOMEM, "out of memory");
    cfg->agent_env = grown;
    grown[cfg->n_agent_env++] = pattern;
    return 0;
}

/* A count from 1 (up to a million) for option name. */
static int parse_count(const char *name, const char *text, size_t *out)
{
    uint64_t v;

    if (sbx_cli_parse_uint(text, 1000000, &v) || v == 0)
        return sbx_cli_error(SBX_E_BAD_SIZE, "%s: '%s' is not a count from 1", name, text);
    *out = (size_t)v;
    return 0;
}

static int parse(struct mcp_config *cfg, int argc, char **argv)
{
    uint64_t v;
    int opt, status;

    memset(cfg, 0, sizeof(*cfg));
    cfg->max_sandboxes = 8;
    cfg->max_total_sandboxes = 64;
    cfg->max_sessions = 64;
    cfg->idle_ttl_ms = 600000;
    cfg->session_ttl_ms = 1800000;
    cfg->max_request = (size_t)4 << 20;
    cfg->replay_bytes = (size_t)1 << 20;
    cfg->resume_window_ms = 30000;
    if ((status = policy_opts_init(&cfg->po)))
        return status;
    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, ":he:", options, NULL)) != -1) {
        switch (opt) {
        case 'h':
            usage(stdout);
            return -1;
        case 'e':
            /* The policy options' help, shared with run, offers -e. */
            if ((status = policy_opts_take(&cfg->po, "mcp", OPT_ENV, optarg)))
                return status;
            break;
        case OPT_HTTP:
            cfg->http = optarg;
            break;
        case OPT_TOKEN_FILE:
            cfg->token_file = optarg;
            break;
        case OPT_MAX_SANDBOXES:
            if ((status = parse_count("--max-sandboxes", optarg, &cfg->max_sandboxes)))
                return status;
            break;
        case OPT_MAX_TOTAL_SANDBOXES:
            if ((status = parse_count("--max-total-sandboxes", optarg, &cfg->max_total_sandboxes)))
                return status;
            break;
        case OPT_MAX_SESSIONS:
            if ((status = parse_count("--max-sessions", optarg, &cfg->max_sessions)))
                return status;
            break;
        case OPT_IDLE_TTL:
            if (sbx_cli_parse_duration_ms(optarg, &v))
                return sbx_cli_error(SBX_E_BAD_SIZE, "--idle-ttl: '%s' is not a duration", optarg);
            cfg->idle_ttl_ms = v;
            break;
        case OPT_SESSION_TTL:
            if (sbx_cli_parse_duration_ms(optarg, &v))
                return sbx_cli_error(SBX_E_BAD_SIZE, "--session-ttl: '%s' is not a duration", optarg);
            cfg->session_ttl_ms = v;
            break;
        case OPT_POOL:
            if (sbx_cli_parse_uint(optarg, 256, &v))
                return sbx_cli_error(SBX_E_BAD_SIZE, "--pool: '%s' is not a count from 0 to 256", optarg);
            cfg->pool = (unsigned)v;
            break;
        case OPT_AGENT_ENV:
            if ((status = add_agent_env(cfg, optarg)))
                return status;
            break;
        case OPT_REPLAY_BUFFER:
            if (sbx_cli_parse_size(optarg, &v) || v > INT32_MAX)
                return sbx_cli_error(SBX_E_BAD_SIZE, "--replay-buffer: '%s' is not a size up to 2G", optarg);
            cfg->replay_bytes = (size_t)v;
            break;
        case OPT_RESUME_WINDOW:
            if (sbx_cli_parse_duration_ms(optarg, &v))
                return sbx_cli_error(SBX_E_BAD_SIZE, "--resume-window: '%s' is not a duration", optarg);
            cfg->resume_window_ms = v;
            break;
        case OPT_MAX_REQUEST:
            if (sbx_cli_parse_size(optarg, &v) || v < 1024 || v > INT32_MAX)
                return sbx_cli_error(SBX_E_BAD_SIZE, "--max-request: '%s' is not a size from 1k to 2G", optarg);
            cfg->max_request = (size_t)v;
            break;
        default:
            if (opt >= OPT_DSN && opt < OPT_POLICY_END) {
                if ((status = policy_opts_take(&cfg->po, "mcp", opt, optarg)))
                    return status;
                break;
            }
            return sbx_cli_option_error("mcp", argv, opt, options);
        }
    }
    if (optind < argc)
        return sbx_cli_usage_error("mcp", "unexpected argument '%s'", argv[optind]);
    if ((status = policy_opts_finish(&cfg->po)))
        return status;
    cfg->dsn = policy_opts_dsn(&cfg->po);
    return 0;
}

int cmd_mcp(int argc, char **argv)
{
    struct mcp_config cfg;
    struct mcp_server server;
    int rc, status = parse(&cfg, argc, argv);

    if (status != 0) {
        policy_opts_release(&cfg.po);
        free(cfg.agent_env);
        return status < 0 ? 0 : status;
    }
    if (sbx_cli_interrupt_install(NULL) != 0) {
        policy_opts_release(&cfg.po);
        free(cfg.agent_env);
        return sbx_cli_error(SBX_E_SYSTEM, "installing the signal handlers: %m");
    }
    rc = mcp_server_init(&server, &cfg);
    if (rc == SBX_OK)
        rc = mcp_server_start_reaper(&server);
    if (rc != SBX_OK)
        status = sbx_cli_error_lib(rc, "starting the server");
    else
        status = cfg.http ? mcp_serve_http(&server) : mcp_serve_stdio(&server);
    mcp_server_release(&server);
    policy_opts_release(&cfg.po);
    free(cfg.agent_env);
    return status;
}
