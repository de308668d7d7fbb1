/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake's per-user state directory, where sandboxes that outlive their
 * handle are kept so another process of the user can find them: a 0700
 * directory we own (anything else is refused, never repaired), one root
 * per sandbox, its meta file, and its name link.
 *
 * A meta file is a few "key=value" lines, written whole to a temporary file
 * and renamed over the old one, so a reader sees the old or the new one.
 */
#include "fake.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sbxu/file.h>

#define META_MAX 8192

bool fake_id_ok(const char *id)
{
    size_t n = strspn(id, "0123456789abcdef");

    return n == FAKE_ID_LEN && id[n] == '\0';
}

int fake_statedir(const sbx_host *host, bool create, char **out)
{
    struct stat st;
    char *dir;

    *out = NULL;
    if (asprintf(&dir, "%s/%s%lu", fake_tmpdir(), FAKE_STATE_PREFIX,
                 (unsigned long)geteuid()) < 0)
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    if (create && mkdir(dir, 0700) != 0 && errno != EEXIST) {
        int rc = host->set_error(SBX_E_SYSTEM, "fake: cannot create %s: %s", dir,
                                 strerror(errno));
        free(dir);
        return rc;
    }
    if (lstat(dir, &st) != 0) {
        int err = errno;
        int rc = err == ENOENT ? host->set_error(SBX_E_NOT_FOUND, "fake: no sandboxes kept yet")
                               : host->set_error(SBX_E_SYSTEM, "fake: cannot stat %s: %s", dir,
                                                 strerror(err));
        free(dir);
        return rc;
    }
    /* Another user's, a symlink, or open to others: someone could plant sandboxes. */
    if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
        int rc = host->set_error(SBX_E_BACKEND_PERMISSION,
                                 "fake: %s is not a directory of ours with mode 0700; "
                                 "refusing to use it", dir);
        free(dir);
        return rc;
    }
    *out = dir;
    return SBX_OK;
}

void fake_meta_clear(fake_meta *m)
{
    free(m->policy);
    memset(m, 0, sizeof(*m));
}

static int meta_line(fake_meta *m, const char *key, const char *val)
{
    char *end;

    errno = 0;
    if (strcmp(key, "name") == 0) {
        if (strlen(val) >= sizeof(m->name))
            return -1;
        strcpy(m->name, val);
        return 0;
    } else if (strcmp(key, "created") == 0) {
        m->created_ms = strtoll(val, &end, 10);
    } else if (strcmp(key, "expires") == 0) {
        m->expires_ms = strtoll(val, &end, 10);
    } else if (strcmp(key, "owner") == 0) {
        m->owner_pid = strtol(val, &end, 10);
        if (*end != '-')
            return -1;
        m->owner_ns = strtoul(end + 1, &end, 10);
    } else if (strcmp(key, "state") == 0) {
        m->paused = strcmp(val, "paused") == 0;
        return strcmp(val, "paused") == 0 || strcmp(val, "running") == 0 ? 0 : -1;
    } else if (strcmp(key, "policy") == 0) {
        free(m->policy);
        return (m->policy = strdup(val)) != NULL ? 0 : -1;
    } else {
        return -1;
    }
    return errno != 0 || *end != '\0' ? -1 : 0;
}

int fake_meta_read(const sbx_host *host, const char *statedir, const char *id, fake_meta *m)
{
    char path[4096], buf[META_MAX + 1];
    ssize_t n;
    int fd;

    memset(m, 0, sizeof(*m));
    snprintf(path, sizeof(path), "%s/%s.meta", statedir, id);
    fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT
                   ? host->set_error(SBX_E_NOT_FOUND, "fake: no sandbox %s (destroyed, or its "
                                                      "TTL ended)", id)
                   : host->set_error(SBX_E_SYSTEM, "fake: cannot open %s: %s", path,
                                     strerror(errno));
    n = read(fd, buf, sizeof(buf));
    close(fd);
    if (n < 0 || n > META_MAX)
        return host->set_error(SBX_E_BACKEND_PROTOCOL, "fake: %s is unreadable or too large",
                               path);
    buf[n] = '\0';
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line != NULL;
         line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (eq == NULL || (*eq = '\0', meta_line(m, line, eq + 1) != 0)) {
            fake_meta_clear(m);
            return host->set_error(SBX_E_BACKEND_PROTOCOL, "fake: %s has a bad line", path);
        }
    }
    return SBX_OK;
}

int fake_meta_write(const sbx_host *host, const char *statedir, const char *id,
                    const fake_meta *m)
{
    char path[4096], tmp[4160];
    char *text = NULL;
    int len, err;

    snprintf(path, sizeof(path), "%s/%s.meta", statedir, id);
    snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
    len = asprintf(&text, "name=%s\ncreated=%" PRId64 "\nexpires=%" PRId64
                   "\nowner=%ld-%lu\nstate=%s\n%s%s%s",
                   m->name, m->created_ms, m->expires_ms, m->owner_pid, m->owner_ns,
                   m->paused ? "paused" : "running",
                   m->policy != NULL ? "policy=" : "", m->policy != NULL ? m->policy : "",
                   m->policy != NULL ? "\n" : "");
    if (len < 0)
        return host->set_error(SBX_E_NOMEM, "fake: out of memory");
    err = sbxu_file_replace(AT_FDCWD, tmp, path, text, (size_t)len, 0600);
    free(text);
    if (err)
        return host->set_error(SBX_E_SYSTEM, "fake: cannot write %s: %s", path, strerror(err));
    return SBX_OK;
}

int fake_named_remove(const sbx_host *host, const char *statedir, const char *id,
                      const char *name)
{
    char path[4096];
    int fd, err, rc = SBX_OK;

    fd = open(statedir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return SBX_OK;  /* removed with everything in it already (TTL, another handle) */
    if (fd < 0)
        return host->set_error(SBX_E_SYSTEM, "fake: cannot open %s: %s", statedir,
                               strerror(errno));
    err = fake_remove_tree(fd, id);
    if (err != 0 && err != ENOENT)
        rc = host->set_error(SBX_E_SYSTEM, "fake: cannot remove %s/%s: %s", statedir, id,
                             strerror(err));
    if (rc == SBX_OK && name != NULL && name[0] != '\0') {
        /* Only our own link: the name may be another sandbox's by now. */
        char target[FAKE_ID_LEN + 2];
        snprintf(path, sizeof(path), "n.%s", name);
        ssize_t n = readlinkat(fd, path, target, sizeof(target) - 1);
        if (n == FAKE_ID_LEN && (target[n] = '\0', strcmp(target, id) == 0))
            unlinkat(fd, path, 0);
    }
    if (rc == SBX_OK) {
        snprintf(path, sizeof(path), "%s.meta", id);
        if (unlinkat(fd, path, 0) != 0 && errno != ENOENT)
            rc = host->set_error(SBX_E_SYSTEM, "fake: cannot remove %s/%s: %s", statedir, path,
                                 strerror(errno));
    }
    close(fd);
    /* The last one out removes the directory; ENOTEMPTY while others live. */
    if (rc == SBX_OK)
        rmdir(statedir);
    if (rc == SBX_OK && host->log != NULL)
        host->log(SBX_LOG_DEBUG, FAKE_NAME, "removed sandbox %s/%s", statedir, id);
    return rc;
}
