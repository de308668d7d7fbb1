/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cases.h - the case functions, one per table row of registry.c.
 */
#ifndef SBX_CONTRACT_CASES_H
#define SBX_CONTRACT_CASES_H

#include "case.h"

/* cases_lifecycle.c */
void sbxc_case_create_destroy(sbxc_ctx *ctx);
void sbxc_case_destroy_twice(sbxc_ctx *ctx);
void sbxc_case_use_after_destroy(sbxc_ctx *ctx);
void sbxc_case_many_sandboxes(sbxc_ctx *ctx);
/* cases_exec.c */
void sbxc_case_exit_codes(sbxc_ctx *ctx);
void sbxc_case_signal_death(sbxc_ctx *ctx);
void sbxc_case_argv_verbatim(sbxc_ctx *ctx);
void sbxc_case_no_shell(sbxc_ctx *ctx);
void sbxc_case_env_inherits_nothing(sbxc_ctx *ctx);
void sbxc_case_env_set(sbxc_ctx *ctx);
void sbxc_case_cwd(sbxc_ctx *ctx);
void sbxc_case_missing_program(sbxc_ctx *ctx);
void sbxc_case_cwd_absolute_made(sbxc_ctx *ctx);
void sbxc_case_home_is_work_dir(sbxc_ctx *ctx);
void sbxc_case_clean_signal_state(sbxc_ctx *ctx);
/* cases_output.c */
void sbxc_case_big_output(sbxc_ctx *ctx);
void sbxc_case_big_output_stream(sbxc_ctx *ctx);
void sbxc_case_binary_output(sbxc_ctx *ctx);
void sbxc_case_output_cap(sbxc_ctx *ctx);
void sbxc_case_stream_abort(sbxc_ctx *ctx);
/* cases_stdin.c */
void sbxc_case_stdin_default_empty(sbxc_ctx *ctx);
void sbxc_case_stdin(sbxc_ctx *ctx);
void sbxc_case_parallel_execs(sbxc_ctx *ctx);
/* cases_pty.c */
void sbxc_case_pty_size_and_terminal(sbxc_ctx *ctx);
void sbxc_case_pty_resize(sbxc_ctx *ctx);
/* cases_timeout.c */
void sbxc_case_timeout_kills(sbxc_ctx *ctx);
void sbxc_case_timeout_kills_tree(sbxc_ctx *ctx);
void sbxc_case_policy_timeout(sbxc_ctx *ctx);
/* cases_files.c */
void sbxc_case_file_round_trip(sbxc_ctx *ctx);
void sbxc_case_file_dirs_and_list(sbxc_ctx *ctx);
void sbxc_case_file_remove(sbxc_ctx *ctx);
void sbxc_case_file_missing(sbxc_ctx *ctx);
void sbxc_case_file_wrong_type(sbxc_ctx *ctx);
/* cases_files_hostile.c */
void sbxc_case_file_not_regular(sbxc_ctx *ctx);
void sbxc_case_file_read_cap(sbxc_ctx *ctx);
void sbxc_case_file_list_cap(sbxc_ctx *ctx);
void sbxc_case_file_mode(sbxc_ctx *ctx);
void sbxc_case_file_meta_kept(sbxc_ctx *ctx);
void sbxc_case_file_symlink_kept(sbxc_ctx *ctx);
void sbxc_case_file_link_replaced(sbxc_ctx *ctx);
/* cases_escape.c */
void sbxc_case_escape_paths(sbxc_ctx *ctx);
void sbxc_case_escape_symlinks(sbxc_ctx *ctx);
/* cases_attach.c */
void sbxc_case_attach_other_process(sbxc_ctx *ctx);
void sbxc_case_attach_list(sbxc_ctx *ctx);
void sbxc_case_attach_ttl_ends(sbxc_ctx *ctx);
void sbxc_case_attach_survives_creator_kill(sbxc_ctx *ctx);
void sbxc_case_attach_cannot_loosen(sbxc_ctx *ctx);
void sbxc_case_pause_resume_keeps_files(sbxc_ctx *ctx);
/* cases_persist.c */
void sbxc_case_persist_between_execs(sbxc_ctx *ctx);
void sbxc_case_persist_files_and_exec(sbxc_ctx *ctx);
/* cases_isolation.c */
void sbxc_case_network_none(sbxc_ctx *ctx);
void sbxc_case_memory_limit(sbxc_ctx *ctx);
void sbxc_case_pids_limit(sbxc_ctx *ctx);
void sbxc_case_disk_limit(sbxc_ctx *ctx);
void sbxc_case_host_processes_hidden(sbxc_ctx *ctx);
void sbxc_case_host_files_hidden(sbxc_ctx *ctx);
/* cases_cleanup.c */
void sbxc_case_cleanup_after_destroy(sbxc_ctx *ctx);
/* cases_cancel.c */
void sbxc_case_cancel_before_start(sbxc_ctx *ctx);
void sbxc_case_cancel_silent_exec(sbxc_ctx *ctx);
void sbxc_case_cancel_silent_run(sbxc_ctx *ctx);

/* cases_oneshot.c */
void sbxc_case_oneshot_basics(sbxc_ctx *ctx);
void sbxc_case_oneshot_stream_stdin_env(sbxc_ctx *ctx);
void sbxc_case_oneshot_timeout_nothing_left(sbxc_ctx *ctx);

#endif
