#!/bin/sh
# Every path of the checkout that README.md names exists: a newcomer
# follows them from the clone (`build/...` paths are made by the build,
# and paths after an installation prefix are left out).
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
pass
