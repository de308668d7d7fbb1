/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/caps.h - capabilities a backend declares and isolation tiers.
 *
 * A capability is a promise: the contract suite must pass every case that
 * needs a declared capability. An operation needing an undeclared capability
 * is refused by the core (SBX_E3xxx) before the backend is asked.
 */
#ifndef SANDBOXIO_CAPS_H
#define SANDBOXIO_CAPS_H

#include <sandboxio/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bit values are part of the plugin ABI: never reuse or renumber them. */
#define SBX_CAP_EXEC           (UINT64_C(1) << 0)  /* run commands */
#define SBX_CAP_STREAM         (UINT64_C(1) << 1)  /* deliver output as it comes */
#define SBX_CAP_STDIN          (UINT64_C(1) << 2)  /* feed standard input */
#define SBX_CAP_FILES          (UINT64_C(1) << 3)  /* write/read/list/remove files */
#define SBX_CAP_ENV            (UINT64_C(1) << 4)  /* set environment variables */
#define SBX_CAP_CWD            (UINT64_C(1) << 5)  /* choose the working directory */
#define SBX_CAP_TIMEOUT        (UINT64_C(1) << 6)  /* kill the command tree on a deadline */
#define SBX_CAP_NET_NONE       (UINT64_C(1) << 7)  /* guarantee no network */
#define SBX_CAP_NET_ALLOWLIST  (UINT64_C(1) << 8)  /* only listed hosts reachable */
#define SBX_CAP_LIMIT_MEMORY   (UINT64_C(1) << 9)
#define SBX_CAP_LIMIT_CPU      (UINT64_C(1) << 10)
#define SBX_CAP_LIMIT_PIDS     (UINT64_C(1) << 11)
#define SBX_CAP_PERSIST        (UINT64_C(1) << 12) /* files survive between execs */
#define SBX_CAP_PAUSE          (UINT64_C(1) << 13) /* pause/resume */
#define SBX_CAP_SNAPSHOT       (UINT64_C(1) << 14)
#define SBX_CAP_PORTS          (UINT64_C(1) << 15) /* expose ports */
#define SBX_CAP_NATIVE         (UINT64_C(1) << 16) /* sbx_native() operations */
#define SBX_CAP_OOM_REPORT     (UINT64_C(1) << 17) /* says when a command was OOM-killed */
#define SBX_CAP_LIMIT_DISK     (UINT64_C(1) << 18) /* caps the bytes written to the work dir */
#define SBX_CAP_ATTACH         (UINT64_C(1) << 19) /* named/TTL sandboxes: detach, attach, list, set_ttl */
#define SBX_CAP_PTY            (UINT64_C(1) << 20) /* run a command on a pseudo-terminal */
/*
 * An open network that the backend has checked it can give here (local: its
 * user-mode network tool is installed and works). Reported, not required:
 * the core does not refuse --network open without it (a remote backend's
 * network is open by nature); a backend that cannot give one refuses the
 * policy itself with SBX_E_POLICY_NETWORK_OPEN.
 */
#define SBX_CAP_NET_OPEN       (UINT64_C(1) << 21)
/*
 * Files keep their metadata: sbx_file_chmod(), sbx_file_set_mtime() and
 * sbx_file_symlink() work, and a listing gives each entry's mtime and a
 * symlink's target. What `sandboxio cp` needs to copy as `docker cp` does.
 */
#define SBX_CAP_FILE_META      (UINT64_C(1) << 22)
/*
 * The working directory may also be absolute, any directory of the
 * sandbox (sbx_cmd_set_cwd_abs()), and a missing working directory, named
 * either way, is made with its parents, as `docker run -w` does. Since
 * 0.1.0 (library 3:0:3). A plugin declaring it gets an absolute cwd in
 * sbx_plugin_cmd; one without it never does (the core refuses first).
 */
#define SBX_CAP_CWD_ABS        (UINT64_C(1) << 23)
#define SBX_CAP_ALL_KNOWN      ((UINT64_C(1) << 24) - 1)

/**
 * sbx_cap_name - the lower-case name of one capability bit ("net-none").
 * Returns a static string, or NULL if cap is not exactly one known bit.
 */
SBX_API const char *sbx_cap_name(uint64_t cap);

/** sbx_cap_from_name - the bit for a name, or 0 if the name is unknown. */
SBX_API uint64_t sbx_cap_from_name(const char *name);

/* Isolation tiers, weakest first: a policy's minimum compares by value. */
typedef enum sbx_tier {
    SBX_TIER_UNKNOWN = 0,           /* the backend cannot say; meets only "none" */
    SBX_TIER_NONE = 1,              /* host processes (fake) */
    SBX_TIER_NAMESPACE = 2,         /* shared kernel, namespaces + seccomp */
    SBX_TIER_CONTAINER = 3,         /* runc-style container */
    SBX_TIER_USERSPACE_KERNEL = 4,  /* gVisor */
    SBX_TIER_MICROVM = 5            /* Firecracker and kin */
} sbx_tier;

/** sbx_tier_name - "none", "namespace", ...; static; "invalid" for bad values. */
SBX_API const char *sbx_tier_name(int tier);

/** sbx_tier_from_name - parse a tier name into *out. SBX_E_INVALID_ARGUMENT if unknown. */
SBX_API int sbx_tier_from_name(const char *name, int *out);

#ifdef __cplusplus
}
#endif
#endif
