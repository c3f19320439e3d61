#!/bin/sh
# Every path of the checkout that README.md names exists: a newcomer
# follows them from the clone. Of the `build/...` paths, those of fairway
# and its clients exist in the build (the others need optional parts);
# installed paths are left out.
. "$(dirname "$0")/../compositor/lib.sh"
: "${FW_SOURCE_ROOT:?}"
readme=$FW_SOURCE_ROOT/README.md
[ -f "$readme" ] || fail "no $readme"

# The first word of each `code span` and each link target that looks
# like a relative path: a slash inside, no leading /, ~, $ or dot.
{
	grep -o '`[^`]*`' "$readme" | tr -d '`' | awk '{ print $1 }'
	grep -o '](\([^)]*\))' "$readme" | sed 's/^](//; s/)$//'
} | grep '^[A-Za-z0-9_-][A-Za-z0-9_.<>-]*/' | grep -v '^build/' |
	grep -v '://' | sort -u >"$FW_TMP/paths.out"
[ -s "$FW_TMP/paths.out" ] || fail "no paths found in $readme"
missing=""
while read -r path; do
	[ -e "$FW_SOURCE_ROOT/$path" ] || missing="$missing $path"
done <"$FW_TMP/paths.out"
[ -z "$missing" ] || fail "README.md names paths the checkout lacks:$missing"
log "$(wc -l <"$FW_TMP/paths.out") paths of README.md exist"

: "${FW_BUILD_ROOT:?}"
grep -o '`[^`]*`' "$readme" | tr -d '`' | tr ' ' '\n' |
	grep -E '^build/(compositor|clients)/' | sort -u >"$FW_TMP/built.out"
[ -s "$FW_TMP/built.out" ] || fail "README.md names neither fairway nor a client in build/"
while read -r path; do
	[ -x "$FW_BUILD_ROOT/${path#build/}" ] || missing="$missing $path"
done <"$FW_TMP/built.out"
[ -z "$missing" ] || fail "README.md names programs the build does not make:$missing"
log "the programs of the build README.md names: $(tr '\n' ' ' <"$FW_TMP/built.out")"
pass
