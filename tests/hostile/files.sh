#!/bin/sh
# The files fairway opens by name, as root, against a user who plants
# things where fairway will look:
#
# 1. --trace and --stats never write through a symlink, nor into a file
#    that is not a regular file of fairway's own uid with one link (another
#    user's, a hard link to root's, a fifo): fairway refuses to start, says
#    why, and the file it was pointed at is unchanged;
# 2. a configuration file that root did not write, or that others may
#    write, is refused, and a root-owned one that only root may write is
#    read;
# 3. --check-config on a file that is no configuration (a secret, a
#    shadow-like file) says so without echoing a word of it;
# 4. fairway(1) says that fairway must never be made setuid nor be run
#    through sudo.
. "$FW_TESTS_DIR/lib.sh"
need_prog setpriv
[ "$(id -u)" = 0 ] || skip "needs root, as the attack does"
id nobody >/dev/null 2>&1 || skip "no user nobody"
as_nobody() {
	setpriv --reuid nobody --regid nogroup --clear-groups "$@"
}

# A directory the other user owns, where it plants what it likes: no
# sticky bit, so fs.protected_symlinks does not apply.
chmod 711 "$FW_TMP"
planted=$FW_TMP/nobody
mkdir -m 755 "$planted"
chown nobody:nogroup "$planted"
precious=$FW_TMP/precious
echo "root's own" >"$precious"
chmod 600 "$precious"

# refused NAME ARGS...: fairway with ARGS exits non-zero, naming the file
# in its error, and $precious is unchanged.
refused() {
	name=$1
	shift
	timeout -k 5 30 "$FAIRWAY" --backend headless --no-xwayland "$@" -- true \
		>"$FW_TMP/$name.out" 2>"$FW_TMP/$name.err"
	status=$?
	[ "$(cat "$precious")" = "root's own" ] ||
		fail "$name: fairway wrote through to $precious: $(head -c 100 "$precious")"
	[ "$status" -ne 0 ] || fail "$name: fairway started (exit 0)"
	[ "$status" -ne 124 ] && [ "$status" -ne 137 ] || fail "$name: fairway hung"
	log "$name: refused ($(grep -m 1 -i "refus\|cannot\|not " "$FW_TMP/$name.err"))"
}

# 1. --trace and --stats.
as_nobody ln -s "$precious" "$planted/trace" || fail "cannot plant a symlink"
as_nobody ln -s "$precious" "$planted/stats"
refused trace-symlink --trace "$planted/trace"
refused stats-symlink --stats "$planted/stats"
as_nobody sh -c 'echo theirs >"$1"' sh "$planted/theirs"
refused trace-theirs --trace "$planted/theirs"
[ "$(cat "$planted/theirs")" = theirs ] || fail "fairway truncated nobody's file"
as_nobody mkfifo "$planted/fifo"
refused trace-fifo --trace "$planted/fifo"
if ln "$precious" "$FW_TMP/hardlink" 2>/dev/null; then
	refused stats-hardlink --stats "$FW_TMP/hardlink"
fi
# A file of its own is written, as before.
timeout 30 "$FAIRWAY" --backend headless --no-xwayland --trace "$FW_TMP/mine" \
	-- true >"$FW_TMP/mine.out" 2>&1 || fail "--trace to a new file failed"
grep -q '"dir":"start"' "$FW_TMP/mine" || fail "no trace written to a new file"

# 2. Configuration files.
printf 'exec true\n' >"$FW_TMP/root.conf"
chmod 644 "$FW_TMP/root.conf"
"$FAIRWAY" --check-config "$FW_TMP/root.conf" >"$FW_TMP/root-conf.out" 2>&1 ||
	fail "root's own configuration was refused: $(cat "$FW_TMP/root-conf.out")"
as_nobody sh -c 'printf "exec true\n" >"$1"' sh "$planted/config"
"$FAIRWAY" --check-config "$planted/config" >"$FW_TMP/theirs-conf.out" 2>&1 &&
	fail "root read a configuration nobody wrote"
cp "$FW_TMP/root.conf" "$FW_TMP/writable.conf"
chmod 666 "$FW_TMP/writable.conf"
"$FAIRWAY" --check-config "$FW_TMP/writable.conf" >"$FW_TMP/writable-conf.out" 2>&1 &&
	fail "root read a configuration anyone may write"
chmod 664 "$FW_TMP/writable.conf"
"$FAIRWAY" --check-config "$FW_TMP/writable.conf" >"$FW_TMP/group-conf.out" 2>&1 &&
	fail "root read a configuration its group may write"
refused start-theirs --config "$planted/config"
log "configurations: root's read, nobody's and writable ones refused"

# 3. Files that are no configuration.
token="s3cr3t-$$-token"
printf '%s\n' "$token" >"$FW_TMP/secret"
printf 'alice:%s:20228:0:99999:7:::\nbob:$y$j9T$%s:20228::::::\n' "$token" "$token" \
	>"$FW_TMP/shadow"
chmod 600 "$FW_TMP/secret" "$FW_TMP/shadow"
for f in "$FW_TMP/secret" "$FW_TMP/shadow" /etc/shadow; do
	[ -r "$f" ] || continue
	"$FAIRWAY" --check-config "$f" >"$FW_TMP/check.out" 2>&1 &&
		fail "--check-config passed $f"
	# A user name with the colon after it, or the secret itself.
	if [ "$f" = /etc/shadow ]; then
		words=$(cut -d: -f1 /etc/shadow | head -n 5 | sed 's/$/:/')
	else
		words="$token alice: bob:"
	fi
	for word in $words; do
		grep -qF -- "$word" "$FW_TMP/check.out" &&
			fail "--check-config $f echoed '$word': $(head -n 3 "$FW_TMP/check.out")"
	done
	log "--check-config $f: $(head -n 1 "$FW_TMP/check.out")"
done

# 4. The manual.
page=$(dirname "$FW_TESTS_DIR")/../doc/fairway.1.scd.in
[ -f "$page" ] || skip "no $page"
grep -qi 'setuid' "$page" && grep -qi 'sudo' "$page" ||
	fail "fairway(1) does not warn against setuid and sudo"
pass
