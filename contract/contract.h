/* SPDX-License-Identifier: Apache-2.0 */
/*
 * contract.h - the contract suite as the CLI sees it.
 *
 * libsbxcontract runs the table of cases (case.h) against one DSN, each case
 * in a forked process, and reports a line per case plus the closing line
 * "N passed, N failed, N skipped". It needs only the public API and an
 * installed plugin.
 */
#ifndef SBX_CONTRACT_H
#define SBX_CONTRACT_H

#include <stdio.h>

typedef struct sbxc_options {
    const char *dsn;
    const char *only;        /* fnmatch pattern on case id or name; NULL = all */
    const char *junit_path;  /* write a JUnit XML report there; NULL = none */
    int json;                /* stdout gets one JSON document, lines go to stderr */
} sbxc_options;

/* Exit statuses of sbxc_run(). */
#define SBXC_EXIT_OK 0         /* every case passed or was skipped */
#define SBXC_EXIT_FAILED 1     /* a case failed, or the backend could not be used */
#define SBXC_EXIT_USAGE 120    /* bad options or DSN */

/* Run the suite; returns one of SBXC_EXIT_*. Messages go to stderr. */
int sbxc_run_suite(const sbxc_options *opts);

/* Print the table: id, level, needed caps, name. */
void sbxc_list_cases(FILE *out);

#endif
