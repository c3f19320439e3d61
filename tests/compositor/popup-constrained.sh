#!/bin/sh
# A popup whose naive placement overflows the output's right edge is
# constrained back inside the output.
. "$(dirname "$0")/lib.sh"
need_prog grim

fw_start --no-xwayland
parent=3366cc popup=00ff00
# The popup hangs off the parent's right edge and is 300 wide: with a
# 1000-wide parent anywhere on the 1280-wide output it would overflow.
start_bg "$FW_TEST_CLIENT" --size 1000x400 --color $parent --popup 300x200 \
	--popup-color $popup >"$FW_TMP/client.out" 2>"$FW_TMP/client.err"
wait_until 30 "popup-configured from the client" \
	has_line "$FW_TMP/client.out" '^popup-configured'
wait_until 30 "popup-mapped from the client" \
	has_line "$FW_TMP/client.out" '^popup-mapped'
set -- $(grep '^popup-configured' "$FW_TMP/client.out" | tail -n 1)
px=$2 py=$3 pw=$4 ph=$5
set -- $(grep '^configured' "$FW_TMP/client.out" | tail -n 1)
parent_w=$2
log "popup configured at ${px},${py} size ${pw}x${ph} relative to its ${parent_w}-wide parent"
[ "$pw" -eq 300 ] && [ "$ph" -eq 200 ] ||
	fail "popup configured ${pw}x${ph}, asked for 300x200"

wait_color_settled 30 $popup $((pw * ph / 2))
set -- $BBOX
sx=$1 sy=$2 sw=$3 sh=$4
wait_color 30 $parent 1000
set -- $BBOX
tx=$1 ty=$2
log "on screen: parent at ${tx},${ty}, popup at ${sx},${sy} ${sw}x${sh}"

ax=$((tx + px))
[ "$ax" -ge 0 ] && [ $((ax + pw)) -le 1280 ] ||
	fail "popup spans x ${ax}..$((ax + pw)) (parent x $tx + popup x $px), outside 0..1280"
# The screenshot agrees: the whole popup is visible where it was told.
[ "$sw" -eq "$pw" ] && [ "$sh" -eq "$ph" ] ||
	fail "popup shows ${sw}x${sh} on screen, configured ${pw}x${ph} (see $FW_SHOT)"
near "$sx" "$ax" 1 && near "$sy" $((ty + py)) 1 ||
	fail "popup shows at ${sx},${sy}, configured at ${ax},$((ty + py)) (see $FW_SHOT)"
pass
