# SPDX-License-Identifier: Apache-2.0
## Release gates: each gate is a script under scripts/, and each has a test
## here that runs it on the tree AND on a deliberately broken input, proving
## it turns red. The whole-tree static analysis and the fuzz runs are slower:
## they are steps of scripts/test.sh (their red tests run here).
## CONTRIBUTING.md lists the commands.
SBX_GATE_TESTS = \
	tests/gates/doc-examples.sh \
	tests/gates/doc-links.sh \
	tests/gates/docs-site.sh \
	tests/gates/static-analysis.sh \
	tests/gates/abi.sh \
	tests/gates/frozen-contract.sh \
	tests/gates/error-index-is-derived.sh \
	tests/gates/repo-habits.sh \
	tests/gates/spdx.sh \
	tests/gates/test-sh-counts.sh \
	tests/gates/perf.sh \
	tests/gates/perf-gates-turn-red.sh
TESTS += $(SBX_GATE_TESTS)
EXTRA_DIST += $(SBX_GATE_TESTS) \
	tests/gates/fixtures/analyzer-finding.c \
	scripts/check-doc-examples.py \
	scripts/check-doc-links.py \
	scripts/check-static-analysis.sh \
	scripts/check-abi.sh \
	scripts/check-frozen.sh \
	scripts/gen-error-index.sh \
	scripts/check-repo-habits.sh \
	scripts/check-spdx.sh \
	scripts/test-counts.sh \
	scripts/check-perf.sh \
	tests/gates/perf-objects-budget tests/gates/perf-callgrind-baseline \
	docs/external-links.txt docs/security.md \
	abi/plugin-types.c abi/plugin-types.abi abi/libsandboxio.abi abi/versions \
	tests/frozen/error-codes.txt tests/frozen/contract-ids.txt \
	plugins/analyzer-model.h \
	CONTRIBUTING.md \
	.github/ISSUE_TEMPLATE/bug_report.md \
	.github/ISSUE_TEMPLATE/backend_problem.md \
	.github/ISSUE_TEMPLATE/config.yml \
	.github/pull_request_template.md

## The compiler and sanitizer flags the doc examples are built with.
AM_TESTS_ENVIRONMENT += \
	SBX_TEST_CC='$(CC)'; export SBX_TEST_CC; \
	SBX_TEST_SAN_CFLAGS='$(SAN_CFLAGS)'; export SBX_TEST_SAN_CFLAGS; \
	SBX_TEST_SAN_LDFLAGS='$(SAN_LDFLAGS)'; export SBX_TEST_SAN_LDFLAGS;

## The performance gate's programs (scripts/check-perf.sh): one sbx_exec
## into an open sandbox, counted; and a mutant that adds a loop and a
## library, which its test puts in front of the measured programs.
check_PROGRAMS += tests/gates/perf_exec
tests_gates_perf_exec_SOURCES = tests/gates/perf_exec.c
tests_gates_perf_exec_LDADD = src/libsandboxio.la
check_LTLIBRARIES += tests/gates/perf_mutant.la
tests_gates_perf_mutant_la_SOURCES = tests/gates/perf_mutant.c
tests_gates_perf_mutant_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared -rpath /nowhere
tests_gates_perf_mutant_la_LIBADD = -ldl

.PHONY: abi-check abi-baseline frozen-update static-analysis perf-baseline
## Compare the ABIs with abi/ (also run by make check, tests/gates/abi.sh).
abi-check: src/libsandboxio.la
	CC='$(CC)' $(SHELL) $(srcdir)/scripts/check-abi.sh $(abs_top_builddir)
## Record the current ABIs as the new baseline, on purpose, in its own commit.
abi-baseline: src/libsandboxio.la
	CC='$(CC)' $(SHELL) $(srcdir)/scripts/check-abi.sh $(abs_top_builddir) --baseline
## Append new error codes and contract case ids to tests/frozen/, and derive
## the docs index and page list of the codes from their definitions.
frozen-update: src/sandboxio$(EXEEXT)
	$(SHELL) $(srcdir)/scripts/gen-error-index.sh $(srcdir)
	$(SHELL) $(srcdir)/scripts/check-frozen.sh $(srcdir) $(abs_top_builddir)/src/sandboxio --update
## scan-build and cppcheck over the whole tree (the step of scripts/test.sh).
static-analysis:
	$(SHELL) $(srcdir)/scripts/check-static-analysis.sh
## Record this build's callgrind figures as the baseline of its flavour
## (tests/gates/perf-callgrind-baseline), on purpose: commit it alone, with
## the reason (CONTRIBUTING.md, "The performance gate").
perf-baseline: src/sandboxio$(EXEEXT) tests/gates/perf_exec$(EXEEXT)
	$(SHELL) $(srcdir)/scripts/check-perf.sh $(abs_top_builddir) --update
