/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sandboxio/files.h - files inside a sandbox.
 *
 * Paths are relative to the sandbox's work directory ("src/main.py"). An
 * absolute path, or one with a ".." component, is refused by the core with
 * SBX_E_PATH_ESCAPE; a path that would leave the work directory through a
 * symlink planted inside is refused by the backend with the same code. All
 * need SBX_CAP_FILES. Thread-safety: as sandbox.h says.
 */
#ifndef SANDBOXIO_FILES_H
#define SANDBOXIO_FILES_H

#include <sandboxio/common.h>
#include <sandboxio/sandbox.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * sbx_file_write - create or replace path with len bytes of data and mode
 * (e.g. 0644); missing parent directories are created.
 */
SBX_API int sbx_file_write(sbx_sandbox *sandbox, const char *path, const void *data,
                           size_t len, uint32_t mode);

/**
 * Source callback for sbx_file_write_from(): fill up to len bytes of buf,
 * return the count, 0 at the end, or -1 to abort (SBX_E_EXEC_ABORTED).
 */
typedef long (*sbx_read_cb)(void *userdata, void *buf, size_t len);

/** sbx_file_write_from - write exactly size bytes pulled from cb (streamed). */
SBX_API int sbx_file_write_from(sbx_sandbox *sandbox, const char *path, uint64_t size,
                                uint32_t mode, sbx_read_cb cb, void *userdata);

/**
 * The most sbx_file_read() collects in memory: a larger file (a sparse one
 * costs the sandbox no space) is refused with SBX_E_FILE_TOO_LARGE rather
 * than exhaust the client's memory. sbx_file_read_to() has no such limit.
 */
#define SBX_FILE_READ_MAX ((size_t)256 << 20)

/**
 * sbx_file_read - read the whole file into *data (free with sbx_free()); a
 * NUL byte is added after the *len bytes for convenience. At most
 * SBX_FILE_READ_MAX bytes: stream larger files with sbx_file_read_to().
 * Errors: SBX_E_NOT_FOUND, SBX_E_IS_DIRECTORY, SBX_E_PATH_ESCAPE,
 * SBX_E_NOT_REGULAR, SBX_E_FILE_TOO_LARGE, ...
 */
SBX_API int sbx_file_read(sbx_sandbox *sandbox, const char *path, void **data, size_t *len);

/** Sink callback for sbx_file_read_to(): return 0 to go on, non-zero to stop. */
typedef int (*sbx_write_cb)(void *userdata, const void *data, size_t len);

/** sbx_file_read_to - stream the file to cb in chunks. */
SBX_API int sbx_file_read_to(sbx_sandbox *sandbox, const char *path, sbx_write_cb cb,
                             void *userdata);

/** sbx_file_mkdir - create a directory and its missing parents (mode 0755). */
SBX_API int sbx_file_mkdir(sbx_sandbox *sandbox, const char *path);

/**
 * sbx_file_remove - remove a file, or a directory; a non-empty directory only
 * when recursive is non-zero. SBX_E_NOT_FOUND if path does not exist.
 */
SBX_API int sbx_file_remove(sbx_sandbox *sandbox, const char *path, int recursive);

typedef enum sbx_file_type {
    SBX_FILE_REGULAR = 1,
    SBX_FILE_DIRECTORY = 2,
    SBX_FILE_SYMLINK = 3,
    SBX_FILE_OTHER = 4
} sbx_file_type;

typedef struct sbx_dirent {
    const char *name;   /* entry name, no '/' */
    int type;           /* sbx_file_type */
    uint64_t size;
    uint32_t mode;      /* permission bits */
    /* Where the backend declares SBX_CAP_FILE_META (else 0, 0, NULL): */
    int64_t mtime;      /* last modification of the entry itself, Unix seconds */
    uint32_t mtime_nsec;
    const char *link_target; /* a symlink's target, verbatim; NULL for other types */
} sbx_dirent;

typedef struct sbx_dirlist sbx_dirlist;

/*
 * Metadata (SBX_CAP_FILE_META, else SBX_E_CAP_FILE_META): none of these
 * follows the last component of path when it is a symlink.
 */

/**
 * sbx_file_chmod - set path's permission bits (07777) to mode exactly,
 * whatever the backend's umask. A symlink has no mode of its own:
 * SBX_E_NOT_REGULAR.
 */
SBX_API int sbx_file_chmod(sbx_sandbox *sandbox, const char *path, uint32_t mode);

/**
 * sbx_file_set_mtime - set path's modification time to sec.nsec (Unix
 * time); a symlink's own time, never its target's.
 */
SBX_API int sbx_file_set_mtime(sbx_sandbox *sandbox, const char *path, int64_t sec,
                               uint32_t nsec);

/**
 * sbx_file_symlink - make path a symbolic link to target. target is kept
 * verbatim, never resolved nor checked (it may point out of the sandbox: a
 * later file call through it is refused with SBX_E_PATH_ESCAPE). A file or
 * link at path is replaced, never written through; a directory there is
 * SBX_E_IS_DIRECTORY. Missing parents are created.
 */
SBX_API int sbx_file_symlink(sbx_sandbox *sandbox, const char *path, const char *target);

/**
 * The most entries, and the most bytes of names (their lengths summed),
 * sbx_file_list() returns: a command can fill a directory with far more
 * (500,000 long names cost a client 1 GB), so a larger listing is refused
 * with SBX_E_LIST_TOO_LARGE rather than exhaust the client's memory. The
 * backends stop reading at these bounds too. List such a directory with a
 * command (find, ls) whose output is capped.
 */
#define SBX_FILE_LIST_MAX_ENTRIES ((size_t)32768)
#define SBX_FILE_LIST_MAX_NAME_BYTES ((size_t)2 << 20)

/**
 * sbx_file_list - entries of directory path ("" for the work dir), sorted by
 * name. At most SBX_FILE_LIST_MAX_ENTRIES entries whose names sum to at most
 * SBX_FILE_LIST_MAX_NAME_BYTES bytes, else SBX_E_LIST_TOO_LARGE and no list.
 */
SBX_API int sbx_file_list(sbx_sandbox *sandbox, const char *path, sbx_dirlist **out);
SBX_API size_t sbx_dirlist_count(const sbx_dirlist *list);
SBX_API const sbx_dirent *sbx_dirlist_get(const sbx_dirlist *list, size_t i);
SBX_API void sbx_dirlist_free(sbx_dirlist *list);

#ifdef __cplusplus
}
#endif
#endif
