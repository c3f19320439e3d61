#!/bin/sh
# usage: run-client.sh KIND CLIENT [ARGS...]
# Runs CLIENT inside a headless fairway ($FAIRWAY), then checks the JSON
# line it printed last. Without $FAIRWAY the test is skipped (exit 77);
# for stress, which is no Wayland client, no compositor is started.
set -u
kind=$1
client=$2
shift 2
here=$(dirname "$0")

. "$(dirname "$0")/../common/headless-env.sh"

if [ "$kind" = stress ]; then
	"$client" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
else
	if [ -z "${FAIRWAY:-}" ]; then
		echo "FAIRWAY is not set: skipping" >&2
		exit 77
	fi
	"$FAIRWAY" --backend headless --no-xwayland -- "$client" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
fi
if [ "$rc" -ne 0 ]; then
	echo "$client exited $rc" >&2
	cat "$tmp/err" >&2
	exit 1
fi
python3 "$here/check-json.py" "$kind" "$tmp/out" ||
	{ cat "$tmp/err" >&2; exit 1; }
