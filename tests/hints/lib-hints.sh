# Shared by the compositor-level hint tests, on top of the compositor
# tests' lib.sh: a hint client driven through a fifo, and attribute checks.
. "${FW_LIB:?set FW_LIB to tests/compositor/lib.sh}"

: "${FW_SCHED_ATTR:?}" "${FW_HINT_CLIENT:?}"

# Attributes of every thread of $1, without the tids.
attrs() {
	"$FW_SCHED_ATTR" "$1" 2>/dev/null | cut -d' ' -f2-
}

# all_threads PID PATTERN: every thread's attribute line matches PATTERN.
all_threads() {
	# One reading, judged and reported: a second one could differ.
	seen=$(attrs "$1") || return 1
	FW_SEEN=$(printf '%s\n' "$seen" | tr '\n' ';')
	[ -n "$seen" ] || return 1
	! printf '%s\n' "$seen" | grep -v -q -e "$2"
}

# never_boosted PID NAME SECONDS: at every look for SECONDS, no thread of
# PID has a negative nice or an output/interactive slice; fails naming NAME.
# FW_SEEN is the last look.
never_boosted() {
	FW_SEEN=$(attrs "$1" | tr '\n' ';')
	end=$(($(date +%s) + $3))
	while [ "$(date +%s)" -lt "$end" ]; do
		now=$(attrs "$1" | tr '\n' ';')
		case "$now" in
		*"nice=-"* | *"slice=1000000 "* | *"slice=500000 "*)
			fail "$2's threads are boosted: $now" ;;
		esac
		FW_SEEN=$now
		sleep 0.5
	done
}

same_attrs() {
	FW_SEEN=$(attrs "$1" | tr '\n' ';')
	[ "$FW_SEEN" = "$2" ]
}

# hint_client_start NAME THREADS: the client waits for "connect"; sets
# HC_PID and opens the fifo on fd 3... per name, as HC_FIFO.
hint_client_start() {
	HC_OUT="$FW_TMP/$1.out"
	HC_FIFO="$FW_TMP/$1.fifo"
	mkfifo "$HC_FIFO"
	# The client itself, not a shell around it: its pid is what is hinted.
	# Nice 3 makes its originals differ from every class's attributes.
	start_bg sh -c 'exec nice -n 3 "$0" "$1" <"$2" >"$3"' "$FW_HINT_CLIENT" "$2" \
		"$HC_FIFO" "$HC_OUT"
	HC_PID=$BG_PID
	exec 3>"$HC_FIFO"
	wait_until 20 "$1 ready" has_line "$HC_OUT" '^ready'
}

hint_client_send() {
	echo "$1" >&3
}

# Where fairway keeps its journals (scheduler/state_dir.h): root's fairways
# share /run/fairway, so each test looks for its own fairway's journal.
if [ "$(id -u)" = 0 ]; then
	FW_STATE_DIR=/run/fairway
else
	FW_STATE_DIR=$XDG_RUNTIME_DIR
fi

# journal_present [PID]: the journal of fairway PID (default: the running one).
journal_present() {
	[ -f "$FW_STATE_DIR/fairway-hints-${1:-$(fairway_pid)}.journal" ]
}

# The attributes fairway's interactive default gives (privileged here).
INTERACTIVE='policy=0 nice=-5 slice=500000 reset=1'

need_privilege() {
	grep -q 'CapEff' /proc/self/status || skip "no /proc status"
	caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
	[ $((0x$caps >> 23 & 1)) = 1 ] || skip "needs CAP_SYS_NICE"
}
