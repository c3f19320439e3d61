#!/bin/sh
# What the programs fairway starts find in their environment beyond the
# display's: without a GPU, GSK_RENDERER=cairo, so that GTK 4 draws its
# first frame at once instead of compiling its GL shaders on llvmpipe; a
# GSK_RENDERER of the user's own is left alone.
. "$(dirname "$0")/lib.sh"

if ls /dev/dri/renderD* >/dev/null 2>&1; then
	want=""
else
	want=cairo
fi
unset GSK_RENDERER
timeout 60 "$FAIRWAY" --backend headless --no-xwayland \
	-- sh -c 'printf "%s\n" "${GSK_RENDERER:-}" >"$1"' sh "$FW_TMP/default" \
	>"$FW_TMP/fairway.out" 2>"$FW_TMP/fairway.err" ||
	fail "fairway -- sh failed: $(tail -n 3 "$FW_TMP/fairway.err")"
got=$(cat "$FW_TMP/default")
[ "$got" = "$want" ] || fail "GSK_RENDERER is '$got' in a child, want '$want'"
log "a child's GSK_RENDERER: '$got'"

GSK_RENDERER=ngl timeout 60 "$FAIRWAY" --backend headless --no-xwayland \
	-- sh -c 'printf "%s\n" "${GSK_RENDERER:-}" >"$1"' sh "$FW_TMP/user" \
	>"$FW_TMP/fairway.out" 2>"$FW_TMP/fairway.err" ||
	fail "fairway -- sh failed: $(tail -n 3 "$FW_TMP/fairway.err")"
got=$(cat "$FW_TMP/user")
[ "$got" = ngl ] || fail "the user's GSK_RENDERER=ngl became '$got'"
pass
