#!/bin/sh
# Outputs from the configuration file, as wlr-randr (over
# wlr-output-management) sees them: scale, position, mode and transform at
# start; then a reload changes the scale and the second output's position
# and leaves what the new file does not name; an output the file turns off
# is off, and a reload that names it turns it back on.
. "$(dirname "$0")/../compositor/lib.sh"
need_prog wlr-randr
need_prog grim

cat >"$XDG_CONFIG_HOME/fairway/config" <<'CONF'
output HEADLESS-1 scale 2 position 100,50
output HEADLESS-1 mode 1024x768@30
output HEADLESS-2 transform 90 disable
CONF
fw_start --no-xwayland --outputs 2

# field OUTPUT NAME: the value wlr-randr gives that output's NAME line.
field() {
	wlr-randr | awk -v out="$1" -v key="  $2: " '
		/^[^ ]/ { here = ($1 == out) }
		here && index($0, key) == 1 { print substr($0, length(key) + 1); exit }'
}
current_mode() {
	wlr-randr | awk -v out="$1" '
		/^[^ ]/ { here = ($1 == out) }
		here && /\(current\)/ { print $1; exit }'
}
is() {
	FW_SEEN="$1 $2: $(field "$1" "$2")"
	[ "$(field "$1" "$2")" = "$3" ]
}

wait_until 20 "HEADLESS-1 at scale 2" is HEADLESS-1 Scale 2.000000
is HEADLESS-1 Position 100,50 || fail "HEADLESS-1: $FW_SEEN, want 100,50"
[ "$(current_mode HEADLESS-1)" = 1024x768 ] ||
	fail "HEADLESS-1's mode is $(current_mode HEADLESS-1), want 1024x768"
# A disabled output takes nothing else of its line.
is HEADLESS-2 Enabled no || fail "HEADLESS-2: $FW_SEEN, want it off"
log "$(wlr-randr | tr '\n' ' ')"

cat >"$XDG_CONFIG_HOME/fairway/config" <<'CONF'
output HEADLESS-1 scale 1.5
output HEADLESS-2 enable position 2000,0
CONF
kill -HUP "$(fairway_pid)"
wait_until 20 "HEADLESS-1 at scale 1.5 after SIGHUP" is HEADLESS-1 Scale 1.500000
wait_until 20 "HEADLESS-2 at 2000,0 after SIGHUP" is HEADLESS-2 Position 2000,0
# The mode, which the new file does not name, stays.
[ "$(current_mode HEADLESS-1)" = 1024x768 ] ||
	fail "HEADLESS-1's mode is $(current_mode HEADLESS-1) after the reload"

is HEADLESS-2 Enabled yes || fail "HEADLESS-2: $FW_SEEN after the reload"
# Its transform, which the new file does not name, stays what it was.
is HEADLESS-2 Transform normal || fail "HEADLESS-2: $FW_SEEN after the reload"
pass
