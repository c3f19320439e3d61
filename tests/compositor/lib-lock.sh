# Shared by the screen lock and idle tests; sources lib.sh.
. "$(dirname "$0")/lib.sh"

: "${FW_TEST_LOCKER:=fw-test-locker}"
: "${FW_TEST_TOPLEVEL:=fw-test-toplevel}"
# What fairway shows on a locked output that has no lock surface.
LOCK_COLOR=202020

# start_fed NAME PROGRAM [ARGS...]: PROGRAM, with its events in
# $FW_TMP/NAME.out and its commands from the fifo $FW_TMP/NAME.cmd, opened
# read-write so that the program never sees it end; sets BG_PID.
start_fed() {
	name=$1
	shift
	mkfifo "$FW_TMP/$name.cmd" || fail "cannot make $FW_TMP/$name.cmd"
	# Not start_bg: an asynchronous command's stdin is /dev/null unless
	# the command itself redirects it.
	"$@" <>"$FW_TMP/$name.cmd" >"$FW_TMP/$name.out" 2>"$FW_TMP/$name.err" &
	BG_PID=$!
	FW_HELPERS="$FW_HELPERS $BG_PID"
}

# start_locker NAME [ARGS...]: a fw-test-locker, fed as start_fed does.
start_locker() {
	name=$1
	shift
	start_fed "$name" "$FW_TEST_LOCKER" "$@"
}

# tell NAME COMMAND: a line for a program start_fed started. A fifo with no
# reader left blocks its writer: that is a failure, not a hang.
tell() {
	timeout 10 sh -c 'echo "$1" >"$2"' sh "$2" "$FW_TMP/$1.cmd" ||
		fail "cannot tell $1 '$2': it has gone"
}

# lines FILE: how many lines FILE has (0 when it does not exist).
lines() {
	if [ -f "$1" ]; then
		wc -l <"$1" | tr -d ' '
	else
		echo 0
	fi
}

# count_since FILE FROM PATTERN: lines after line FROM of FILE that match.
count_since() {
	tail -n +"$(($2 + 1))" "$1" 2>/dev/null | grep -c -e "$3"
}

# has_since FILE FROM PATTERN N: at least N such lines.
has_since() {
	[ "$(count_since "$1" "$2" "$3")" -ge "$4" ]
}

# pixels COLOR: pixels of COLOR in the latest screenshot.
pixels() {
	"$PPM_PROBE" "$FW_SHOT" count "$1" 2
}

# shows_only COLOR [OTHER...]: a fresh screenshot is all COLOR, and no OTHER
# colour shows, but for what the pointer (drawn in, 24x24) may cover.
shows_only() {
	screenshot || return 1
	want=$1
	shift
	set -- $("$PPM_PROBE" "$FW_SHOT" size) "$@"
	total=$(($1 * $2))
	shift 2
	have=$(pixels "$want")
	FW_SEEN="$have of $total pixels are $want in $FW_SHOT"
	[ "$have" -ge $((total - 24 * 24)) ] || return 1
	for other in "$@"; do
		n=$(pixels "$other")
		if [ "$n" -ge $((24 * 24)) ]; then
			FW_SEEN="$FW_SEEN, and $n are $other"
			return 1
		fi
	done
}

# shows_none COLOR...: a fresh screenshot has none of these colours, but
# for what the pointer may cover.
shows_none() {
	screenshot || return 1
	FW_SEEN="$FW_SHOT"
	for other in "$@"; do
		n=$(pixels "$other")
		if [ "$n" -ge $((24 * 24)) ]; then
			FW_SEEN="$n pixels are $other in $FW_SHOT"
			return 1
		fi
	done
}

# boosts PID: the input boosts the gate last reported for PID (--stats).
boosts() {
	sed -n "s/.*\"pid\":$1,.*\"boosts\":\([0-9]*\),.*/\1/p" \
		"$FW_TMP/stats" 2>/dev/null | tail -n 1
}
