#!/bin/sh
# SIGHUP reloads the configuration file while clients stay connected: a
# binding changes, and the window already there still shows and still gets
# keys; the scheduler's slices change, where no flag sets them. A file with an error is refused whole, logged as FILE:LINE, and the
# old binding keeps working. The reload binding does what SIGHUP does.
. "$(dirname "$0")/../compositor/lib.sh"
need_prog wtype
need_prog grim

config=$XDG_CONFIG_HOME/fairway/config
cat >"$config" <<CONF
bind Super+t exec touch "$FW_TMP/a"
CONF
fw_start -V --no-xwayland --sched-max-slice 7
err=$FW_TMP/fairway-$FW_STARTS.err

start_bg "$FW_TEST_CLIENT" --color 3060c0 --size 300x200 --duration 90 \
	>"$FW_TMP/client.out" 2>"$FW_TMP/client.err"
client=$BG_PID
wait_until 20 "window focused" has_line "$FW_TMP/client.out" 'keyboard-enter'

wtype -M logo -k t -m logo
wait_until 20 "Super+T runs the first file's command" test -e "$FW_TMP/a"

reloads() {
	grep -c 'Configuration reloaded from' "$err"
}
reloaded_past() {
	[ "$(reloads)" -gt "$1" ]
}
# Still connected and working: alive, on screen, and given keys.
client_works() {
	alive "$client" || fail "the client is gone after $1"
	has_line "$FW_TMP/client.out" '^disconnected' && fail "the client was disconnected by $1"
	wait_color 20 3060c0 50000
	before=$(grep -c ' pressed$' "$FW_TMP/client.out")
	wtype -k x
	wait_until 20 "the client to get a key after $1" \
		sh -c "[ \$(grep -c ' pressed\$' '$FW_TMP/client.out') -gt $before ]"
}

cat >"$config" <<CONF
bind Super+t exec touch "$FW_TMP/b"
bind Super+r reload
scheduler interval 3
scheduler max-slice 12
CONF
n=$(reloads)
kill -HUP "$(fairway_pid)"
wait_until 20 "the reload" reloaded_past "$n"
rm -f "$FW_TMP/a"
wtype -M logo -k t -m logo
wait_until 20 "Super+T runs the new command" test -e "$FW_TMP/b"
[ -e "$FW_TMP/a" ] && fail "Super+T still ran the old command"
client_works "a reload"
# The file's interval, but the flag's max slice.
has_line "$err" 'Scheduler: interval 3.00 ms, max slice 7.00 ms' ||
	fail "the scheduler's slices did not follow the file (and the flag)"
log "reloaded: Super+T changed, the client kept working"

# Refused: an error on line 2, though line 1 alone would be fine.
cat >"$config" <<CONF
bind Super+t exec touch "$FW_TMP/c"
bind Super+x frobnicate
CONF
kill -HUP "$(fairway_pid)"
wait_until 20 "the refusal logged" has_line "$err" 'Reload refused'
grep -qF "$config:2: unknown action 'frobnicate'" "$err" ||
	fail "the error is not logged as FILE:LINE"
rm -f "$FW_TMP/b"
wtype -M logo -k t -m logo
wait_until 20 "Super+T runs the old command after a refused reload" test -e "$FW_TMP/b"
[ -e "$FW_TMP/c" ] && fail "the refused file's binding ran"
client_works "a refused reload"

# The reload binding, still there since the refused file changed nothing.
cat >"$config" <<CONF
bind Super+t exec touch "$FW_TMP/d"
CONF
n=$(reloads)
wtype -M logo -k r -m logo
wait_until 20 "the reload binding to reload" reloaded_past "$n"
wtype -M logo -k t -m logo
wait_until 20 "Super+T runs the command the reload binding read" test -e "$FW_TMP/d"
client_works "the reload binding"
kill "$client" 2>/dev/null
pass
