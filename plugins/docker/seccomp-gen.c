/* SPDX-License-Identifier: Apache-2.0 */
/*
 * seccomp-gen: builds, at build time, the seccomp profile the docker
 * backend sends with every container (HostConfig.SecurityOpt
 * "seccomp=<json>"), from the engine's own default profile (moby's
 * profiles/seccomp/default.json, of the engine's version; configure's
 * --with-docker-seccomp-base) and writes it as a C header on stdout: the
 * string dk_seccomp_secopt, "seccomp=" and the profile's JSON.
 *
 * The engine's default profile is kept whole except for the socket calls:
 * "no network" is a network namespace with only a loopback, and it does
 * not cover socket families outside the IP stack. The default profile
 * allows socket() of every family, AF_VSOCK included (the hypervisor's
 * port space, shared with the host). So socket, socketpair and socketcall
 * are taken out of its unconditional allow list and put back for an allow
 * list of families only, the same list as local's filter:
 *   AF_UNIX, AF_INET, AF_INET6, and AF_NETLINK with NETLINK_ROUTE only;
 * any other family fails with EAFNOSUPPORT (a family number of 64 or more,
 * or with bits above the low 32, included), another netlink protocol with
 * EPROTONOSUPPORT.
 *
 * The compat ABIs go (every archMap entry loses its subArchitectures, so a
 * 32-bit program's calls meet the filter's bad-architecture action): on
 * 32-bit x86 and s390 a socket call can be made through socketcall, whose
 * arguments are in memory a filter cannot read, and libseccomp turns a
 * socket rule for such an ABI into a socketcall rule without the family
 * test. socketcall itself is left to the default action (EPERM).
 *
 * Each refusal is its own rule of one value: the engine's runtime (runc)
 * ORs several tests of one argument, it cannot AND them, and none of the
 * rules below overlap, so their order does not matter.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <json-c/json.h>

static const int families_allowed[] = {AF_UNIX, AF_INET, AF_INET6};
/* Family numbers below this are checked one by one; from it up, refused whole. */
#define FAMILY_LIMIT 64
/* The kernel has 32 netlink protocols (MAX_LINKS). */
#define NETLINK_PROTOCOL_LIMIT 32

static const char *const socket_calls[] = {"socket", "socketpair", "socketcall", NULL};

static int is_socket_call(const char *name)
{
    for (size_t i = 0; socket_calls[i]; i++)
        if (strcmp(name, socket_calls[i]) == 0)
            return 1;
    return 0;
}

static json_object *arg(int index, unsigned long long value, const char *op)
{
    json_object *a = json_object_new_object();
    json_object_object_add(a, "index", json_object_new_int(index));
    json_object_object_add(a, "value", json_object_new_uint64(value));
    json_object_object_add(a, "valueTwo", json_object_new_int(0));
    json_object_object_add(a, "op", json_object_new_string(op));
    return a;
}

/* A rule for names (NULL-terminated); errno_ret 0 = allow. Takes args. */
static void add_rule(json_object *syscalls, const char *const *names, int errno_ret,
                     json_object *a0, json_object *a2)
{
    json_object *r = json_object_new_object(), *n = json_object_new_array();
    json_object *args = json_object_new_array();
    for (size_t i = 0; names[i]; i++)
        json_object_array_add(n, json_object_new_string(names[i]));
    json_object_object_add(r, "names", n);
    json_object_object_add(r, "action",
                           json_object_new_string(errno_ret ? "SCMP_ACT_ERRNO" : "SCMP_ACT_ALLOW"));
    if (errno_ret)
        json_object_object_add(r, "errnoRet", json_object_new_int(errno_ret));
    json_object_array_add(args, a0);
    if (a2)
        json_object_array_add(args, a2);
    json_object_object_add(r, "args", args);
    json_object_object_add(r, "comment",
                           json_object_new_string("sandboxio: socket families no network covers"));
    json_object_array_add(syscalls, r);
}

static int allowed(int family)
{
    for (size_t i = 0; i < sizeof(families_allowed) / sizeof(families_allowed[0]); i++)
        if (families_allowed[i] == family)
            return 1;
    return family == AF_NETLINK;
}

static void add_socket_rules(json_object *syscalls)
{
    static const char *const both[] = {"socket", "socketpair", NULL};
    static const char *const sock[] = {"socket", NULL};
    for (size_t i = 0; i < sizeof(families_allowed) / sizeof(families_allowed[0]); i++)
        add_rule(syscalls, both, 0, arg(0, (unsigned)families_allowed[i], "SCMP_CMP_EQ"), NULL);
    add_rule(syscalls, sock, 0, arg(0, AF_NETLINK, "SCMP_CMP_EQ"),
             arg(2, NETLINK_ROUTE, "SCMP_CMP_EQ"));
    for (int f = 0; f < FAMILY_LIMIT; f++)
        if (!allowed(f))
            add_rule(syscalls, both, EAFNOSUPPORT, arg(0, (unsigned)f, "SCMP_CMP_EQ"), NULL);
    add_rule(syscalls, both, EAFNOSUPPORT, arg(0, FAMILY_LIMIT - 1, "SCMP_CMP_GT"), NULL);
    for (int p = 0; p < NETLINK_PROTOCOL_LIMIT; p++)
        if (p != NETLINK_ROUTE)
            add_rule(syscalls, sock, EPROTONOSUPPORT, arg(0, AF_NETLINK, "SCMP_CMP_EQ"),
                     arg(2, (unsigned)p, "SCMP_CMP_EQ"));
    add_rule(syscalls, sock, EPROTONOSUPPORT, arg(0, AF_NETLINK, "SCMP_CMP_EQ"),
             arg(2, NETLINK_PROTOCOL_LIMIT - 1, "SCMP_CMP_GT"));
}

/* No compat ABI: each architecture alone, without its subArchitectures. */
static int drop_compat_abis(json_object *profile)
{
    json_object *map;
    if (!json_object_object_get_ex(profile, "archMap", &map) ||
        !json_object_is_type(map, json_type_array))
        return -1;
    for (size_t i = 0; i < json_object_array_length(map); i++) {
        json_object *entry = json_object_array_get_idx(map, i);
        if (!json_object_is_type(entry, json_type_object))
            return -1;
        json_object_object_add(entry, "subArchitectures", json_object_new_array());
    }
    return 0;
}

/* Drop the socket calls from every rule of the base; a rule left with no name goes. */
static int strip_socket_calls(json_object *syscalls)
{
    size_t found = 0;
    for (size_t i = json_object_array_length(syscalls); i-- > 0;) {
        json_object *rule = json_object_array_get_idx(syscalls, i), *names;
        if (!json_object_object_get_ex(rule, "names", &names) ||
            !json_object_is_type(names, json_type_array))
            return -1;
        for (size_t j = json_object_array_length(names); j-- > 0;) {
            const char *n = json_object_get_string(json_object_array_get_idx(names, j));
            if (n && is_socket_call(n)) {
                json_object_array_del_idx(names, j, 1);
                found++;
            }
        }
        if (json_object_array_length(names) == 0)
            json_object_array_del_idx(syscalls, i, 1);
    }
    /* A base that never allowed them is not the profile this was written for. */
    return found == 3 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: seccomp-gen DEFAULT.json > header\n");
        return 2;
    }
    json_object *profile = json_object_from_file(argv[1]), *syscalls;
    if (!profile || !json_object_object_get_ex(profile, "syscalls", &syscalls) ||
        !json_object_is_type(syscalls, json_type_array)) {
        fprintf(stderr, "seccomp-gen: %s: not a seccomp profile: %s\n", argv[1],
                json_util_get_last_err());
        return 1;
    }
    if (strip_socket_calls(syscalls)) {
        fprintf(stderr, "seccomp-gen: %s: expected socket, socketpair and socketcall in its "
                        "allow list once each\n", argv[1]);
        return 1;
    }
    if (drop_compat_abis(profile)) {
        fprintf(stderr, "seccomp-gen: %s: no archMap array of objects\n", argv[1]);
        return 1;
    }
    add_socket_rules(syscalls);
    const char *text = json_object_to_json_string_ext(profile, JSON_C_TO_STRING_PLAIN);
    printf("/* Generated by plugins/docker/seccomp-gen from %s: do not edit. */\n"
           "static const char dk_seccomp_secopt[] = {", argv[1]);
    static const char prefix[] = "seccomp=";
    size_t n = strlen(prefix) + strlen(text);
    for (size_t i = 0; i < n; i++) {
        char c = i < strlen(prefix) ? prefix[i] : text[i - strlen(prefix)];
        printf("%s0x%02x,", i % 16 ? "" : "\n    ", (unsigned char)c);
    }
    printf("\n    0x00};\n");
    json_object_put(profile);
    return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
