# SPDX-License-Identifier: Apache-2.0
# Sourced by an adapter's wire-surface test, not run, after churn-npm.sh and
# once its rig has stopped: surface_check NAME RECORDING DIR builds NAME's
# surface (a key of lib/providers.js) from the rig's RECORDING in DIR (a
# scratch dir), fails unless it equals the one kept in the source tree
# (plugins/NAME/wire-surface.txt; SBX_UPDATE_SURFACE=1 writes the new one
# there instead, its comment lines kept) and unless the spec check finds
# every element in NAME's stored specs. Sets SURFACE_COUNT. Needs `fail`.
# surface_begin and surface_end (below) wrap a test's runs with the rig.
surface_check() {
    name=$1 recording=$2 dir=$3
    [ -s "$recording" ] || fail "nothing was recorded"
    node "$CHURN_DIR/spec-check.js" record "$name" "$recording" --top "$SBX_TEST_SRCDIR" >"$dir/surface.txt" ||
        fail "the surface could not be built from the recording"
    kept="$SBX_TEST_SRCDIR/plugins/$name/wire-surface.txt"
    if [ "${SBX_UPDATE_SURFACE:-}" = 1 ]; then
        { sed -n '/^#/p' "$kept" 2>/dev/null; cat "$dir/surface.txt"; } >"$dir/new.txt"
        cp "$dir/new.txt" "$kept"
        echo "wrote $kept"
    fi
    grep -v '^#' "$kept" >"$dir/kept.txt" || true
    diff -u "$dir/kept.txt" "$dir/surface.txt" >&2 ||
        fail "the recorded surface differs from plugins/$name/wire-surface.txt (+: used now, -: no longer); SBX_UPDATE_SURFACE=1 rewrites it"
    node "$CHURN_DIR/spec-check.js" check "$name" --top "$SBX_TEST_SRCDIR" ||
        fail "the $name adapter uses elements the stored specs lack (above)"
    SURFACE_COUNT=$(wc -l <"$dir/surface.txt")
}

# surface_begin NAME VAR: a scratch dir in REC (removed, with the rig
# stopped, at exit) and the recording's path in VAR (exported: the rig's
# doubles record there) and in SURFACE_RECORD.
surface_begin() {
    REC=$(mktemp -d "/tmp/sbx-$1-wire-XXXXXX")
    trap 'rig_stop; rm -rf "$REC"' EXIT
    SURFACE_RECORD="$REC/wire.jsonl"
    eval "$2=\$SURFACE_RECORD; export $2"
}

# surface_end NAME GC_DSN WHO: the last calls every adapter makes (gc,
# doctor --online) recorded too, the rig checked and stopped, the surface
# checked (surface_check) against the stored specs of WHO.
surface_end() {
    sbx="$SBX_TEST_BUILDDIR/src/sandboxio"
    "$sbx" gc "$2" >"$REC/gc.out" 2>&1 || { cat "$REC/gc.out"; fail "sandboxio gc failed"; }
    "$sbx" doctor --online >"$REC/doctor.out" 2>&1 || { cat "$REC/doctor.out"; fail "sandboxio doctor --online failed"; }
    rig_no_violations
    rig_stop
    surface_check "$1" "$SURFACE_RECORD" "$REC"
    echo "PASS: $SURFACE_COUNT wire elements recorded, as kept in the tree, each in $3's stored specs"
}
