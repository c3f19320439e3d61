#!/bin/sh
# Journals fairway did not write are never replayed. Planted by another
# user in a runtime directory that user owns, or in fairway's state
# directory but owned by another uid or readable by others, they change
# nothing: not at start (hints on or off), not with --restore-hints. And a
# .journal.tmp symlink is never written through.
#
# The victim is a root process whose attributes carry fairway's mark (the
# fork flag), and the entry asks for what a real journal could hold
# (SCHED_BATCH, nice 10): only the checks on who wrote the file stop it.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog setpriv
need_prog chrt
[ "$(id -u)" = 0 ] || skip "needs root to plant files as another user"

PLANTED=""
trap 'rm -f $PLANTED; cleanup' EXIT

start_bg chrt --reset-on-fork --other 0 sleep 600
victim=$BG_PID
wait_until 10 "the victim running" all_threads "$victim" "reset=1"
orig=$(attrs "$victim" | tr '\n' ';')
start=$(sed 's/.*) //' "/proc/$victim/stat" | cut -d' ' -f20)
log "victim $victim (start $start): $orig"
# Writer pid 999999 is above pid_max: dead, so the journal is stale.
entry="fairway-hints 1 999999 0
$victim $victim $start 3 0 10 0 -1"

# 1. The runtime directory belongs to another user, who plants a journal.
chmod 711 "$FW_TMP"
chown nobody "$XDG_RUNTIME_DIR"
setpriv --reuid nobody --regid nogroup --clear-groups \
	sh -c 'umask 077; printf "%s\n" "$1" >"$2"' sh "$entry" \
	"$XDG_RUNTIME_DIR/fairway-hints-1.journal" ||
	fail "cannot plant as nobody"

# 2. In the state directory itself: another uid's file, and one others
# may read.
# Each is made under another name and renamed into place once its owner
# and mode are set: as root's 0600 file on the way, the foreign one would
# be a journal any fairway starting meanwhile (root's share the state
# directory) may rightly replay.
mkdir -p -m 700 "$FW_STATE_DIR"
plant() {
	f="$FW_STATE_DIR/fairway-hints-planted-$$-$1.journal"
	printf '%s\n' "$entry" >"$f.new"
	chmod "$2" "$f.new"
	chown "$3" "$f.new"
	mv "$f.new" "$f"
	PLANTED="$PLANTED $f"
}
plant foreign 600 nobody
plant readable 644 root

unchanged() {
	same_attrs "$victim" "$orig" || fail "$1 changed the victim: $FW_SEEN"
	for f in $PLANTED "$XDG_RUNTIME_DIR/fairway-hints-1.journal"; do
		[ -f "$f" ] || fail "$1 replayed and removed $f"
	done
}

fw_start --no-xwayland
unchanged "a start"
grep -q "refusing fairway-hints-planted-$$-foreign.journal" "$FW_TMP/fairway-1.err" ||
	fail "no log line for the refused journal"
fw_stop
"$FAIRWAY" --restore-hints >"$FW_TMP/restore.out" 2>&1
unchanged "--restore-hints"
fw_start --no-xwayland --hints off
unchanged "a start with --hints off"
fw_stop
log "planted journals refused"

# 3. A .journal.tmp symlink to a file fairway must not touch, in the state
# directory and the runtime directory, before fairway's first journal.
echo precious >"$FW_TMP/precious"
fw_start --no-xwayland
fw=$(fairway_pid)
for d in "$FW_STATE_DIR" "$XDG_RUNTIME_DIR"; do
	ln -s "$FW_TMP/precious" "$d/fairway-hints-$fw.journal.tmp"
	PLANTED="$PLANTED $d/fairway-hints-$fw.journal.tmp"
done
hint_client_start client 1
hint_client_send connect
wait_until 20 "the client's window" has_line "$HC_OUT" '^mapped'
"$FW_TEST_POINTER" move 640 360 || fail "fw-test-pointer failed"
wait_until 20 "interactive attributes on the client" \
	all_threads "$HC_PID" "^$INTERACTIVE"
[ "$(cat "$FW_TMP/precious")" = precious ] ||
	fail "the journal was written through the symlink: $(head -c 200 "$FW_TMP/precious")"
journal_present || fail "no journal while the client is hinted"
[ -L "$FW_STATE_DIR/fairway-hints-$fw.journal" ] && fail "the journal is a symlink"
same_attrs "$victim" "$orig" || fail "the victim changed: $FW_SEEN"
pass
