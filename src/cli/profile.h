/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile.h - YAML profiles: a named DSN plus policy, read by the CLI.
 *
 * A profiles file is one YAML mapping from profile name to a mapping of
 * settings (docs/profiles.md). The reader is strict: an unknown key, a wrong
 * type, a repeated key or a bad value is an SBX_E105x error whose message
 * starts "FILE:LINE:COLUMN: ". It lives in the CLI and not the library
 * because the library reads no configuration files (DESIGN.md): a program
 * using libsandboxio builds its policy itself.
 *
 * The reader (profile.c) links libyaml, which a command that reads no
 * profile must not load: it is built as the module sandboxio-yaml.so
 * (parts.h), which profile_set_parse() opens the first time it has text to
 * parse. The rest (profile_set.c, profile_load.c) is in `sandboxio` itself.
 */
#ifndef SBX_CLI_PROFILE_H
#define SBX_CLI_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "error-codes.h"

/* The settings a profile may hold, in the order they are applied. */
enum profile_key {
    PROFILE_DSN,
    PROFILE_NETWORK,
    PROFILE_ALLOW_HOSTS,    /* a sequence: one item per host */
    PROFILE_MEMORY,
    PROFILE_CPUS,
    PROFILE_PIDS,
    PROFILE_DISK,
    PROFILE_DEFAULT_LIMITS, /* true or false */
    PROFILE_MIN_TIER,
    PROFILE_TIMEOUT,
    PROFILE_OUTPUT_CAP,
    PROFILE_ENV,            /* a mapping: one item "NAME=VALUE" per variable */
    PROFILE_ENV_PASS,       /* a sequence: one item per name */
    PROFILE_TTL,
    PROFILE_N_KEYS
};

/* One value of a setting, as written (validated), and where. */
struct profile_item {
    enum profile_key key;
    char *value;
    int line, column;       /* 1-based, of the value */
};

struct profile {
    char *name;
    const char *file;       /* points into the profile_set's files */
    int line, column;       /* of the name */
    struct profile_item *items;
    size_t n_items;
    uint64_t ttl_ms;        /* 0: no ttl given */
};

struct profile_set {
    struct profile *profiles;
    size_t n;
    char **files;           /* every file read, in order */
    size_t n_files;
};

/* What went wrong: an SBX_E105x code and a message naming FILE:LINE:COLUMN. */
struct profile_error {
    int code;
    char message[768];
};

/* The name of a key as written in a profile ("allow-hosts"). */
const char *profile_key_name(enum profile_key key);

/*
 * Parse text (len bytes, named file in messages) and add its profiles to
 * set, with the reader of sandboxio-yaml.so (SBX_E2002 when it cannot be
 * loaded); a profile already in set by that name (from an earlier file) is
 * replaced. Returns SBX_OK, or an SBX code with err filled in; set is left
 * as it was before the call on error, and needs profile_set_free() either
 * way.
 */
int profile_set_parse(struct profile_set *set, const char *file, const char *text, size_t len,
                      struct profile_error *err);

/*
 * Read and parse file. A file that does not exist adds nothing and is not an
 * error unless must_exist; one that cannot be read is SBX_E_PROFILE_UNREADABLE.
 */
int profile_set_load(struct profile_set *set, const char *file, int must_exist,
                     struct profile_error *err);

/*
 * Load the search path: $SANDBOXIO_PROFILE_PATH (files separated by ':')
 * when set, else /etc/sandboxio/profiles.yaml then
 * $XDG_CONFIG_HOME/sandboxio/profiles.yaml ($HOME/.config when unset);
 * later files override earlier ones by profile name.
 */
int profile_set_load_default(struct profile_set *set, struct profile_error *err);

/*
 * The reader itself, the one symbol sandboxio-yaml.so exports (the same
 * contract as profile_set_parse). SBX_CLI_PART_EXPORT makes it visible
 * through -fvisibility=hidden.
 */
#define SBX_CLI_PART_EXPORT __attribute__((visibility("default")))
#define SBX_CLI_YAML_ENTRY "profile_set_parse_yaml"
int profile_set_parse_yaml(struct profile_set *set, const char *file, const char *text,
                           size_t len, struct profile_error *err);

/* Free what a profile holds and zero it. */
void profile_clear(struct profile *p);

/*
 * profile_safe.c: SBX_OK if file, open as fd, is the caller's word: it and
 * every directory above it owned by the caller or root, writable by no one
 * else (a sticky directory excepted); else SBX_E_PROFILE_UNSAFE with err.
 */
int profile_file_safe(const char *file, int fd, struct profile_error *err);

/* The profile called name, or NULL. */
const struct profile *profile_set_find(const struct profile_set *set, const char *name);

void profile_set_free(struct profile_set *set);

#endif
