#!/bin/sh
# Bad command lines print the usage text and exit 2 without starting up.
. "$(dirname "$0")/lib.sh"

check_bad() {
	out="$FW_TMP/bad.out"
	timeout 20 "$FAIRWAY" "$@" >"$out" 2>&1
	status=$?
	[ $status -eq 2 ] || {
		cat "$out"
		fail "fairway $* exited $status, want 2"
	}
	grep -qi usage "$out" || {
		cat "$out"
		fail "fairway $* printed no usage text"
	}
	log "fairway $*: exit 2 with usage"
}

check_bad --bogus
check_bad --backend nope
check_bad --outputs x
check_bad --output-size 12
check_bad --output-size 12x
check_bad --scheduler maybe
check_bad --render fast
check_bad --socket

timeout 20 "$FAIRWAY" -h >"$FW_TMP/help.out" 2>&1
status=$?
[ $status -eq 0 ] || fail "fairway -h exited $status, want 0"
grep -qi usage "$FW_TMP/help.out" || fail "fairway -h printed no usage text"
grep -q -e '--output-size' "$FW_TMP/help.out" ||
	fail "fairway -h does not mention --output-size"
pass
