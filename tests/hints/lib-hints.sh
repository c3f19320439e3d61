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

# hint_client_start NAME THREADS [setsid]: the client waits for "connect";
# sets HC_PID and opens the fifo on fd 3... per name, as HC_FIFO. With
# setsid, it runs in a session of its own, as fairway starts applications.
hint_client_start() {
	HC_OUT="$FW_TMP/$1.out"
	HC_FIFO="$FW_TMP/$1.fifo"
	mkfifo "$HC_FIFO"
	: >"$HC_OUT"
	# As fairway's user where fw_deploy made it another.
	[ -n "$FW_AS" ] && chown "$FW_USER" "$HC_FIFO" "$HC_OUT"
	# The client itself, not a shell around it: its pid is what is hinted
	# (a background shell is no process group leader: setsid does not
	# fork). Nice 3 makes its originals differ from every class's.
	start_bg $FW_AS sh -c 'exec ${4:+setsid} nice -n 3 "$0" "$1" <"$2" >"$3"' \
		"$FW_HINT_CLIENT" "$2" "$HC_FIFO" "$HC_OUT" "${3:-}"
	HC_PID=$BG_PID
	exec 3>"$HC_FIFO"
	wait_until 20 "$1 ready" has_line "$HC_OUT" '^ready'
}

hint_client_send() {
	echo "$1" >&3
}

# hint_client_interactive NAME: maps the client's window and moves the
# pointer over it, until its threads have the interactive attributes.
hint_client_interactive() {
	hint_client_send connect
	wait_until 20 "the $1 window" has_line "$HC_OUT" '^mapped'
	"$FW_TEST_POINTER" move 640 360 move 650 370 ||
		fail "fw-test-pointer failed"
	wait_until 20 "interactive attributes on $1" \
		all_threads "$HC_PID" "^$INTERACTIVE"
}

# fw_crash: SIGKILL to fairway; sets CRASHED to its pid.
fw_crash() {
	CRASHED=$(fairway_pid)
	kill -KILL "$CRASHED"
	wait "$FW_PID"
	FW_PID=""
}

# Where fairway keeps its journals (scheduler/hints/state_dir.h): root's fairways
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
INTERACTIVE='policy=0 nice=-10 slice=500000 reset=1'
# And its output default.
OUTPUT='policy=0 nice=-10 slice=1000000 reset=1'
# The nice both give an application's task group.
GROUP_BOOST=-15

# x_focused TITLE: the X window with the focus is named TITLE.
x_focused() {
	FW_SEEN="X focus on '$(timeout 10 xdotool getwindowfocus getwindowname 2>&1)'"
	[ "$FW_SEEN" = "X focus on '$1'" ]
}

# autogroup_nice PID: the nice of PID's autogroup.
autogroup_nice() {
	sed -n 's/^\/autogroup-[0-9]* nice //p' "/proc/$1/autogroup" 2>/dev/null
}

need_autogroups() {
	[ -r /proc/self/autogroup ] &&
		[ "$(cat /proc/sys/kernel/sched_autogroup_enabled)" = 1 ] ||
		skip "autogroups off"
}

# children_of PID: its children's pids, one a line.
children_of() {
	cat /proc/"$1"/task/*/children 2>/dev/null | tr -s ' ' '\n' | grep .
}

# session_of PID
session_of() {
	ps -o sid= -p "$1" | tr -d ' '
}

need_privilege() {
	grep -q 'CapEff' /proc/self/status || skip "no /proc status"
	caps=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
	[ $((0x$caps >> 23 & 1)) = 1 ] || skip "needs CAP_SYS_NICE"
}

# fw_deploy root|cap|user: how fairway runs from here on, as it is deployed.
# root: $FAIRWAY as root. cap: a copy of $FAIRWAY given the file capability
# cap_sys_nice (setcap, the way gamescope is installed), run as $FW_USER.
# user: $FAIRWAY as $FW_USER, without privilege. For cap and user,
# $XDG_RUNTIME_DIR becomes $FW_USER's, $FAIRWAY a wrapper that runs fairway
# so, and FW_AS the prefix that runs a command as $FW_USER (empty for
# root): how a test runs that fairway's clients.
FW_USER=nobody
FW_GROUP=nogroup
FW_AS=""
FW_DEPLOY=root
fw_deploy() {
	FW_DEPLOY=$1
	case "$1" in
	root) return 0 ;;
	cap | user) ;;
	*) fail "fw_deploy root|cap|user, not $1" ;;
	esac
	[ "$(id -u)" = 0 ] || skip "needs root to run fairway as $FW_USER"
	need_prog setpriv
	id -u "$FW_USER" >/dev/null 2>&1 || skip "no user $FW_USER"
	chmod 711 "$FW_TMP"
	chown "$FW_USER:$FW_GROUP" "$XDG_RUNTIME_DIR"
	FW_STATE_DIR=$XDG_RUNTIME_DIR
	FW_AS="setpriv --reuid $FW_USER --regid $FW_GROUP --clear-groups --inh-caps=-all"
	mkdir -m 755 "$FW_TMP/deploy"
	binary=$FAIRWAY
	if [ "$1" = cap ]; then
		need_prog setcap
		binary=$FW_TMP/deploy/fairway
		cp "$FAIRWAY" "$binary"
		setcap cap_sys_nice+ep "$binary" ||
			skip "setcap cannot give $binary a file capability here"
	fi
	printf '#!/bin/sh\nexec %s %s "$@"\n' "$FW_AS" "$binary" \
		>"$FW_TMP/deploy/run"
	chmod 755 "$FW_TMP/deploy/run"
	FAIRWAY=$FW_TMP/deploy/run
}

# fw_deploy_check: after fw_start, that fairway runs as its deployment
# says: as $FW_USER, with CAP_SYS_NICE (cap) or none (user). A file
# capability on a nosuid mount, say, gives none, and the test would prove
# nothing.
fw_deploy_check() {
	[ "$FW_DEPLOY" != root ] || return 0
	status=/proc/$(fairway_pid)/status
	uid=$(sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' "$status")
	[ "$uid" = "$(id -u "$FW_USER")" ] || fail "fairway runs as uid $uid"
	caps=$(sed -n 's/^CapEff:[[:space:]]*//p' "$status")
	nice=$(($((0x$caps)) >> 23 & 1))
	case "$FW_DEPLOY:$nice" in
	cap:1 | user:0) ;;
	*) skip "fairway deployed as $FW_DEPLOY runs with capabilities $caps" ;;
	esac
	log "fairway runs as uid $uid with capabilities $caps"
}
