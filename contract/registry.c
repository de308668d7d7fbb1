/* SPDX-License-Identifier: Apache-2.0 */
/*
 * registry.c - the table of contract cases.
 *
 * An id is stable: a case that changes meaning gets a new id, and a retired
 * id is never reused (reports and bug trackers cite them). docs/contract.md
 * describes every row.
 */
#include "config.h"

#include "cases.h"

#define EXEC SBX_CAP_EXEC
#define FILES SBX_CAP_FILES
#define META SBX_CAP_FILE_META
#define ISOLATED SBXC_NEEDS_ISOLATION

const sbxc_case sbxc_cases[] = {
    /* lifecycle */
    { "SBX-LIFE-001", "create and destroy a sandbox", SBXC_MUST, 0, 0, 60,
      sbxc_case_create_destroy },
    { "SBX-LIFE-002", "destroy twice is harmless", SBXC_MUST, 0, 0, 60, sbxc_case_destroy_twice },
    { "SBX-LIFE-003", "use after destroy fails with SBX_E1017", SBXC_MUST, 0, 0, 60,
      sbxc_case_use_after_destroy },
    { "SBX-LIFE-004", "16 sandboxes open at once, each its own", SBXC_MUST, 0, 0, 180,
      sbxc_case_many_sandboxes },
    /* exec */
    { "SBX-EXEC-001", "exit codes 0..255", SBXC_MUST, EXEC, 0, 240, sbxc_case_exit_codes },
    { "SBX-EXEC-002", "death by signal reported as such", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_signal_death },
    { "SBX-EXEC-003", "argv passed verbatim (spaces, quotes, UTF-8, empty)", SBXC_MUST, EXEC, 0,
      60, sbxc_case_argv_verbatim },
    { "SBX-EXEC-004", "no shell unless asked", SBXC_MUST, EXEC, 0, 60, sbxc_case_no_shell },
    { "SBX-EXEC-005", "environment inherits nothing from the caller", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_env_inherits_nothing },
    { "SBX-EXEC-006", "environment set by policy and command", SBXC_MUST, EXEC | SBX_CAP_ENV, 0,
      60, sbxc_case_env_set },
    { "SBX-EXEC-007", "working directory", SBXC_MUST, EXEC | SBX_CAP_CWD, 0, 60, sbxc_case_cwd },
    { "SBX-EXEC-008", "64 MiB on stdout and stderr at once, captured", SBXC_MUST, EXEC, 0, 180,
      sbxc_case_big_output },
    { "SBX-EXEC-009", "64 MiB on stdout and stderr at once, streamed", SBXC_MUST,
      EXEC | SBX_CAP_STREAM, 0, 180, sbxc_case_big_output_stream },
    { "SBX-EXEC-010", "binary output with NUL bytes", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_binary_output },
    { "SBX-EXEC-011", "output cap truncates and says so", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_output_cap },
    { "SBX-EXEC-012", "stdin is empty unless given", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_stdin_default_empty },
    { "SBX-EXEC-013", "stdin in, then EOF", SBXC_MUST, EXEC | SBX_CAP_STDIN, 0, 120,
      sbxc_case_stdin },
    { "SBX-EXEC-014", "16 execs on one sandbox at once", SBXC_MUST, EXEC, 0, 120,
      sbxc_case_parallel_execs },
    { "SBX-EXEC-015", "a missing program fails with SBX_E5011", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_missing_program },
    { "SBX-EXEC-016", "no signal ignored or blocked at the start", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_clean_signal_state },
    { "SBX-EXEC-017", "a stream callback that stops kills the command", SBXC_MUST,
      EXEC | SBX_CAP_STREAM, 0, 60, sbxc_case_stream_abort },
    { "SBX-EXEC-018", "an absolute working directory; a missing one is made", SBXC_MUST,
      EXEC | SBX_CAP_CWD | SBX_CAP_CWD_ABS, 0, 60, sbxc_case_cwd_absolute_made },
    { "SBX-EXEC-019", "HOME is the work directory unless the command sets it", SBXC_MUST,
      EXEC | SBX_CAP_ENV, 0, 60, sbxc_case_home_is_work_dir },
    /* terminals */
    { "SBX-PTY-001", "a command on a terminal of the size asked, stderr on it too", SBXC_MUST,
      EXEC | SBX_CAP_PTY, 0, 60, sbxc_case_pty_size_and_terminal },
    { "SBX-PTY-002", "a resize reaches the terminal (SIGWINCH, new size)", SBXC_MUST,
      EXEC | SBX_CAP_STREAM | SBX_CAP_PTY, 0, 60, sbxc_case_pty_resize },
    /* timeouts */
    { "SBX-TIME-001", "timeout kills the command and says so", SBXC_MUST,
      EXEC | SBX_CAP_TIMEOUT, 0, 60, sbxc_case_timeout_kills },
    { "SBX-TIME-002", "timeout kills the whole process tree", SBXC_MUST,
      EXEC | SBX_CAP_TIMEOUT, 0, 60, sbxc_case_timeout_kills_tree },
    { "SBX-TIME-003", "policy timeout applies to every exec", SBXC_MUST,
      EXEC | SBX_CAP_TIMEOUT, 0, 90, sbxc_case_policy_timeout },
    /* files */
    { "SBX-FILE-001", "write/read round trip: empty, binary, 17 MiB", SBXC_MUST, FILES, 0, 120,
      sbxc_case_file_round_trip },
    { "SBX-FILE-002", "nested directories and listing", SBXC_MUST, FILES, 0, 60,
      sbxc_case_file_dirs_and_list },
    { "SBX-FILE-003", "remove files and directories", SBXC_MUST, FILES, 0, 60,
      sbxc_case_file_remove },
    { "SBX-FILE-004", "a missing path fails with SBX_E4004", SBXC_MUST, FILES, 0, 60,
      sbxc_case_file_missing },
    { "SBX-FILE-005", "paths with .. or absolute are refused", SBXC_MUST, FILES, 0, 60,
      sbxc_case_escape_paths },
    { "SBX-FILE-006", "symlinks planted inside cannot lead out", SBXC_MUST, FILES | EXEC, 0, 60,
      sbxc_case_escape_symlinks },
    { "SBX-FILE-007", "a file where a directory is needed, and back: exact codes", SBXC_MUST,
      FILES, 0, 60, sbxc_case_file_wrong_type },
    { "SBX-FILE-008", "a FIFO is refused at once by write and read with SBX_E4014", SBXC_MUST,
      FILES | EXEC, 0, 60, sbxc_case_file_not_regular },
    { "SBX-FILE-009", "a file past the in-memory read cap is refused with SBX_E5006, streamed whole",
      SBXC_MUST, FILES | EXEC, 0, 180, sbxc_case_file_read_cap },
    { "SBX-FILE-010", "the mode given to write is the file's, also on replace; a 0755 script runs",
      SBXC_MUST, FILES, 0, 60, sbxc_case_file_mode },
    { "SBX-FILE-011", "a directory past the listing bounds is refused with SBX_E5007, at them listed",
      SBXC_MUST, FILES | EXEC, 0, 180, sbxc_case_file_list_cap },
    { "SBX-FILE-012", "a file keeps the mode and mtime set on it (0600 key, 0755 script runs)",
      SBXC_MUST, FILES | META, 0, 60, sbxc_case_file_meta_kept },
    { "SBX-FILE-013", "a symlink is listed as one with its target, never followed, one leading out too",
      SBXC_MUST, FILES | META, 0, 60, sbxc_case_file_symlink_kept },
    { "SBX-FILE-014", "a write or a link over a link replaces it, never writes through it",
      SBXC_MUST, FILES | META, 0, 60, sbxc_case_file_link_replaced },
    /* persistence */
    { "SBX-PERS-001", "a file written by one exec is read by the next", SBXC_MUST,
      EXEC | SBX_CAP_PERSIST, 0, 60, sbxc_case_persist_between_execs },
    { "SBX-PERS-002", "the files API and execs see the same files", SBXC_MUST,
      EXEC | FILES | SBX_CAP_PERSIST, 0, 60, sbxc_case_persist_files_and_exec },
    /* isolation */
    { "SBX-ISO-001", "network none: no connection to the host", SBXC_MUST,
      EXEC | SBX_CAP_NET_NONE, ISOLATED, 120, sbxc_case_network_none },
    { "SBX-ISO-002", "memory limit stops a hog", SBXC_MUST, EXEC | SBX_CAP_LIMIT_MEMORY,
      ISOLATED, 120, sbxc_case_memory_limit },
    { "SBX-ISO-003", "pids limit stops a fork storm", SBXC_MUST, EXEC | SBX_CAP_LIMIT_PIDS,
      ISOLATED, 120, sbxc_case_pids_limit },
    { "SBX-ISO-004", "host processes are not visible", SBXC_MUST, EXEC, ISOLATED, 60,
      sbxc_case_host_processes_hidden },
    { "SBX-ISO-005", "host files outside the binds are not visible", SBXC_MUST, EXEC, ISOLATED,
      60, sbxc_case_host_files_hidden },
    { "SBX-ISO-006", "disk limit caps the work dir", SBXC_MUST, EXEC | SBX_CAP_LIMIT_DISK,
      ISOLATED, 120, sbxc_case_disk_limit },
    /* one-shot runs (sbx_run) */
    { "SBX-RUN-001", "one-shot run: exit status, output, signal, missing program", SBXC_MUST,
      EXEC, 0, 120, sbxc_case_oneshot_basics },
    { "SBX-RUN-002", "one-shot run streamed, with stdin and environment", SBXC_MUST,
      EXEC | SBX_CAP_STREAM | SBX_CAP_STDIN | SBX_CAP_ENV, 0, 60,
      sbxc_case_oneshot_stream_stdin_env },
    { "SBX-RUN-003", "one-shot run: timeout kills the tree, nothing left", SBXC_MUST,
      EXEC | SBX_CAP_TIMEOUT, 0, 60, sbxc_case_oneshot_timeout_nothing_left },
    /* cancel */
    { "SBX-CANCEL-001", "a cancel triggered before the exec runs nothing", SBXC_MUST, EXEC, 0,
      60, sbxc_case_cancel_before_start },
    { "SBX-CANCEL-002", "a silent command is cancelled from another thread at once", SBXC_MUST,
      EXEC, 0, 60, sbxc_case_cancel_silent_exec },
    { "SBX-CANCEL-003", "one-shot run: a cancel stops a silent command, nothing left",
      SBXC_MUST, EXEC, 0, 60, sbxc_case_cancel_silent_run },
    /* sandboxes that outlive their handle */
    { "SBX-ATTACH-001", "another process attaches by id and by name and sees the files",
      SBXC_MUST, SBX_CAP_ATTACH | FILES, 0, 60, sbxc_case_attach_other_process },
    { "SBX-ATTACH-002", "list shows the sandbox with its name and expiry", SBXC_MUST,
      SBX_CAP_ATTACH, 0, 60, sbxc_case_attach_list },
    { "SBX-ATTACH-003", "at its TTL a detached sandbox is gone", SBXC_MUST,
      SBX_CAP_ATTACH | FILES, 0, 60, sbxc_case_attach_ttl_ends },
    { "SBX-ATTACH-004", "a sandbox with a TTL survives its creator's SIGKILL, and goes at its TTL",
      SBXC_MUST, SBX_CAP_ATTACH | FILES, 0, 90, sbxc_case_attach_survives_creator_kill },
    { "SBX-ATTACH-005", "an attached handle cannot loosen the stored policy", SBXC_MUST,
      SBX_CAP_ATTACH | EXEC | SBX_CAP_TIMEOUT, 0, 60, sbxc_case_attach_cannot_loosen },
    { "SBX-PAUSE-001", "pause then resume keeps the files", SBXC_MUST,
      SBX_CAP_ATTACH | SBX_CAP_PAUSE | EXEC | FILES, 0, 60, sbxc_case_pause_resume_keeps_files },
    /* cleanup */
    { "SBX-CLEAN-001", "nothing of a sandbox is left after destroy", SBXC_MUST, EXEC, 0, 60,
      sbxc_case_cleanup_after_destroy },
    { NULL, NULL, 0, 0, 0, 0, NULL },
};
