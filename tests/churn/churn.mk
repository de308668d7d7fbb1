## Provider churn: the stored spec copies are dated, and every wire element
## an adapter uses (its recorded surface) is in the spec it is tested against.
SBX_CHURN_TESTS = tests/churn/spec-copies-dated.sh
TESTS += $(SBX_CHURN_TESTS)
EXTRA_DIST += $(SBX_CHURN_TESTS)
