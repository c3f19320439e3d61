#!/bin/sh
# A client that stops reading for 10 s while the pointer moves over its
# window 1000 times a second stays connected: fairway queues what it
# cannot send (up to its 1 MiB cap), and once the client reads again it
# gets every event and the ones that follow. With FW_SCHEDULER=off the
# gate is bypassed and libwayland's own buffer, which fairway sizes to the
# same cap, holds them (by default it holds 4 KiB, then drops the client).
. "$FW_TESTS_DIR/lib.sh"
need_prog grim

if [ "${FW_SCHEDULER:-on}" = off ]; then
	fw_start --no-xwayland --scheduler off
else
	fw_start --no-xwayland --stats "$FW_TMP/stats.jsonl"
fi
FW_ERR="$FW_TMP/fairway-1.err"
start_bg "$FW_TEST_CLIENT" --size 400x300 --color 3366cc \
	>"$FW_TMP/client.out" 2>"$FW_TMP/client.err"
client=$BG_PID
wait_until 30 "the window" has_line "$FW_TMP/client.out" '^mapped'
wait_color_settled 30 3366cc 100000
set -- $BBOX
x=$(($1 + $3 / 2))
y=$(($2 + $4 / 2))
"$FW_TEST_POINTER" move "$x" "$y" || fail "fw-test-pointer failed"
wait_until 10 "the pointer in the window" has_line "$FW_TMP/client.out" '^pointer-enter'

kill -STOP "$client"
log "client $client stopped; 10 s of motion at 1000 Hz"
"$FW_TEST_POINTER" flood 1000 10 "$x" "$y" >"$FW_TMP/flood.out" ||
	fail "fw-test-pointer flood failed"
has_line "$FW_ERR" "does not read its events" &&
	fail "fairway dropped the paused client: $(grep 'does not read' "$FW_ERR")"
kill -CONT "$client"

# Connected still: a last motion to a spot of its own comes through.
"$FW_TEST_POINTER" move $((x + 20)) $((y + 20)) || fail "fw-test-pointer failed"
lx=$((x + 20 - $1))
ly=$((y + 20 - $2))
wait_until 30 "the client to read on, up to the last motion" \
	has_line "$FW_TMP/client.out" "^pointer-motion $lx $ly\$"
has_line "$FW_TMP/client.out" '^disconnected' && fail "the client was disconnected"
motions=$(grep -c '^pointer-motion' "$FW_TMP/client.out")
queued=$(sed -n "s/.*\"pid\":$client,.*\"queued_event_bytes\":\([0-9]*\).*/\1/p" \
	"$FW_TMP/stats.jsonl" 2>/dev/null | sort -n | tail -n 1)
log "client read $motions motion events; at most ${queued:-?} bytes queued for it"
[ "$motions" -ge 9000 ] || fail "only $motions motion events reached the client"
alive "$client" || fail "the client died"
pass
