#!/bin/sh
# A surface that declares "video" or "game" through wp_content_type_v1 is
# rated output from its first presented frames: within its first 5, where
# the same frames undeclared, or declared "photo" or "none", leave it idle
# (5 frames over the ratings' 8-second window is below the output
# threshold of 1 frame a second). The window reads its own class through
# the scheduler manager after each frame is presented (fw-test-content).
. "$(dirname "$0")/lib.sh"
: "${FW_TEST_CONTENT:?}"

echo "scheduler manager $FW_TEST_CONTENT" >"$XDG_CONFIG_HOME/fairway/config"
fw_start --no-xwayland

# classes TYPE: the classes its first 5 presented frames had, in order.
classes() {
	timeout 60 "$FW_TEST_CONTENT" "$1" 5 >"$FW_TMP/$1.out" \
		2>"$FW_TMP/$1.err" ||
		fail "fw-test-content $1 failed: $(cat "$FW_TMP/$1.err")"
	[ "$(grep -c '^frame' "$FW_TMP/$1.out")" -eq 5 ] ||
		fail "fw-test-content $1 printed: $(cat "$FW_TMP/$1.out")"
	sed -n 's/^frame [0-9]* class //p' "$FW_TMP/$1.out" | tr '\n' ' '
}

for type in video game; do
	seen=$(classes $type)
	case " $seen" in
	*" 2 "*) ;;
	*) fail "a '$type' window was not rated output in its first 5 frames: $seen" ;;
	esac
	log "$type: classes $seen"
done
for type in none photo; do
	seen=$(classes $type)
	case " $seen" in
	*" 2 "*) fail "a '$type' window was rated output in its first 5 frames: $seen" ;;
	esac
	log "$type: classes $seen"
done
pass
