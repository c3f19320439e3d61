#!/bin/sh
# `meson install --destdir` puts every file in its place: fairway, its
# clients and tools, the session script and session file, the man pages
# and the example configuration; the man pages render without a warning.
. "$(dirname "$0")/../compositor/lib.sh"
: "${FW_BUILD_ROOT:?}" "${FW_BINDIR:?}" "${FW_DATADIR:?}" "${FW_DOCDIR:?}"
: "${FW_SYSCONFDIR:?}" "${FW_MANDIR:?}"
need_prog man

dest=$FW_TMP/dest
meson install -C "$FW_BUILD_ROOT" --no-rebuild --destdir "$dest" \
	>"$FW_TMP/install.out" 2>&1 || fail "meson install failed: $(tail -n 5 "$FW_TMP/install.out")"

for f in fairway fairway-session fairway-plaid fairway-echo fairway-anim \
	fairway-probe fairway-stress fairway-idle fairway-trace-summary \
	fairway-top; do
	[ -f "$dest$FW_BINDIR/$f" ] && [ -x "$dest$FW_BINDIR/$f" ] ||
		fail "no executable $FW_BINDIR/$f"
done
for f in "$FW_MANDIR/man1/fairway.1" "$FW_MANDIR/man5/fairway.5" \
	"$FW_MANDIR/man1/fairway-top.1" \
	"$FW_DATADIR/wayland-sessions/fairway.desktop" \
	"$FW_DOCDIR/config.example" "$FW_SYSCONFDIR/fairway/config"; do
	[ -s "$dest$f" ] || fail "no $f"
done
# Test helpers stay out.
[ -e "$dest$FW_BINDIR/fw-test-client" ] && fail "a test helper was installed"

# The session file runs the installed session script, by its full path.
desktop=$dest$FW_DATADIR/wayland-sessions/fairway.desktop
grep -qx "Exec=$FW_BINDIR/fairway-session" "$desktop" ||
	fail "the session file's Exec is not $FW_BINDIR/fairway-session: $(grep Exec "$desktop")"
grep -qx "Type=Application" "$desktop" && grep -qx "Name=fairway" "$desktop" ||
	fail "the session file lacks Type or Name"
grep -qx "DesktopNames=fairway" "$desktop" || fail "the session file lacks DesktopNames"

# The installed configuration is the example, and it is clean.
cmp -s "$dest$FW_DOCDIR/config.example" "$dest$FW_SYSCONFDIR/fairway/config" ||
	fail "the system-wide config is not the example"
"$FAIRWAY" --check-config "$dest$FW_SYSCONFDIR/fairway/config" >/dev/null ||
	fail "the installed config has errors"

# man -l renders both pages, with no warning, and says what they are.
for page in man1/fairway.1 man5/fairway.5 man1/fairway-top.1; do
	MANWIDTH=80 man --warnings -l "$dest$FW_MANDIR/$page" \
		>"$FW_TMP/page.txt" 2>"$FW_TMP/page.err" || fail "man -l $page failed"
	[ -s "$FW_TMP/page.err" ] && fail "man -l $page warns: $(head -n 3 "$FW_TMP/page.err")"
	grep -q '^NAME' "$FW_TMP/page.txt" && grep -q '^SEE ALSO' "$FW_TMP/page.txt" ||
		fail "$page has no NAME or SEE ALSO section"
	lines=$(wc -l <"$FW_TMP/page.txt")
	log "$page: $lines lines"
done
man -l "$dest$FW_MANDIR/man5/fairway.5" 2>/dev/null | grep -q 'PER-APPLICATION RULES' ||
	fail "fairway(5) does not document the rules"
man -l "$dest$FW_MANDIR/man1/fairway.1" 2>/dev/null | grep -q -- '--check-config' ||
	fail "fairway(1) does not document --check-config"
# The pages name the installed paths, not placeholders.
man -l "$dest$FW_MANDIR/man5/fairway.5" 2>/dev/null | grep -qE '@[a-z]+@' &&
	fail "fairway(5) has an unsubstituted @placeholder@"
pass
