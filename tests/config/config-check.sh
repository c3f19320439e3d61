#!/bin/sh
# The configuration file's errors: every bad line of a file is reported as
# FILE:LINE: message, not only the first, and --check-config exits 1; a
# good file, and the example shipped with fairway with every directive it
# shows uncommented, exit 0, and so does no file at all. fairway refuses
# to start on a bad --config, and starts on its defaults when the file it
# found by itself is bad.
. "$(dirname "$0")/../compositor/lib.sh"
: "${FW_EXAMPLE_CONFIG:?set FW_EXAMPLE_CONFIG to config/config.example}"
: "${FW_SYSCONFDIR:?set FW_SYSCONFDIR to fairway's sysconfdir}"

bad=$FW_TMP/bad.conf
cat >"$bad" <<'CONF'
# line 1: a comment
bind Super+Return exec foot
bind Hyper+x close
output HEADLESS-1 scale banana

rule title=foo priority 3
keyboard repeat-rate 30
frobnicate now
bind Super+y exec 'unterminated
rule app_id=foo priority 99
decorations sideways
rule exe=/usr/lib/firefox-esr/* processes some
CONF
"$FAIRWAY" --check-config "$bad" >"$FW_TMP/bad.out" 2>"$FW_TMP/bad.err"
status=$?
[ "$status" -eq 1 ] || fail "--check-config exited $status on a bad file, want 1"
for want in \
	"$bad:3: unknown modifier 'Hyper'" \
	"$bad:4: bad scale 'banana'" \
	"$bad:6: bad match 'title=foo'" \
	"$bad:8: unknown directive 'frobnicate'" \
	"$bad:9: unterminated ' quote" \
	"$bad:10: bad priority '99'" \
	"$bad:11: usage: decorations server|client" \
	"$bad:12: bad processes 'some'"; do
	grep -qF "$want" "$FW_TMP/bad.err" || fail "no \"$want\" in: $(cat "$FW_TMP/bad.err")"
done
lines=$(wc -l <"$FW_TMP/bad.err")
[ "$lines" -eq 8 ] || fail "$lines lines of errors, want 8: $(cat "$FW_TMP/bad.err")"
[ -s "$FW_TMP/bad.out" ] && fail "--check-config printed on stdout for a bad file"
log "8 errors, each with its line"

# The =FILE form, and a file that is not there.
"$FAIRWAY" --check-config="$bad" >/dev/null 2>&1 && fail "--check-config=FILE passed a bad file"
"$FAIRWAY" --check-config "$FW_TMP/none.conf" 2>"$FW_TMP/none.err" &&
	fail "--check-config passed a missing file"
grep -qF "$FW_TMP/none.conf: cannot read: No such file" "$FW_TMP/none.err" ||
	fail "missing file: $(cat "$FW_TMP/none.err")"

good=$FW_TMP/good.conf
cat >"$good" <<'CONF'
bind Super+t exec sh -c 'echo "a # is no comment here" > /dev/null'
unbind Alt+Tab
output * scale 1
output HEADLESS-1 mode 1024x768@60 position 0,0 transform 90 enable
keyboard layout us
keyboard repeat-rate 40
pointer tap on
exec true
scheduler interval 3
scheduler hint-map background:policy=batch,nice=5
rule app_id=foot priority 5 hint interactive spoofable
rule exe=*/fairway-* priority -2
rule class=XTerm hint background
decorations client
rule exe=/usr/lib/firefox-esr/* processes tree
rule exe=/usr/bin/make processes one hint background
CONF
out=$("$FAIRWAY" --check-config "$good" 2>"$FW_TMP/good.err") ||
	fail "--check-config failed on a good file: $(cat "$FW_TMP/good.err")"
[ "$out" = "$good: ok" ] || fail "--check-config printed \"$out\" for a good file"

# Without FILE: the one fairway would read, here $XDG_CONFIG_HOME's.
cp "$bad" "$XDG_CONFIG_HOME/fairway/config"
"$FAIRWAY" --check-config 2>"$FW_TMP/default.err" && fail "--check-config passed the bad default file"
grep -qF "$XDG_CONFIG_HOME/fairway/config:3: unknown modifier" "$FW_TMP/default.err" ||
	fail "default file: $(cat "$FW_TMP/default.err")"

# No file at all is normal: fairway says it runs on its defaults, exit 0.
if [ ! -e "$FW_SYSCONFDIR/fairway/config" ]; then
	rm "$XDG_CONFIG_HOME/fairway/config"
	"$FAIRWAY" --check-config >"$FW_TMP/nofile.out" 2>"$FW_TMP/nofile.err" ||
		fail "--check-config without a file exited $?: $(cat "$FW_TMP/nofile.out" "$FW_TMP/nofile.err")"
	[ -s "$FW_TMP/nofile.err" ] && fail "--check-config without a file printed errors: $(cat "$FW_TMP/nofile.err")"
	grep -q "built-in defaults" "$FW_TMP/nofile.out" ||
		fail "--check-config without a file does not say the defaults are used: $(cat "$FW_TMP/nofile.out")"
	cp "$bad" "$XDG_CONFIG_HOME/fairway/config"
fi

# The example: as shipped, and with each example directive (a "#" right
# before a lower-case word) uncommented.
"$FAIRWAY" --check-config "$FW_EXAMPLE_CONFIG" >/dev/null 2>"$FW_TMP/example.err" ||
	fail "the example config has errors: $(cat "$FW_TMP/example.err")"
sed 's/^#\([a-z]\)/\1/' "$FW_EXAMPLE_CONFIG" >"$FW_TMP/example-all.conf"
n=$(grep -c '^#[a-z]' "$FW_EXAMPLE_CONFIG")
[ "$n" -ge 30 ] || fail "only $n example directives in the example config"
"$FAIRWAY" --check-config "$FW_TMP/example-all.conf" >/dev/null 2>"$FW_TMP/example.err" ||
	fail "the example's directives have errors: $(cat "$FW_TMP/example.err")"
log "the example's $n commented directives all parse"

# --config with errors: fairway does not start, and says why.
timeout 30 "$FAIRWAY" --backend headless --no-xwayland --config "$bad" \
	-- true >/dev/null 2>"$FW_TMP/start.err"
status=$?
[ "$status" -eq 1 ] || fail "fairway --config BAD exited $status, want 1"
grep -qF "$bad:4: bad scale 'banana'" "$FW_TMP/start.err" ||
	fail "no error logged at start: $(cat "$FW_TMP/start.err")"

# The file found by itself with errors: fairway starts on its defaults.
fw_start --no-xwayland
grep -qF "$XDG_CONFIG_HOME/fairway/config:3: unknown modifier" "$FW_TMP/fairway-$FW_STARTS.err" ||
	fail "no error logged for the default file"
grep -q "running on the built-in defaults" "$FW_TMP/fairway-$FW_STARTS.err" ||
	fail "fairway did not say it ignores the file"
pass
