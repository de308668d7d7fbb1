/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandbox's setup, run by init as root of its fresh user namespace.
 *
 * One linear list of steps, each checked; the first failure stops everything
 * and names the step, the object and errno: the root file system (rootfs.c),
 * hostname, loopback, limits, capabilities, no_new_privs, seccomp.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "init.h"
#include "../proto.h"

int init_fail(init_failure *why, int step, int err, const char *fmt, ...)
{
    va_list ap;
    why->step = step;
    why->err = err;
    va_start(ap, fmt);
    vsnprintf(why->what, sizeof why->what, fmt, ap);
    va_end(ap);
    return -1;
}

#define STEP(why, step, call, ...) \
    do { if ((call) < 0) return init_fail(why, step, errno, __VA_ARGS__); } while (0)

static int loopback_up(void)
{
    struct ifreq ifr;
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    int rc = ioctl(s, SIOCGIFFLAGS, &ifr);
    if (rc == 0) {
        ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
        rc = ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    int e = errno;
    close(s);
    errno = e;
    return rc;
}

/* No capability of any kind, now or after any exec, for init and its children. */
static int drop_capabilities(init_failure *why)
{
    struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
    struct __user_cap_data_struct data[2];
    int last = CAP_LAST_CAP;
    FILE *f = fopen("/proc/sys/kernel/cap_last_cap", "re");
    if (f) {
        if (fscanf(f, "%d", &last) != 1)
            last = CAP_LAST_CAP;
        fclose(f);
    }
    STEP(why, LP_STEP_CAPS,
         prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP
               | SECBIT_NO_SETUID_FIXUP_LOCKED | SECBIT_KEEP_CAPS_LOCKED
               | SECBIT_NO_CAP_AMBIENT_RAISE | SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED, 0, 0, 0),
         "securebits");
    for (int cap = 0; cap <= last; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EINVAL)
            return init_fail(why, LP_STEP_CAPS, errno, "drop bounding capability %d", cap);
    STEP(why, LP_STEP_CAPS, prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0),
         "clear ambient capabilities");
    memset(data, 0, sizeof data);
    STEP(why, LP_STEP_CAPS, syscall(SYS_capset, &hdr, data), "capset");
    STEP(why, LP_STEP_CAPS, syscall(SYS_capget, &hdr, data), "capget");
    if (data[0].effective | data[0].permitted | data[0].inheritable | data[1].effective
        | data[1].permitted | data[1].inheritable)
        return init_fail(why, LP_STEP_CAPS, EPERM, "capabilities still held after capset");
    return 0;
}

static int load_filter(const void *bpf, size_t len)
{
    struct sock_fprog prog = {
        .len = (unsigned short)(len / sizeof(struct sock_filter)),
        .filter = (struct sock_filter *)bpf,
    };
    if (len == 0 || len % sizeof(struct sock_filter) || len / sizeof(struct sock_filter) > BPF_MAXINSNS) {
        errno = EINVAL;
        return -1;
    }
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
}

int init_setup(const init_config *cfg, const void *bpf, size_t bpflen, init_failure *why)
{
    if (init_build_root(cfg, why) < 0)
        return -1;
    STEP(why, LP_STEP_HOSTNAME, sethostname("sandbox", 7), "sethostname");
    STEP(why, LP_STEP_LOOPBACK, loopback_up(), "bring up lo");
    if (init_net_block(cfg, why) < 0)
        return -1;
    STEP(why, LP_STEP_WORKDIR, chdir(cfg->workdir), "chdir %s", cfg->workdir);
    if (cfg->pids > 0) {
        struct rlimit rl = { .rlim_cur = cfg->pids, .rlim_max = cfg->pids };
        STEP(why, LP_STEP_RLIMIT, setrlimit(RLIMIT_NPROC, &rl), "RLIMIT_NPROC");
    }
    struct rlimit core = { 0, 0 };
    STEP(why, LP_STEP_RLIMIT, setrlimit(RLIMIT_CORE, &core), "RLIMIT_CORE");
    /*
     * Commands run as the same uid as init: without this they could ptrace
     * init (and so its control socket) or read /proc/1/mem. Supervisors
     * inherit it; commands' execve() makes them dumpable again.
     */
    STEP(why, LP_STEP_CAPS, prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), "PR_SET_DUMPABLE");
    /*
     * The client's personality is inherited through clone and execve: a
     * client run with ASLR off (setarch -R, a debugger) must not start its
     * sandboxes so. The filter keeps the flags from being set again inside.
     */
    STEP(why, LP_STEP_CAPS, syscall(SYS_personality, PER_LINUX), "personality(PER_LINUX)");
    if (drop_capabilities(why) < 0)
        return -1;
    STEP(why, LP_STEP_NO_NEW_PRIVS, prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "set");
    if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
        return init_fail(why, LP_STEP_NO_NEW_PRIVS, EPERM, "not set after PR_SET_NO_NEW_PRIVS");
    STEP(why, LP_STEP_SECCOMP, load_filter(bpf, bpflen), "load filter");
    return 0;
}

int init_parse_config(init_config *cfg, char *buf, size_t len, init_failure *why)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->workdir = "/work";
    cfg->tmpfs_size = (uint64_t)1 << 30;
    if (len == 0 || buf[len - 1] != '\0')
        return init_fail(why, LP_STEP_CONFIG, EINVAL, "configuration not NUL-terminated");
    for (char *p = buf; p < buf + len; p += strlen(p) + 1) {
        switch (p[0]) {
        case 'w':
            cfg->workdir = p + 1;
            break;
        case 's':
            cfg->tmpfs_size = strtoull(p + 1, NULL, 10);
            break;
        case 'p':
            cfg->pids = (uint32_t)strtoul(p + 1, NULL, 10);
            break;
        case 'T':
            cfg->expires_ms = strtoll(p + 1, NULL, 10);
            break;
        case 'n':
            cfg->net_open = 1;
            break;
        case 'P': {
            unsigned long port = strtoul(p + 1, NULL, 10);
            if (port == 0 || port > 65535)
                return init_fail(why, LP_STEP_CONFIG, EINVAL, "bad proxy port '%s'", p + 1);
            cfg->proxy_port = (uint16_t)port;
            break;
        }
        case 'x':
            if (cfg->nblocked == INIT_MAX_BLOCKED
                || inet_pton(AF_INET, p + 1, &cfg->blocked[cfg->nblocked]) != 1)
                return init_fail(why, LP_STEP_CONFIG, EINVAL, "bad blocked address '%s'", p + 1);
            cfg->nblocked++;
            break;
        case 'R':
        case 'W': {
            char *dst = p + strlen(p) + 1;
            if (dst >= buf + len || dst[0] != '>' || cfg->nbinds == INIT_MAX_BINDS)
                return init_fail(why, LP_STEP_CONFIG, EINVAL, "bad bind entry");
            cfg->binds[cfg->nbinds++] = (init_bind){ p + 1, dst + 1, p[0] == 'W' };
            p = dst;
            break;
        }
        default:
            return init_fail(why, LP_STEP_CONFIG, EINVAL, "unknown configuration tag '%c'", p[0]);
        }
    }
    if (cfg->workdir[0] != '/')
        return init_fail(why, LP_STEP_CONFIG, EINVAL, "work dir must be absolute");
    return 0;
}
