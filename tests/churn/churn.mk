# SPDX-License-Identifier: Apache-2.0
## Provider churn: the stored spec copies are dated, and every wire element
## an adapter uses (its recorded surface) is in the spec it is tested against.
SBX_CHURN_TESTS = tests/churn/spec-copies-dated.sh \
	tests/churn/spec-check-fails-on-churn.sh \
	tests/churn/capability-sources-dated.sh \
	tests/churn/churn-log-entries-complete.sh \
	tests/churn/doctor-shows-spec-dates.sh
TESTS += $(SBX_CHURN_TESTS)
EXTRA_DIST += $(SBX_CHURN_TESTS) \
	tests/churn/churn-npm.sh \
	tests/churn/wire-surface.sh \
	tests/churn/package.json \
	tests/churn/package-lock.json \
	tests/churn/spec-check.js \
	tests/churn/spec-check-fails.js \
	tests/churn/canary-report.js \
	tests/churn/cap-sources.js \
	tests/churn/lib/sdk.js \
	tests/churn/lib/providers.js \
	tests/churn/lib/openapi.js \
	tests/churn/lib/proto.js \
	tests/churn/lib/surface.js \
	tests/churn/lib/check.js \
	tests/churn/lib/wire-record.js \
	scripts/provider-canary \
	docs/churn-log.md

## What the tests install in the build tree.
clean-local: clean-local-churn
clean-local-churn:
	-rm -rf tests/churn/node_modules tests/churn/npm-ci.lock tests/churn/npm-ci.log
	-test "$(abs_srcdir)" = "$(abs_builddir)" || rm -rf tests/churn
.PHONY: clean-local-churn
