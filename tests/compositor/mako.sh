#!/bin/sh
# mako, on a D-Bus session bus of the test's own, shows a notification sent
# with notify-send where its configuration puts it (top right, 10 pixels
# in), and takes it away when dismissed.
. "$(dirname "$0")/lib.sh"
need_prog grim
need_prog mako
need_prog makoctl
need_prog notify-send
need_prog dbus-daemon

fw_start --no-xwayland

start_bg dbus-daemon --session --nofork --nopidfile \
	--address="unix:path=$FW_TMP/bus" --print-address=1 \
	>"$FW_TMP/dbus.out" 2>"$FW_TMP/dbus.err"
wait_until 20 "the session bus" has_line "$FW_TMP/dbus.out" '^unix:'
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$FW_TMP/dbus.out")
export DBUS_SESSION_BUS_ADDRESS

# One colour for box, border and text: the notification is one rectangle.
color=aa3366
mkdir -p "$XDG_CONFIG_HOME/mako"
cat >"$XDG_CONFIG_HOME/mako/config" <<EOF
background-color=#$color
text-color=#$color
border-color=#$color
width=300
margin=10
anchor=top-right
default-timeout=0
EOF
start_bg mako >"$FW_TMP/mako.out" 2>"$FW_TMP/mako.err"
# makoctl answers once mako owns its name on the bus.
mako_listening() {
	FW_SEEN=$(makoctl list 2>&1)
}
wait_until 20 "mako on the session bus" mako_listening

notify-send "fairway" "a notification from the tests" 2>"$FW_TMP/notify.err" ||
	fail "notify-send failed: $(cat "$FW_TMP/notify.err")"
wait_color 20 $color 3000
set -- $BBOX
log "the notification shows at $1,$2 $3x$4"
[ "$1 $2 $3" = "970 10 300" ] && [ "$4" -ge 20 ] ||
	fail "the notification is at $1,$2 $3x$4, want 300 wide at 970,10 (see $FW_SHOT)"

makoctl dismiss 2>"$FW_TMP/makoctl.err" ||
	fail "makoctl dismiss failed: $(cat "$FW_TMP/makoctl.err")"
no_notification() {
	screenshot || return 1
	FW_SEEN="box of $color: $(bbox_in_shot $color)"
	[ "$(bbox_in_shot $color)" = none ]
}
wait_until 20 "the dismissed notification to leave the screen" no_notification
pass
