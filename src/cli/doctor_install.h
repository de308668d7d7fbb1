/* SPDX-License-Identifier: Apache-2.0 */
/*
 * doctor_install.h - which libsandboxio `sandboxio doctor` runs with, and
 * whether more than one install of it is on the machine (a /usr package
 * and a /usr/local `make install`), where a plugin of one install may be
 * loaded by the library of the other.
 */
#ifndef SBX_CLI_DOCTOR_INSTALL_H
#define SBX_CLI_DOCTOR_INSTALL_H

#include <limits.h>
#include <stddef.h>

/* The file the running libsandboxio was loaded from, into buf; NULL if unknown. */
const char *sbx_cli_library_file(char *buf, size_t size);

struct sbx_cli_install {
    const char *prefix;     /* "/usr" or "/usr/local" */
    char file[PATH_MAX];    /* the libsandboxio.so.0 found there, under root */
};

/*
 * The installs of libsandboxio under root ("" for the machine's own): the
 * first libsandboxio.so.0 in each prefix's lib/, lib64/ or lib/TRIPLET/.
 * Fills at most max entries and returns how many prefixes have one.
 */
size_t sbx_cli_installs_find(const char *root, struct sbx_cli_install *found, size_t max);

#endif
