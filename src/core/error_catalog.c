/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The error catalog: the one table of every code in sandboxio/errors.h with
 * its stable id, one-line summary and docs page.
 *
 * Rows are kept in ascending code order so sbx_error_catalog() iterates in
 * the order the docs index lists them. Every row must have a page
 * docs/errors/SBX_Ennnn.md; tests/test_error_catalog.c checks the table
 * against the header and the pages in both directions.
 */
#include "internal.h"

#include <stddef.h>

typedef struct catalog_row {
    sbx_catalog_entry entry;
    const char *docs_url;
} catalog_row;

/* The id and the page URL are spelled from the same literal so they cannot
 * drift apart. SBX_DOCS_URL is the root of the documentation site and
 * SBX_DOCS_SUFFIX the suffix of its pages: configure's --with-docs-url, or
 * from the Makefile the site installed under $(docdir)/html/ (".html"), or
 * with no HTML built the Markdown pages under $(docdir)/ (".md"). */
#define ROW(code, num, summary) \
    { { (code), "SBX_E" #num, (summary) }, SBX_DOCS_URL "errors/SBX_E" #num SBX_DOCS_SUFFIX }

static const catalog_row catalog[] = {
    /* 1xxx: usage, DSN, configuration */
    ROW(SBX_E_INVALID_ARGUMENT, 1001, "invalid argument: NULL or out of range"),
    ROW(SBX_E_DSN_EMPTY, 1002, "the DSN is empty"),
    ROW(SBX_E_DSN_NO_SCHEME, 1003, "the DSN has no \"scheme://\" prefix"),
    ROW(SBX_E_DSN_BAD_SCHEME, 1004, "the DSN scheme has a character that is not allowed"),
    ROW(SBX_E_DSN_BAD_PERCENT, 1005, "the DSN has a malformed %XX escape"),
    ROW(SBX_E_DSN_BAD_QUERY, 1006, "the DSN query is malformed (empty key or missing '=')"),
    ROW(SBX_E_DSN_DUPLICATE_KEY, 1007, "the DSN query repeats a key"),
    ROW(SBX_E_DSN_CREDENTIALS, 1008, "the DSN carries credentials (user:password@)"),
    ROW(SBX_E_DSN_BAD_CHARACTER, 1009, "the DSN holds a space or control character"),
    ROW(SBX_E_DSN_TOO_LONG, 1010, "the DSN is longer than SBX_DSN_MAX bytes"),
    ROW(SBX_E_DSN_UNKNOWN_OPTION, 1011, "the backend has no such DSN option"),
    ROW(SBX_E_DSN_BAD_OPTION_VALUE, 1012, "a DSN option has a value the backend does not accept"),
    ROW(SBX_E_DSN_FRAGMENT, 1013, "the DSN has a '#fragment', which is not allowed"),
    ROW(SBX_E_DSN_BAD_AUTHORITY, 1014, "the DSN authority is malformed"),
    ROW(SBX_E_BAD_SIZE, 1015, "a size or duration does not parse"),
    ROW(SBX_E_BAD_POLICY, 1016, "the policy is contradictory"),
    ROW(SBX_E_SANDBOX_DESTROYED, 1017, "the sandbox was already destroyed"),
    ROW(SBX_E_USAGE, 1018, "command-line usage error"),
    ROW(SBX_E_BAD_PATH, 1019, "the sandbox path is empty or malformed"),
    ROW(SBX_E_MCP_BAD_ARGUMENTS, 1030, "the MCP tool arguments do not fit the tool's input schema"),
    ROW(SBX_E_MCP_REQUEST_TOO_LARGE, 1031, "the MCP request is larger than the server accepts"),
    ROW(SBX_E_MCP_CONFIG, 1032, "the MCP server's configuration is refused"),
    ROW(SBX_E_BAD_SANDBOX_NAME, 1040, "the sandbox name is not 1 to 63 of [a-z0-9_.-] starting with a letter or digit"),
    ROW(SBX_E_DETACH_NO_TTL, 1041, "a sandbox without a TTL cannot be detached: it would never end"),
    ROW(SBX_E_AMBIGUOUS_ID, 1042, "the sandbox id or prefix matches more than one sandbox"),
    ROW(SBX_E_PROFILE_SYNTAX, 1050, "the profiles file is not valid YAML"),
    ROW(SBX_E_PROFILE_UNKNOWN_KEY, 1051, "a profile has an unknown key"),
    ROW(SBX_E_PROFILE_BAD_TYPE, 1052, "a profile value has the wrong type"),
    ROW(SBX_E_PROFILE_DUPLICATE_KEY, 1053, "a profile name or key is given twice"),
    ROW(SBX_E_PROFILE_BAD_VALUE, 1054, "a profile value is not valid for its key"),
    ROW(SBX_E_PROFILE_NOT_FOUND, 1055, "no profile of that name in any profiles file"),
    ROW(SBX_E_PROFILE_UNREADABLE, 1056, "a profiles file cannot be read"),
    ROW(SBX_E_PROFILE_UNSAFE, 1057, "another user could change a profiles file"),
    ROW(SBX_E_MCP_STREAM_LOST, 1060, "the MCP event stream cannot be resumed"),

    /* 2xxx: plugin loading and ABI */
    ROW(SBX_E_PLUGIN_NOT_FOUND, 2001, "no plugin for this scheme on the search path"),
    ROW(SBX_E_PLUGIN_NOT_LOADABLE, 2002, "the plugin file cannot be loaded"),
    ROW(SBX_E_PLUGIN_NO_ENTRY, 2003, "the plugin exports no sandboxio_plugin_v1 entry point"),
    ROW(SBX_E_PLUGIN_ABI_MAJOR, 2004, "the plugin was built for another ABI major version"),
    ROW(SBX_E_PLUGIN_NULL_DESCRIPTOR, 2005, "the plugin entry point returned no descriptor"),
    ROW(SBX_E_PLUGIN_SHORT_DESCRIPTOR, 2006, "the plugin descriptor is too small (struct_size)"),
    ROW(SBX_E_PLUGIN_INIT_FAILED, 2007, "the plugin failed to initialise"),
    ROW(SBX_E_PLUGIN_ABI_MINOR, 2008, "the plugin needs a newer ABI minor than this library"),
    ROW(SBX_E_PLUGIN_NAME_MISMATCH, 2009, "the plugin's name does not match its file name"),
    ROW(SBX_E_PLUGIN_INCOMPLETE, 2010, "the plugin lacks a required function"),
    ROW(SBX_E_PLUGIN_BAD_NAME, 2011, "the scheme is not usable as a plugin name"),
    ROW(SBX_E_PLUGIN_BAD_DESCRIPTOR, 2012, "the plugin descriptor holds invalid values"),
    ROW(SBX_E_PLUGIN_NO_ATTACH, 2040, "the plugin has no named, attachable sandboxes (ABI minor < 2 or a member missing)"),
    ROW(SBX_E_PLUGIN_NO_PAUSE, 2041, "the plugin has no pause and resume (ABI minor < 2 or a member missing)"),

    /* 3xxx: policy and capability refusals (nothing was run) */
    ROW(SBX_E_POLICY_TIER, 3001, "policy refused: the backend's isolation tier is too weak"),
    ROW(SBX_E_POLICY_NETWORK_NONE, 3002, "policy refused: the backend cannot guarantee no network"),
    ROW(SBX_E_POLICY_NETWORK_ALLOWLIST, 3003,
        "policy refused: the backend cannot enforce a network allowlist"),
    ROW(SBX_E_POLICY_MEMORY, 3004, "policy refused: the backend cannot limit memory"),
    ROW(SBX_E_POLICY_CPU, 3005, "policy refused: the backend cannot limit CPU"),
    ROW(SBX_E_POLICY_PIDS, 3006, "policy refused: the backend cannot limit the number of processes"),
    ROW(SBX_E_POLICY_TIMEOUT, 3007, "policy refused: the backend cannot enforce a timeout"),
    ROW(SBX_E_POLICY_ENV, 3008, "policy refused: the backend cannot set environment variables"),
    ROW(SBX_E_CAP_EXEC, 3009, "the backend cannot run commands"),
    ROW(SBX_E_CAP_STREAM, 3010, "the backend cannot stream output"),
    ROW(SBX_E_CAP_STDIN, 3011, "the backend cannot feed standard input"),
    ROW(SBX_E_CAP_CWD, 3012, "the backend cannot choose the working directory"),
    ROW(SBX_E_CAP_FILES, 3013, "the backend has no file operations"),
    ROW(SBX_E_CAP_NATIVE, 3014, "the backend has no native operations"),
    ROW(SBX_E_PATH_ESCAPE, 3015, "the path leaves the sandbox's work directory"),
    ROW(SBX_E_POLICY_DISK, 3016, "policy refused: the backend cannot limit the work directory's size"),
    ROW(SBX_E_MCP_POLICY_WIDER, 3020, "a tool argument asks for more than the operator's policy allows"),
    ROW(SBX_E_MCP_SANDBOX_LIMIT, 3021, "the MCP client has open as many sandboxes as it may"),
    ROW(SBX_E_MCP_SESSION_LIMIT, 3022, "the MCP server has open as many sessions for this token as it may"),
    ROW(SBX_E_POLICY_NETWORK_OPEN, 3025, "policy refused: the backend cannot give the command an open network"),
    ROW(SBX_E_CAP_ATTACH, 3030, "the backend cannot name, detach, attach or list sandboxes"),
    ROW(SBX_E_CAP_PAUSE, 3031, "the backend cannot pause and resume a sandbox"),
    ROW(SBX_E_POLICY_WIDER, 3032, "the attach policy is wider than the one the sandbox was created with"),
    ROW(SBX_E_POLICY_FIXED, 3033, "the attach policy tightens a control fixed when the sandbox was created"),
    ROW(SBX_E_CAP_PTY, 3040, "the backend cannot run a command on a terminal"),
    ROW(SBX_E_CAP_FILE_META, 3041, "the backend cannot keep file modes, mtimes or symlinks"),

    /* 4xxx: backend and provider */
    ROW(SBX_E_BACKEND_UNAVAILABLE, 4001, "the backend is not available"),
    ROW(SBX_E_BACKEND_AUTH, 4002, "the backend refused the credentials"),
    ROW(SBX_E_BACKEND_QUOTA, 4003, "a backend quota or rate limit was reached"),
    ROW(SBX_E_NOT_FOUND, 4004, "no such file or object"),
    ROW(SBX_E_BACKEND_TRANSPORT, 4005, "the connection to the backend failed"),
    ROW(SBX_E_BACKEND_PROTOCOL, 4006, "the backend answered in an unexpected form (its API changed?)"),
    ROW(SBX_E_BACKEND_PERMISSION, 4007, "the backend denied permission"),
    ROW(SBX_E_KERNEL_FEATURE, 4008, "a kernel feature the backend needs is missing or disabled"),
    ROW(SBX_E_BACKEND_FAILED, 4009, "the backend reported a failure"),
    ROW(SBX_E_IS_DIRECTORY, 4010, "the path is a directory"),
    ROW(SBX_E_NOT_DIRECTORY, 4011, "a path component is not a directory"),
    ROW(SBX_E_EXISTS, 4012, "the path already exists"),
    ROW(SBX_E_NOT_EMPTY, 4013, "the directory is not empty"),
    ROW(SBX_E_NOT_REGULAR, 4014, "the path is not a regular file"),
    ROW(SBX_E_BACKEND_CONFLICT, 4015, "the provider refused the request: it conflicts with the object's state"),
    ROW(SBX_E_BACKEND_RATE_LIMITED, 4016, "the provider is rate limiting: retry after the wait it gave"),
    ROW(SBX_E_CREDENTIAL_MISSING, 4017, "the environment variable holding the backend's credential is not set"),
    ROW(SBX_E_MCP_NO_SANDBOX, 4030, "no sandbox with this id in the MCP session"),
    ROW(SBX_E_INSECURE_ENDPOINT, 4040, "a backend endpoint is plain http:// to an address that is not loopback"),
    ROW(SBX_E_TEMPLATE_NOT_FOUND, 4041, "the backend has no such template or image"),
    ROW(SBX_E_STORED_POLICY, 4050, "the sandbox's stored policy is missing or unreadable"),
    ROW(SBX_E_RUNTIME_DIR_UNSAFE, 4060, "the private runtime directory is not private: refused"),
    ROW(SBX_E_NOT_DETACHABLE, 4061, "the sandbox was opened without a TTL: it cannot be detached"),
    ROW(SBX_E_BACKEND_START_TIMEOUT, 4070, "the provider's sandbox did not start within the time allowed"),

    /* 5xxx: execution */
    ROW(SBX_E_EXEC_TIMEOUT, 5001, "the command ran past its timeout"),
    ROW(SBX_E_EXEC_OOM, 5002, "the command was killed for exceeding the memory limit"),
    ROW(SBX_E_EXEC_TRUNCATED, 5003, "the command's output exceeded the output cap"),
    ROW(SBX_E_EXEC_START, 5004, "the command could not be started"),
    ROW(SBX_E_EXEC_ABORTED, 5005, "the operation was stopped by a callback"),
    ROW(SBX_E_FILE_TOO_LARGE, 5006, "the file is too large to read into memory"),
    ROW(SBX_E_LIST_TOO_LARGE, 5007, "the directory has too many entries to list"),
    ROW(SBX_E_EXEC_CANCELLED, 5008, "the command was cancelled"),
    ROW(SBX_E_COPY_TOO_LARGE, 5009, "the copy out of the sandbox passed its size bound"),
    ROW(SBX_E_EXEC_NOT_FOUND, 5011, "the program was not found in the sandbox"),
    ROW(SBX_E_EXEC_DENIED, 5012, "the program exists but cannot be executed"),
    ROW(SBX_E_EXEC_SANDBOX_GONE, 5040, "the sandbox ended (its TTL, a kill) while the command ran"),

    /* 9xxx: internal */
    ROW(SBX_E_NOMEM, 9001, "out of memory"),
    ROW(SBX_E_INTERNAL, 9002, "internal error in sandboxio"),
    ROW(SBX_E_SYSTEM, 9003, "a system call failed"),
};

#define CATALOG_SIZE (sizeof(catalog) / sizeof(catalog[0]))

static const catalog_row *find_row(int code)
{
    /* ~70 rows: a linear scan is cheaper to trust than a search. */
    for (size_t i = 0; i < CATALOG_SIZE; i++) {
        if (catalog[i].entry.code == code)
            return &catalog[i];
    }
    return NULL;
}

const sbx_catalog_entry *sbx__catalog_find(int code)
{
    const catalog_row *row = find_row(code);
    return row ? &row->entry : NULL;
}

const sbx_catalog_entry *sbx__catalog_at(size_t i)
{
    return i < CATALOG_SIZE ? &catalog[i].entry : NULL;
}

const char *sbx_strerror(int code)
{
    if (code == SBX_OK)
        return "success";
    const catalog_row *row = find_row(code);
    return row ? row->entry.summary : "unknown error code";
}

const char *sbx_error_id(int code)
{
    const catalog_row *row = find_row(code);
    return row ? row->entry.id : "SBX_E????";
}

const char *sbx_error_docs_url(int code)
{
    const catalog_row *row = find_row(code);
    return row ? row->docs_url : NULL;
}

int sbx_error_catalog(size_t i)
{
    return i < CATALOG_SIZE ? catalog[i].entry.code : 0;
}
