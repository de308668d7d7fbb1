/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmd_cp.c - `sandboxio cp SRC DST`, as `docker cp`: one side ID:PATH, the
 * other a host path or "-" (a tar stream on stdin or stdout). Files are
 * streamed, directories copied recursively (cp_copy.c, cp_tar.c), modes,
 * mtimes and symlinks kept; a DST that is an existing directory receives
 * SRC under its own name.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sandboxio/sandboxio.h>

#include "commands.h"
#include "cp.h"
#include "common/result_json.h"
#include "sandbox_ref.h"
#include "common/error.h"
#include "common/options.h"
#include "common/parse.h"

char *cp_join(const char *a, const char *b)
{
    char *s = NULL;
    size_t n = strlen(a);

    if (!*a)
        return strdup(b);
    return asprintf(&s, "%s%s%s", a, a[n - 1] == '/' ? "" : "/", b) < 0 ? NULL : s;
}

const char *cp_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int cp_remote_is_dir(sbx_sandbox *sb, const char *path)
{
    sbx_dirlist *list = NULL;
    int rc = sbx_file_list(sb, path, &list);

    sbx_dirlist_free(list);
    /* Too many entries to list: still a directory (copying it out will say why it fails). */
    if (rc == SBX_OK || rc == SBX_E_LIST_TOO_LARGE)
        return 1;
    return rc == SBX_E_NOT_DIRECTORY ? 0 : rc;
}

/* Where SRC lands: inside DST when DST is an existing directory (or ends in '/'). */
static char *target(const char *dst, int dst_is_dir, const char *src)
{
    const char *base = cp_base(src);
    if (!dst_is_dir || !*base || strcmp(base, ".") == 0)
        return strdup(dst);
    return cp_join(dst, base);
}

static int host_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void usage(FILE *out)
{
    fputs("Usage: sandboxio cp [--dsn DSN] [--max-size SIZE] [--json] SRC DST\n"
          "\n"
          "Copy between the host and a sandbox, as `docker cp`: one of SRC and DST\n"
          "is ID:PATH (PATH relative to the sandbox's work dir; ID:  is the work dir),\n"
          "the other a host path, or - for a tar stream on stdin (SRC) or stdout\n"
          "(DST). Directories are copied recursively; a DST that is an existing\n"
          "directory receives SRC under its own name. A host path with a ':' must\n"
          "start with ./ or /.\n"
          "\n"
          "Options:\n"
          "  --dsn DSN        look for ID on DSN only\n"
          "  --max-size SIZE  write at most SIZE bytes out of the sandbox, holes\n"
          "                   included (default 1G, 0 for no bound): past it the\n"
          "                   copy stops with SBX_E5009. Zero blocks are written\n"
          "                   as holes, so a sparse file stays sparse\n"
          "  --json           print one JSON object {\"src\", \"dst\", \"ok\"} and, when\n"
          "                   the copy failed, \"error\" {\"code\", \"id\", \"message\",\n"
          "                   \"docs_url\"} (not with DST -, a tar stream on stdout)\n"
          "\n"
          "Each file keeps its permission bits and mtime, never the setuid, setgid\n"
          "or sticky bit; a symlink is copied as a symlink, never followed, on\n"
          "either side (nor one at the destination written through). A backend\n"
          "that cannot keep these is refused with SBX_E3041.\n",
          out);
}

static const struct option options[] = {
    { "dsn", required_argument, NULL, 256 },
    { "max-size", required_argument, NULL, 257 },
    { "json", no_argument, NULL, 258 },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 }
};

int cmd_cp(int argc, char **argv)
{
    const char *dsn = NULL;
    char *sref = NULL, *spath = NULL, *dref = NULL, *dpath = NULL, *to = NULL;
    sbx_client *client = NULL;
    sbx_sandbox *sb = NULL;
    int opt, rc, status = 0, json = 0;

    sbx_cli_getopt_reset();
    while ((opt = getopt_long(argc, argv, ":h", options, NULL)) != -1) {
        if (opt == 'h') {
            usage(stdout);
            return 0;
        }
        if (opt == 258) {
            json = 1;
            continue;
        }
        if (opt == 257) {
            uint64_t max = 0;
            if (sbx_cli_parse_size(optarg, &max) != SBX_OK)
                return sbx_cli_usage_error("cp", "--max-size: not a size: %s", optarg);
            cp_bound_set(max);
            continue;
        }
        if (opt != 256)
            return sbx_cli_option_error("cp", argv, opt, options);
        dsn = optarg;
    }
    if (argc - optind != 2)
        return sbx_cli_usage_error("cp", "want SRC DST");
    const char *src = argv[optind], *dst = argv[optind + 1];
    if (json && strcmp(dst, "-") == 0)
        return sbx_cli_usage_error("cp", "--json: DST - writes a tar stream to stdout: give one");
    if ((rc = sbx_client_new(&client)) != SBX_OK)
        return sbx_cli_error_lib(rc, "creating the client");
    int sin = sbx_cli_ref_split(client, src, 1, &sref, &spath);
    int din = sbx_cli_ref_split(client, dst, 1, &dref, &dpath);
    if (sin < 0 || din < 0)
        status = sbx_cli_error(SBX_E_NOMEM, "cp: out of memory");
    else if (sin == din)
        status = sbx_cli_usage_error("cp", "one of SRC and DST must be ID:PATH, the other not");
    else
        status = sbx_cli_ref_attach(client, "cp", sin ? sref : dref, dsn, &sb);
    if (status == 0 && din) {
        /* Host to sandbox. */
        if (strcmp(src, "-") == 0) {
            rc = cp_tar_in(sb, STDIN_FILENO, dpath);
        } else {
            int is_dir = !*dpath || dpath[strlen(dpath) - 1] == '/' ||
                         cp_remote_is_dir(sb, dpath) == 1;
            rc = (to = target(dpath, is_dir, src)) ? cp_copy_in(sb, src, to) : SBX_E_NOMEM;
        }
        status = sbx_cli_exit_code(rc);
    } else if (status == 0) {
        /* Sandbox to host. */
        if (strcmp(dst, "-") == 0) {
            fflush(stdout);
            rc = cp_tar_out(sb, spath, STDOUT_FILENO);
        } else {
            rc = (to = target(dst, host_is_dir(dst), spath)) ? cp_copy_out(sb, spath, to)
                                                             : SBX_E_NOMEM;
        }
        status = sbx_cli_exit_code(rc);
    }
    if (sb)
        status = sbx_cli_ref_detach(sb, status);
    if (json)
        status = result_json_print_outcome("cp", status, "src", src, "dst", dst);
    free(to);
    free(sref);
    free(spath);
    free(dref);
    free(dpath);
    sbx_client_free(client);
    return status;
}
