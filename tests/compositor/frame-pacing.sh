#!/bin/sh
# wp_commit_timing_v1 and wp_fifo_v1, through the gate and with
# --scheduler off; and with --frame-schedule off, which paints on each
# frame event. wayland-info lists both globals. A frame committed with a
# target time is never presented before it (fairway-pace --mode timing:
# every frame presented, none before its target), whether the targets are
# on the refresh cycle the feedback shows or anywhere in a refresh. Frames committed back to
# back with fifo barriers are shown one per refresh: each at a
# presentation time of its own, none replaced unseen. Misuse is a
# protocol error to its sender alone: a window shown meanwhile stays, and
# commits go on being served. A surface no output shows has its held
# commits applied all the same, a timed one no earlier than its target.
# The headless output, given a 60 Hz mode,
# has its feedback carry that refresh (wlroots' headless backend reports
# none) and none of the flags (vsync, hardware clock and completion, zero
# copy) it does not do.
#
# What is checked is behaviour, not timing: how far past its target a
# frame is shown is measured by bench/frame-ab pace (bench/README.md).
. "$(dirname "$0")/lib.sh"
: "${FW_PACE:?set FW_PACE}" "${FW_TEST_PACING:?set FW_TEST_PACING}"
need_prog wayland-info

FRAMES=60
echo "output HEADLESS-1 mode 1280x720@60" >>"$XDG_CONFIG_HOME/fairway/config"

# pace NAME ARGS...: fairway-pace's summary in $FW_TMP/NAME.json.
pace() {
	pace_run=$1
	shift
	timeout 120 "$FW_PACE" --frames $FRAMES "$@" \
		>"$FW_TMP/$pace_run.json" 2>"$FW_TMP/$pace_run.err" ||
		fail "fairway-pace $* failed in $pace_run: $(cat "$FW_TMP/$pace_run.err")"
	log "$pace_run: $(cat "$FW_TMP/$pace_run.json")"
}

check() {
	python3 - "$FW_TMP/$1.json" <<'PY' || fail "$1: unexpected summary"
import json, sys
s = json.load(open(sys.argv[1]))
assert s["presented"] == s["frames"], s
assert s["discarded"] == 0, s
assert abs(s["feedback_refresh_ms"] - 1000 / 60) < 0.01, s
assert s["flags"] == 0, s
if s["mode"] == "timing":
    assert s["negative"] == 0, "presented before its target: %s" % s
    assert s["presented_minus_target_ms"]["count"] == s["frames"], s
else:
    assert s["same_refresh"] == 0, "two frames in one refresh: %s" % s
PY
}

# misuse CASE INTERFACE CODE
misuse() {
	"$FW_TEST_PACING" "$1" >"$FW_TMP/misuse.out" 2>&1
	status=$?
	[ "$status" -eq 3 ] && grep -q "^error $2 $3\$" "$FW_TMP/misuse.out" ||
		fail "$1: not error $2 $3 (exit $status): $(cat "$FW_TMP/misuse.out")"
}

for flags in "" "--scheduler off" "--frame-schedule off"; do
	name=$(echo "run$flags" | tr -c 'a-z\n' '-')
	# shellcheck disable=SC2086
	fw_start --no-xwayland $flags
	wayland-info >"$FW_TMP/info.out" 2>"$FW_TMP/info.err" ||
		fail "wayland-info failed"
	for global in wp_commit_timing_manager_v1 wp_fifo_manager_v1; do
		grep -q "^interface: '$global'," "$FW_TMP/info.out" ||
			fail "wayland-info does not list $global ($flags)"
	done

	pace "$name-timing" --mode timing
	check "$name-timing"
	pace "$name-random" --mode timing --targets random
	check "$name-random"
	pace "$name-fifo" --mode fifo
	check "$name-fifo"

	start_bg "$FW_TEST_CLIENT" >"$FW_TMP/client.out"
	CLIENT_PID=$BG_PID
	wait_until 20 "the test client's window" has_line "$FW_TMP/client.out" '^mapped'
	misuse timestamp-exists wp_commit_timer_v1 1
	misuse invalid-timestamp wp_commit_timer_v1 0
	misuse timer-destroyed wp_commit_timer_v1 2
	misuse timer-exists wp_commit_timing_manager_v1 0
	misuse fifo-exists wp_fifo_manager_v1 0
	misuse fifo-destroyed wp_fifo_v1 0
	"$FW_TEST_PACING" timer-reused >"$FW_TMP/misuse.out" 2>&1 ||
		fail "a new timer after the first went was refused: $(cat "$FW_TMP/misuse.out")"
	for case in hidden-fifo hidden-timing; do
		"$FW_TEST_PACING" $case >"$FW_TMP/hidden.out" 2>&1 ||
			fail "$case ($flags): $(cat "$FW_TMP/hidden.out")"
	done
	alive "$CLIENT_PID" || fail "the bystander window was disconnected ($flags)"
	pace "$name-after" --mode timing
	check "$name-after"
	fw_stop
	[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS ($flags)"
	kill "$CLIENT_PID" 2>/dev/null
done
pass
