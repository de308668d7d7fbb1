/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases_files_meta.c - SBX-FILE-012..014: what `sandboxio cp` keeps, as
 * `docker cp` does. A file read back keeps the mode and mtime it was given
 * (a 0600 key, a 0755 script that still runs); a symlink is made and listed
 * as a link with its target verbatim, never followed, also one leading out
 * of the sandbox; and a write or a link where a link is replaces that link,
 * never writes through it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases.h"

#define SCRIPT "#!/bin/sh\necho ran-$((6*7))\n"

/* The entry name of directory dir as listed; FAILs when it is missing. */
static sbx_dirent listed(sbxc_ctx *ctx, sbx_sandbox *sb, const char *dir, const char *name,
                         char *target, size_t size)
{
    sbx_dirlist *list = NULL;
    sbx_dirent found = {0};
    bool seen = false;
    SBXC_OK(ctx, "sbx_file_list", sbx_file_list(sb, dir, &list));
    for (size_t i = 0; i < sbx_dirlist_count(list); i++) {
        const sbx_dirent *e = sbx_dirlist_get(list, i);
        if (strcmp(e->name, name) != 0)
            continue;
        found = *e;
        seen = true;
        snprintf(target, size, "%s", e->link_target ? e->link_target : "");
    }
    sbx_dirlist_free(list);
    SBXC_CHECK(ctx, seen, "%s/%s is not listed", dir, name);
    found.name = NULL;
    found.link_target = NULL;
    return found;
}

void sbxc_case_file_meta_kept(sbxc_ctx *ctx)
{
    static const struct {
        const char *path;
        uint32_t mode;
        int64_t mtime;
    } files[] = {
        {"meta/key", 0600, 1600000000},
        {"meta/run.sh", 0755, 1500000000},
        {"meta/shared", 0664, 1400000000},
    };
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char target[16];
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, files[i].path, SCRIPT, strlen(SCRIPT),
                                                      0644));
        SBXC_OK(ctx, "sbx_file_chmod", sbx_file_chmod(sb, files[i].path, files[i].mode));
        SBXC_OK(ctx, "sbx_file_set_mtime", sbx_file_set_mtime(sb, files[i].path,
                                                              files[i].mtime, 0));
    }
    SBXC_OK(ctx, "sbx_file_chmod(dir)", sbx_file_chmod(sb, "meta", 0750));
    SBXC_OK(ctx, "sbx_file_set_mtime(dir)", sbx_file_set_mtime(sb, "meta", 1300000000, 0));
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        sbx_dirent e = listed(ctx, sb, "meta", files[i].path + 5, target, sizeof target);
        SBXC_CHECK(ctx, e.type == SBX_FILE_REGULAR && (e.mode & 07777) == files[i].mode &&
                            e.mtime == files[i].mtime,
                   "%s was given mode %04o and mtime %lld, and is listed type %d mode %04o "
                   "mtime %lld", files[i].path, files[i].mode, (long long)files[i].mtime, e.type,
                   e.mode & 07777, (long long)e.mtime);
    }
    sbx_dirent d = listed(ctx, sb, "", "meta", target, sizeof target);
    SBXC_CHECK(ctx, d.type == SBX_FILE_DIRECTORY && (d.mode & 07777) == 0750 &&
                        d.mtime == 1300000000,
               "the directory meta was given 0750 and mtime 1300000000, and is listed %04o %lld",
               d.mode & 07777, (long long)d.mtime);
    /* The bytes are untouched by either call. */
    void *data = NULL;
    size_t len = 0;
    SBXC_OK(ctx, "sbx_file_read", sbx_file_read(sb, "meta/key", &data, &len));
    bool same = len == strlen(SCRIPT) && memcmp(data, SCRIPT, len) == 0;
    sbx_free(data);
    SBXC_CHECK(ctx, same, "meta/key's bytes changed with its mode or mtime");
    if (sbxc_has(ctx, SBX_CAP_EXEC)) {
        char *out = sbxc_sh_ok(ctx, sb, "./meta/run.sh && stat -c '%a %Y' meta/key");
        SBXC_CHECK(ctx, strcmp(out, "ran-42\n600 1600000000\n") == 0,
                   "inside, the 0755 script and the 0600 key show '%s', not 'ran-42' and "
                   "'600 1600000000'", out);
        free(out);
    }
    sbxc_expect_code(ctx, "sbx_file_chmod(0170000)", sbx_file_chmod(sb, "meta/key", 0170000),
                     SBX_E_INVALID_ARGUMENT);
    sbxc_close(ctx, sb);
}

void sbxc_case_file_symlink_kept(sbxc_ctx *ctx)
{
    static const struct {
        const char *path, *target;
    } links[] = {
        {"links/inner", "data"},
        {"links/abs", "/etc/passwd"},
        {"links/climb", "../../../../etc"},
        {"links/dangling", "nowhere/at/all"},
    };
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char target[64];
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "links/data", "data\n", 5, 0640));
    SBXC_OK(ctx, "sbx_file_set_mtime", sbx_file_set_mtime(sb, "links/data", 1400000000, 0));
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        SBXC_OK(ctx, "sbx_file_symlink", sbx_file_symlink(sb, links[i].path, links[i].target));
        SBXC_OK(ctx, "sbx_file_set_mtime(link)", sbx_file_set_mtime(sb, links[i].path,
                                                                    1300000000, 0));
    }
    for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
        sbx_dirent e = listed(ctx, sb, "links", links[i].path + 6, target, sizeof target);
        SBXC_CHECK(ctx, e.type == SBX_FILE_SYMLINK && strcmp(target, links[i].target) == 0,
                   "%s was made a link to '%s' and is listed type %d, target '%s'",
                   links[i].path, links[i].target, e.type, target);
        SBXC_CHECK(ctx, e.mtime == 1300000000, "the link %s's own mtime is %lld, not 1300000000",
                   links[i].path, (long long)e.mtime);
    }
    /* The link's time was its own: the file it points to kept its time and mode. */
    sbx_dirent data = listed(ctx, sb, "links", "data", target, sizeof target);
    SBXC_CHECK(ctx, data.mtime == 1400000000 && (data.mode & 07777) == 0640,
               "setting a link's time changed its target's: data is %04o %lld",
               data.mode & 07777, (long long)data.mtime);
    /* A link has no mode of its own: never chmod what it points to. */
    sbxc_expect_code(ctx, "sbx_file_chmod(link)", sbx_file_chmod(sb, "links/inner", 0777),
                     SBX_E_NOT_REGULAR);
    data = listed(ctx, sb, "links", "data", target, sizeof target);
    SBXC_CHECK(ctx, (data.mode & 07777) == 0640, "chmod of a link changed its target to %04o",
               data.mode & 07777);
    /* Kept as links, still never followed out. */
    void *bytes = NULL;
    size_t len = 0;
    sbxc_expect_code(ctx, "sbx_file_read(links/abs)", sbx_file_read(sb, "links/abs", &bytes, &len),
                     SBX_E_PATH_ESCAPE);
    sbx_free(bytes);
    sbxc_expect_code(ctx, "sbx_file_chmod(links/climb)",
                     sbx_file_chmod(sb, "links/climb", 0700), SBX_E_NOT_REGULAR);
    sbxc_close(ctx, sb);
}

void sbxc_case_file_link_replaced(sbxc_ctx *ctx)
{
    sbx_sandbox *sb = sbxc_open_default(ctx, 0);
    char target[64];
    void *bytes = NULL;
    size_t len = 0;
    SBXC_OK(ctx, "sbx_file_write", sbx_file_write(sb, "rep/data", "data\n", 5, 0644));
    SBXC_OK(ctx, "sbx_file_symlink", sbx_file_symlink(sb, "rep/a", "data"));
    SBXC_OK(ctx, "sbx_file_symlink", sbx_file_symlink(sb, "rep/b", "data"));
    /* A write where a link (leading inside) is replaces the link. */
    SBXC_OK(ctx, "sbx_file_write(over a link)", sbx_file_write(sb, "rep/a", "new\n", 4, 0600));
    sbx_dirent a = listed(ctx, sb, "rep", "a", target, sizeof target);
    SBXC_CHECK(ctx, a.type == SBX_FILE_REGULAR && (a.mode & 07777) == 0600,
               "a write over the link rep/a left type %d mode %04o, not a 0600 file", a.type,
               a.mode & 07777);
    /* A link where a link is replaces it too. */
    SBXC_OK(ctx, "sbx_file_symlink(over a link)", sbx_file_symlink(sb, "rep/b", "elsewhere"));
    sbx_dirent b = listed(ctx, sb, "rep", "b", target, sizeof target);
    SBXC_CHECK(ctx, b.type == SBX_FILE_SYMLINK && strcmp(target, "elsewhere") == 0,
               "rep/b is type %d to '%s', not a link to 'elsewhere'", b.type, target);
    /* ... and over a file, which it replaces, never writing into. */
    SBXC_OK(ctx, "sbx_file_symlink(over a file)", sbx_file_symlink(sb, "rep/a", "data"));
    SBXC_OK(ctx, "sbx_file_read", sbx_file_read(sb, "rep/data", &bytes, &len));
    bool same = len == 5 && memcmp(bytes, "data\n", 5) == 0;
    sbx_free(bytes);
    SBXC_CHECK(ctx, same, "rep/data changed: something was written through a link");
    /* Nor over a directory. */
    SBXC_OK(ctx, "sbx_file_mkdir", sbx_file_mkdir(sb, "rep/dir"));
    sbxc_expect_code(ctx, "sbx_file_symlink(over a directory)",
                     sbx_file_symlink(sb, "rep/dir", "data"), SBX_E_IS_DIRECTORY);
    sbxc_close(ctx, sb);
}
