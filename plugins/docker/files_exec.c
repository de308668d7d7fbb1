/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Listing and removing files, with one short exec each: a GET of a
 * directory's archive would carry every byte under it, and the archive
 * endpoints cannot remove anything. The paths are resolved and checked
 * against symlink escapes first, as for the archive transfers.
 */
#include "docker.h"
#include <sbxu/metascript.h>

#include <sandboxio/files.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int enomem(dk_sandbox *sb)
{
    return sb->host->set_error(SBX_E_NOMEM, "docker: out of memory");
}

/*
 * Prints the count, the names NUL-terminated, then "hexmode size mtime" per
 * name, then each symlink's target NUL-terminated, in the names' order
 * (read with a sentinel so a target's trailing newlines are kept); only a
 * count past $2 (the core's bound) when there are more, without reading
 * further (SBXU_LIST_NAMES_SH gathers the names). xargs splits them for
 * stat: 2 MiB of names may pass ARG_MAX.
 */
static const char list_script[] =
    SBXU_LIST_NAMES_SH
    " printf '%s\\0' \"$@\"; printf '%s\\0' \"$@\" | xargs -0 stat -c '%f %s %Y' -- || exit 4;"
    SBXU_LIST_TARGETS_SH;

/*
 * The most a listing within the core's bounds prints: names and link targets
 * (both counted as name bytes by the core), NULs, stat lines, the count.
 */
#define LIST_OUTPUT_MAX (2 * SBX_FILE_LIST_MAX_NAME_BYTES + SBX_FILE_LIST_MAX_ENTRIES * 64 + 64)

static int sbx_type_of(unsigned long mode)
{
    switch (mode & 0170000) {
    case 0100000:
        return 1;
    case 0040000:
        return 2;
    case 0120000:
        return 3;
    default:
        return 4;
    }
}

int dk_file_list(void *sandbox, const char *path,
                 int (*entry)(void *userdata, const sbx_plugin_dirent *ent), void *userdata)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    int rc = dk_resolve(sb, path ? path : "", true, &r);
    if (rc)
        return rc;
    if (r.rest[0] || r.st.type == 3)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (r.st.type != 2)
        rc = sb->host->set_error(SBX_E_NOT_DIRECTORY, "docker: \"%s\" is not a directory", path);
    sbxu_buf out = {0};
    int code = -1;
    if (rc == SBX_OK) {
        char max[24];
        snprintf(max, sizeof max, "%zu", SBX_FILE_LIST_MAX_ENTRIES);
        const char *const argv[] = {"/bin/sh", "-c", list_script, "sbx-ls", r.real, max, NULL};
        rc = dk_exec_simple(sb, argv, &out, LIST_OUTPUT_MAX, &code);
    }
    if (rc == SBX_OK && code != 0)
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "docker: listing \"%s\" failed (status %d)",
                                 path, code);
    /* Parse: count line, names, then one stat line per name. */
    char *p = out.data, *end = out.data ? out.data + out.len : NULL;
    unsigned long count = rc == SBX_OK && p ? strtoul(p, &p, 10) : 0;
    if (rc == SBX_OK && (!p || *p != '\n'))
        rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: unexpected listing output");
    /* Past the core's bounds: refused before anything is allocated for it. */
    if (rc == SBX_OK && (count > SBX_FILE_LIST_MAX_ENTRIES || out.len >= LIST_OUTPUT_MAX))
        rc = sb->host->set_error(SBX_E_LIST_TOO_LARGE, "docker: \"%s\" has too many entries",
                                 path);
    char **names = rc == SBX_OK && count ? calloc(count, sizeof(*names)) : NULL;
    if (rc == SBX_OK && count && !names)
        rc = enomem(sb);
    if (rc == SBX_OK)
        p++;
    for (unsigned long i = 0; rc == SBX_OK && i < count; i++) {
        char *nul = memchr(p, '\0', (size_t)(end - p));
        if (!nul)
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: truncated listing");
        else {
            names[i] = p;
            p = nul + 1;
        }
    }
    sbx_plugin_dirent *ents = rc == SBX_OK && count ? calloc(count, sizeof(*ents)) : NULL;
    if (rc == SBX_OK && count && !ents)
        rc = enomem(sb);
    for (unsigned long i = 0; rc == SBX_OK && i < count; i++) {
        unsigned long mode = 0;
        unsigned long long size = 0;
        long long mtime = 0;
        int used = 0;
        /* Its line alone: sscanf measures the whole of what it is given. */
        char *nl = p < end ? memchr(p, '\n', (size_t)(end - p)) : NULL;
        if (!nl) {
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: truncated listing");
            break;
        }
        *nl = '\0';
        if (sscanf(p, "%lx %llu %lld%n", &mode, &size, &mtime, &used) != 3 || p[used]) {
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: bad stat line in a listing");
            break;
        }
        p = nl + 1;
        ents[i] = (sbx_plugin_dirent){.struct_size = sizeof(ents[i]), .name = names[i],
                                      .type = sbx_type_of(mode), .size = size,
                                      .mode = (uint32_t)(mode & 07777), .mtime = mtime};
    }
    for (unsigned long i = 0; rc == SBX_OK && i < count; i++) {
        if (ents[i].type != 3)
            continue;
        char *nul = p < end ? memchr(p, '\0', (size_t)(end - p)) : NULL;
        if (!nul) {
            rc = sb->host->set_error(SBX_E_BACKEND_PROTOCOL, "docker: a link's target is missing "
                                     "from the listing of \"%s\"", path);
            break;
        }
        ents[i].link_target = p;
        p = nul + 1;
    }
    for (unsigned long i = 0; rc == SBX_OK && i < count; i++) {
        if (entry(userdata, &ents[i]) != 0)
            rc = sb->host->set_error(SBX_E_EXEC_ABORTED, "docker: the lister of \"%s\" stopped",
                                     path);
    }
    free(ents);
    free(names);
    sbxu_buf_clear(&out);
    dk_resolved_clear(&r);
    return rc;
}

/* Exit 3: missing, 4: could not remove, 5: directory not empty. */
static const char remove_script[] =
    "p=$1; if [ ! -e \"$p\" ] && [ ! -L \"$p\" ]; then exit 3; fi;"
    " if [ -d \"$p\" ] && [ ! -L \"$p\" ]; then"
    "  if [ \"$2\" = 1 ]; then rm -rf -- \"$p\" || exit 4; else rmdir -- \"$p\" 2>/dev/null || exit 5; fi;"
    " else rm -f -- \"$p\" || exit 4; fi";

int dk_file_remove(void *sandbox, const char *path, int recursive)
{
    dk_sandbox *sb = sandbox;
    dk_resolved r;
    /* The last component is removed itself, never what a symlink points to. */
    int rc = dk_resolve(sb, path, false, &r);
    if (rc)
        return rc;
    int code = -1;
    if (r.rest[0])
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (strcmp(r.real, sb->opt.workdir) == 0)
        rc = sb->host->set_error(SBX_E_BAD_PATH, "docker: the work dir itself cannot be removed");
    else {
        const char *const argv[] = {"/bin/sh", "-c", remove_script, "sbx-rm", r.real,
                                    recursive ? "1" : "0", NULL};
        rc = dk_exec_simple(sb, argv, NULL, 0, &code);
    }
    if (rc == SBX_OK && code == 3)
        rc = sb->host->set_error(SBX_E_NOT_FOUND, "docker: \"%s\" does not exist", path);
    else if (rc == SBX_OK && code == 5)
        rc = sb->host->set_error(SBX_E_NOT_EMPTY,
                                 "docker: cannot remove \"%s\": directory not empty (remove it "
                                 "recursively)",
                                 path);
    else if (rc == SBX_OK && code != 0)
        rc = sb->host->set_error(SBX_E_BACKEND_FAILED, "docker: removing \"%s\" failed (status %d)",
                                 path, code);
    dk_resolved_clear(&r);
    return rc;
}
