#!/bin/sh
# Screen sharing as an application asks for it: on a session bus of the
# test's own, with PipeWire and WirePlumber running, xdg-desktop-portal
# picks xdg-desktop-portal-wlr for XDG_CURRENT_DESKTOP=fairway:wlroots,
# xdg-desktop-portal-wlr connects to fairway and finds its output, and a
# ScreenCast session is created and its monitor source selected through
# the portal's D-Bus API (portal-screencast.py).
#
# Start then either gives a PipeWire stream, whose frames must show the
# window on screen (read with GStreamer's pipewiresrc), or, on a session
# rendered with pixman as here, is refused: xdg-desktop-portal-wlr 0.7
# requires a DMA-BUF format from a version 3 screencopy frame, and without
# a GPU wlroots has none to offer. That refusal must be for that reason.
. "$(dirname "$0")/lib.sh"
need_prog dbus-daemon
need_prog gdbus
need_prog pipewire
need_prog wireplumber
portal=/usr/libexec/xdg-desktop-portal
portal_wlr=/usr/libexec/xdg-desktop-portal-wlr
[ -x $portal ] || skip "xdg-desktop-portal is not installed"
[ -x $portal_wlr ] || skip "xdg-desktop-portal-wlr is not installed"
/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null ||
	skip "python3-dbus or python3-gi is not installed"

fw_start --no-xwayland
win=3366cc
start_bg "$FW_TEST_CLIENT" --size 400x300 --color $win \
	>"$FW_TMP/window.out" 2>"$FW_TMP/window.err"
wait_until 30 "the window to map" has_line "$FW_TMP/window.out" '^mapped'

export XDG_CURRENT_DESKTOP=fairway:wlroots
start_bg dbus-daemon --session --nofork --nopidfile \
	--address="unix:path=$FW_TMP/bus" --print-address=1 \
	>"$FW_TMP/dbus.out" 2>"$FW_TMP/dbus.err"
wait_until 20 "the session bus" has_line "$FW_TMP/dbus.out" '^unix:'
DBUS_SESSION_BUS_ADDRESS=$(head -n 1 "$FW_TMP/dbus.out")
export DBUS_SESSION_BUS_ADDRESS

owned() {
	FW_SEEN=$(gdbus call --session --dest org.freedesktop.DBus \
		--object-path /org/freedesktop/DBus \
		--method org.freedesktop.DBus.NameHasOwner "$1" 2>&1)
	[ "$FW_SEEN" = "(true,)" ]
}

start_bg pipewire >"$FW_TMP/pipewire.out" 2>"$FW_TMP/pipewire.err"
wait_until 20 "PipeWire's socket" test -S "$XDG_RUNTIME_DIR/pipewire-0"
start_bg wireplumber >"$FW_TMP/wireplumber.out" 2>"$FW_TMP/wireplumber.err"

# The monitor is picked without asking anyone.
mkdir -p "$XDG_CONFIG_HOME/xdg-desktop-portal-wlr"
printf '[screencast]\nchooser_type=none\noutput_name=HEADLESS-1\n' \
	>"$XDG_CONFIG_HOME/xdg-desktop-portal-wlr/config"
start_bg $portal_wlr -l DEBUG >"$FW_TMP/xdpw.out" 2>&1
wait_until 20 "xdg-desktop-portal-wlr on the bus" \
	owned org.freedesktop.impl.portal.desktop.wlr
start_bg $portal -r -v >"$FW_TMP/portal.out" 2>&1
wait_until 20 "xdg-desktop-portal on the bus" owned org.freedesktop.portal.Desktop
has_line "$FW_TMP/portal.out" 'Using wlr.portal for org.freedesktop.impl.portal.ScreenCast' ||
	fail "xdg-desktop-portal did not pick xdg-desktop-portal-wlr for ScreenCast"

mkfifo "$FW_TMP/cast.hold"
/usr/bin/python3 "$FW_TESTS_DIR/portal-screencast.py" <"$FW_TMP/cast.hold" \
	>"$FW_TMP/cast.out" 2>"$FW_TMP/cast.err" &
cast_pid=$!
FW_HELPERS="$FW_HELPERS $cast_pid"
exec 9>"$FW_TMP/cast.hold"
wait_until 30 "a ScreenCast session" has_line "$FW_TMP/cast.out" '^session '
wait_until 30 "the monitor source selected" has_line "$FW_TMP/cast.out" '^sources'
has_line "$FW_TMP/xdpw.out" 'capturable output: .*name: HEADLESS-1' ||
	fail "xdg-desktop-portal-wlr did not find fairway's output HEADLESS-1"
log "portal session created; xdg-desktop-portal-wlr sees HEADLESS-1"

started() {
	has_line "$FW_TMP/cast.out" '^node ' || has_line "$FW_TMP/cast.out" '^refused Start'
}
wait_until 30 "an answer to Start" started
if has_line "$FW_TMP/cast.out" '^refused'; then
	has_line "$FW_TMP/xdpw.out" 'unable to receive a valid format from wlr_screencopy' ||
		fail "Start was refused ($(cat "$FW_TMP/cast.out" | tail -n 1)) for another reason than DMA-BUF"
	log "Start refused: xdg-desktop-portal-wlr 0.7 wants a DMA-BUF format with screencopy v3, and this pixman session has none"
	exec 9>&-
	pass
fi

need_prog gst-launch-1.0
node=$(sed -n 's/^node //p' "$FW_TMP/cast.out" | head -n 1)
log "PipeWire stream node $node"
frame="$FW_TMP/frame.ppm"
printf 'P6\n1280 720\n255\n' >"$frame"
timeout 30 gst-launch-1.0 -q pipewiresrc path="$node" num-buffers=1 ! \
	videoconvert ! video/x-raw,format=RGB,width=1280,height=720 ! \
	fdsink fd=1 >>"$frame" 2>"$FW_TMP/gst.err" ||
	fail "no frame from the stream: $(tail -n 3 "$FW_TMP/gst.err")"
FW_SHOT=$frame
set -- $(bbox_in_shot $win)
[ "$1" != none ] && [ "$5" -ge 100000 ] ||
	fail "the streamed frame does not show the window: $win at '$*' (see $frame)"
log "a frame came through PipeWire with the window in it"
exec 9>&-
pass
