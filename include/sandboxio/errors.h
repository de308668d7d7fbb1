/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/errors.h - stable error codes and the thread-local error object.
 *
 * Every function of the library that can fail returns an int: SBX_OK (0) on
 * success, otherwise one of the codes below (always positive). The details of
 * the most recent failure on the calling thread are kept in an sbx_error that
 * sbx_error_last() returns.
 *
 * Codes are part of the semver contract: a number is never reused or
 * renumbered. Each code NNNN has a page docs/errors/SBX_ENNNN.md.
 * Ranges: 1xxx usage, DSN, configuration; 2xxx plugin loading and ABI;
 * 3xxx policy and capability refusals; 4xxx backend and provider;
 * 5xxx execution; 9xxx internal.
 *
 * Codes marked "CLI only" are never returned by a library function: the
 * sandboxio tool uses them for its own usage errors, and to name with one
 * code an outcome that the C API reports in an sbx_result (a timeout, an OOM
 * kill, truncated output) rather than as a failure.
 */
#ifndef SANDBOXIO_ERRORS_H
#define SANDBOXIO_ERRORS_H

#include <sandboxio/common.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum sbx_code {
    SBX_OK = 0,

    /* 1xxx: usage, DSN, configuration */
    SBX_E_INVALID_ARGUMENT = 1001,   /* SBX_E1001 a NULL or out-of-range argument */
    SBX_E_DSN_EMPTY = 1002,          /* SBX_E1002 */
    SBX_E_DSN_NO_SCHEME = 1003,      /* SBX_E1003 no "scheme://" */
    SBX_E_DSN_BAD_SCHEME = 1004,     /* SBX_E1004 scheme has a bad character */
    SBX_E_DSN_BAD_PERCENT = 1005,    /* SBX_E1005 bad %XX escape */
    SBX_E_DSN_BAD_QUERY = 1006,      /* SBX_E1006 empty key, missing '=' ... */
    SBX_E_DSN_DUPLICATE_KEY = 1007,  /* SBX_E1007 */
    SBX_E_DSN_CREDENTIALS = 1008,    /* SBX_E1008 user:password@ in a DSN */
    SBX_E_DSN_BAD_CHARACTER = 1009,  /* SBX_E1009 control character or space */
    SBX_E_DSN_TOO_LONG = 1010,       /* SBX_E1010 */
    SBX_E_DSN_UNKNOWN_OPTION = 1011, /* SBX_E1011 the backend has no such option */
    SBX_E_DSN_BAD_OPTION_VALUE = 1012, /* SBX_E1012 */
    SBX_E_DSN_FRAGMENT = 1013,       /* SBX_E1013 '#fragment' is not allowed */
    SBX_E_DSN_BAD_AUTHORITY = 1014,  /* SBX_E1014 */
    SBX_E_BAD_SIZE = 1015,           /* SBX_E1015 a size or duration does not parse (CLI only) */
    SBX_E_BAD_POLICY = 1016,         /* SBX_E1016 a policy value is contradictory */
    SBX_E_SANDBOX_DESTROYED = 1017,  /* SBX_E1017 use after sbx_sandbox_destroy() */
    SBX_E_USAGE = 1018,              /* SBX_E1018 command-line usage (CLI only) */
    SBX_E_BAD_PATH = 1019,           /* SBX_E1019 an empty or malformed sandbox path */
    SBX_E_MCP_BAD_ARGUMENTS = 1030,  /* SBX_E1030 MCP tool arguments do not fit the schema */
    SBX_E_MCP_REQUEST_TOO_LARGE = 1031, /* SBX_E1031 an MCP request past --max-request */
    SBX_E_MCP_CONFIG = 1032,         /* SBX_E1032 the MCP server's configuration is refused */
    SBX_E_BAD_SANDBOX_NAME = 1040,      /* SBX_E1040 a name not [a-z0-9][a-z0-9_.-]{0,62} */
    SBX_E_DETACH_NO_TTL = 1041,         /* SBX_E1041 detach of a sandbox with no TTL */
    SBX_E_AMBIGUOUS_ID = 1042,          /* SBX_E1042 (CLI only) an id prefix matches several sandboxes */
    SBX_E_PROFILE_SYNTAX = 1050, /* SBX_E1050 a profiles file is not valid YAML (CLI only) */
    SBX_E_PROFILE_UNKNOWN_KEY = 1051, /* SBX_E1051 a profile has a key sandboxio does not know (CLI only) */
    SBX_E_PROFILE_BAD_TYPE = 1052, /* SBX_E1052 a profile value has the wrong type (CLI only) */
    SBX_E_PROFILE_DUPLICATE_KEY = 1053, /* SBX_E1053 a key is given twice (CLI only) */
    SBX_E_PROFILE_BAD_VALUE = 1054, /* SBX_E1054 a value does not parse (CLI only) */
    SBX_E_PROFILE_NOT_FOUND = 1055, /* SBX_E1055 no profile of that name (CLI only) */
    SBX_E_PROFILE_UNREADABLE = 1056, /* SBX_E1056 a profiles file cannot be read (CLI only) */
    SBX_E_PROFILE_UNSAFE = 1057, /* SBX_E1057 another user could change a profiles file (CLI only) */
    SBX_E_MCP_STREAM_LOST = 1060,    /* SBX_E1060 an MCP event stream cannot be resumed from Last-Event-ID */

    /* 2xxx: plugin loading and ABI */
    SBX_E_PLUGIN_NOT_FOUND = 2001,      /* SBX_E2001 */
    SBX_E_PLUGIN_NOT_LOADABLE = 2002,   /* SBX_E2002 not a shared object, missing deps */
    SBX_E_PLUGIN_NO_ENTRY = 2003,       /* SBX_E2003 no sandboxio_plugin_v1 symbol */
    SBX_E_PLUGIN_ABI_MAJOR = 2004,      /* SBX_E2004 */
    SBX_E_PLUGIN_NULL_DESCRIPTOR = 2005,/* SBX_E2005 */
    SBX_E_PLUGIN_SHORT_DESCRIPTOR = 2006,/* SBX_E2006 struct_size too small */
    SBX_E_PLUGIN_INIT_FAILED = 2007,    /* SBX_E2007 */
    SBX_E_PLUGIN_ABI_MINOR = 2008,      /* SBX_E2008 plugin newer than this library */
    SBX_E_PLUGIN_NAME_MISMATCH = 2009,  /* SBX_E2009 descriptor name != file name */
    SBX_E_PLUGIN_INCOMPLETE = 2010,     /* SBX_E2010 a required function is NULL */
    SBX_E_PLUGIN_BAD_NAME = 2011,       /* SBX_E2011 scheme not usable as a plugin name */
    SBX_E_PLUGIN_BAD_DESCRIPTOR = 2012, /* SBX_E2012 unknown tier, capability bits... */
    SBX_E_PLUGIN_NO_ATTACH = 2040,      /* SBX_E2040 no minor-2 lifecycle members */
    SBX_E_PLUGIN_NO_PAUSE = 2041,       /* SBX_E2041 no pause/resume members */

    /* 3xxx: policy and capability refusals (nothing was run) */
    SBX_E_POLICY_TIER = 3001,           /* SBX_E3001 */
    SBX_E_POLICY_NETWORK_NONE = 3002,   /* SBX_E3002 */
    SBX_E_POLICY_NETWORK_ALLOWLIST = 3003, /* SBX_E3003 */
    SBX_E_POLICY_MEMORY = 3004,         /* SBX_E3004 */
    SBX_E_POLICY_CPU = 3005,            /* SBX_E3005 */
    SBX_E_POLICY_PIDS = 3006,           /* SBX_E3006 */
    SBX_E_POLICY_TIMEOUT = 3007,        /* SBX_E3007 */
    SBX_E_POLICY_ENV = 3008,            /* SBX_E3008 */
    SBX_E_CAP_EXEC = 3009,              /* SBX_E3009 */
    SBX_E_CAP_STREAM = 3010,            /* SBX_E3010 */
    SBX_E_CAP_STDIN = 3011,             /* SBX_E3011 */
    SBX_E_CAP_CWD = 3012,               /* SBX_E3012 */
    SBX_E_CAP_FILES = 3013,             /* SBX_E3013 */
    SBX_E_CAP_NATIVE = 3014,            /* SBX_E3014 */
    SBX_E_PATH_ESCAPE = 3015,           /* SBX_E3015 path leaves the sandbox root */
    SBX_E_POLICY_DISK = 3016,           /* SBX_E3016 */
    SBX_E_MCP_POLICY_WIDER = 3020,      /* SBX_E3020 a tool argument widens the operator's policy */
    SBX_E_MCP_SANDBOX_LIMIT = 3021,     /* SBX_E3021 the client has its maximum of sandboxes */
    SBX_E_MCP_SESSION_LIMIT = 3022,     /* SBX_E3022 the token has its maximum of MCP sessions */
    SBX_E_POLICY_NETWORK_OPEN = 3025,   /* SBX_E3025 the backend cannot give an open network */
    SBX_E_CAP_ATTACH = 3030,            /* SBX_E3030 */
    SBX_E_CAP_PAUSE = 3031,             /* SBX_E3031 */
    SBX_E_POLICY_WIDER = 3032,          /* SBX_E3032 an attach policy wider than the stored one */
    SBX_E_POLICY_FIXED = 3033,          /* SBX_E3033 an attach policy tightens a fixed control */
    SBX_E_CAP_PTY = 3040,               /* SBX_E3040 the backend cannot run a command on a terminal */
    SBX_E_CAP_FILE_META = 3041,         /* SBX_E3041 the backend cannot keep modes, mtimes, symlinks */

    /* 4xxx: backend and provider */
    SBX_E_BACKEND_UNAVAILABLE = 4001,   /* SBX_E4001 */
    SBX_E_BACKEND_AUTH = 4002,          /* SBX_E4002 */
    SBX_E_BACKEND_QUOTA = 4003,         /* SBX_E4003 */
    SBX_E_NOT_FOUND = 4004,             /* SBX_E4004 file or object does not exist */
    SBX_E_BACKEND_TRANSPORT = 4005,     /* SBX_E4005 */
    SBX_E_BACKEND_PROTOCOL = 4006,      /* SBX_E4006 provider API changed */
    SBX_E_BACKEND_PERMISSION = 4007,    /* SBX_E4007 */
    SBX_E_KERNEL_FEATURE = 4008,        /* SBX_E4008 */
    SBX_E_BACKEND_FAILED = 4009,        /* SBX_E4009 the backend reported a failure */
    SBX_E_IS_DIRECTORY = 4010,          /* SBX_E4010 */
    SBX_E_NOT_DIRECTORY = 4011,         /* SBX_E4011 */
    SBX_E_EXISTS = 4012,                /* SBX_E4012 */
    SBX_E_NOT_EMPTY = 4013,             /* SBX_E4013 directory not empty */
    SBX_E_NOT_REGULAR = 4014,           /* SBX_E4014 not a regular file */
    SBX_E_BACKEND_CONFLICT = 4015,      /* SBX_E4015 the provider refused: conflicting state (409) */
    SBX_E_BACKEND_RATE_LIMITED = 4016,  /* SBX_E4016 the provider asks to slow down (429) */
    SBX_E_CREDENTIAL_MISSING = 4017,    /* SBX_E4017 the credential's environment variable is unset */
    SBX_E_MCP_NO_SANDBOX = 4030,        /* SBX_E4030 no such sandbox in this MCP session */
    SBX_E_INSECURE_ENDPOINT = 4040,     /* SBX_E4040 plain http:// to an address not loopback */
    SBX_E_TEMPLATE_NOT_FOUND = 4041,    /* SBX_E4041 the backend has no such template or image */
    SBX_E_STORED_POLICY = 4050,         /* SBX_E4050 the stored policy is missing or unreadable */
    SBX_E_RUNTIME_DIR_UNSAFE = 4060,    /* SBX_E4060 the private runtime directory is not private */
    SBX_E_NOT_DETACHABLE = 4061,        /* SBX_E4061 the sandbox has no TTL: it dies with its handle */
    SBX_E_BACKEND_START_TIMEOUT = 4070, /* SBX_E4070 the provider's sandbox did not start in time */

    /* 5xxx: execution */
    SBX_E_EXEC_TIMEOUT = 5001,          /* SBX_E5001 (CLI only: see sbx_result_timed_out()) */
    SBX_E_EXEC_OOM = 5002,              /* SBX_E5002 (CLI only: see sbx_result_oom_killed()) */
    SBX_E_EXEC_TRUNCATED = 5003,        /* SBX_E5003 (CLI only: see sbx_result_truncated()) */
    SBX_E_EXEC_START = 5004,            /* SBX_E5004 could not start (e.g. no working directory) */
    SBX_E_EXEC_ABORTED = 5005,          /* SBX_E5005 an output callback asked to stop */
    SBX_E_FILE_TOO_LARGE = 5006,        /* SBX_E5006 too large to read into memory */
    SBX_E_LIST_TOO_LARGE = 5007,        /* SBX_E5007 the directory has too many entries to list */
    SBX_E_EXEC_CANCELLED = 5008,        /* SBX_E5008 the command's sbx_cancel was triggered */
    SBX_E_COPY_TOO_LARGE = 5009,        /* SBX_E5009 (CLI only) a copy out passed its size bound */
    SBX_E_EXEC_NOT_FOUND = 5011,        /* SBX_E5011 no such program in the sandbox */
    SBX_E_EXEC_DENIED = 5012,           /* SBX_E5012 the program exists but cannot be executed */
    SBX_E_EXEC_SANDBOX_GONE = 5040,     /* SBX_E5040 the sandbox ended (its TTL, a kill) while the command ran */

    /* 9xxx: internal */
    SBX_E_NOMEM = 9001,                 /* SBX_E9001 */
    SBX_E_INTERNAL = 9002,              /* SBX_E9002 */
    SBX_E_SYSTEM = 9003                 /* SBX_E9003 a system call failed */
} sbx_code;

/** Details of a failure. Valid until the next library call on the same thread. */
typedef struct sbx_error {
    int code;               /* an sbx_code */
    const char *id;         /* "SBX_E1003" */
    const char *message;    /* human-readable detail, never contains a secret */
    const char *docs_url;   /* page explaining the code */
    long position;          /* byte offset in the DSN for DSN errors, else -1 */
    int sys_errno;          /* errno behind SBX_E_SYSTEM and kin, else 0 */
} sbx_error;

/**
 * sbx_error_last - details of the last failure on the calling thread.
 *
 * Returns NULL if no call on this thread has failed since the last
 * sbx_error_clear(). The object is thread-local and owned by the library.
 */
SBX_API const sbx_error *sbx_error_last(void);

/** sbx_error_clear - forget the calling thread's last error. */
SBX_API void sbx_error_clear(void);

/**
 * sbx_strerror - the catalog's one-line summary of a code.
 *
 * Returns a static string for any input, "unknown error code" for numbers
 * that are not codes. Thread-safe.
 */
SBX_API const char *sbx_strerror(int code);

/** sbx_error_id - "SBX_Ennnn" for a code, "SBX_E????" for a non-code. Static. */
SBX_API const char *sbx_error_id(int code);

/** sbx_error_docs_url - the docs page of a code (static string, NULL for non-codes). */
SBX_API const char *sbx_error_docs_url(int code);

/**
 * sbx_error_catalog - iterate the catalog: the code at index i, or 0 past the end.
 * Used by the CLI and the tests that tie codes to docs pages.
 */
SBX_API int sbx_error_catalog(size_t i);

#ifdef __cplusplus
}
#endif
#endif
