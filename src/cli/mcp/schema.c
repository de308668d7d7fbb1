/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schema.c - the tools the server offers, with their input and output
 * schemas (JSON Schema, as tools/list returns them). Written as one JSON
 * document so that what clients see is what is read here; docs/mcp.md
 * describes each tool.
 */
#include "config.h"

#include "tools.h"

#define S_ID "\"sandbox_id\":{\"type\":\"string\",\"description\":\"an id sandbox_create returned\"}"
#define S_ARGV "\"argv\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1," \
    "\"description\":\"the program and its arguments, run directly (no shell)\"}"
#define S_EXEC_OPTS \
    "\"stdin\":{\"type\":\"string\",\"description\":\"text fed to standard input, then EOF\"}," \
    "\"env\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}," \
    "\"description\":\"variables set for the command (nothing of the server's is passed); only "\
    "names the server's --agent-env allows, never one its policy sets\"}," \
    "\"cwd\":{\"type\":\"string\",\"description\":\"working directory, relative to the work dir\"}," \
    "\"timeout_ms\":{\"type\":\"integer\",\"minimum\":1," \
    "\"description\":\"kill the command after this; at most the server's --timeout\"}," \
    "\"output_cap_bytes\":{\"type\":\"integer\",\"minimum\":0," \
    "\"description\":\"cap on each captured stream; at most the server's --output-cap\"}"
#define S_TIGHTEN \
    "\"network\":{\"enum\":[\"none\",\"allowlist\",\"open\"]," \
    "\"description\":\"the sandbox's network; no wider than the server's --network\"}," \
    "\"allow_hosts\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"minItems\":1," \
    "\"description\":\"the hosts an allowlist lets through; within the server's --allow-host\"}," \
    "\"memory_bytes\":{\"type\":\"integer\",\"minimum\":1," \
    "\"description\":\"memory limit; at most the server's\"}," \
    "\"cpus\":{\"type\":\"number\",\"exclusiveMinimum\":0," \
    "\"description\":\"CPU limit (0.5: half a CPU); at most the server's\"}," \
    "\"pids\":{\"type\":\"integer\",\"minimum\":1," \
    "\"description\":\"process limit; at most the server's\"}," \
    "\"disk_bytes\":{\"type\":\"integer\",\"minimum\":1," \
    "\"description\":\"cap on what the work dir may hold; at most the server's\"}," \
    "\"min_tier\":{\"enum\":[\"none\",\"namespace\",\"container\",\"userspace-kernel\",\"microvm\"]," \
    "\"description\":\"the weakest isolation tier accepted; at least the server's --min-tier\"}"
#define S_RESULT \
    "{\"type\":\"object\",\"properties\":{" \
    "\"exit_code\":{\"type\":[\"integer\",\"null\"]}," \
    "\"signal\":{\"type\":[\"integer\",\"null\"]}," \
    "\"timed_out\":{\"type\":\"boolean\"},\"oom_killed\":{\"type\":\"boolean\"}," \
    "\"net_refused\":{\"type\":\"integer\",\"minimum\":0}," \
    "\"stdout\":{\"type\":\"string\"},\"stdout_encoding\":{\"enum\":[\"utf-8\",\"base64\"]}," \
    "\"stderr\":{\"type\":\"string\"},\"stderr_encoding\":{\"enum\":[\"utf-8\",\"base64\"]}," \
    "\"stdout_truncated\":{\"type\":\"boolean\"},\"stderr_truncated\":{\"type\":\"boolean\"}," \
    "\"duration_ms\":{\"type\":\"number\"}}," \
    "\"required\":[\"exit_code\",\"signal\",\"timed_out\",\"oom_killed\",\"stdout\"," \
    "\"stdout_encoding\",\"stderr\",\"stderr_encoding\",\"stdout_truncated\"," \
    "\"stderr_truncated\",\"duration_ms\"],\"additionalProperties\":false}"

static const char tools_json[] =
    "{\"tools\":["
    "{\"name\":\"run\",\"title\":\"Run a command in a fresh sandbox\","
    "\"description\":\"Run one command in a new sandbox that is destroyed afterwards. Give argv, "
    "or code with a language (python, sh, node): the code is written to a file and run by the "
    "interpreter. Returns the exit code or signal, stdout, stderr and how the run ended.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_ARGV ","
    "\"code\":{\"type\":\"string\",\"description\":\"source code to run instead of argv\"},"
    "\"language\":{\"enum\":[\"python\",\"sh\",\"node\"],\"description\":\"the language of code\"},"
    S_EXEC_OPTS "," S_TIGHTEN "},\"additionalProperties\":false},"
    "\"outputSchema\":" S_RESULT ","
    "\"annotations\":{\"readOnlyHint\":false,\"destructiveHint\":false,\"openWorldHint\":false}},"

    "{\"name\":\"sandbox_create\",\"title\":\"Create a sandbox\","
    "\"description\":\"Create a sandbox that keeps its files between commands, until "
    "sandbox_destroy, the end of this session or the server's idle TTL. Its network and "
    "limits may be tighter than the server's.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_TIGHTEN "},"
    "\"additionalProperties\":false},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{" S_ID ","
    "\"backend\":{\"type\":\"string\"},\"tier\":{\"type\":\"string\"}},"
    "\"required\":[\"sandbox_id\",\"backend\",\"tier\"],\"additionalProperties\":false}},"

    "{\"name\":\"sandbox_exec\",\"title\":\"Run a command in a sandbox\","
    "\"description\":\"Run one command in a sandbox made by sandbox_create.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_ID "," S_ARGV "," S_EXEC_OPTS "},"
    "\"required\":[\"sandbox_id\",\"argv\"],\"additionalProperties\":false},"
    "\"outputSchema\":" S_RESULT "},"

    "{\"name\":\"sandbox_write_file\",\"title\":\"Write a file in a sandbox\","
    "\"description\":\"Create or replace a file (parents are made) under the sandbox's work dir.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_ID ","
    "\"path\":{\"type\":\"string\",\"description\":\"relative to the work dir\"},"
    "\"content\":{\"type\":\"string\"},"
    "\"encoding\":{\"enum\":[\"utf-8\",\"base64\"],\"description\":\"of content (default utf-8)\"},"
    "\"mode\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":511,"
    "\"description\":\"permission bits (default 420 = 0644)\"}},"
    "\"required\":[\"sandbox_id\",\"path\",\"content\"],\"additionalProperties\":false},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
    "\"bytes\":{\"type\":\"integer\"}},\"required\":[\"path\",\"bytes\"],"
    "\"additionalProperties\":false}},"

    "{\"name\":\"sandbox_read_file\",\"title\":\"Read a file of a sandbox\","
    "\"description\":\"Read a whole file: as text when it is UTF-8, else base64.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_ID ","
    "\"path\":{\"type\":\"string\",\"description\":\"relative to the work dir\"}},"
    "\"required\":[\"sandbox_id\",\"path\"],\"additionalProperties\":false},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
    "\"content\":{\"type\":\"string\"},\"encoding\":{\"enum\":[\"utf-8\",\"base64\"]},"
    "\"bytes\":{\"type\":\"integer\"}},\"required\":[\"path\",\"content\",\"encoding\",\"bytes\"],"
    "\"additionalProperties\":false}},"

    "{\"name\":\"sandbox_list_files\",\"title\":\"List a directory of a sandbox\","
    "\"description\":\"The entries of a directory (default: the work dir), sorted by name.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_ID ","
    "\"path\":{\"type\":\"string\",\"description\":\"relative to the work dir (default \\\"\\\")\"}},"
    "\"required\":[\"sandbox_id\"],\"additionalProperties\":false},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},"
    "\"entries\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":{"
    "\"name\":{\"type\":\"string\"},\"type\":{\"enum\":[\"file\",\"directory\",\"symlink\",\"other\"]},"
    "\"size\":{\"type\":\"integer\"},\"mode\":{\"type\":\"integer\"}},"
    "\"required\":[\"name\",\"type\",\"size\",\"mode\"],\"additionalProperties\":false}}},"
    "\"required\":[\"path\",\"entries\"],\"additionalProperties\":false}},"

    "{\"name\":\"sandbox_destroy\",\"title\":\"Destroy a sandbox\","
    "\"description\":\"Destroy a sandbox and everything in it.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{" S_ID "},"
    "\"required\":[\"sandbox_id\"],\"additionalProperties\":false},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{" S_ID ","
    "\"destroyed\":{\"type\":\"boolean\"}},\"required\":[\"sandbox_id\",\"destroyed\"],"
    "\"additionalProperties\":false},"
    "\"annotations\":{\"destructiveHint\":true,\"idempotentHint\":false}},"

    "{\"name\":\"sandbox_list\",\"title\":\"List this session's sandboxes\","
    "\"description\":\"The sandboxes this client has open (no other client's are visible).\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false},"
    "\"outputSchema\":{\"type\":\"object\",\"properties\":{\"sandboxes\":{\"type\":\"array\","
    "\"items\":{\"type\":\"object\",\"properties\":{" S_ID ","
    "\"backend\":{\"type\":\"string\"},\"tier\":{\"type\":\"string\"},"
    "\"idle_ms\":{\"type\":\"integer\"}},"
    "\"required\":[\"sandbox_id\",\"backend\",\"tier\",\"idle_ms\"],\"additionalProperties\":false}}},"
    "\"required\":[\"sandboxes\"],\"additionalProperties\":false},"
    "\"annotations\":{\"readOnlyHint\":true}}"
    "]}";

json_object *mcp_tools_list(void)
{
    return json_tokener_parse(tools_json);
}
