/* SPDX-License-Identifier: Apache-2.0 */
/*
 * profile_direct.c - profile_set_parse() calling the reader linked into
 * the test program (test_profile tests the reader, not the finding of its
 * module, which the CLI tests cover).
 */
#include "config.h"

#include "../../src/cli/profile.h"

int profile_set_parse(struct profile_set *set, const char *file, const char *text, size_t len,
                      struct profile_error *err)
{
    return profile_set_parse_yaml(set, file, text, len, err);
}
