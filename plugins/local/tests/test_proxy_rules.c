/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The egress proxy's allowlist entries (proxy/allow.c): what each form
 * parses to, and that a malformed address block is refused, never taken
 * for a host name.
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <string.h>

#include "../proxy/allow.h"
#include "../../../lib/tests/run-suite.h"

static px_rule parse_ok(const char *text)
{
    px_rule r;
    const char *why = NULL;
    ck_assert_msg(px_rule_parse(text, &r, &why) == 0, "'%s' refused: %s", text, why);
    return r;
}

static void parse_bad(const char *text, const char *want_why)
{
    px_rule r;
    const char *why = NULL;
    ck_assert_msg(px_rule_parse(text, &r, &why) < 0, "'%s' accepted (kind %d, name '%s')", text,
                  r.kind, r.name);
    ck_assert_str_eq(why, want_why);
}

START_TEST(names_wildcards_and_ports)
{
    px_rule r = parse_ok("Example.COM.");
    ck_assert_int_eq(r.kind, PX_RULE_NAME);
    ck_assert_str_eq(r.name, "example.com");
    ck_assert_int_eq(r.port, 0);
    r = parse_ok("*.pypi.org:8443");
    ck_assert_int_eq(r.kind, PX_RULE_WILDCARD);
    ck_assert_str_eq(r.name, "pypi.org");
    ck_assert_int_eq(r.port, 8443);
}
END_TEST

START_TEST(addresses_and_blocks)
{
    px_rule r = parse_ok("10.0.0.0/8:443");
    ck_assert_int_eq(r.kind, PX_RULE_NET);
    ck_assert_int_eq(r.family, AF_INET);
    ck_assert_int_eq(r.prefix, 8);
    ck_assert_int_eq(r.port, 443);
    r = parse_ok("192.0.2.7");
    ck_assert_int_eq(r.kind, PX_RULE_NET);
    ck_assert_int_eq(r.prefix, 32);
    r = parse_ok("[fc00::/7]:80");
    ck_assert_int_eq(r.family, AF_INET6);
    ck_assert_int_eq(r.prefix, 7);
    ck_assert_int_eq(r.port, 80);
    r = parse_ok("2001:db8::/32");
    ck_assert_int_eq(r.family, AF_INET6);
    ck_assert_int_eq(r.prefix, 32);
}
END_TEST

/* Before the fix "10.0.0.0/33" became a rule for a host named "10.0.0.0". */
START_TEST(a_bad_block_is_refused_not_a_name)
{
    parse_bad("10.0.0.0/33", "bad address block");
    parse_bad("10.0.0.0/33:443", "bad address block");
    parse_bad("10.0.0.0/", "bad address block");
    parse_bad("10.0.0.0/-1", "bad address block");
    parse_bad("10.0.0.0/8x", "bad address block");
    parse_bad("2001:db8::/129", "bad IPv6 address or block");
    parse_bad("[::1/200]", "bad IPv6 address or block");
}
END_TEST

START_TEST(other_malformed_entries)
{
    parse_bad("example.com:0", "bad port");
    parse_bad("example.com:65536", "bad port");
    parse_bad("ex ample.com", "bad host name");
    parse_bad("a.*.com", "bad host name");
    parse_bad("[::1", "bad [address]");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("proxy_rules");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, names_wildcards_and_ports);
    tcase_add_test(tc, addresses_and_blocks);
    tcase_add_test(tc, a_bad_block_is_refused_not_a_name);
    tcase_add_test(tc, other_malformed_entries);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
