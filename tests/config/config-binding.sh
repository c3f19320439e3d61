#!/bin/sh
# Key bindings from the configuration file, typed through a virtual
# keyboard (wtype): a bound command runs, with its quoting intact; an
# unbound built-in binding lets its key through to the focused window; the
# built-in bindings the file leaves alone still work.
. "$(dirname "$0")/../compositor/lib.sh"
need_prog wtype

export TERMINAL="touch $FW_TMP/terminal-started"
cat >"$XDG_CONFIG_HOME/fairway/config" <<CONF
# The file's own binding, its argument quoted with a space in it.
bind Super+t exec touch "$FW_TMP/bound file"
bind Ctrl+Alt+F5 exec sh -c 'echo "two words" >"\$1"' sh "$FW_TMP/quoted"
unbind Super+Return
CONF
fw_start --no-xwayland

start_bg "$FW_TEST_CLIENT" --color 3060c0 --size 300x200 --duration 60 \
	>"$FW_TMP/client.out" 2>"$FW_TMP/client.err"
client=$BG_PID
wait_until 20 "window focused" has_line "$FW_TMP/client.out" 'keyboard-enter'

wtype -M logo -k t -m logo
wait_until 20 "Super+T runs the file's command" test -e "$FW_TMP/bound file"

wtype -M ctrl -M alt -k F5 -m alt -m ctrl
wait_until 20 "Ctrl+Alt+F5 runs its quoted command" test -s "$FW_TMP/quoted"
[ "$(cat "$FW_TMP/quoted")" = "two words" ] ||
	fail "the quoted command wrote \"$(cat "$FW_TMP/quoted")\", want \"two words\""

# Unbound, Super+Return is a key like any other: the window gets it.
before=$(grep -c ' pressed$' "$FW_TMP/client.out")
wtype -M logo -k Return -m logo
wait_until 20 "the window to get the unbound Super+Return" \
	sh -c "[ \$(grep -c ' pressed\$' '$FW_TMP/client.out') -gt $before ]"
[ -e "$FW_TMP/terminal-started" ] && fail "the unbound Super+Return started \$TERMINAL"

# A built-in binding the file does not touch.
wtype -M logo -k q -m logo
wait_until 20 "Super+Q closes the window" has_line "$FW_TMP/client.out" '^close'
kill "$client" 2>/dev/null
pass
