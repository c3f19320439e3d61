#!/bin/sh
# `make run` builds fairway and its clients only: meson's `run` alias holds
# none of the tests, wlcs or bench, and the Makefile's run goes through it.
# meson configures the tree without a warning about its minimum version.
. "$(dirname "$0")/../compositor/lib.sh"
: "${FW_BUILD_ROOT:?}" "${FW_SOURCE_ROOT:?}"
need_prog ninja
need_prog make

ninja -C "$FW_BUILD_ROOT" -t inputs run >"$FW_TMP/inputs.out" 2>"$FW_TMP/inputs.err" ||
	fail "no run target in $FW_BUILD_ROOT: $(cat "$FW_TMP/inputs.err")"
for want in compositor/main.c clients/tools/fairway-top/main.c clients/plaid.c; do
	grep -q "/$want\$" "$FW_TMP/inputs.out" || fail "the run target does not build $want"
done
if grep -E '(^|/)(tests|bench)/' "$FW_TMP/inputs.out" >"$FW_TMP/extra.out"; then
	fail "the run target builds $(wc -l <"$FW_TMP/extra.out") test or bench inputs, e.g. $(head -n 1 "$FW_TMP/extra.out")"
fi
log "the run target: $(wc -l <"$FW_TMP/inputs.out") inputs, none of tests/ or bench/"

# The Makefile's run builds that target, and only it.
make -n -C "$FW_SOURCE_ROOT" run BUILD="$FW_BUILD_ROOT" >"$FW_TMP/make.out" 2>&1 ||
	fail "make -n run failed: $(tail -n 5 "$FW_TMP/make.out")"
grep -q "ninja -C $FW_BUILD_ROOT run\$" "$FW_TMP/make.out" ||
	fail "make run does not build the run target: $(cat "$FW_TMP/make.out")"
grep -q "ninja -C $FW_BUILD_ROOT\$" "$FW_TMP/make.out" &&
	fail "make run builds everything: $(cat "$FW_TMP/make.out")"

log=$FW_BUILD_ROOT/meson-logs/meson-log.txt
[ -f "$log" ] || skip "no $log"
grep -E "uses feature(s)? (introduced|which were added)" "$log" >"$FW_TMP/warn.out" &&
	fail "meson warns about its minimum version: $(head -n 3 "$FW_TMP/warn.out")"
pass
