/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Control lines in an exec's output.
 *
 * Two programs share the command's stdout and stderr with it and tell us
 * things there:
 *   - the exec wrapper (exec.c), on stderr before the command starts:
 *     "\001sbx-pid T" (its pid, which is the exec's session), or why it
 *     gave up: "\001sbx-nocwd", "\001sbx-noexec", "\001sbx-noperm";
 *   - docker-init (tini, which the engine mounts at /sbin/docker-init in
 *     every container made with Init), run with -v: on stdout, when it
 *     exits, "[INFO  tini (T)] Main child exited normally (with status
 *     'X')" or "... exited with signal ...", which tells an exit from a
 *     death by signal where the engine's exit code (128+N for both) cannot;
 *     on stderr "[FATAL tini (T)] ..." if it could not start the command.
 * On a terminal (c->tty) all of it arrives as one stream, SBX_STDOUT, and
 * the terminal ends each line with "\r\n".
 * A line may come right after a partial line of the command's output. The
 * filter recognises them anywhere, holds back a possible beginning of one
 * until it can decide, and passes every other byte on in order.
 */
#include "docker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A control line longer than this is not one (keeps the hold bounded). */
#define DK_CONTROL_LINE_MAX 1024

static const char *const prefixes[] = {"\001sbx-", "[INFO  tini (", "[WARN  tini (",
                                       "[FATAL tini (", NULL};

void dk_control_init(dk_control *c,
                     int (*out)(void *ud, int stream, const void *data, size_t len), void *ud)
{
    memset(c, 0, sizeof(*c));
    c->out = out;
    c->ud = ud;
}

void dk_control_clear(dk_control *c)
{
    sbxu_buf_clear(&c->hold[0]);
    sbxu_buf_clear(&c->hold[1]);
}

static int emit(dk_control *c, int stream, const char *data, size_t len)
{
    return len && c->out ? c->out(c->ud, stream, data, len) : 0;
}

/* A wrapper line; false if it is not one of ours. */
static bool wrapper_line(dk_control *c, const char *line)
{
    if (c->session || c->start_fail)
        return false;    /* the command runs: its own output now */
    if (strncmp(line, "pid ", 4) == 0) {
        char *end;
        long pid = strtol(line + 4, &end, 10);
        if (pid <= 0 || *end)
            return false;
        c->session = pid;
    } else if (strcmp(line, "nocwd") == 0) {
        c->start_fail = DK_START_NOCWD;
    } else if (strcmp(line, "noexec") == 0) {
        c->start_fail = DK_START_NOEXEC;
    } else if (strcmp(line, "noperm") == 0) {
        c->start_fail = DK_START_NOPERM;
    } else {
        return false;
    }
    return true;
}

/* A tini line after "[LEVEL tini (": "T)] message"; false if not tini's. */
static bool tini_line(dk_control *c, int stream, const char *level, const char *rest)
{
    char *end;
    long tini = strtol(rest, &end, 10);
    if (tini <= 0 || strncmp(end, ")] ", 3) != 0)
        return false;
    /* The wrapper execs docker-init, so its pid is the session's. */
    if (c->session && tini != c->session)
        return false;
    const char *msg = end + 3;
    int status;
    /* On a terminal, what docker-init writes to stderr arrives as stdout. */
    if (c->tty)
        stream = strcmp(level, "INFO ") == 0 ? SBX_STDOUT : SBX_STDERR;
    if (stream == SBX_STDOUT && strcmp(level, "INFO ") == 0 &&
        sscanf(msg, "Main child exited normally (with status '%d')", &status) == 1) {
        c->ended = DK_END_EXITED;
        c->status = status;
    } else if (stream == SBX_STDOUT && strcmp(level, "INFO ") == 0 &&
               strncmp(msg, "Main child exited with signal", 29) == 0) {
        c->ended = DK_END_SIGNALED;
    } else if (stream == SBX_STDERR && strcmp(level, "FATAL") == 0) {
        snprintf(c->fatal, sizeof(c->fatal), "%s", msg);
    } else if (!(stream == SBX_STDOUT && strcmp(level, "INFO ") == 0) &&
               !(stream == SBX_STDERR && strcmp(level, "WARN ") == 0)) {
        return false;
    }
    /* Other INFO lines ("Spawned child process ...") and warnings are dropped. */
    return true;
}

/*
 * Is there a control line at s (n bytes held)? Returns its length with the
 * newline, 0 if s does not start one, -1 if more bytes are needed to say.
 */
static long match(dk_control *c, int stream, const char *s, size_t n)
{
    bool maybe = false;
    for (size_t i = 0; prefixes[i]; i++) {
        size_t plen = strlen(prefixes[i]);
        if (n < plen) {
            if (memcmp(s, prefixes[i], n) == 0)
                maybe = true;
            continue;
        }
        if (memcmp(s, prefixes[i], plen) != 0)
            continue;
        const char *nl = memchr(s, '\n', n < DK_CONTROL_LINE_MAX ? n : DK_CONTROL_LINE_MAX);
        if (!nl)
            return n < DK_CONTROL_LINE_MAX ? -1 : 0;
        size_t len = (size_t)(nl - s), text_len = len;
        if (c->tty && text_len && s[text_len - 1] == '\r')
            text_len--;    /* the terminal's ONLCR */
        char line[DK_CONTROL_LINE_MAX + 1];
        memcpy(line, s, text_len);
        line[text_len] = '\0';
        if (memchr(line, '\0', text_len))
            return 0;
        char level[6] = {0};
        memcpy(level, line + 1, 5);    /* "INFO ", "WARN ", "FATAL", "DEBUG" */
        bool ours = i == 0 ? (stream == SBX_STDERR || c->tty) && wrapper_line(c, line + plen)
                           : tini_line(c, stream, level, line + plen);
        return ours ? (long)len + 1 : 0;
    }
    return maybe ? -1 : 0;
}

static int process(dk_control *c, int stream, bool at_end)
{
    sbxu_buf *h = &c->hold[stream - 1];
    size_t i = 0;
    int rc = 0;
    while (i < h->len && rc == 0) {
        size_t j = i;
        while (j < h->len && h->data[j] != '[' && h->data[j] != '\001')
            j++;
        rc = emit(c, stream, h->data + i, j - i);
        i = j;
        if (j == h->len || rc)
            break;
        long m = match(c, stream, h->data + j, h->len - j);
        if (m < 0 && !at_end)
            break;    /* keep the possible control line until it completes */
        if (m <= 0) {
            rc = emit(c, stream, h->data + j, 1);
            i = j + 1;
        } else {
            i = j + (size_t)m;
        }
    }
    if (i) {
        memmove(h->data, h->data + i, h->len - i);
        h->len -= i;
    }
    return rc;
}

int dk_control_feed(dk_control *c, int stream, const void *data, size_t len)
{
    if (stream != SBX_STDOUT && stream != SBX_STDERR)
        return 0;
    if (sbxu_buf_append(&c->hold[stream - 1], data, len))
        return -1;
    return process(c, stream, false);
}

int dk_control_flush(dk_control *c)
{
    int rc = process(c, SBX_STDOUT, true);
    return rc ? rc : process(c, SBX_STDERR, true);
}
