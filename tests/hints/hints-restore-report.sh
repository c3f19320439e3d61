#!/bin/sh
# hints-restore-report.sh root|cap|user: `fairway --restore-hints` says what
# it did and exits 1 if anything was left undone:
#
# 1. a journal entry it restores (a process of fairway's user, marked as
#    fairway marks what it changed, asking for nice 5) counts as
#    restored, and its nice is 5 after;
# 2. (cap, user) an entry it cannot restore (root's process at nice -5,
#    asking for nice 0, which the user may not give it) counts as not
#    restored, with a line naming the pid and why;
# 3. a journal that is a symbolic link is skipped with a line that says
#    so, never read, and counts as skipped;
# 4. with every entry restored and nothing skipped it exits 0.
#
# Root's fairways share /run/fairway, and each replays what it finds there
# at start: as root the test has a private one, in a mount namespace of
# its own.
if [ "${1:-cap}" = root ] && [ -z "${FW_PRIVATE_RUN:-}" ] &&
	[ "$(id -u)" = 0 ] && unshare --mount true 2>/dev/null; then
	mkdir -p -m 700 /run/fairway
	FW_PRIVATE_RUN=1 exec unshare --mount --propagation private "$0" "$@"
fi
. "$(dirname "$0")/lib-hints.sh"
need_prog chrt

deploy=${1:-cap}
fw_deploy "$deploy"
if [ "$deploy" = root ]; then
	[ -n "${FW_PRIVATE_RUN:-}" ] || skip "needs a mount namespace of its own"
	mount -t tmpfs -o mode=700 fw-state "$FW_STATE_DIR" ||
		fail "cannot mount a private $FW_STATE_DIR"
fi

start_of() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20
}
nice_of() {
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f17
}
# plant NAME LINES: a journal of a dead writer (pid 999999 is past
# pid_max) that fairway's user wrote as fairway writes its own.
plant() {
	$FW_AS sh -c 'umask 077; printf "%s\n" "$1" >"$2"' sh "fairway-hints 1 999999 0
$2" "$FW_STATE_DIR/fairway-hints-$1.journal" ||
		fail "cannot plant a journal"
}

start_bg $FW_AS chrt --reset-on-fork --other 0 sleep 600
own=$BG_PID
wait_until 10 "the user's process marked" all_threads "$own" 'reset=1'
lines="$own $own $(start_of "$own") 0 0 5 0 -1"
want_restored=1
want_failed=0
if [ "$deploy" != root ]; then
	start_bg chrt --reset-on-fork --other 0 nice -n -5 sleep 600
	root_proc=$BG_PID
	wait_until 10 "root's process at nice -5" all_threads "$root_proc" 'nice=-5 .*reset=1'
	lines="$lines
$root_proc $root_proc $(start_of "$root_proc") 0 0 0 0 -1"
	want_failed=1
fi
plant "report$$" "$lines"
ln -s "$FW_TMP/elsewhere" "$FW_STATE_DIR/fairway-hints-link$$.journal"
$FAIRWAY --restore-hints >"$FW_TMP/restore.out" 2>"$FW_TMP/restore.err"
status=$?
log "--restore-hints exited $status: $(cat "$FW_TMP/restore.out")"
sed 's/^/# stderr: /' "$FW_TMP/restore.err"
rm -f "$FW_STATE_DIR/fairway-hints-link$$.journal"
[ "$status" = 1 ] || fail "--restore-hints exited $status with a journal skipped"
has_line "$FW_TMP/restore.out" "^restored $want_restored, not restored $want_failed, " ||
	fail "--restore-hints said: $(cat "$FW_TMP/restore.out")"
has_line "$FW_TMP/restore.out" "journals skipped 1," ||
	fail "--restore-hints did not count the symlinked journal: $(cat "$FW_TMP/restore.out")"
has_line "$FW_TMP/restore.err" "fairway-hints-link$$.journal not replayed: a symbolic link" ||
	fail "--restore-hints said nothing of the symlinked journal: $(cat "$FW_TMP/restore.err")"
[ "$(nice_of "$own")" = 5 ] || fail "the user's process has nice $(nice_of "$own"), not 5"
if [ "$deploy" != root ]; then
	has_line "$FW_TMP/restore.err" "cannot restore pid $root_proc .*: Operation not permitted" ||
		fail "--restore-hints did not say why root's process was not restored: $(cat "$FW_TMP/restore.err")"
	[ "$(nice_of "$root_proc")" = -5 ] || fail "root's process has nice $(nice_of "$root_proc")"
fi

# 4. Everything restored (a process marked afresh: root's replay cleared
# the first one's mark).
start_bg $FW_AS chrt --reset-on-fork --other 0 sleep 600
own=$BG_PID
wait_until 10 "the user's process marked" all_threads "$own" 'reset=1'
plant "ok$$" "$own $own $(start_of "$own") 0 0 7 0 -1"
$FAIRWAY --restore-hints >"$FW_TMP/restore-ok.out" 2>"$FW_TMP/restore-ok.err" ||
	fail "--restore-hints exited $? with everything restored: $(cat "$FW_TMP/restore-ok.out" "$FW_TMP/restore-ok.err")"
has_line "$FW_TMP/restore-ok.out" "^restored 1, not restored 0, refused 0, gone 0; journals skipped 0," ||
	fail "--restore-hints said: $(cat "$FW_TMP/restore-ok.out")"
[ "$(nice_of "$own")" = 7 ] || fail "the user's process has nice $(nice_of "$own"), not 7"
log "with everything restored: $(cat "$FW_TMP/restore-ok.out")"
pass
