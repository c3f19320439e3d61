#!/bin/sh
# Hostile clients against a real fairway: each one alone is disconnected
# with a logged reason, fairway's fd count comes back to where it was, and
# a well-behaved client's frames keep reaching the screen (screenshots).
. "$FW_TESTS_DIR/lib.sh"
: "${HOSTILE:?set HOSTILE to the hostile-gate binary}"
need_prog grim

fw_fds() {
	ls "/proc/$(fairway_pid)/fd" | wc -l
}

# fds_back_to N: true once fairway holds N fds again.
fds_back_to() {
	FW_SEEN="$(fw_fds) fds"
	[ "$(fw_fds)" -eq "$1" ]
}

fw_start --no-xwayland
start_bg "$FW_TEST_CLIENT" --size 300x200 --color 00ff00 \
	>"$FW_TMP/good.out" 2>"$FW_TMP/good.err"
good=$BG_PID
wait_color 30 00ff00 50000
before=$(fw_fds)
log "fairway holds $before fds with one client"

colors="ff0000 0000ff ffff00 00ffff ff00ff"
n=0
for case in size-0 size-7 size-4097 size-65535 unknown-object \
	opcode-past-interface missing-arguments truncated-then-hang-up \
	hang-up-with-fds-in-flight fds-on-a-request-that-takes-none \
	253-fds-on-one-request more-fds-than-libwayland-holds never-reads \
	churn dies-mid-batch; do
	n=$((n + 1))
	if [ "$case" = dies-mid-batch ]; then
		# Killed while its requests are queued in the gate.
		"$HOSTILE" client "$case" >"$FW_TMP/hostile-$n.err" 2>&1 &
		pid=$!
		sleep 1
		kill -KILL $pid
		wait $pid
	else
		timeout 60 "$HOSTILE" client "$case" >"$FW_TMP/hostile-$n.err" 2>&1 ||
			fail "hostile client $case failed (exit $?): $(tail -n 3 "$FW_TMP/hostile-$n.err")"
		pid=$!
	fi
	alive "$(fairway_pid)" || fail "fairway died on hostile client $case"
	# The good client still works: a fresh window of a new colour shows,
	# and the first one is still on screen.
	color=$(echo $colors | cut -d' ' -f$((n % 5 + 1)))
	start_bg "$FW_TEST_CLIENT" --size 200x100 --color $color \
		>"$FW_TMP/probe-$n.out" 2>"$FW_TMP/probe-$n.err"
	probe=$BG_PID
	wait_color 30 $color 15000
	shows_color 00ff00 30000 || fail "the first client's window is gone after $case"
	stop_pid $probe
	wait_until 30 "fairway back to $before fds after $case" fds_back_to "$before"
	log "$case: fairway survived, screen updated, $(fw_fds) fds"
done

# Every hostile client's disconnection was logged with its reason.
err="$FW_TMP/fairway-1.err"
for reason in "invalid message size 0" "invalid message size 4097" \
	"invalid message size 65535" "invalid object 77" "invalid method 9" \
	"invalid arguments" "fds in one message" "does not read its events"; do
	grep -q "$reason" "$err" || fail "no \"$reason\" in fairway's log"
done
alive "$good" || fail "the good client died"
pass
