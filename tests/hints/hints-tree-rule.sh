#!/bin/sh
# A rule's "processes one" narrows an application back to its client's own
# process: fairway-anim drawing in a child gets the output class on its own
# threads only, its drawing child is never boosted, and --stats shows the
# application's scope as "process" with the client's process alone.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
[ -n "${FW_ANIM:-}" ] || skip "built without -Dclients"

cat >"$FW_TMP/config" <<CONFIG
rule exe=*/fairway-anim processes one
CONFIG
fw_start --no-xwayland --config "$FW_TMP/config" --stats "$FW_TMP/stats.json"
start_bg sh -c 'exec setsid "$0" --duration 60 --draw-in child' \
	"$FW_ANIM" >"$FW_TMP/anim.out" 2>&1
anim=$BG_PID

one_child() {
	set -- $(children_of "$anim")
	[ $# -eq 1 ]
}
wait_until 20 "fairway-anim's drawing child" one_child
drawer=$(children_of "$anim")
log "anim $anim, drawing child $drawer"

wait_until 30 "the output attributes on anim" all_threads "$anim" "^$OUTPUT"
log "anim: $FW_SEEN"
scoped() {
	FW_SEEN=$(grep "\"rated\":$anim," "$FW_TMP/stats.json" | tail -n 1)
	case "$FW_SEEN" in
	*'"scope":"process","processes":[{"process":'"$anim"',"threads":'*'}],'*)
		return 0 ;;
	esac
	return 1
}
wait_until 10 "anim's stats line with its own process alone" scoped
log "stats: $FW_SEEN"
never_boosted "$drawer" "the drawing child" 6

pass
