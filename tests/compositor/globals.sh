#!/bin/sh
# wayland-info lists every global in required-globals.txt at its version.
. "$(dirname "$0")/lib.sh"
need_prog wayland-info

if [ "${FW_SCHEDULER:-on}" = off ]; then
	fw_start --scheduler off
else
	fw_start
fi
wayland-info >"$FW_TMP/info.out" 2>"$FW_TMP/info.err" ||
	fail "wayland-info failed"

missing=""
while read -r name version; do
	case "$name" in
	"" | "#"*) continue ;;
	esac
	have=$(sed -n "s/^interface: '$name',[[:space:]]*version:[[:space:]]*\([0-9]*\).*/\1/p" \
		"$FW_TMP/info.out" | sort -n | tail -n 1)
	if [ -z "$have" ]; then
		missing="$missing $name"
	elif [ "$have" -lt "${version:-1}" ]; then
		missing="$missing $name(v$have<v$version)"
	fi
done <"$FW_TESTS_DIR/required-globals.txt"

[ -z "$missing" ] || {
	grep '^interface:' "$FW_TMP/info.out"
	fail "missing globals:$missing"
}
log "all $(grep -c '^[a-z]' "$FW_TESTS_DIR/required-globals.txt") required globals present"
pass
