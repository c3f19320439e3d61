#!/bin/sh
# Per-application rules: by app_id (an xdg toplevel's) and by executable
# (its full path: a pattern, or the path itself),
# a client gets a client priority that --stats shows; a reload changes it
# for clients already connected, and takes it back where no rule matches
# any more. A hint rule makes a process's hint class what it says, or gives
# it a target of its own; a reloaded hint map reaches hinted processes at
# once (all seen in --hints dry-run's log).
. "$(dirname "$0")/../compositor/lib.sh"
: "${FAIRWAY_IDLE:?set FAIRWAY_IDLE to the fairway-idle client}"

# A name comm would cut short: the path holds it whole.
long=$FW_TMP/fw-client-with-a-long-name
cp "$FW_TEST_CLIENT" "$long"

config=$XDG_CONFIG_HOME/fairway/config
cat >"$config" <<CONF
rule app_id=rules.up priority 7 spoofable
rule app_id=rules.* hint background
rule exe=*/fairway-idle priority -4
rule exe=$long priority 4
rule app_id=rules.up hint output spoofable
rule app_id=rules.own hint policy=batch,nice=7
CONF
stats=$FW_TMP/stats
fw_start -V --no-xwayland --stats "$stats" --hints dry-run
err=$FW_TMP/fairway-$FW_STARTS.err

start_bg "$FW_TEST_CLIENT" --app-id rules.up --color 3060c0 --size 200x200 \
	--duration 90 >"$FW_TMP/up.out" 2>&1
up=$BG_PID
start_bg "$FW_TEST_CLIENT" --app-id other.app --color c06030 --size 200x200 \
	--duration 90 >"$FW_TMP/other.out" 2>&1
other=$BG_PID
start_bg "$FAIRWAY_IDLE" --connections 1 --duration 90 >"$FW_TMP/idle.out" 2>&1
idle=$BG_PID
start_bg "$long" --app-id rules.long --size 100x100 --duration 90 \
	>"$FW_TMP/long.out" 2>&1
longpid=$BG_PID
start_bg "$FW_TEST_CLIENT" --app-id rules.own --size 100x100 --duration 90 \
	>"$FW_TMP/own.out" 2>&1
own=$BG_PID

# priority_is PID N: the latest --stats line of PID says client_priority N.
priority_is() {
	line=$(grep "\"pid\":$1," "$stats" 2>/dev/null | tail -n 1)
	FW_SEEN="pid $1: $(echo "$line" | grep -o '"client_priority":[-0-9]*')"
	case $line in
	*"\"client_priority\":$2,"*) return 0 ;;
	esac
	return 1
}
wait_until 20 "client_priority 7 for app_id rules.up" priority_is "$up" 7
wait_until 20 "client_priority -4 for exe fairway-idle" priority_is "$idle" -4
wait_until 20 "client_priority 4 for the long executable name" priority_is "$longpid" 4
wait_until 20 "a --stats line for the client no rule names" priority_is "$other" 0
log "priorities by rule: $up=7 $idle=-4 $longpid=4 $other=0"

# Hint classes, measured idle: rules.* says background, and a later rule
# output for rules.up.
wait_until 20 "background for rules.long" has_line "$err" "hints: pid $longpid idle -> background"
wait_until 20 "output for rules.up" has_line "$err" "hints: pid $up idle -> output"
wait_until 20 "background's SCHED_IDLE for rules.long" \
	has_line "$err" "hints (dry-run): pid $longpid tid [0-9]* background: policy 5 "
wait_until 20 "a target of its own for rules.own" \
	has_line "$err" "hints (dry-run): pid $own tid [0-9]* idle: policy 3 nice 7 "
has_line "$err" "hints: pid $other idle -> " && fail "the client no hint rule names changed class"

cat >"$config" <<'CONF'
rule app_id=rules.up priority 3 spoofable
rule app_id=other.* priority -2
rule app_id=rules.long hint background
scheduler hint-map background:policy=batch,nice=9
CONF
kill -HUP "$(fairway_pid)"
wait_until 20 "client_priority 3 for rules.up after the reload" priority_is "$up" 3
wait_until 20 "client_priority -2 for other.app after the reload" priority_is "$other" -2
wait_until 20 "client_priority 0 for fairway-idle, its rule gone" priority_is "$idle" 0
wait_until 20 "client_priority 0 for the long name, its rule gone" priority_is "$longpid" 0
wait_until 20 "rules.up back to its measured class" has_line "$err" "hints: pid $up output -> idle"
wait_until 20 "rules.own's target of its own undone" \
	has_line "$err" "hints (dry-run): pid $own tid [0-9]* would restore"
wait_until 20 "the new hint map's background for rules.long" \
	has_line "$err" "hints (dry-run): pid $longpid tid [0-9]* background: policy 3 nice 9 "
for pid in $up $other $idle $longpid $own; do
	alive "$pid" || fail "client $pid is gone after the reload"
done
kill "$up" "$other" "$idle" "$longpid" "$own" 2>/dev/null
pass
