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
	tests/gates/repo-habits.sh \
	tests/gates/spdx.sh \
	tests/gates/test-sh-counts.sh
TESTS += $(SBX_GATE_TESTS)
EXTRA_DIST += $(SBX_GATE_TESTS) \
	tests/gates/fixtures/analyzer-finding.c \
	scripts/check-doc-examples.py \
	scripts/check-doc-links.py \
	scripts/check-static-analysis.sh \
	scripts/check-abi.sh \
	scripts/check-frozen.sh \
	scripts/check-repo-habits.sh \
	scripts/check-spdx.sh \
	scripts/test-counts.sh \
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

.PHONY: abi-check abi-baseline frozen-update static-analysis
## Compare the ABIs with abi/ (also run by make check, tests/gates/abi.sh).
abi-check: src/libsandboxio.la
	CC='$(CC)' $(SHELL) $(srcdir)/scripts/check-abi.sh $(abs_top_builddir)
## Record the current ABIs as the new baseline, on purpose, in its own commit.
abi-baseline: src/libsandboxio.la
	CC='$(CC)' $(SHELL) $(srcdir)/scripts/check-abi.sh $(abs_top_builddir) --baseline
## Append new error codes and contract case ids to tests/frozen/.
frozen-update: src/sandboxio$(EXEEXT)
	$(SHELL) $(srcdir)/scripts/check-frozen.sh $(srcdir) $(abs_top_builddir)/src/sandboxio --update
## scan-build and cppcheck over the whole tree (the step of scripts/test.sh).
static-analysis:
	$(SHELL) $(srcdir)/scripts/check-static-analysis.sh
