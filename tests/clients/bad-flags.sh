#!/bin/sh
# usage: bad-flags.sh CLIENT...
# Every client must reject bad flags with exit status 2 and a usage text,
# and answer --help with exit status 0. No compositor is needed: flags are
# parsed before connecting.
set -u
unset WAYLAND_DISPLAY
status=0
expect() {
	want=$1
	shift
	"$@" >/dev/null 2>"$tmp_err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		echo "FAIL: $* exited $got, want $want" >&2
		status=1
	elif [ "$want" -eq 2 ] && ! grep -q '^usage:' "$tmp_err"; then
		echo "FAIL: $* printed no usage" >&2
		status=1
	fi
}
tmp_err=$(mktemp)
trap 'rm -f "$tmp_err"' EXIT
for client in "$@"; do
	expect 0 "$client" --help
	expect 2 "$client" --no-such-flag
	expect 2 "$client" --duration
	expect 2 "$client" --duration abc
	expect 2 "$client" --duration -1
	expect 2 "$client" stray-argument
done
plaid=""
for client in "$@"; do
	case "$client" in
	*fairway-plaid) plaid=$client ;;
	esac
done
if [ -n "$plaid" ]; then
	expect 2 "$plaid" --mode nonsense
	expect 2 "$plaid" --size 0x10
	expect 2 "$plaid" --size 640
	expect 2 "$plaid" --batch 0
fi
for client in "$@"; do
	case "$client" in
	*fairway-anim)
		expect 2 "$client" --draw-in elsewhere
		expect 2 "$client" --work-ms -1
		expect 2 "$client" --setsid-child=yes
		expect 2 "$client" --warmup -2
		;;
	*fairway-stress)
		expect 2 "$client" --sessions=no
		;;
	esac
done
exit $status
