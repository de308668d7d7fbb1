/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The policy a sandbox is created with, as the backend stores it, and the
 * rule an attach follows: the stored policy applies, and a policy given at
 * attach may only narrow what the core enforces per command.
 *
 * The stored form is one line of space-separated key=value tokens after a
 * version word, e.g. "sbx-policy/1 tier=2 net=1 allow=a.example:443 mem=0
 * cpu=0 pids=0 disk=0 nodefault=0 timeout=0 cap=16777216". A host never
 * holds a space (sbx_policy_allow_host refuses one), so no quoting is
 * needed, and the library links no JSON parser (plugins bring their own).
 * The environment is left out: it may hold secrets, and backends keep the
 * stored policy where other tools of the user can read it (a label).
 */
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STORE_VERSION "sbx-policy/1"

static int put(sbx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int put(sbx_buf *b, const char *fmt, ...)
{
    char tmp[160];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof(tmp))
        return sbx__error_set(SBX_E_INTERNAL, "policy token too long");
    return sbx__buf_append(b, tmp, (size_t)n);
}

int sbx__policy_store(const sbx_policy *p, char **out)
{
    sbx_buf b = {0};
    int rc = put(&b, "%s tier=%d net=%d", STORE_VERSION, p->min_tier, p->network);
    for (size_t i = 0; rc == SBX_OK && i < p->allow.n; i++) {
        rc = sbx__buf_append(&b, " allow=", 7);
        if (rc == SBX_OK)
            rc = sbx__buf_append(&b, p->allow.v[i], strlen(p->allow.v[i]));
    }
    if (rc == SBX_OK)
        rc = put(&b, " mem=%" PRIu64 " cpu=%" PRIu32 " pids=%" PRIu32 " disk=%" PRIu64
                     " nodefault=%d timeout=%" PRIu64 " cap=%zu",
                 p->memory, p->cpu_millis, p->pids, p->disk, p->no_default_limits ? 1 : 0,
                 p->timeout_ms, p->output_cap);
    if (rc == SBX_OK)
        rc = sbx__buf_append(&b, "", 1);
    if (rc) {
        sbx__buf_clear(&b);
        return rc;
    }
    *out = b.data;
    return SBX_OK;
}

int sbx_policy_to_string(char **out, const sbx_policy *policy)
{
    if (!out || !policy)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_policy_to_string: NULL argument");
    *out = NULL;
    return sbx__policy_store(policy, out);
}

static int bad(const char *why, const char *token)
{
    return sbx__error_set(SBX_E_STORED_POLICY, "the sandbox's stored policy is unreadable: %s%s%s",
                          why, token ? " at " : "", token ? token : "");
}

/* A decimal number no larger than max; the whole text must be digits. */
static int number(const char *s, uint64_t max, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

/* One key=value token into p; seen gets the key's bit so none repeats. */
static int load_token(sbx_policy *p, char *tok, unsigned *seen)
{
    static const char *const keys[] = {"tier", "net", "mem", "cpu", "pids",
                                       "disk", "nodefault", "timeout", "cap"};
    char *eq = strchr(tok, '=');
    if (!eq)
        return bad("no '='", tok);
    *eq = '\0';
    const char *val = eq + 1;
    if (strcmp(tok, "allow") == 0) {
        if (!*val)
            return bad("empty host", NULL);
        return sbx__strvec_push(&p->allow, val);
    }
    size_t k = 0;
    while (k < sizeof(keys) / sizeof(keys[0]) && strcmp(tok, keys[k]) != 0)
        k++;
    if (k == sizeof(keys) / sizeof(keys[0]))
        return bad("unknown key", tok);
    if (*seen & (1u << k))
        return bad("repeated key", tok);
    *seen |= 1u << k;
    uint64_t v;
    uint64_t max = k <= 1 ? 16 : (k == 3 || k == 4) ? UINT32_MAX : k == 6 ? 1 : UINT64_MAX;
    if (number(val, max, &v))
        return bad("bad number for", tok);
    switch (k) {
    case 0: p->min_tier = (int)v; break;
    case 1: p->network = (int)v; break;
    case 2: p->memory = v; break;
    case 3: p->cpu_millis = (uint32_t)v; break;
    case 4: p->pids = (uint32_t)v; break;
    case 5: p->disk = v; break;
    case 6: p->no_default_limits = v != 0; break;
    case 7: p->timeout_ms = v; break;
    default: p->output_cap = (size_t)v; break;
    }
    return SBX_OK;
}

int sbx__policy_load(sbx_policy *p, const char *text)
{
    memset(p, 0, sizeof(*p));
    if (!text || !*text)
        return sbx__error_set(SBX_E_STORED_POLICY, "the backend holds no policy for this sandbox");
    char *copy = sbx__strdup(text);
    if (!copy)
        return SBX_E_NOMEM;
    char *save = NULL;
    char *tok = strtok_r(copy, " ", &save);
    int rc = tok && strcmp(tok, STORE_VERSION) == 0 ? SBX_OK : bad("unknown version", tok);
    unsigned seen = 0;
    while (rc == SBX_OK && (tok = strtok_r(NULL, " ", &save)) != NULL)
        rc = load_token(p, tok, &seen);
    if (rc == SBX_OK && seen != (1u << 9) - 1)
        rc = bad("a key is missing", NULL);
    if (rc == SBX_OK && (p->network < SBX_NET_NONE || p->network > SBX_NET_OPEN ||
                         p->min_tier > SBX_TIER_MICROVM))
        rc = bad("network or tier out of range", NULL);
    free(copy);
    if (rc)
        sbx__policy_clear(p);
    return rc;
}

/* Is host one of the stored allowlist's? */
static bool allowed(const sbx_policy *s, const char *host)
{
    for (size_t i = 0; i < s->allow.n; i++)
        if (strcmp(s->allow.v[i], host) == 0)
            return true;
    return false;
}

/* A ceiling where 0 means none: is asked wider than stored? */
static bool wider(uint64_t asked, uint64_t stored)
{
    return stored && (!asked || asked > stored);
}

/* A sandbox-wide limit must be exactly the stored one. */
static int fixed_limit(const sbx_policy *s, const sbx_policy *a, uint64_t caps, uint64_t control)
{
    uint64_t sv = 0, av = 0;
    (void)sbx_policy_limit(&sv, NULL, s, caps, control);
    (void)sbx_policy_limit(&av, NULL, a, caps, control);
    if (av == sv)
        return SBX_OK;
    if (wider(av, sv))
        return sbx__error_set(SBX_E_POLICY_WIDER,
                              "the attach policy's %s limit (%" PRIu64 ", 0 = none) is wider "
                              "than the sandbox's (%" PRIu64 ")", sbx_cap_name(control), av, sv);
    return sbx__error_set(SBX_E_POLICY_FIXED,
                          "the attach policy's %s limit (%" PRIu64 ") is tighter than the "
                          "sandbox was created with (%" PRIu64 ", 0 = none); it cannot change "
                          "now", sbx_cap_name(control), av, sv);
}

static int network_rule(const sbx_policy *s, const sbx_policy *a)
{
    if (a->network > s->network)
        return sbx__error_set(SBX_E_POLICY_WIDER,
                              "the attach policy opens the network wider than the sandbox was "
                              "created with");
    if (a->network < s->network)
        return sbx__error_set(SBX_E_POLICY_FIXED,
                              "the attach policy closes the network further than the sandbox "
                              "was created with; it cannot change now");
    for (size_t i = 0; i < a->allow.n; i++)
        if (!allowed(s, a->allow.v[i]))
            return sbx__error_set(SBX_E_POLICY_WIDER,
                                  "the attach policy allows host '%s', which the sandbox's does "
                                  "not", a->allow.v[i]);
    for (size_t i = 0; i < s->allow.n; i++)
        if (!allowed(a, s->allow.v[i]))
            return sbx__error_set(SBX_E_POLICY_FIXED,
                                  "the attach policy drops host '%s' the sandbox allows; its "
                                  "network cannot change now", s->allow.v[i]);
    return SBX_OK;
}

int sbx__policy_narrow(sbx_policy *out, const sbx_policy *stored, const sbx_policy *asked,
                       uint64_t caps)
{
    static const uint64_t limits[] = {SBX_CAP_LIMIT_MEMORY, SBX_CAP_LIMIT_CPU,
                                      SBX_CAP_LIMIT_PIDS, SBX_CAP_LIMIT_DISK};
    if (!asked)
        return sbx__policy_copy(out, stored);
    int rc = network_rule(stored, asked);
    for (size_t i = 0; rc == SBX_OK && i < sizeof(limits) / sizeof(limits[0]); i++)
        rc = fixed_limit(stored, asked, caps, limits[i]);
    if (rc == SBX_OK && wider(asked->timeout_ms, stored->timeout_ms))
        rc = sbx__error_set(SBX_E_POLICY_WIDER,
                            "the attach policy's timeout is longer than the sandbox's (%" PRIu64
                            " ms)", stored->timeout_ms);
    if (rc == SBX_OK && wider(asked->output_cap, stored->output_cap))
        rc = sbx__error_set(SBX_E_POLICY_WIDER,
                            "the attach policy's output cap is larger than the sandbox's (%zu "
                            "bytes)", stored->output_cap);
    if (rc)
        return rc;
    /* The sandbox-wide controls are the stored ones (equal by now); the
     * per-command ones and the environment are the caller's. */
    rc = sbx__policy_copy(out, asked);
    if (rc == SBX_OK && stored->min_tier > out->min_tier)
        out->min_tier = stored->min_tier;
    return rc;
}
