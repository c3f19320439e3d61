#!/bin/sh
# The knee: a commit flooder (fairway-plaid --mode commit, which commits
# full-damage buffers without waiting for frame callbacks) shows frames
# like an animation but makes many more than are presented. It must never
# be rated `output` in --stats nor have its threads boosted, while
# fairway-anim beside it, presenting about every frame it commits, is
# rated `output` and gets the output attributes.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
[ -n "${FW_PLAID:-}" ] && [ -n "${FW_ANIM:-}" ] || skip "built without -Dclients"

stats="$FW_TMP/stats.json"
fw_start --no-xwayland --hints on --stats "$stats"
start_bg "$FW_PLAID" --mode commit --duration 60 >"$FW_TMP/plaid.out" 2>&1
plaid=$BG_PID

# rated_class PID: the class of the latest --stats line for PID.
rated_class() {
	grep "\"rated\":$1," "$stats" 2>/dev/null | tail -n 1 |
		sed -n 's/.*"class":"\([a-z]*\)".*/\1/p'
}
# The animation's window goes on top of the flooder's: what is hidden is
# never presented, and a hidden animation is past its knee too.
wait_until 20 "the flooder rated" has_line "$stats" "\"rated\":$plaid,"
start_bg "$FW_ANIM" --duration 60 >"$FW_TMP/anim.out" 2>&1
anim=$BG_PID
anim_output() {
	FW_SEEN="anim $(rated_class "$anim"), plaid $(rated_class "$plaid")"
	[ "$(rated_class "$anim")" = output ] && all_threads "$anim" "^$OUTPUT"
}
wait_until 30 "fairway-anim rated output with the output attributes" anim_output
log "$FW_SEEN"

# The flooder, over as long again as the ratings' 8 s window: never
# output, never the output attributes, at every look.
never_boosted "$plaid" "the flooder" 10
plaid_seen=$FW_SEEN
grep "\"rated\":$plaid," "$stats" | grep -q '"class":"output"' &&
	fail "the flooder was rated output: $(grep "\"rated\":$plaid," "$stats" | grep '"class":"output"' | head -n 1)"
grep -q "\"rated\":$plaid," "$stats" || fail "no --stats line for the flooder"
log "flooder: $(grep "\"rated\":$plaid," "$stats" | tail -n 1)"
log "flooder's threads: $plaid_seen"
[ "$(rated_class "$anim")" = output ] ||
	fail "fairway-anim fell out of output: $(rated_class "$anim")"
pass
