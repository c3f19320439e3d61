#!/bin/sh
# No configuration file can stop fairway. Files whose last line ends in a
# blank, a tab or a CR with no newline after it, and files that are no
# regular file (a fifo nobody writes to), are read at once by
# --check-config, by a start and by a SIGHUP reload, and a running session
# goes on serving its clients after each reload and stops on SIGTERM.
. "$(dirname "$0")/../compositor/lib.sh"
need_prog wayland-info

# shape NAME PRINTF-FORMAT: a file of that content.
shape() {
	printf "$2" >"$FW_TMP/$1.conf"
}
shape blank ' '
shape tab '\t'
shape cr '\r'
shape exec-crlf-cr 'exec true\r\n\r'
shape exec-blank 'exec true '
shape exec-tab-blank 'exec true\t '
shape comment-cr '# a comment\r'
shape lines-then-blanks 'exec true\n\n \t\r'
shape quoted-blank "bind Super+t exec 'true' "
mkfifo "$FW_TMP/fifo.conf"

# --check-config: an answer, whatever it is (a fifo is no configuration).
for f in "$FW_TMP"/*.conf; do
	timeout -k 5 20 "$FAIRWAY" --check-config "$f" >"$FW_TMP/check.out" 2>&1
	status=$?
	case $status in
	0 | 1) ;;
	124 | 137) fail "--check-config hung on $(basename "$f") ($(od -c "$f" | head -n 2 | tr '\n' ' '))" ;;
	*) fail "--check-config exited $status on $(basename "$f"): $(cat "$FW_TMP/check.out")" ;;
	esac
	case $(basename "$f") in
	fifo.conf)
		[ $status = 1 ] || fail "--check-config took a fifo for a configuration"
		;;
	*)
		[ $status = 0 ] || fail "--check-config refused $(basename "$f"): $(cat "$FW_TMP/check.out")"
		;;
	esac
done
log "--check-config answered for every shape"

# A start on each of two shapes.
config=$XDG_CONFIG_HOME/fairway/config
cp "$FW_TMP/exec-crlf-cr.conf" "$config"
fw_start -V --no-xwayland
fw_stop
[ "$FW_STATUS" -eq 0 ] || fail "fairway exited $FW_STATUS on SIGTERM"
cp "$FW_TMP/blank.conf" "$config"
fw_start -V --no-xwayland
err=$FW_TMP/fairway-$FW_STARTS.err

# Reloads: every shape, then the fifo, each followed by a round trip.
served() {
	timeout -k 5 20 wayland-info >"$FW_TMP/info.out" 2>&1
}
answered() {
	FW_SEEN=$(grep -c 'Configuration reloaded from\|Reload refused' "$err")
	[ "$FW_SEEN" -gt "$1" ]
}
for f in "$FW_TMP"/*.conf; do
	rm -f "$config"
	if [ -p "$f" ]; then
		mkfifo "$config"
	else
		cp "$f" "$config"
	fi
	n=$(grep -c 'Configuration reloaded from\|Reload refused' "$err")
	kill -HUP "$(fairway_pid)"
	wait_until 20 "fairway's answer to a reload of $(basename "$f")" answered "$n"
	served || fail "no round trip after a reload of $(basename "$f"): $(tail -n 3 "$FW_TMP/info.out")"
done
log "every reload answered, and the session went on"
pass
