#!/bin/sh
# The knee for X clients. Xwayland commits an X window once per frame
# callback, so its commits never show an X client drawing faster than
# frames are presented: fairway counts what X clients draw through the X
# DAMAGE extension instead (compositor/sched/ratings_x11.c). Under
# --hints on:
# - x11perf -rect500, which draws 500x500 rectangles without pause, is
#   past its knee (more than 1.5 frames drawn a presented frame) and is
#   never rated `output` nor has its threads boosted;
# - ico -sleep 0.04, a paced animation of about 25 frames a second (well
#   above the knee's 10 a second), draws about one frame a presented
#   frame: before its knee, rated `output` with the output attributes
#   (slower than the refresh rate, so that it stays before its knee on
#   a loaded machine whose frames come late);
# - xclock -update 1, ticking once a second, is `idle`: below the knee's
#   rate, and far from the waste that would make it `background`.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog x11perf
need_prog ico
need_prog xclock

stats="$FW_TMP/stats.json"
# x11perf's window is override-redirect, 600x600 at the top left, over
# any window there: the others go on a second output, where the pointer
# is (fairway places windows on the output under it), out of their way.
fw_start --hints on --stats "$stats" --outputs 2 --output-size 800x600
"$FW_TEST_POINTER" move 1590 590 || fail "fw-test-pointer failed"

# rated_line PID: the latest --stats line for the X client PID.
rated_line() {
	grep "\"rated\":$1,.*\"x_client\":true" "$stats" 2>/dev/null | tail -n 1
}
# rated_field PID FIELD: a field of that line.
rated_field() {
	rated_line "$1" | sed -n "s/.*\"$2\":\"\{0,1\}\([a-z0-9.]*\).*/\1/p"
}
# above A B: the decimal A is more than B.
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

start_bg x11perf -rect500 -repeat 1000 -time 60 >"$FW_TMP/x11perf.out" 2>&1
flooder=$BG_PID
wait_until 30 "x11perf rated as an X client" has_line "$stats" \
	"\"rated\":$flooder,.*\"x_client\":true"
# The clock first: the animation's window, placed after it, goes on top,
# where every frame it draws shows.
start_bg xclock -update 1 -geometry 100x100 >"$FW_TMP/xclock.out" 2>&1
clock=$BG_PID
wait_until 30 "xclock rated as an X client" has_line "$stats" \
	"\"rated\":$clock,.*\"x_client\":true"
start_bg ico -geometry 300x300 -sleep 0.04 >"$FW_TMP/ico.out" 2>&1
anim=$BG_PID
anim_output() {
	FW_SEEN="ico: $(rated_line "$anim"); x11perf: $(rated_line "$flooder")"
	[ "$(rated_field "$anim" class)" = output ] &&
		all_threads "$anim" "^$OUTPUT"
}
wait_until 30 "ico rated output with the output attributes" anim_output
log "ico: output, its threads $FW_SEEN"

# The flooder, over as long again as the ratings' 8 s window: never
# output, never the output attributes, at every look.
never_boosted "$flooder" "x11perf" 10
flooder_seen=$FW_SEEN
alive "$flooder" || fail "x11perf exited early: $(tail -n 3 "$FW_TMP/x11perf.out")"
grep "\"rated\":$flooder," "$stats" | grep '"class":"output"' | head -n 1 >"$FW_TMP/output.json"
[ -s "$FW_TMP/output.json" ] &&
	fail "x11perf was rated output: $(cat "$FW_TMP/output.json")"
log "x11perf: $(rated_line "$flooder")"
log "x11perf's threads: $flooder_seen"
log "ico: $(rated_line "$anim")"
log "xclock: $(rated_line "$clock")"

# Why: the flooder is past its knee, far past, whatever the load (it
# draws all it can, and fewer frames shown only raise its surplus).
surplus=$(rated_field "$flooder" commits_per_frame)
above "$surplus" 1.5 ||
	fail "x11perf drew $surplus frames a presented frame, not past its knee"
[ "$(rated_field "$anim" class)" = output ] ||
	fail "ico fell out of output: $(rated_line "$anim")"
# ico's own rate and surplus move with the load: logged, and measured by
# bench/xknee-ab.
log "ico: $(rated_field "$anim" commits_per_frame) frames a presented" \
	"frame, $(rated_field "$anim" commits_per_s) a second"
[ "$(rated_field "$clock" class)" = idle ] ||
	fail "xclock is not idle: $(rated_line "$clock")"
pass
