/* SPDX-License-Identifier: Apache-2.0 */
/*
 * report.c - the suite's results as JUnit XML (for CI dashboards), as one
 * JSON document (for scripts), and the table of cases (--list).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "contract.h"
#include "runner.h"

const char *sbxc_status_word(int status)
{
    switch (status) {
    case SBXC_PASS: return "PASS";
    case SBXC_SKIP: return "SKIP";
    default: return "FAIL";
    }
}

void sbxc_caps_text(uint64_t mask, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int bit = 0; bit < 64; bit++) {
        uint64_t cap = UINT64_C(1) << bit;
        if (!(mask & cap))
            continue;
        const char *name = sbx_cap_name(cap);
        int n = name ? snprintf(buf + used, size - used, "%s%s", used ? "," : "", name)
                     : snprintf(buf + used, size - used, "%sbit%d", used ? "," : "", bit);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
    if (!used)
        snprintf(buf, size, "-");
}

void sbxc_list_cases(FILE *out)
{
    for (const sbxc_case *c = sbxc_cases; c->id; c++) {
        char caps[256];
        sbxc_caps_text(c->caps, caps, sizeof caps);
        fprintf(out, "%-14s %-6s %-28s %s%s\n", c->id, c->level == SBXC_MUST ? "MUST" : "SHOULD",
                caps, c->name, (c->flags & SBXC_NEEDS_ISOLATION) ? " [tier > none]" : "");
    }
}

/* XML text with the five special characters escaped and control bytes dropped. */
static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

int sbxc_write_junit(const char *path, const char *dsn, const sbxc_backend *b,
                     const sbxc_outcome *outs, size_t n)
{
    FILE *f = fopen(path, "we");
    if (!f)
        return -1;
    size_t failures = 0, skipped = 0;
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        failures += outs[i].status == SBXC_FAIL;
        skipped += outs[i].status == SBXC_SKIP;
        total += outs[i].seconds;
    }
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n", f);
    fputs("  <testsuite name=\"sandboxio contract ", f);
    xml_text(f, b->name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
            n, failures, skipped, total);
    fputs("    <properties>\n      <property name=\"dsn\" value=\"", f);
    xml_text(f, dsn);
    fputs("\"/>\n      <property name=\"plugin_version\" value=\"", f);
    xml_text(f, b->version);
    fprintf(f, "\"/>\n      <property name=\"tier\" value=\"%s\"/>\n    </properties>\n",
            sbx_tier_name(b->tier));
    for (size_t i = 0; i < n; i++) {
        const sbxc_outcome *o = &outs[i];
        fputs("    <testcase classname=\"sandboxio.contract\" name=\"", f);
        xml_text(f, o->c->id);
        fputs(" ", f);
        xml_text(f, o->c->name);
        fprintf(f, "\" time=\"%.3f\"", o->seconds);
        if (o->status == SBXC_PASS) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n      ", f);
        fputs(o->status == SBXC_FAIL ? "<failure message=\"" : "<skipped message=\"", f);
        xml_text(f, o->reason);
        fputs("\"/>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    int err = ferror(f);
    if (fclose(f) != 0 || err)
        return -1;
    return 0;
}

static json_object *caps_array(uint64_t mask)
{
    json_object *a = json_object_new_array();
    for (int bit = 0; bit < 64; bit++) {
        uint64_t cap = UINT64_C(1) << bit;
        const char *name = (mask & cap) ? sbx_cap_name(cap) : NULL;
        if (name)
            json_object_array_add(a, json_object_new_string(name));
    }
    return a;
}

int sbxc_print_json(FILE *out, const char *dsn, const sbxc_backend *b,
                    const sbxc_outcome *outs, size_t n)
{
    json_object *root = json_object_new_object();
    if (!root)
        return -1;
    json_object_object_add(root, "dsn", json_object_new_string(dsn));
    json_object_object_add(root, "plugin", json_object_new_string(b->name));
    json_object_object_add(root, "plugin_version", json_object_new_string(b->version));
    json_object_object_add(root, "tier", json_object_new_string(sbx_tier_name(b->tier)));
    json_object_object_add(root, "declared_caps", caps_array(b->declared));
    json_object_object_add(root, "caps", caps_array(b->caps));
    json_object *cases = json_object_new_array();
    int counts[3] = { 0, 0, 0 };
    for (size_t i = 0; i < n; i++) {
        const sbxc_outcome *o = &outs[i];
        json_object *c = json_object_new_object();
        json_object_object_add(c, "id", json_object_new_string(o->c->id));
        json_object_object_add(c, "name", json_object_new_string(o->c->name));
        json_object_object_add(c, "level",
                               json_object_new_string(o->c->level == SBXC_MUST ? "MUST" : "SHOULD"));
        json_object_object_add(c, "needs", caps_array(o->c->caps));
        json_object_object_add(c, "status", json_object_new_string(
                                   o->status == SBXC_PASS ? "pass"
                                   : o->status == SBXC_SKIP ? "skip" : "fail"));
        json_object_object_add(c, "reason", json_object_new_string(o->reason));
        char secs[32];
        snprintf(secs, sizeof secs, "%.3f", o->seconds);
        json_object_object_add(c, "seconds", json_object_new_double_s(o->seconds, secs));
        json_object_array_add(cases, c);
        counts[o->status]++;
    }
    json_object_object_add(root, "cases", cases);
    json_object *sum = json_object_new_object();
    json_object_object_add(sum, "passed", json_object_new_int(counts[SBXC_PASS]));
    json_object_object_add(sum, "failed", json_object_new_int(counts[SBXC_FAIL]));
    json_object_object_add(sum, "skipped", json_object_new_int(counts[SBXC_SKIP]));
    json_object_object_add(root, "summary", sum);
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = text && fprintf(out, "%s\n", text) > 0 && fflush(out) == 0 ? 0 : -1;
    json_object_put(root);
    return rc;
}

int sbxc_print_json_bail(FILE *out, const char *dsn, const char *error)
{
    json_object *root = json_object_new_object();
    if (!root)
        return -1;
    json_object_object_add(root, "dsn", json_object_new_string(dsn));
    json_object_object_add(root, "error", json_object_new_string(error));
    json_object_object_add(root, "cases", json_object_new_array());
    json_object *sum = json_object_new_object();
    json_object_object_add(sum, "passed", json_object_new_int(0));
    json_object_object_add(sum, "failed", json_object_new_int(1));
    json_object_object_add(sum, "skipped", json_object_new_int(0));
    json_object_object_add(root, "summary", sum);
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE);
    int rc = text && fprintf(out, "%s\n", text) > 0 && fflush(out) == 0 ? 0 : -1;
    json_object_put(root);
    return rc;
}
