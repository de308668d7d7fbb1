# SPDX-License-Identifier: Apache-2.0
## The user documentation: every page of docs/ is installed under $(docdir)
## (cli.md, profiles.md, mcp.md and contract.md with their code's fragment,
## the error pages in docs/errors/errors.mk), and the documentation site
## built from them with mkdocs (mkdocs.yml) under $(docdir)/html/, where an
## error's docs URL points by default (Makefile.am). Without mkdocs the
## site is skipped, and configure says so.
dist_doc_DATA += docs/index.md docs/dsn.md docs/security.md docs/packaging.md \
	docs/performance.md docs/churn-log.md
backendsdocdir = $(docdir)/backends
dist_backendsdoc_DATA = docs/backends/local.md docs/backends/docker.md \
	docs/backends/e2b.md docs/backends/daytona.md docs/backends/fake.md
SBX_SITE_INPUTS = mkdocs.yml scripts/mkdocs-theme/main.html
EXTRA_DIST += $(SBX_SITE_INPUTS) scripts/check-docs-site.py

if SBX_DOCS_HTML
## The site is built once by make (all), from the sources in srcdir (so a
## distcheck's read-only tree is fine) into doc-html/ of the build tree.
all-local: doc-html.stamp
doc-html.stamp: $(SBX_SITE_INPUTS) $(dist_doc_DATA) $(dist_backendsdoc_DATA) $(dist_errors_DATA)
	$(AM_V_GEN)rm -rf doc-html && \
	$(MKDOCS) build --quiet --strict -f $(srcdir)/mkdocs.yml -d $(abs_builddir)/doc-html && \
	touch $@
## Only the pages: mkdocs also copies the other files of docs/ (man pages,
## make fragments), which are installed, or not, on their own.
install-data-local: doc-html.stamp
	cd doc-html && find . -type f -name '*.html' | sort | while read -r f; do \
	  $(MKDIR_P) "$(DESTDIR)$(docdir)/html/`dirname $$f`" && \
	  $(INSTALL_DATA) "$$f" "$(DESTDIR)$(docdir)/html/$$f" || exit 1; \
	done
uninstall-local:
	rm -rf "$(DESTDIR)$(docdir)/html"
endif
clean-local: clean-local-doc-html
clean-local-doc-html:
	rm -rf doc-html doc-html.stamp
.PHONY: clean-local-doc-html

## Man pages: one page per concern of the public API, the plugin ABI in
## section 7, and one ".so" link page per public function so that
## `man FUNCTION` works. tests/test_error_catalog.c checks that every SBX_API
## function has its page and that the page shows its prototype.
dist_man_MANS += \
	docs/man/sandboxio-plugin.7 \
	docs/man/sandboxio.3 \
	docs/man/sbx_cancel.3 \
	docs/man/sbx_cancel_free.3 \
	docs/man/sbx_cancel_new.3 \
	docs/man/sbx_cancel_trigger.3 \
	docs/man/sbx_cancel_triggered.3 \
	docs/man/sbx_cap_from_name.3 \
	docs/man/sbx_cap_name.3 \
	docs/man/sbx_caps.3 \
	docs/man/sbx_client.3 \
	docs/man/sbx_client_add_plugin_dir.3 \
	docs/man/sbx_client_free.3 \
	docs/man/sbx_client_gc.3 \
	docs/man/sbx_client_ping.3 \
	docs/man/sbx_client_probe.3 \
	docs/man/sbx_client_new.3 \
	docs/man/sbx_client_plugin_dir_at.3 \
	docs/man/sbx_client_plugin_dir_count.3 \
	docs/man/sbx_client_plugin_info.3 \
	docs/man/sbx_client_plugins.3 \
	docs/man/sbx_cmd_free.3 \
	docs/man/sbx_cmd_new.3 \
	docs/man/sbx_cmd_set_cancel.3 \
	docs/man/sbx_cmd_set_cwd.3 \
	docs/man/sbx_cmd_set_cwd_abs.3 \
	docs/man/sbx_cmd_set_env.3 \
	docs/man/sbx_cmd_set_output_cap.3 \
	docs/man/sbx_cmd_set_stdin.3 \
	docs/man/sbx_cmd_set_stdin_fd.3 \
	docs/man/sbx_cmd_set_pty.3 \
	docs/man/sbx_cmd_set_pty_resize.3 \
	docs/man/sbx_cmd_set_timeout.3 \
	docs/man/sbx_dirlist_count.3 \
	docs/man/sbx_dirlist_free.3 \
	docs/man/sbx_dirlist_get.3 \
	docs/man/sbx_dsn.3 \
	docs/man/sbx_dsn_authority.3 \
	docs/man/sbx_dsn_free.3 \
	docs/man/sbx_dsn_get.3 \
	docs/man/sbx_dsn_parse.3 \
	docs/man/sbx_dsn_path.3 \
	docs/man/sbx_dsn_query_at.3 \
	docs/man/sbx_dsn_query_count.3 \
	docs/man/sbx_dsn_redact.3 \
	docs/man/sbx_dsn_scheme.3 \
	docs/man/sbx_dsn_to_string.3 \
	docs/man/sbx_error.3 \
	docs/man/sbx_error_catalog.3 \
	docs/man/sbx_error_clear.3 \
	docs/man/sbx_error_docs_url.3 \
	docs/man/sbx_error_id.3 \
	docs/man/sbx_error_last.3 \
	docs/man/sbx_exec.3 \
	docs/man/sbx_exec_stream.3 \
	docs/man/sbx_pool.3 \
	docs/man/sbx_pool_free.3 \
	docs/man/sbx_pool_new.3 \
	docs/man/sbx_pool_ready.3 \
	docs/man/sbx_pool_retire.3 \
	docs/man/sbx_pool_run.3 \
	docs/man/sbx_pool_take.3 \
	docs/man/sbx_run.3 \
	docs/man/sbx_run_stream.3 \
	docs/man/sbx_run_live.3 \
	docs/man/sbx_exec_opts_init.3 \
	docs/man/sbx_exec_ext.3 \
	docs/man/sbx_run_ext.3 \
	docs/man/sbx_file.3 \
	docs/man/sbx_file_chmod.3 \
	docs/man/sbx_file_set_mtime.3 \
	docs/man/sbx_file_symlink.3 \
	docs/man/sbx_file_list.3 \
	docs/man/sbx_file_mkdir.3 \
	docs/man/sbx_file_read.3 \
	docs/man/sbx_file_read_to.3 \
	docs/man/sbx_file_remove.3 \
	docs/man/sbx_file_write.3 \
	docs/man/sbx_file_write_from.3 \
	docs/man/sbx_free.3 \
	docs/man/sbx_log_set_handler.3 \
	docs/man/sbx_native.3 \
	docs/man/sbx_plugin_dir_default.3 \
	docs/man/sbx_plugin_list_count.3 \
	docs/man/sbx_plugin_list_free.3 \
	docs/man/sbx_plugin_list_get.3 \
	docs/man/sbx_policy.3 \
	docs/man/sbx_policy_allow_host.3 \
	docs/man/sbx_policy_free.3 \
	docs/man/sbx_policy_new.3 \
	docs/man/sbx_policy_set_cpu.3 \
	docs/man/sbx_policy_set_env.3 \
	docs/man/sbx_policy_set_memory.3 \
	docs/man/sbx_policy_set_min_tier.3 \
	docs/man/sbx_policy_set_network.3 \
	docs/man/sbx_policy_set_output_cap.3 \
	docs/man/sbx_policy_set_pids.3 \
	docs/man/sbx_policy_set_disk.3 \
	docs/man/sbx_policy_set_default_limits.3 \
	docs/man/sbx_policy_limit.3 \
	docs/man/sbx_policy_set_timeout.3 \
	docs/man/sbx_policy_to_string.3 \
	docs/man/sbx_result_backend.3 \
	docs/man/sbx_result_caps.3 \
	docs/man/sbx_result_dsn.3 \
	docs/man/sbx_result_duration_ns.3 \
	docs/man/sbx_result_exit_code.3 \
	docs/man/sbx_result_exited.3 \
	docs/man/sbx_result_free.3 \
	docs/man/sbx_result_oom_killed.3 \
	docs/man/sbx_result_net_refused.3 \
	docs/man/sbx_result_signal.3 \
	docs/man/sbx_result_stderr.3 \
	docs/man/sbx_result_stdout.3 \
	docs/man/sbx_result_streamed.3 \
	docs/man/sbx_result_tier.3 \
	docs/man/sbx_result_timed_out.3 \
	docs/man/sbx_result_truncated.3 \
	docs/man/sbx_sandbox.3 \
	docs/man/sbx_sandbox_backend.3 \
	docs/man/sbx_sandbox_caps.3 \
	docs/man/sbx_sandbox_destroy.3 \
	docs/man/sbx_sandbox_dsn.3 \
	docs/man/sbx_sandbox_free.3 \
	docs/man/sbx_sandbox_id.3 \
	docs/man/sbx_sandbox_open.3 \
	docs/man/sbx_sandbox_tier.3 \
	docs/man/sbx_strerror.3 \
	docs/man/sbx_tier_from_name.3 \
	docs/man/sbx_tier_name.3 \
	docs/man/sbx_version.3 \
	docs/man/sbx_lifecycle.3 \
	docs/man/sbx_sandbox_opts_new.3 \
	docs/man/sbx_sandbox_opts_free.3 \
	docs/man/sbx_sandbox_opts_set_name.3 \
	docs/man/sbx_sandbox_opts_set_ttl.3 \
	docs/man/sbx_sandbox_open_with.3 \
	docs/man/sbx_sandbox_attach.3 \
	docs/man/sbx_sandbox_detach.3 \
	docs/man/sbx_sandbox_set_ttl.3 \
	docs/man/sbx_sandbox_pause.3 \
	docs/man/sbx_sandbox_resume.3 \
	docs/man/sbx_sandbox_name.3 \
	docs/man/sbx_sandbox_expires.3 \
	docs/man/sbx_client_list.3 \
	docs/man/sbx_sandbox_state_name.3
