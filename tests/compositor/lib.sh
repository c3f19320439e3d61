# Shared by the compositor tests; each test sources it first.
#
# Gives every test a private XDG_RUNTIME_DIR, a headless wlroots, fairway
# started under `timeout $FW_LIFETIME`, bounded polling helpers and
# cleanup on exit.
# Files the test leaves (logs, screenshots) stay in $FW_TMP when it fails.

set -u

: "${FAIRWAY:?set FAIRWAY to the fairway binary}"
: "${FW_TEST_CLIENT:=fw-test-client}"
: "${FW_TEST_POINTER:=fw-test-pointer}"
: "${FW_TEST_LAYER:=fw-test-layer}"
: "${PPM_PROBE:=ppm-probe}"
: "${FW_TESTS_DIR:=$(dirname "$0")}"

FW_NAME=$(basename "$0" .sh)
FW_TMP=$(mktemp -d "${TMPDIR:-/tmp}/fw-$FW_NAME.XXXXXX") || exit 99
chmod 700 "$FW_TMP"
export XDG_RUNTIME_DIR="$FW_TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
unset WAYLAND_DISPLAY WAYLAND_SOCKET DISPLAY
# Tests run as root in CI; keep user configs out of foot and friends.
export HOME="$FW_TMP/home" XDG_CONFIG_HOME="$FW_TMP/home/.config"
# And fairway's own: an empty file, so that no system-wide one is read.
mkdir -p "$XDG_CONFIG_HOME/fairway"
: >"$XDG_CONFIG_HOME/fairway/config"

FW_SOCKET="fw-test-$$"
# Only a net for a fairway the cleanup missed: as long as meson's own
# timeout for the longest of these tests, so that a loaded machine slowing
# a long test never ends its fairway first.
FW_LIFETIME=300
FW_PID=""      # the `timeout` wrapping fairway
FW_HELPERS=""  # background processes the test started
FW_PASSED=0
FW_SHOT=""     # the latest screenshot
FW_SHOTS=0
FW_STARTS=0
FW_SEEN=""    # what a wait_until predicate saw last, for failure messages

log() {
	echo "# $*"
}

fw_dump() {
	for f in "$FW_TMP"/*.out "$FW_TMP"/*.err; do
		[ -s "$f" ] || continue
		echo "--- last lines of $f:"
		tail -n 25 "$f"
	done
	[ -n "$FW_SHOT" ] && echo "--- last screenshot: $FW_SHOT"
	echo "--- files kept in $FW_TMP"
}

fail() {
	echo "FAIL: $*"
	fw_dump
	exit 1
}

skip() {
	echo "SKIP: $*"
	FW_PASSED=1
	exit 77
}

pass() {
	# A fairway still running must also stop cleanly: under the sanitizers
	# a leak or an error at shutdown shows as its exit status.
	if [ -n "$FW_PID" ] && alive "$FW_PID"; then
		fw_stop
		[ "$FW_STATUS" -eq 0 ] ||
			fail "fairway exited $FW_STATUS$(signal_name $FW_STATUS) on SIGTERM"
	fi
	echo "PASS: $FW_NAME"
	FW_PASSED=1
	exit 0
}

need_prog() {
	command -v "$1" >/dev/null 2>&1 || skip "$1 is not installed"
}

alive() {
	[ -n "$1" ] || return 1
	kill -0 "$1" 2>/dev/null || return 1
	# A zombie is dead, only not yet reaped.
	state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null)
	[ "$state" != Z ]
}

# Whether fairway has gone, reaped or not: what waiting for its exit needs,
# where `kill -0` would still see the zombie.
fw_exited() {
	! alive "$FW_PID"
}

# Descendants of a process, children first, one pid per line.
descendants() {
	for child in $(pgrep -P "$1"); do
		echo "$child"
		descendants "$child"
	done
}

# The fairway process itself (FW_PID is the timeout wrapper).
fairway_pid() {
	pgrep -P "$FW_PID" | head -n 1
}

stop_pid() {
	alive "$1" || return 0
	kill -TERM "$1" 2>/dev/null
	i=0
	while alive "$1" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	alive "$1" && kill -KILL "$1" 2>/dev/null
	return 0
}

cleanup() {
	for pid in $FW_HELPERS; do
		stop_pid "$pid"
	done
	if [ -n "$FW_PID" ]; then
		stop_pid "$(fairway_pid)"
		stop_pid "$FW_PID"
	fi
	wait 2>/dev/null
	if [ "$FW_PASSED" = 1 ]; then
		rm -rf "$FW_TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Runs "$@" in the background, remembered for cleanup; sets BG_PID.
start_bg() {
	"$@" &
	BG_PID=$!
	FW_HELPERS="$FW_HELPERS $BG_PID"
}

# signal_name STATUS: " = SIGNAME" for statuses of processes a signal killed;
# 124 is timeout's own status for a command that ran past its limit.
signal_name() {
	if [ "$1" -eq 124 ]; then
		echo " = ran past timeout $FW_LIFETIME"
	elif [ "$1" -gt 128 ]; then
		echo " = SIG$(kill -l $(($1 - 128)) 2>/dev/null)"
	fi
}

# wait_until SECONDS WHAT COMMAND...: polls COMMAND until it succeeds. The
# bound is generous; it only turns a hang into a failure with a message.
wait_until() {
	limit=$1
	what=$2
	shift 2
	FW_SEEN=""
	deadline=$(($(date +%s) + limit))
	while ! "$@"; do
		if [ -n "$FW_PID" ] && ! alive "$FW_PID"; then
			# What was awaited may have come with the exit (fw_exited).
			"$@" && return 0
			wait "$FW_PID"
			FW_STATUS=$?
			FW_PID=""
			fail "fairway exited (status $FW_STATUS$(signal_name $FW_STATUS)) while waiting for $what"
		fi
		if [ "$(date +%s)" -ge "$deadline" ]; then
			fail "no $what after ${limit}s${FW_SEEN:+ (last seen: $FW_SEEN)}"
		fi
		sleep 0.2
	done
}

has_line() {
	grep -q -e "$2" "$1" 2>/dev/null
}

# allow_manager PATH...: the next fairway shows fairway_scheduler_manager_v1
# to these executables (full paths) as well as to fairway-top's installed
# one, through the configuration file.
allow_manager() {
	echo "scheduler manager $*" >>"$XDG_CONFIG_HOME/fairway/config"
}

# fw_start [ARGS...]: starts fairway without a command and waits for its
# WAYLAND_DISPLAY= line; exports WAYLAND_DISPLAY and DISPLAY from it.
fw_start() {
	# A new file per start: the shell truncates it only once the child runs.
	FW_STARTS=$((FW_STARTS + 1))
	FW_OUT="$FW_TMP/fairway-$FW_STARTS.out"
	timeout "$FW_LIFETIME" "$FAIRWAY" --backend headless --socket "$FW_SOCKET" "$@" \
		>"$FW_OUT" 2>"$FW_TMP/fairway-$FW_STARTS.err" &
	FW_PID=$!
	wait_until 30 "WAYLAND_DISPLAY= line from fairway" \
		has_line "$FW_OUT" '^WAYLAND_DISPLAY='
	WAYLAND_DISPLAY=$(sed -n 's/^WAYLAND_DISPLAY=//p' "$FW_OUT" | head -n 1)
	export WAYLAND_DISPLAY
	[ -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" ] ||
		fail "fairway announced $WAYLAND_DISPLAY but $XDG_RUNTIME_DIR/$WAYLAND_DISPLAY is no socket"
	case " $* " in
	*" --no-xwayland "*) ;;
	*)
		wait_until 30 "DISPLAY= line from fairway" \
			has_line "$FW_OUT" '^DISPLAY='
		DISPLAY=$(sed -n 's/^DISPLAY=//p' "$FW_OUT" | head -n 1)
		export DISPLAY
		[ -n "$DISPLAY" ] || fail "fairway printed an empty DISPLAY= (XWayland did not start)"
		;;
	esac
	log "fairway up: WAYLAND_DISPLAY=$WAYLAND_DISPLAY DISPLAY=${DISPLAY:-}"
}

# fw_stop: SIGTERM to fairway itself; waits (bounded) and sets FW_STATUS.
fw_stop() {
	pid=$(fairway_pid)
	[ -n "$pid" ] && kill -TERM "$pid"
	i=0
	while alive "$FW_PID" && [ $i -lt 300 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	alive "$FW_PID" && fail "fairway still running 30s after SIGTERM"
	wait "$FW_PID"
	FW_STATUS=$?
	FW_PID=""
}

# screenshot: grabs the output into a new PPM; sets FW_SHOT.
screenshot() {
	FW_SHOTS=$((FW_SHOTS + 1))
	FW_SHOT="$FW_TMP/shot-$FW_SHOTS.ppm"
	grim -t ppm "$FW_SHOT" 2>>"$FW_TMP/grim.err"
}

# capture_start: a screencopy client (fw-test-capture) that stays bound;
# capture FILE writes the output's buffer to FILE pixel for pixel, where
# grim would resample a scaled output to its own scale. capture_stop ends
# it.
capture_start() {
	: "${FW_TEST_CAPTURE:?set FW_TEST_CAPTURE to fw-test-capture}"
	mkfifo "$FW_TMP/capture.in"
	"$FW_TEST_CAPTURE" <"$FW_TMP/capture.in" >"$FW_TMP/capture.out" \
		2>"$FW_TMP/capture.err" &
	FW_CAPTURE_PID=$!
	FW_HELPERS="$FW_HELPERS $FW_CAPTURE_PID"
	exec 9>"$FW_TMP/capture.in"
	FW_CAPTURES=0
	wait_until 30 "the capture client to bind" \
		has_line "$FW_TMP/capture.out" '^bound$'
}

capture() {
	FW_CAPTURES=$((FW_CAPTURES + 1))
	FW_SHOT=$1
	echo "capture $1" >&9
	i=0
	while [ "$(grep -c -e '^ready$' -e '^failed$' "$FW_TMP/capture.out")" -lt $FW_CAPTURES ] &&
		[ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! has_line "$FW_TMP/capture.out" '^failed$' && [ -s "$1" ] ||
		fail "screencopy into $1 failed: $(cat "$FW_TMP/capture.err")"
}

capture_stop() {
	exec 9>&-
	stop_pid "$FW_CAPTURE_PID"
	rm -f "$FW_TMP/capture.in" "$FW_TMP/capture.out"
}

# Bounding box "X Y W H COUNT" of a colour in the latest screenshot.
bbox_in_shot() {
	"$PPM_PROBE" "$FW_SHOT" bbox "$1" "${2:-2}"
}

# shows_color COLOR MIN: true when a fresh screenshot has at least MIN
# pixels of COLOR; leaves the box in BBOX.
shows_color() {
	screenshot || return 1
	BBOX=$(bbox_in_shot "$1")
	FW_SEEN="box of $1: $BBOX in $FW_SHOT"
	[ "$BBOX" != none ] || return 1
	set -- "$1" "$2" $BBOX
	[ "${7:-0}" -ge "$2" ]
}

# wait_color SECONDS COLOR MIN: polls screenshots until COLOR shows.
wait_color() {
	wait_until "$1" "$3 pixels of colour $2 on screen" \
		shows_color "$2" "$3"
}

# Waits until a window's bounding box stops changing between screenshots,
# since a compositor may draw a window before the client's next commit.
wait_color_settled() {
	wait_color "$1" "$2" "$3"
	prev=""
	i=0
	while [ "$BBOX" != "$prev" ] && [ $i -lt 25 ]; do
		prev=$BBOX
		sleep 0.2
		wait_color "$1" "$2" "$3"
		i=$((i + 1))
	done
}

# Compares two integers with a tolerance: near ACTUAL EXPECTED TOL.
near() {
	d=$(($1 - $2))
	[ "${d#-}" -le "$3" ]
}
