/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile.c - the YAML profiles reader (libyaml's event parser).
 *
 * The grammar is fixed and shallow: a mapping of names to mappings of
 * settings, each setting a scalar, a sequence of scalars or (env) a mapping
 * of scalars. Anything else is refused where it starts, so the reader never
 * recurses and never skips a node it does not understand. Aliases and tags
 * are refused too: a profile is plain data, and an alias could multiply a
 * small file into a large one.
 *
 * This file is the module sandboxio-yaml.so (with profile_set.c), so that
 * only a command that reads a profiles file maps libyaml (profile.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include <sandboxio/sandboxio.h>

#include "profile.h"
#include "common/parse.h"

enum shape { SCALAR, BOOLEAN, LIST, MAP };

/* How each key's value is written; the names are in profile_set.c. */
static const enum shape shapes[PROFILE_N_KEYS] = {
    [PROFILE_DSN] = SCALAR,
    [PROFILE_NETWORK] = SCALAR,
    [PROFILE_ALLOW_HOSTS] = LIST,
    [PROFILE_MEMORY] = SCALAR,
    [PROFILE_CPUS] = SCALAR,
    [PROFILE_PIDS] = SCALAR,
    [PROFILE_DISK] = SCALAR,
    [PROFILE_DEFAULT_LIMITS] = BOOLEAN,
    [PROFILE_MIN_TIER] = SCALAR,
    [PROFILE_TIMEOUT] = SCALAR,
    [PROFILE_OUTPUT_CAP] = SCALAR,
    [PROFILE_ENV] = MAP,
    [PROFILE_ENV_PASS] = LIST,
    [PROFILE_TTL] = SCALAR,
};

struct reader {
    yaml_parser_t parser;
    yaml_event_t ev;
    int have_event;
    const char *file;
    struct profile_error *err;
    sbx_policy *scratch;    /* checks hosts and env names as the policy will */
    struct profile *profiles;
    size_t n;
};

__attribute__((format(printf, 4, 5)))
static int fail(struct reader *r, int code, const yaml_mark_t *at, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(r->err->message, sizeof(r->err->message), "%s:%zu:%zu: ", r->file,
                     at->line + 1, at->column + 1);

    if (n < 0 || (size_t)n >= sizeof(r->err->message))
        n = 0;
    va_start(ap, fmt);
    vsnprintf(r->err->message + n, sizeof(r->err->message) - (size_t)n, fmt, ap);
    va_end(ap);
    r->err->code = code;
    return code;
}

static const char *shape_name(yaml_event_type_t type)
{
    switch (type) {
    case YAML_SEQUENCE_START_EVENT: return "a list";
    case YAML_MAPPING_START_EVENT: return "a mapping";
    default: return "a single value";
    }
}

/* The next event, with what the grammar never allows refused at once. */
static int next(struct reader *r)
{
    const yaml_char_t *tag = NULL;

    if (r->have_event)
        yaml_event_delete(&r->ev);
    r->have_event = 0;
    if (!yaml_parser_parse(&r->parser, &r->ev)) {
        const yaml_mark_t *at = &r->parser.problem_mark, *from = &r->parser.context_mark;
        const char *problem = r->parser.problem ? r->parser.problem : "parse error";
        /* The context ("while scanning a quoted scalar") points where the
         * unfinished thing began, often the line to fix. */
        if (r->parser.context)
            return fail(r, SBX_E_PROFILE_SYNTAX, at, "not valid YAML: %s %s started at %zu:%zu",
                        problem, r->parser.context, from->line + 1, from->column + 1);
        return fail(r, SBX_E_PROFILE_SYNTAX, at, "not valid YAML: %s", problem);
    }
    r->have_event = 1;
    switch (r->ev.type) {
    case YAML_ALIAS_EVENT:
        return fail(r, SBX_E_PROFILE_SYNTAX, &r->ev.start_mark,
                    "aliases (*name) are not allowed in profiles");
    case YAML_SCALAR_EVENT:
        tag = r->ev.data.scalar.tag;
        if (strlen((const char *)r->ev.data.scalar.value) != r->ev.data.scalar.length)
            return fail(r, SBX_E_PROFILE_BAD_VALUE, &r->ev.start_mark, "a value holds a NUL byte");
        break;
    case YAML_SEQUENCE_START_EVENT:
        tag = r->ev.data.sequence_start.tag;
        break;
    case YAML_MAPPING_START_EVENT:
        tag = r->ev.data.mapping_start.tag;
        break;
    default:
        break;
    }
    if (tag)
        return fail(r, SBX_E_PROFILE_SYNTAX, &r->ev.start_mark,
                    "tags (%s) are not allowed in profiles", (const char *)tag);
    return SBX_OK;
}

static const char *scalar(const struct reader *r)
{
    return (const char *)r->ev.data.scalar.value;
}

/* A plain empty, ~ or null scalar: YAML's null, which no setting takes. */
static int is_null(const struct reader *r)
{
    const char *s = scalar(r);

    return r->ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
           (!*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 || strcmp(s, "Null") == 0 ||
            strcmp(s, "NULL") == 0);
}

/* Edit distance up to 3 (more is "far"), for "did you mean". */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[32], prev, tmp;

    if (la >= 31 || lb >= 31)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            tmp = row[j];
            size_t best = prev + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = tmp;
        }
    }
    return row[lb];
}

static int unknown_key(struct reader *r, const char *name)
{
    const char *near = NULL;
    size_t best = 3;

    for (int k = 0; k < PROFILE_N_KEYS; k++) {
        size_t d = distance(name, profile_key_name(k));
        if (d < best)
            best = d, near = profile_key_name(k);
    }
    if (near)
        return fail(r, SBX_E_PROFILE_UNKNOWN_KEY, &r->ev.start_mark,
                    "unknown key '%s' (did you mean '%s'?)", name, near);
    return fail(r, SBX_E_PROFILE_UNKNOWN_KEY, &r->ev.start_mark, "unknown key '%s'", name);
}

/* NULL when value is good for key, else what it should be. */
static const char *check_value(struct reader *r, enum profile_key key, const char *value,
                               uint64_t *ttl_ms)
{
    sbx_dsn *dsn;
    uint64_t v;
    int tier;

    switch (key) {
    case PROFILE_DSN:
        if (sbx_dsn_parse(&dsn, value) != SBX_OK)
            return "a DSN (scheme://...)";
        sbx_dsn_free(dsn);
        return NULL;
    case PROFILE_NETWORK:
        return strcmp(value, "none") == 0 || strcmp(value, "open") == 0 ||
               strcmp(value, "allowlist") == 0 ? NULL : "none, open or allowlist";
    case PROFILE_ALLOW_HOSTS:
        return sbx_policy_allow_host(r->scratch, value) == SBX_OK ? NULL : "a host name or HOST:PORT";
    case PROFILE_MEMORY:
    case PROFILE_DISK:
        return sbx_cli_parse_size(value, &v) == SBX_OK ? NULL : "a size (123, 64k, 512M, 2G)";
    case PROFILE_OUTPUT_CAP:
        return sbx_cli_parse_size(value, &v) == SBX_OK && v <= SIZE_MAX ? NULL
                                                                     : "a size (123, 64k, 512M, 2G)";
    case PROFILE_CPUS:
        return sbx_cli_parse_millis(value, &v) == SBX_OK && v <= UINT32_MAX
                   ? NULL : "a number of CPUs (1, 0.5, 2.25)";
    case PROFILE_PIDS:
        return sbx_cli_parse_uint(value, UINT32_MAX, &v) == SBX_OK ? NULL : "a number of processes";
    case PROFILE_MIN_TIER:
        return sbx_tier_from_name(value, &tier) == SBX_OK
                   ? NULL : "a tier: none, namespace, container, userspace-kernel or microvm";
    case PROFILE_TIMEOUT:
        return sbx_cli_parse_duration_ms(value, &v) == SBX_OK ? NULL
                                                              : "a duration (30, 1.5, 500ms, 2m, 1h)";
    case PROFILE_TTL:
        if (sbx_cli_parse_duration_ms(value, &v) != SBX_OK || v == 0)
            return "a duration above zero (90s, 30m, 2h)";
        *ttl_ms = v;
        return NULL;
    case PROFILE_ENV_PASS:
        return *value && !strchr(value, '=') ? NULL : "a variable name";
    case PROFILE_DEFAULT_LIMITS:
        return strcmp(value, "true") == 0 || strcmp(value, "false") == 0 ? NULL : "true or false";
    default:
        return NULL;
    }
}

static int add_item(struct reader *r, struct profile *p, enum profile_key key, const char *value)
{
    struct profile_item *items = realloc(p->items, (p->n_items + 1) * sizeof(*items));

    if (!items)
        return fail(r, SBX_E_NOMEM, &r->ev.start_mark, "out of memory");
    p->items = items;
    items[p->n_items].value = strdup(value);
    if (!items[p->n_items].value)
        return fail(r, SBX_E_NOMEM, &r->ev.start_mark, "out of memory");
    items[p->n_items].key = key;
    items[p->n_items].line = (int)r->ev.start_mark.line + 1;
    items[p->n_items].column = (int)r->ev.start_mark.column + 1;
    p->n_items++;
    return SBX_OK;
}

/* One scalar value of key (the current event), checked and added. */
static int take_scalar(struct reader *r, struct profile *p, enum profile_key key)
{
    const char *what = profile_key_name(key), *expected;

    if (r->ev.type != YAML_SCALAR_EVENT)
        return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark, "'%s' takes %s, not %s", what,
                    shapes[key] == LIST ? "a list of single values" : "a single value",
                    shape_name(r->ev.type));
    if (is_null(r))
        return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark, "'%s' has no value", what);
    if (shapes[key] == BOOLEAN && r->ev.data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                    "'%s' takes true or false, not a quoted string", what);
    expected = check_value(r, key, scalar(r), &p->ttl_ms);
    if (expected)
        return fail(r, SBX_E_PROFILE_BAD_VALUE, &r->ev.start_mark, "'%s': '%s' is not %s", what,
                    scalar(r), expected);
    return add_item(r, p, key, scalar(r));
}

static int take_list(struct reader *r, struct profile *p, enum profile_key key)
{
    int rc;

    if (r->ev.type != YAML_SEQUENCE_START_EVENT)
        return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark, "'%s' takes a list, not %s",
                    profile_key_name(key), shape_name(r->ev.type));
    while ((rc = next(r)) == SBX_OK && r->ev.type != YAML_SEQUENCE_END_EVENT) {
        if ((rc = take_scalar(r, p, key)) != SBX_OK)
            return rc;
    }
    return rc;
}

/* env: a mapping of variable names to values, each added as "NAME=VALUE". */
static int take_env(struct reader *r, struct profile *p)
{
    char *name = NULL, *pair;
    yaml_mark_t name_at;
    int rc;

    if (r->ev.type != YAML_MAPPING_START_EVENT)
        return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                    "'env' takes a mapping of NAME: VALUE, not %s", shape_name(r->ev.type));
    while ((rc = next(r)) == SBX_OK && r->ev.type != YAML_MAPPING_END_EVENT) {
        if (r->ev.type != YAML_SCALAR_EVENT || is_null(r))
            return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                        "an 'env' name must be a single value");
        for (size_t i = 0; i < p->n_items; i++) {
            const char *v = p->items[i].value;
            size_t n = strlen(scalar(r));
            if (p->items[i].key == PROFILE_ENV && strncmp(v, scalar(r), n) == 0 && v[n] == '=')
                return fail(r, SBX_E_PROFILE_DUPLICATE_KEY, &r->ev.start_mark,
                            "'env' sets '%s' twice (first at line %d)", scalar(r), p->items[i].line);
        }
        name = strdup(scalar(r));
        if (!name)
            return fail(r, SBX_E_NOMEM, &r->ev.start_mark, "out of memory");
        name_at = r->ev.start_mark;
        if ((rc = next(r)) != SBX_OK)
            break;
        if (r->ev.type != YAML_SCALAR_EVENT || is_null(r)) {
            rc = fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                      "'env' value of '%s' must be a single value (quote \"\" for an empty one)", name);
            break;
        }
        if (sbx_policy_set_env(r->scratch, name, scalar(r)) != SBX_OK) {
            rc = fail(r, SBX_E_PROFILE_BAD_VALUE, &name_at, "'env': '%s' is not a variable name", name);
            break;
        }
        if (asprintf(&pair, "%s=%s", name, scalar(r)) < 0) {
            rc = fail(r, SBX_E_NOMEM, &r->ev.start_mark, "out of memory");
            break;
        }
        rc = add_item(r, p, PROFILE_ENV, pair);
        free(pair);
        free(name);
        name = NULL;
        if (rc != SBX_OK)
            return rc;
    }
    free(name);
    return rc;
}

static const struct profile_item *find_item(const struct profile *p, enum profile_key key)
{
    for (size_t i = 0; i < p->n_items; i++) {
        if (p->items[i].key == key)
            return &p->items[i];
    }
    return NULL;
}

/* network and allow-hosts agree, as the command line's options must. */
static int check_network(struct reader *r, const struct profile *p)
{
    const struct profile_item *net = find_item(p, PROFILE_NETWORK);
    const struct profile_item *host = find_item(p, PROFILE_ALLOW_HOSTS);
    yaml_mark_t at = { 0 };

    if (host && net && strcmp(net->value, "allowlist") != 0) {
        at.line = (size_t)host->line - 1, at.column = (size_t)host->column - 1;
        return fail(r, SBX_E_PROFILE_BAD_VALUE, &at,
                    "profile '%s': allow-hosts needs network: allowlist, not %s", p->name, net->value);
    }
    if (net && !host && strcmp(net->value, "allowlist") == 0) {
        at.line = (size_t)net->line - 1, at.column = (size_t)net->column - 1;
        return fail(r, SBX_E_PROFILE_BAD_VALUE, &at,
                    "profile '%s': network: allowlist needs at least one allow-hosts entry", p->name);
    }
    return SBX_OK;
}

static int parse_profile(struct reader *r, struct profile *p)
{
    yaml_mark_t seen[PROFILE_N_KEYS] = { { 0 } };
    int given[PROFILE_N_KEYS] = { 0 }, rc;

    while ((rc = next(r)) == SBX_OK && r->ev.type != YAML_MAPPING_END_EVENT) {
        int key = -1;

        if (r->ev.type != YAML_SCALAR_EVENT)
            return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                        "a setting's name must be a single value, not %s", shape_name(r->ev.type));
        for (int k = 0; k < PROFILE_N_KEYS; k++) {
            if (strcmp(scalar(r), profile_key_name(k)) == 0)
                key = k;
        }
        if (key < 0)
            return unknown_key(r, scalar(r));
        if (given[key])
            return fail(r, SBX_E_PROFILE_DUPLICATE_KEY, &r->ev.start_mark,
                        "'%s' is given twice in profile '%s' (first at line %zu)", profile_key_name(key),
                        p->name, seen[key].line + 1);
        given[key] = 1;
        seen[key] = r->ev.start_mark;
        if ((rc = next(r)) != SBX_OK)
            return rc;
        switch (shapes[key]) {
        case LIST: rc = take_list(r, p, (enum profile_key)key); break;
        case MAP: rc = take_env(r, p); break;
        default: rc = take_scalar(r, p, (enum profile_key)key); break;
        }
        if (rc != SBX_OK)
            return rc;
    }
    return rc == SBX_OK ? check_network(r, p) : rc;
}

static int name_ok(const char *name)
{
    if (!*name || strlen(name) > 64)
        return 0;
    for (const char *c = name; *c; c++) {
        if (!(*c >= 'a' && *c <= 'z') && !(*c >= 'A' && *c <= 'Z') && !(*c >= '0' && *c <= '9') &&
            *c != '-' && *c != '_' && *c != '.')
            return 0;
    }
    return 1;
}

/* The top mapping: profile names to their settings. */
static int parse_profiles(struct reader *r)
{
    int rc;

    while ((rc = next(r)) == SBX_OK && r->ev.type != YAML_MAPPING_END_EVENT) {
        struct profile *p;

        if (r->ev.type != YAML_SCALAR_EVENT)
            return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                        "a profile name must be a single value, not %s", shape_name(r->ev.type));
        if (!name_ok(scalar(r)))
            return fail(r, SBX_E_PROFILE_BAD_VALUE, &r->ev.start_mark,
                        "'%s' is not a profile name (1 to 64 of A-Z a-z 0-9 - _ .)", scalar(r));
        for (size_t i = 0; i < r->n; i++) {
            if (strcmp(r->profiles[i].name, scalar(r)) == 0)
                return fail(r, SBX_E_PROFILE_DUPLICATE_KEY, &r->ev.start_mark,
                            "profile '%s' is defined twice (first at line %d)", scalar(r),
                            r->profiles[i].line);
        }
        p = realloc(r->profiles, (r->n + 1) * sizeof(*p));
        if (!p)
            return fail(r, SBX_E_NOMEM, &r->ev.start_mark, "out of memory");
        r->profiles = p;
        p = &r->profiles[r->n];
        memset(p, 0, sizeof(*p));
        p->name = strdup(scalar(r));
        if (!p->name)
            return fail(r, SBX_E_NOMEM, &r->ev.start_mark, "out of memory");
        r->n++;
        p->line = (int)r->ev.start_mark.line + 1;
        p->column = (int)r->ev.start_mark.column + 1;
        if ((rc = next(r)) != SBX_OK)
            return rc;
        if (r->ev.type != YAML_MAPPING_START_EVENT)
            return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                        "profile '%s' must be a mapping of settings, not %s", p->name,
                        r->ev.type == YAML_SCALAR_EVENT ? "a single value" : shape_name(r->ev.type));
        if ((rc = parse_profile(r, p)) != SBX_OK)
            return rc;
    }
    return rc;
}

/* stream: no document (an empty file), or one whose root is the mapping. */
static int parse_stream(struct reader *r)
{
    int rc;

    if ((rc = next(r)) != SBX_OK || (rc = next(r)) != SBX_OK)    /* STREAM-START, then */
        return rc;
    if (r->ev.type == YAML_STREAM_END_EVENT)
        return SBX_OK;
    if ((rc = next(r)) != SBX_OK)   /* the root node */
        return rc;
    if (r->ev.type == YAML_MAPPING_START_EVENT)
        rc = parse_profiles(r);
    else if (r->ev.type != YAML_SCALAR_EVENT || !is_null(r))
        return fail(r, SBX_E_PROFILE_BAD_TYPE, &r->ev.start_mark,
                    "the file must be a mapping of profile names to profiles, not %s",
                    shape_name(r->ev.type));
    if (rc != SBX_OK || (rc = next(r)) != SBX_OK || (rc = next(r)) != SBX_OK)   /* DOCUMENT-END */
        return rc;
    if (r->ev.type != YAML_STREAM_END_EVENT)
        return fail(r, SBX_E_PROFILE_SYNTAX, &r->ev.start_mark,
                    "a profiles file holds one YAML document, not several");
    return SBX_OK;
}

/* Move the profiles read into set: a name already there is replaced. */
static int merge(struct profile_set *set, struct reader *r, const char *file)
{
    char **files = realloc(set->files, (set->n_files + 1) * sizeof(*files));
    struct profile *all;

    if (!files)
        return SBX_E_NOMEM;
    set->files = files;
    all = realloc(set->profiles, (set->n + r->n + 1) * sizeof(*all));
    if (!all)
        return SBX_E_NOMEM;
    set->profiles = all;
    if (!(files[set->n_files] = strdup(file)))
        return SBX_E_NOMEM;
    file = files[set->n_files++];
    for (size_t i = 0; i < r->n; i++) {
        struct profile *slot = NULL;
        for (size_t j = 0; j < set->n && !slot; j++) {
            if (strcmp(set->profiles[j].name, r->profiles[i].name) == 0)
                slot = &set->profiles[j];
        }
        if (slot)
            profile_clear(slot);
        else
            slot = &set->profiles[set->n++];
        *slot = r->profiles[i];
        slot->file = file;
    }
    r->n = 0;
    return SBX_OK;
}

SBX_CLI_PART_EXPORT
int profile_set_parse_yaml(struct profile_set *set, const char *file, const char *text,
                           size_t len, struct profile_error *err)
{
    struct reader r = { .file = file, .err = err };
    int rc;

    memset(err, 0, sizeof(*err));
    if (!yaml_parser_initialize(&r.parser)) {
        snprintf(err->message, sizeof(err->message), "%s: out of memory", file);
        return err->code = SBX_E_NOMEM;
    }
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
    rc = sbx_policy_new(&r.scratch);
    if (rc != SBX_OK)
        snprintf(err->message, sizeof(err->message), "%s: out of memory", file), err->code = rc;
    else
        rc = parse_stream(&r);
    if (rc == SBX_OK && (rc = merge(set, &r, file)) != SBX_OK)
        snprintf(err->message, sizeof(err->message), "%s: out of memory", file), err->code = rc;
    if (r.have_event)
        yaml_event_delete(&r.ev);
    yaml_parser_delete(&r.parser);
    sbx_policy_free(r.scratch);
    for (size_t i = 0; i < r.n; i++)
        profile_clear(&r.profiles[i]);
    free(r.profiles);
    return rc;
}
