/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_load.c - where profiles come from: the files of the search path.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "profile.h"

#define SYSTEM_PROFILES "/etc/sandboxio/profiles.yaml"
/* A profiles file is a few hundred bytes; far more is a mistake. */
#define MAX_PROFILES_FILE (1024 * 1024)

static int unreadable(struct profile_error *err, const char *file, const char *why)
{
    snprintf(err->message, sizeof(err->message), "%s: cannot read the profiles file: %s", file, why);
    return err->code = SBX_E_PROFILE_UNREADABLE;
}

/* The whole file, or an error; *text is NULL when it does not exist. */
static int read_file(const char *file, char **text, size_t *len, struct profile_error *err)
{
    struct stat st;
    ssize_t got;
    char *buf;
    int fd;

    *text = NULL, *len = 0;
    fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return errno == ENOENT ? SBX_OK : unreadable(err, file, strerror(errno));
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return unreadable(err, file, strerror(e));
    }
    if (!S_ISREG(st.st_mode) || st.st_size > MAX_PROFILES_FILE) {
        close(fd);
        return unreadable(err, file, S_ISREG(st.st_mode) ? "larger than 1 MiB" : "not a regular file");
    }
    if (profile_file_safe(file, fd, err) != SBX_OK) {
        close(fd);
        return err->code;
    }
    buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        close(fd);
        return unreadable(err, file, "out of memory");
    }
    /* Read one byte more than stat said, to notice a file that grew. */
    while (*len <= (size_t)st.st_size) {
        got = read(fd, buf + *len, (size_t)st.st_size + 1 - *len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return unreadable(err, file, strerror(e));
        }
        if (got == 0)
            break;
        *len += (size_t)got;
    }
    close(fd);
    if (*len > (size_t)st.st_size) {
        free(buf);
        return unreadable(err, file, "it changed while being read");
    }
    *text = buf;
    return SBX_OK;
}

int profile_set_load(struct profile_set *set, const char *file, int must_exist,
                     struct profile_error *err)
{
    char *text;
    size_t len;
    int rc;

    memset(err, 0, sizeof(*err));
    if ((rc = read_file(file, &text, &len, err)) != SBX_OK)
        return rc;
    if (!text)
        return must_exist ? unreadable(err, file, strerror(ENOENT)) : SBX_OK;
    rc = profile_set_parse(set, file, text, len, err);
    free(text);
    return rc;
}

int profile_set_load_default(struct profile_set *set, struct profile_error *err)
{
    const char *path = getenv("SANDBOXIO_PROFILE_PATH"), *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    char *user = NULL, *list, *file, *save = NULL;
    int rc;

    if (path) {
        /* The path replaces the defaults: a test or a CI job sees only its own files. */
        if (!(list = strdup(path)))
            return unreadable(err, path, "out of memory");
        rc = SBX_OK;
        for (file = strtok_r(list, ":", &save); file && rc == SBX_OK; file = strtok_r(NULL, ":", &save))
            rc = profile_set_load(set, file, 0, err);
        free(list);
        return rc;
    }
    if ((rc = profile_set_load(set, SYSTEM_PROFILES, 0, err)) != SBX_OK)
        return rc;
    if (xdg && *xdg == '/')
        rc = asprintf(&user, "%s/sandboxio/profiles.yaml", xdg);
    else if (home && *home == '/')
        rc = asprintf(&user, "%s/.config/sandboxio/profiles.yaml", home);
    else
        return SBX_OK;  /* no home: only the system's profiles */
    if (rc < 0)
        return unreadable(err, "$XDG_CONFIG_HOME/sandboxio/profiles.yaml", "out of memory");
    rc = profile_set_load(set, user, 0, err);
    free(user);
    return rc;
}
