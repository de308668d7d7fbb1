/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Cancelling an exec. A cancel is a flag and an eventfd: triggering sets the
 * flag and writes the eventfd once, which is all a signal handler may do
 * (both are async-signal-safe). Plugins poll the eventfd together with their
 * own descriptors, so a command that writes nothing is still stopped at
 * once; nobody ever reads it, so it stays readable for every exec that
 * shares the cancel.
 */
#include "internal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

struct sbx_cancel {
    atomic_int triggered;
    int fd;                 /* eventfd, readable once triggered */
};

int sbx_cancel_new(sbx_cancel **out)
{
    if (!out)
        return sbx__error_set(SBX_E_INVALID_ARGUMENT, "sbx_cancel_new: out is NULL");
    *out = NULL;
    sbx_cancel *c = sbx__calloc(1, sizeof(*c));
    if (!c)
        return SBX_E_NOMEM;
    /* Non-blocking: a trigger must never block, even in a signal handler. */
    c->fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (c->fd < 0) {
        int err = errno;
        free(c);
        return sbx__error_set_errno(SBX_E_SYSTEM, err, "sbx_cancel_new: eventfd");
    }
    atomic_init(&c->triggered, 0);
    *out = c;
    return SBX_OK;
}

void sbx_cancel_free(sbx_cancel *c)
{
    if (!c)
        return;
    close(c->fd);
    free(c);
}

/* No error detail is recorded here: that is not async-signal-safe. */
int sbx_cancel_trigger(sbx_cancel *c)
{
    if (!c)
        return SBX_E_INVALID_ARGUMENT;
    if (atomic_exchange(&c->triggered, 1))
        return SBX_OK; /* already triggered: the fd is readable */
    int saved = errno;
    uint64_t one = 1;
    /* Cannot fail short of a bad fd: the counter goes from 0 to 1 only once. */
    ssize_t n = write(c->fd, &one, sizeof(one));
    errno = saved;
    return n == (ssize_t)sizeof(one) ? SBX_OK : SBX_E_SYSTEM;
}

int sbx_cancel_triggered(const sbx_cancel *c)
{
    return c ? atomic_load(&((sbx_cancel *)c)->triggered) : 0;
}

int sbx__cancel_fd(const sbx_cancel *c)
{
    return c ? c->fd : -1;
}
