/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sandboxio tool's own error codes (error-codes.def), outside the
 * library's public enum. The library's catalog knows them too, so
 * sbx_error_id() and sbx_error_docs_url() name them like the library's.
 */
#ifndef SBX_CLI_ERROR_CODES_H
#define SBX_CLI_ERROR_CODES_H

enum sbx_cli_code {
#define SBX_ERROR(name, number, summary) name = number,
#include "error-codes.def"
#undef SBX_ERROR
};

#endif
