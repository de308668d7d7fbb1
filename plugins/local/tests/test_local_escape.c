/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The escape battery: each test tries one way out of a local sandbox and
 * asserts the exact containment (the errno the kernel gives, or the
 * sandboxio code), not merely that "something failed".
 */
#include "config.h"

#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "../../../lib/tests/run-suite.h"

static void *sb;

static void open_with(const char *query, const sbx_plugin_limits *limits)
{
    sb = th_fixture_open(query, limits);
    th_install_probe(sb);
}

static void setup(void)
{
    open_with(NULL, NULL);
}

static void teardown(void)
{
    th_fixture_close(&sb);
}

typedef struct outcome {
    long ret;
    int err;
} outcome;

/* Run /work/probe OP [ARG [ARG2]] inside and parse "RET ERRNO". */
static outcome probe(const char *op, const char *arg, const char *arg2)
{
    const char *argv[] = { "/work/probe", op, arg, arg2, NULL };
    th_result r;
    outcome o = { 0, 0 };
    th_exec(sb, argv, NULL, NULL, NULL, 0, 30000, &r);
    ck_assert_msg(r.rc == SBX_OK, "probe %s: %d %s", op, r.rc, th_msg);
    ck_assert_msg(sscanf(r.out, "%ld %d", &o.ret, &o.err) == 2, "probe %s said '%s' / '%s'", op,
                  r.out, r.err);
    th_result_free(&r);
    return o;
}

#define ASSERT_ERRNO(o, e) \
    ck_assert_msg((o).ret == -1 && (o).err == (e), "got ret %ld errno %d (%s), want errno %d (%s)", \
                  (o).ret, (o).err, strerror((o).err), (e), strerror(e))

START_TEST(host_files_outside_binds_are_absent)
{
    ck_assert_int_eq(access("/etc/passwd", F_OK), 0); /* the host has what we look for */
    static const char *const paths[] = {
        "/etc/shadow", "/root", "/home", "/var", "/etc/ssh",
        "/proc/self/root/etc/shadow", "../../../../../etc/shadow", "/work/../../etc/shadow",
        "/usr/../etc/shadow",
    };
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        outcome o = probe("open", paths[i], NULL);
        ck_assert_msg(o.ret == -1 && o.err == ENOENT, "%s: ret %ld errno %d", paths[i], o.ret, o.err);
    }
    /* init's root and cwd are the sandbox's, and init is not even inspectable. */
    static const char *const of_init[] = { "/proc/1/root/etc/shadow", "/proc/1/cwd/../../etc/shadow",
                                           "/proc/1/mem", "/proc/1/environ" };
    for (size_t i = 0; i < sizeof of_init / sizeof *of_init; i++) {
        outcome o = probe("open", of_init[i], NULL);
        ck_assert_msg(o.ret == -1 && o.err == EACCES, "%s: ret %ld errno %d", of_init[i], o.ret,
                      o.err);
    }
}
END_TEST

START_TEST(system_dirs_and_root_are_read_only)
{
    ASSERT_ERRNO(probe("create", "/usr/escape", NULL), EROFS);
    ASSERT_ERRNO(probe("create", "/usr/bin/escape", NULL), EROFS);
    ASSERT_ERRNO(probe("create", "/escape", NULL), EROFS);
    ASSERT_ERRNO(probe("create", "/etc/escape", NULL), EROFS);
    /* Owned by host root, which the sandbox's uid is not: refused before the read-only cover. */
    ASSERT_ERRNO(probe("create", "/proc/sys/kernel/hostname", NULL), EACCES);
    ck_assert_int_eq(access("/usr/escape", F_OK), -1);
}
END_TEST

START_TEST(host_processes_cannot_be_seen_signalled_or_traced)
{
    char pid[32];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    ck_assert_int_gt(getpid(), 10); /* not a number the sandbox's own few pids reach */
    ASSERT_ERRNO(probe("kill", pid, NULL), ESRCH);
    ASSERT_ERRNO(probe("ptrace", pid, NULL), ESRCH);
    /* Nor can init, which holds the control socket, be traced from inside. */
    ASSERT_ERRNO(probe("ptrace", "1", NULL), EPERM);
    /*
     * Every visible process is the sandbox's own: init and the supervisors
     * (comm "sandboxio-local"), a probe an earlier exec has not yet seen
     * reaped, and the one sh listing them with builtins only. A count would
     * race with the reaping of earlier execs' supervisors.
     */
    th_result r;
    th_sh(sb, "for p in /proc/[0-9]*; do read -r c < $p/comm && echo \"$c\"; done", 0, &r);
    int shells = 0;
    for (char *save = NULL, *c = strtok_r(r.out, "\n", &save); c; c = strtok_r(NULL, "\n", &save)) {
        ck_assert_msg(strcmp(c, "sandboxio-local") == 0 || strcmp(c, "escape-probe") == 0 ||
                      strcmp(c, "sh") == 0, "a process that is not the sandbox's: %s", c);
        shells += strcmp(c, "sh") == 0;
    }
    ck_assert_int_eq(shells, 1);
    th_result_free(&r);
}
END_TEST

START_TEST(host_loopback_listener_is_unreachable)
{
    int l = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    ck_assert_int_eq(bind(l, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(listen(l, 4), 0);
    ck_assert_int_eq(getsockname(l, (struct sockaddr *)&a, &len), 0);
    char port[16];
    snprintf(port, sizeof port, "%d", ntohs(a.sin_port));
    ASSERT_ERRNO(probe("connect", "127.0.0.1", port), ECONNREFUSED);
    ASSERT_ERRNO(probe("connect", "10.0.0.1", "80"), ENETUNREACH);
    ck_assert_int_eq(accept(l, NULL, NULL), -1);
    ck_assert_int_eq(errno, EAGAIN);
    close(l);
}
END_TEST

START_TEST(mount_and_chroot_are_denied)
{
    ASSERT_ERRNO(probe("mount", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("umount", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("chroot", NULL, NULL), EPERM);
}
END_TEST

START_TEST(kernel_modules_cannot_be_loaded)
{
    ASSERT_ERRNO(probe("module", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("fmodule", NULL, NULL), EPERM);
}
END_TEST

START_TEST(user_namespaces_cannot_be_created)
{
    ASSERT_ERRNO(probe("unshare-user", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("clone-user", NULL, NULL), EPERM);
}
END_TEST

START_TEST(kernel_attack_surface_is_denied)
{
    ASSERT_ERRNO(probe("bpf", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("keyctl", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("userfaultfd", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("perf", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("tiocsti", NULL, NULL), EPERM);
    ASSERT_ERRNO(probe("setuid", NULL, NULL), EINVAL); /* uid 1000 does not exist inside */
}
END_TEST

/*
 * /usr is the host's own, read-only: a fanotify mark on it (allowed without
 * privilege since Linux 5.13) would report each program the host starts.
 * Refused as Docker's default profile refuses it; nothing in a sandbox needs
 * it (inotify, which file watchers use, stays: see docs/security.md).
 */
START_TEST(host_program_starts_cannot_be_watched_with_fanotify)
{
    ASSERT_ERRNO(probe("fanotify", NULL, NULL), EPERM);
}
END_TEST

/* Run the probe and assert it succeeded (a descriptor, or 0). */
static void probe_ok(const char *op, const char *arg, const char *arg2, const char *arg3)
{
    const char *argv[] = { "/work/probe", op, arg, arg2, arg3, NULL };
    th_result r;
    long ret;
    int err;
    th_exec(sb, argv, NULL, NULL, NULL, 0, 30000, &r);
    ck_assert_msg(r.rc == SBX_OK && sscanf(r.out, "%ld %d", &ret, &err) == 2, "probe %s: '%s'",
                  op, r.out ? r.out : "");
    ck_assert_msg(ret >= 0, "probe %s %s %s %s: errno %d (%s)", op, arg, arg2 ? arg2 : "",
                  arg3 ? arg3 : "", err, strerror(err));
    th_result_free(&r);
}

static outcome probe_socket(const char *family, const char *type, const char *protocol)
{
    const char *argv[] = { "/work/probe", "socket", family, type, protocol, NULL };
    th_result r;
    outcome o = { 0, 0 };
    th_exec(sb, argv, NULL, NULL, NULL, 0, 30000, &r);
    ck_assert_msg(r.rc == SBX_OK && sscanf(r.out, "%ld %d", &o.ret, &o.err) == 2,
                  "probe socket %s: '%s'", family, r.out ? r.out : "");
    th_result_free(&r);
    return o;
}

/*
 * Network "none" is a network namespace with only a loopback: it says
 * nothing of families outside the IP stack. AF_VSOCK is the hypervisor's
 * port space, shared with the host (a VM's host is CID 2).
 */
START_TEST(socket_families_outside_no_network_are_refused)
{
    static const struct { const char *family, *type, *protocol, *what; } refused[] = {
        { "40", "1", "0", "AF_VSOCK stream" },     { "40", "2", "0", "AF_VSOCK dgram" },
        { "40", "5", "0", "AF_VSOCK seqpacket" },  { "38", "5", "0", "AF_ALG" },
        { "17", "3", "0", "AF_PACKET" },           { "15", "3", "2", "AF_KEY" },
        { "31", "1", "0", "AF_BLUETOOTH" },        { "29", "3", "1", "AF_CAN" },
        { "30", "5", "0", "AF_TIPC" },             { "21", "5", "0", "AF_RDS" },
        { "44", "3", "0", "AF_XDP" },              { "0", "1", "0", "AF_UNSPEC" },
        { "63", "1", "0", "a family past AF_MAX" }, { "0x100000028", "1", "0", "AF_VSOCK + bit 32" },
        { "0x7fffffff", "1", "0", "INT_MAX" },
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        outcome o = probe_socket(refused[i].family, refused[i].type, refused[i].protocol);
        ck_assert_msg(o.ret == -1 && o.err == EAFNOSUPPORT, "%s: ret %ld errno %d (%s)",
                      refused[i].what, o.ret, o.err, strerror(o.err));
    }
    /* Netlink beyond routing: audit, uevents, generic (nl80211, ...), netfilter, sock_diag, xfrm. */
    static const char *const netlink[] = { "9", "15", "16", "12", "4", "6", "31", "32", "0x100000000" };
    for (size_t i = 0; i < sizeof netlink / sizeof *netlink; i++) {
        outcome o = probe_socket("16", "3", netlink[i]);
        ck_assert_msg(o.ret == -1 && o.err == EPROTONOSUPPORT, "netlink protocol %s: ret %ld "
                      "errno %d (%s)", netlink[i], o.ret, o.err, strerror(o.err));
    }
    outcome o = probe("socketpair", "40", NULL);
    ASSERT_ERRNO(o, EAFNOSUPPORT);
    /* What stays: unix, IPv4 and IPv6 (loopback only), routing netlink. */
    probe_ok("socket", "1", "1", "0");
    probe_ok("socket", "2", "1", "0");
    probe_ok("socket", "2", "2", "0");
    probe_ok("socket", "10", "1", "0");
    probe_ok("socket", "16", "3", "0");
    probe_ok("socketpair", "1", NULL, NULL);
}
END_TEST

/*
 * personality() as Docker's default profile allows it; ADDR_NO_RANDOMIZE
 * (no ASLR for what is exec'd next) and the rest are refused. memfd_secret
 * (memory the kernel's direct map no longer covers) is refused outright.
 */
START_TEST(personality_flags_and_memfd_secret_are_refused)
{
    static const char *const refused[] = {
        "0x0040000" /* ADDR_NO_RANDOMIZE */, "0x0400000" /* READ_IMPLIES_EXEC */,
        "0x0100000" /* MMAP_PAGE_ZERO */, "0x0200000" /* ADDR_COMPAT_LAYOUT */,
        "0x8000000" /* ADDR_LIMIT_3GB */, "0x0040008", "0x1", "0xfffffffe", "0x100000000",
        "0x1ffffffff",
    };
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        outcome o = probe("personality", refused[i], NULL);
        ck_assert_msg(o.ret == -1 && o.err == EPERM, "personality(%s): ret %ld errno %d",
                      refused[i], o.ret, o.err);
    }
    static const char *const allowed[] = { "0", "8", "0x20000", "0x20008", "0xffffffff" };
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
        probe_ok("personality", allowed[i], NULL, NULL);
    /* And no sandbox starts with ASLR off, whatever the client's personality. */
    ASSERT_ERRNO(probe("memfd_secret", NULL, NULL), EPERM);
    teardown();
    ck_assert_int_ne(personality(ADDR_NO_RANDOMIZE), -1); /* this test's process only */
    ck_assert_int_eq(personality(0xffffffff), ADDR_NO_RANDOMIZE);
    open_with(NULL, NULL);
    th_result r;
    th_sh(sb, "cat /proc/self/personality", 0, &r);
    ck_assert_str_eq(r.out, "00000000\n");
    th_result_free(&r);
}
END_TEST

START_TEST(no_capability_and_no_new_privs)
{
    th_result r;
    th_sh(sb, "grep -E '^(Cap(Inh|Prm|Eff|Bnd|Amb)|NoNewPrivs|Seccomp):' /proc/self/status", 0, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_str_eq(r.out, "CapInh:\t0000000000000000\nCapPrm:\t0000000000000000\n"
                            "CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\n"
                            "CapAmb:\t0000000000000000\nNoNewPrivs:\t1\nSeccomp:\t2\n");
    th_result_free(&r);
}
END_TEST

START_TEST(fork_bomb_is_stopped_by_the_pids_limit)
{
    teardown();
    sbx_plugin_limits lim = { .struct_size = sizeof lim, .pids = 24 };
    open_with(NULL, &lim);
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    outcome o = probe("forkbomb", NULL, NULL);
    /* init + supervisor + the probe count too: fewer than 24 children. */
    ck_assert_int_eq(o.err, EAGAIN);
    ck_assert_int_lt(o.ret, 24);
    ck_assert_int_ge(o.ret, 10);
    ck_assert_int_eq(th_settle_pidns(ns, 1), 1);
    /* The sandbox still works, and the limit cannot be raised inside. */
    th_result r;
    th_sh(sb, "ulimit -u 100000 2>/dev/null; echo $?; grep 'Max processes' /proc/self/limits", 0, &r);
    ck_assert_str_eq(r.out, "2\nMax processes             24                   24                   processes \n");
    th_result_free(&r);
}
END_TEST

/*
 * The limit is one per sandbox, whatever makes the tasks: three fork storms
 * from as many processes at once share it (their children all stay alive),
 * and threads count as much as processes. Counted with shell builtins only:
 * at the limit nothing more can be forked.
 */
START_TEST(fork_and_thread_storms_share_one_pids_limit)
{
    /* Declared on every kernel that counts per user namespace (5.14+, as here). */
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "", "", 0, NULL };
    uint64_t caps = 0;
    ck_assert_int_eq(th_plugin->probe(th_state, &dsn, &caps), SBX_OK);
    ck_assert_uint_ne(caps & SBX_CAP_LIMIT_PIDS, 0);
    teardown();
    sbx_plugin_limits lim = { .struct_size = sizeof lim, .pids = 32 };
    open_with(NULL, &lim);
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    th_result r;
    th_sh(sb, "cd /tmp; for i in 1 2 3; do /work/probe forkbomb /tmp/go > f$i & done; "
              ": > /tmp/go; wait; "
              "set -- /proc/[0-9]*/task/[0-9]*; echo tasks $#; "
              "for i in 1 2 3; do read -r n e < f$i; echo fork $n $e; done", 60000, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    int tasks = -1;
    long sum = 0;
    char *line = strstr(r.out, "tasks ");
    ck_assert_msg(line && sscanf(line, "tasks %d", &tasks) == 1, "output '%s' / '%s'", r.out,
                  r.err);
    for (char *p = r.out; (p = strstr(p, "fork ")) != NULL; p++) {
        long n;
        int e;
        ck_assert_int_eq(sscanf(p, "fork %ld %d", &n, &e), 2);
        ck_assert_int_eq(e, EAGAIN);
        sum += n;
    }
    /* init, supervisor, sh, and the children the three storms left behind */
    ck_assert_msg(tasks <= 32 && tasks >= 24, "%d tasks under a limit of 32", tasks);
    ck_assert_msg(sum <= 32 - 3, "the storms made %ld processes under a limit of 32", sum);
    th_result_free(&r);
    ck_assert_int_eq(th_settle_pidns(ns, 1), 1);

    outcome o = probe("threadbomb", NULL, NULL);
    ck_assert_int_eq(o.err, EAGAIN);
    ck_assert_msg(o.ret < 32 && o.ret >= 20, "%ld threads under a limit of 32", o.ret);
    fprintf(stderr, "note: pids=32 (uid %d): 3 fork storms left %ld children, %d tasks in all; "
                    "a thread storm got %ld threads\n", (int)geteuid(), sum, tasks, o.ret);
}
END_TEST

START_TEST(work_dir_tmp_and_shm_are_size_bounded)
{
    teardown();
    open_with("size=8m", NULL);
    static const char *const files[] = { "/work/big", "/tmp/big", "/dev/shm/big" };
    for (size_t i = 0; i < 3; i++) {
        outcome o = probe("fill", files[i], NULL);
        ck_assert_msg(o.err == ENOSPC, "%s: errno %d", files[i], o.err);
        ck_assert_int_le(o.ret, 8L << 20);
        ck_assert_int_ge(o.ret, 6L << 20);
    }
}
END_TEST

START_TEST(file_api_refuses_symlinks_and_dots_that_lead_out)
{
    struct stat before, after;
    ck_assert_int_eq(stat("/etc/passwd", &before), 0);
    th_result r;
    th_sh(sb, "ln -s /etc etc_abs && ln -s ../../../../../etc etc_rel && ln -s /etc/passwd pw "
              "&& ln -s /proc/self/root pr && mkdir d && ln -s .. d/up && ln -s /proc/1/root p1",
          0, &r);
    ck_assert_int_eq(r.ex.exit_code, 0);
    th_result_free(&r);

    static const char *const reads[] = { "etc_abs/passwd", "etc_rel/passwd", "pw", "pr/etc/passwd",
                                         "p1/etc/passwd", "../etc/passwd", "d/up/../etc/passwd" };
    for (size_t i = 0; i < sizeof reads / sizeof *reads; i++) {
        char *data;
        size_t len;
        int rc = th_read(sb, reads[i], &data, &len);
        ck_assert_msg(rc == SBX_E_PATH_ESCAPE, "read %s: %d %s", reads[i], rc, th_msg);
        ck_assert_uint_eq(len, 0);
        free(data);
    }
    ck_assert_int_eq(th_write(sb, "etc_abs/sbx-escape", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(th_write(sb, "pw", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(th_write(sb, "etc_rel/sub/x", "x", 1, 0644), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(th_plugin->file_mkdir(sb, "etc_abs/sbx-escape"), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(th_plugin->file_remove(sb, "etc_abs/passwd", 0), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(th_plugin->file_remove(sb, "pr/etc/passwd", 0), SBX_E_PATH_ESCAPE);
    ck_assert_int_eq(access("/etc/sbx-escape", F_OK), -1);
    ck_assert_int_eq(stat("/etc/passwd", &after), 0);
    ck_assert_int_eq(before.st_size, after.st_size);
    ck_assert_int_eq(before.st_mtime, after.st_mtime);
    /* Inside the work dir a symlink is fine; removing a link never touches its target. */
    char *data;
    size_t len;
    ck_assert_int_eq(th_write(sb, "d/f", "ok", 2, 0644), SBX_OK);
    ck_assert_int_eq(th_read(sb, "d/up/d/f", &data, &len), SBX_OK);
    ck_assert_str_eq(data, "ok");
    free(data);
    ck_assert_int_eq(th_plugin->file_remove(sb, "pw", 0), SBX_OK);
    ck_assert_int_eq(th_plugin->file_remove(sb, "etc_abs", 1), SBX_OK);
    ck_assert_int_eq(access("/etc/passwd", F_OK), 0);
}
END_TEST

/* A socket file planted inside is refused like a FIFO, by write and read, at once. */
START_TEST(file_api_refuses_a_planted_socket)
{
    outcome o = probe("bind-unix", "/work/sock", NULL);
    ck_assert_int_eq(o.ret, 0);
    char *data = NULL;
    size_t len;
    ck_assert_int_eq(th_write(sb, "sock", "x", 1, 0644), SBX_E_NOT_REGULAR);
    ck_assert_int_eq(th_read(sb, "sock", &data, &len), SBX_E_NOT_REGULAR);
    free(data);
    th_result r;
    th_sh(sb, "test -S sock && echo socket", 0, &r);
    ck_assert_str_eq(r.out, "socket\n");
    th_result_free(&r);
}
END_TEST

static uint64_t probed_caps(void)
{
    sbx_plugin_dsn dsn = { sizeof dsn, "local", "", "", 0, NULL };
    uint64_t caps = 0;
    ck_assert_int_eq(th_plugin->probe(th_state, &dsn, &caps), SBX_OK);
    return caps;
}

/*
 * Memory: where a cgroup can enforce a limit, a hog (and a tmpfs filled past
 * it) is OOM-killed and reported; where none can, asking for a memory limit
 * is refused before anything runs, never run unlimited.
 */
START_TEST(unbounded_memory_is_killed_by_the_memory_limit)
{
    uint64_t caps = probed_caps();
    teardown();
    sbx_plugin_limits lim = { .struct_size = sizeof lim, .memory_bytes = 64u << 20 };
    if (!(caps & SBX_CAP_LIMIT_MEMORY)) {
        th_load();
        void *x = NULL;
        ck_assert_int_eq(th_open(NULL, &lim, &x), SBX_E_KERNEL_FEATURE);
        ck_assert_ptr_null(x);
        fprintf(stderr, "note: no writable cgroup with the memory controller here; checked "
                        "that a memory limit is refused (%s)\n", th_msg);
        return;
    }
    ck_assert_uint_ne(caps & SBX_CAP_OOM_REPORT, 0);
    open_with(NULL, &lim);
    const char *argv[] = { "/work/probe", "alloc", "4096", NULL };
    th_result r;
    th_exec(sb, argv, NULL, NULL, NULL, 0, 60000, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.exited, 0);
    ck_assert_int_eq(r.ex.signal, SIGKILL);
    ck_assert_int_eq(r.ex.oom_killed, 1);
    ck_assert_int_eq(r.ex.timed_out, 0);
    th_result_free(&r);
    /* tmpfs pages count too: filling the work dir cannot take the host's memory. */
    th_sh(sb, "exec head -c 268435456 /dev/zero > /work/big", 60000, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    ck_assert_int_eq(r.ex.signal, SIGKILL);
    ck_assert_int_eq(r.ex.oom_killed, 1);
    th_result_free(&r);
    /* The pages stay charged while the file exists; freed, the sandbox goes on. */
    ck_assert_int_eq(th_plugin->file_remove(sb, "big", 0), SBX_OK);
    th_sh(sb, "echo alive", 0, &r);
    ck_assert_str_eq(r.out, "alive\n");
    th_result_free(&r);
}
END_TEST

START_TEST(cpu_limit_throttles_a_busy_loop)
{
    uint64_t caps = probed_caps();
    teardown();
    sbx_plugin_limits lim = { .struct_size = sizeof lim, .cpu_millis = 200 };
    if (!(caps & SBX_CAP_LIMIT_CPU)) {
        th_load();
        void *x = NULL;
        ck_assert_int_eq(th_open(NULL, &lim, &x), SBX_E_KERNEL_FEATURE);
        fprintf(stderr, "note: no writable cgroup with the cpu controller here; checked that a "
                        "CPU limit is refused (%s)\n", th_msg);
        return;
    }
    open_with(NULL, &lim);
    th_result r;
    /* CPU ticks (1/100 s) a busy loop gets in 2 s of wall time at 0.2 CPU. */
    th_sh(sb, "sh -c 'while :; do :; done' & p=$!; sleep 2; "
              "awk '{print $14 + $15}' /proc/$p/stat; kill $p", 30000, &r);
    ck_assert_int_eq(r.rc, SBX_OK);
    int ticks = atoi(r.out);
    ck_assert_msg(ticks >= 10 && ticks <= 80, "busy loop got %d ticks in 2 s at 0.2 CPU", ticks);
    th_result_free(&r);
}
END_TEST

static void *sleeper_thread(void *arg)
{
    th_result *r = arg;
    th_sh(sb, "exec sleep 1000", 5000, r);
    return NULL;
}

/* In a child as host uid/gid 65534: 0 if every signal to the pids fails with EPERM. */
static int signals_refused_as_nobody(const pid_t *pids, size_t n)
{
    pid_t child = fork();
    ck_assert_int_ge(child, 0);
    if (child == 0) {
        if (setgroups(0, NULL) < 0 || setresgid(65534, 65534, 65534) < 0
            || setresuid(65534, 65534, 65534) < 0)
            _exit(90);
        for (size_t i = 0; i < n; i++) {
            if (kill(pids[i], 0) == 0 || errno != EPERM)
                _exit(10 + (int)i);
            if (kill(pids[i], SIGSTOP) == 0 || errno != EPERM)
                _exit(20 + (int)i);
        }
        _exit(0);
    }
    int st;
    ck_assert_int_eq(waitpid(child, &st, 0), child);
    ck_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/*
 * Which host ids a sandbox's processes have: the caller's own for an
 * ordinary user; for root a private id no host account or process has
 * (never root, never nobody), so a host process running as nobody can
 * neither signal nor stop a root caller's sandbox.
 */
START_TEST(host_nobody_cannot_signal_root_sandboxes)
{
    pid_t init = th_init_pid(sb);
    unsigned long ns = th_pidns_of(init);
    uid_t uid;
    gid_t gid;
    th_host_ids(init, &uid, &gid);
    if (geteuid() != 0) {
        ck_assert_int_eq(uid, geteuid());
        ck_assert_int_eq(gid, getegid());
        fprintf(stderr, "note: not root: checked that the sandbox runs as the caller's own ids; "
                        "the nobody check needs root\n");
        return;
    }
    pthread_t t;
    th_result r;
    ck_assert_int_eq(pthread_create(&t, NULL, sleeper_thread, &r), 0);
    pid_t sleeper = 0;
    for (int i = 0; i < 300 && !(sleeper = th_find_in_pidns(ns, "sleep")); i++)
        usleep(10000);
    ck_assert_int_gt(sleeper, 0);
    uid_t cu;
    gid_t cg;
    th_host_ids(sleeper, &cu, &cg);
    ck_assert_int_eq(cu, uid);
    ck_assert_int_eq(cg, gid);
    const pid_t pids[] = { init, sleeper };
    int refused = signals_refused_as_nobody(pids, 2);
    ck_assert_msg(refused == 0, "a host process as nobody signalled the sandbox (step %d)", refused);
    pthread_join(t, NULL);
    ck_assert_int_eq(r.ex.timed_out, 1); /* never stopped: it ran into its timeout */
    th_result_free(&r);
    ck_assert_int_ne(uid, 0);
    ck_assert_int_ne(uid, 65534);
    ck_assert_int_ne(gid, 0);
    ck_assert_int_ne(gid, 65534);
    ck_assert_ptr_null(getpwuid(uid));
    ck_assert_ptr_null(getgrgid(gid));
}
END_TEST

static void *daemon_thread(void *arg)
{
    th_result *r = arg;
    th_sh(sb, "setsid sh -c 'sleep 1000 & sleep 1000' & sleep 1000", 0, r);
    return NULL;
}

START_TEST(no_process_survives_destroy)
{
    pthread_t t;
    th_result r;
    unsigned long ns = th_pidns_of(th_init_pid(sb));
    ck_assert_int_eq(pthread_create(&t, NULL, daemon_thread, &r), 0);
    for (int i = 0; i < 300 && th_count_in_pidns(ns) < 6; i++)
        usleep(10000);
    ck_assert_int_ge(th_count_in_pidns(ns), 6);
    ck_assert_int_eq(th_plugin->destroy(sb), SBX_OK);
    sb = NULL;
    ck_assert_int_eq(th_count_in_pidns(ns), 0);
    pthread_join(t, NULL);
    th_result_free(&r);
}
END_TEST

static Suite *escape_suite(void)
{
    Suite *s = suite_create("local-escape");
    TCase *tc = tcase_create("escape");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, host_files_outside_binds_are_absent);
    tcase_add_test(tc, system_dirs_and_root_are_read_only);
    tcase_add_test(tc, host_processes_cannot_be_seen_signalled_or_traced);
    tcase_add_test(tc, host_loopback_listener_is_unreachable);
    tcase_add_test(tc, mount_and_chroot_are_denied);
    tcase_add_test(tc, kernel_modules_cannot_be_loaded);
    tcase_add_test(tc, user_namespaces_cannot_be_created);
    tcase_add_test(tc, kernel_attack_surface_is_denied);
    tcase_add_test(tc, host_program_starts_cannot_be_watched_with_fanotify);
    tcase_add_test(tc, socket_families_outside_no_network_are_refused);
    tcase_add_test(tc, personality_flags_and_memfd_secret_are_refused);
    tcase_add_test(tc, no_capability_and_no_new_privs);
    tcase_add_test(tc, fork_bomb_is_stopped_by_the_pids_limit);
    tcase_add_test(tc, fork_and_thread_storms_share_one_pids_limit);
    tcase_add_test(tc, work_dir_tmp_and_shm_are_size_bounded);
    tcase_add_test(tc, file_api_refuses_symlinks_and_dots_that_lead_out);
    tcase_add_test(tc, file_api_refuses_a_planted_socket);
    tcase_add_test(tc, no_process_survives_destroy);
    tcase_add_test(tc, host_nobody_cannot_signal_root_sandboxes);
    tcase_add_test(tc, unbounded_memory_is_killed_by_the_memory_limit);
    tcase_add_test(tc, cpu_limit_throttles_a_busy_loop);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    th_skip_without_userns();
    return run_suite(escape_suite());
}
