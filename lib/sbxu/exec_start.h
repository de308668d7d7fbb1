/* SPDX-License-Identifier: Apache-2.0 */
/*
 * exec_start.h - why a program could not be started, as the code a caller
 * can tell apart (libsbxu).
 *
 * The backends that start programs themselves (local, fake) map execve()'s
 * errno here, so that every backend says "not found" and "not executable"
 * alike, and the CLI turns the two into a shell's 127 and 126.
 */
#ifndef SBXU_EXEC_START_H
#define SBXU_EXEC_START_H

/*
 * An exec errno to SBX_E_EXEC_NOT_FOUND (ENOENT, ENOTDIR: the CLI's 127),
 * SBX_E_EXEC_DENIED (EACCES, EPERM, ENOEXEC, EISDIR: found but cannot be
 * run, the CLI's 126), else SBX_E_EXEC_START.
 */
int sbxu_exec_start_code(int err);

#endif
