/* SPDX-License-Identifier: Apache-2.0 */
/*
 * escape-probe: tries one way out of a sandbox and prints "RESULT ERRNO".
 * The escape battery copies it into a local sandbox and runs it there; each
 * test then asserts the exact errno the containment must produce.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_memfd_secret
#define SYS_memfd_secret 447 /* x86_64, arm64 and the generic table agree */
#endif

static int report(long ret)
{
    printf("%ld %d\n", ret, ret < 0 ? errno : 0);
    fflush(stdout);
    return 0;
}

static long tcp_connect(const char *ip, int port)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return -1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    inet_pton(AF_INET, ip, &a.sin_addr);
    return connect(s, (struct sockaddr *)&a, sizeof a);
}

/*
 * Fork until the kernel refuses; children wait to be killed. Prints count,
 * errno. With a gate, waits for that file to exist first, so that several
 * storms can be started before any of them takes the last slot.
 */
static int fork_bomb(const char *gate)
{
    long count = 0;
    while (gate[0] && access(gate, F_OK) < 0)
        usleep(1000);
    for (;;) {
        pid_t p = fork();
        if (p == 0) {
            pause();
            _exit(0);
        }
        if (p < 0)
            break;
        if (++count > 100000)
            break;
    }
    printf("%ld %d\n", count, errno);
    fflush(stdout);
    return 0;
}

static void *parked(void *arg)
{
    (void)arg;
    for (;;)
        pause();
    return NULL;
}

/* Start threads until the kernel refuses; they count as tasks too. Prints count, error. */
static int thread_bomb(void)
{
    long count = 0;
    int err = 0;
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 64 * 1024);
    for (; count < 100000; count++) {
        pthread_t t;
        if ((err = pthread_create(&t, &a, parked, NULL)) != 0)
            break;
    }
    printf("%ld %d\n", count, err);
    fflush(stdout);
    return 0;
}

/* Write 1 MiB blocks to path until it fails. Prints bytes written, errno. */
static int fill(const char *path)
{
    static char block[1 << 20];
    long total = 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return report(-1);
    memset(block, 'x', sizeof block);
    for (;;) {
        ssize_t n = write(fd, block, sizeof block);
        if (n <= 0)
            break;
        total += n;
    }
    printf("%ld %d\n", total, errno);
    return 0;
}

/* Touch 1 MiB blocks until max_mib; prints the count only if nothing stopped it. */
static int alloc(long max_mib)
{
    long n = 0;
    static void *kept; /* every block stays reachable: touched memory is the point */
    for (; n < max_mib; n++) {
        void **p = malloc(1 << 20);
        if (!p)
            break;
        memset(p, 1, 1 << 20);
        *p = kept;
        kept = p;
    }
    printf("%ld %d\n", n, n < max_mib ? ENOMEM : 0);
    return 0;
}

int main(int argc, char **argv)
{
    const char *op = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "";

    if (!strcmp(op, "open"))
        return report(open(arg, O_RDONLY));
    if (!strcmp(op, "create"))
        return report(open(arg, O_WRONLY | O_CREAT, 0644));
    if (!strcmp(op, "kill"))
        return report(kill(atoi(arg), 0));
    if (!strcmp(op, "ptrace"))
        return report(ptrace(PTRACE_ATTACH, atoi(arg), NULL, NULL));
    if (!strcmp(op, "connect"))
        return report(tcp_connect(arg, atoi(argv[3])));
    if (!strcmp(op, "mount"))
        return report(mount("none", "/tmp", "tmpfs", 0, NULL));
    if (!strcmp(op, "umount"))
        return report(umount2("/proc", MNT_DETACH));
    if (!strcmp(op, "module"))
        return report(syscall(SYS_init_module, "", 0UL, ""));
    if (!strcmp(op, "fmodule"))
        return report(syscall(SYS_finit_module, 0, "", 0));
    if (!strcmp(op, "unshare-user"))
        return report(unshare(CLONE_NEWUSER));
    if (!strcmp(op, "clone-user")) {
        long r = syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
        if (r == 0)
            _exit(0);
        return report(r);
    }
    if (!strcmp(op, "bpf"))
        return report(syscall(SYS_bpf, 0, NULL, 0));
    if (!strcmp(op, "keyctl"))
        return report(syscall(SYS_add_key, "user", "k", "v", 1, -4 /* process keyring */));
    if (!strcmp(op, "userfaultfd"))
        return report(syscall(SYS_userfaultfd, 0));
    if (!strcmp(op, "fanotify")) /* FAN_CLASS_NOTIF | FAN_REPORT_FID: the unprivileged form */
        return report(syscall(SYS_fanotify_init, 0x200, O_RDONLY));
    if (!strcmp(op, "perf"))
        return report(syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0));
    if (!strcmp(op, "tiocsti")) {
        char c = 'x';
        return report(ioctl(0, TIOCSTI, &c));
    }
    if (!strcmp(op, "chroot"))
        return report(chroot("/tmp"));
    if (!strcmp(op, "setuid"))
        return report(setuid(1000));
    if (!strcmp(op, "socket")) /* FAMILY TYPE PROTOCOL, numbers (0x... allowed) */
        return report(syscall(SYS_socket, strtoul(arg, NULL, 0), strtol(argv[3], NULL, 0),
                              strtol(argv[4], NULL, 0)));
    if (!strcmp(op, "socketpair")) {
        int sv[2];
        return report(socketpair((int)strtol(arg, NULL, 0), SOCK_STREAM, 0, sv));
    }
    if (!strcmp(op, "personality")) /* the raw call: libc truncates to 32 bits */
        return report(syscall(SYS_personality, strtoul(arg, NULL, 0)));
    if (!strcmp(op, "memfd_secret"))
        return report(syscall(SYS_memfd_secret, 0));
    if (!strcmp(op, "bind-unix")) { /* leaves a socket file at PATH */
        struct sockaddr_un a = { .sun_family = AF_UNIX };
        int s = socket(AF_UNIX, SOCK_STREAM, 0);
        snprintf(a.sun_path, sizeof a.sun_path, "%s", arg);
        return report(s < 0 ? -1 : bind(s, (struct sockaddr *)&a, sizeof a));
    }
    if (!strcmp(op, "forkbomb"))
        return fork_bomb(arg);
    if (!strcmp(op, "threadbomb"))
        return thread_bomb();
    if (!strcmp(op, "alloc"))
        return alloc(atol(arg));
    if (!strcmp(op, "fill"))
        return fill(arg);
    fprintf(stderr, "escape-probe: unknown op '%s'\n", op);
    return 2;
}
