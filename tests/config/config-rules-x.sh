#!/bin/sh
# Per-application rules for X clients: a class= rule gives an xterm's
# process (named through X-Resource) its hint class, and exe=Xwayland gives
# the one connection all X clients share its client priority in --stats.
. "$(dirname "$0")/../compositor/lib.sh"
need_prog xterm
need_prog xdotool

cat >"$XDG_CONFIG_HOME/fairway/config" <<'CONF'
rule class=XTerm hint background
rule exe=*/Xwayland priority -2
CONF
stats=$FW_TMP/stats
fw_start -V --stats "$stats" --hints dry-run
err=$FW_TMP/fairway-$FW_STARTS.err

start_bg xterm -T fw-rules-xterm -e sh -c 'read line' >"$FW_TMP/xterm.out" 2>&1
xterm=$BG_PID
mapped() {
	FW_SEEN=$(timeout 10 xdotool search --onlyvisible --name fw-rules-xterm 2>&1)
	[ -n "$FW_SEEN" ]
}
wait_until 30 "the xterm mapped" mapped
wait_until 20 "background for the xterm ($xterm), by its X class" \
	has_line "$err" "hints: pid $xterm idle -> background"

# wlroots starts Xwayland through an intermediate fork: find it by display.
xwayland=$(for p in $(pgrep -x Xwayland); do
	tr '\0' '\n' <"/proc/$p/cmdline" | grep -qx "$DISPLAY" && echo "$p"
done | head -n 1)
[ -n "$xwayland" ] || fail "no Xwayland for $DISPLAY"
priority_is() {
	line=$(grep "\"pid\":$1," "$stats" 2>/dev/null | tail -n 1)
	FW_SEEN="pid $1: $(echo "$line" | grep -o '"client_priority":[-0-9]*')"
	case $line in
	*"\"client_priority\":$2,"*) return 0 ;;
	esac
	return 1
}
# The gate knows Xwayland's connection by the process that writes to the
# socketpair wlroots made for it: Xwayland's own pid.
wait_until 20 "client_priority -2 for Xwayland's connection" priority_is "$xwayland" -2
has_line "$err" "Client pid $xwayland (Xwayland): priority -2, rule at line 2" ||
	fail "the rule was not logged as matching Xwayland ($xwayland)"
kill "$xterm" 2>/dev/null
pass
