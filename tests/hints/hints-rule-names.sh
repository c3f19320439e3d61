#!/bin/sh
# Per-application rules keyed on names a client chooses give it nothing it
# should not have:
#
# a. exe= is the full path: `rule exe=Xwayland ...` is refused, and a
#    flooder run through a symlink named Xwayland, or copied to a path
#    ending in /usr/bin/Xwayland, is not matched by exe=/usr/bin/Xwayland
#    (comm and the link's name are the caller's to choose);
# b. a client that calls itself by another's app_id gets no priority above
#    0 and no interactive hint from that app's rule, unless the file says
#    the rule is spoofable;
# c. a client that a negative app_id rule lowered keeps that priority when
#    it changes its app_id;
# d. a priority a client lowered for itself (fairway_scheduler_self_v1) is
#    not raised by a rule that matches it.
#
# Priorities are read from --stats, hints from the threads themselves, once
# fairway has rated the client at two updates (its hints are out by then).
. "$(dirname "$0")/lib-hints.sh"
need_privilege
: "${FW_TEST_CLIENT:?}" "${FW_TEST_SCHEDULER:?}"

config=$XDG_CONFIG_HOME/fairway/config
stats=$FW_TMP/stats

# start_with NAME CONFIG: fairway on that configuration file, found by
# itself as a user's would be.
start_with() {
	printf '%s\n' "$2" >"$config"
	stats=$FW_TMP/stats-$1
	fw_start -d --no-xwayland --stats "$stats"
	FW_ERR="$FW_TMP/fairway-$FW_STARTS.err"
}

priority_of() {
	grep "\"pid\":$1," "$stats" 2>/dev/null | tail -n 1 |
		grep -o '"client_priority":[-0-9]*' | cut -d: -f2
}
rated_twice() {
	FW_SEEN="$(grep -c "ratings: pid $1 " "$FW_ERR") updates"
	[ "$(grep -c "ratings: pid $1 " "$FW_ERR")" -ge "$2" ]
}
stats_lines() {
	grep -c "\"pid\":$1," "$stats" 2>/dev/null
}
more_stats() {
	FW_SEEN="$(stats_lines "$1") --stats lines"
	[ "$(stats_lines "$1")" -gt "$2" ]
}
# settled PID: two more updates and two more --stats lines from now.
settled() {
	n=$(grep -c "ratings: pid $1 " "$FW_ERR")
	s=$(stats_lines "$1")
	wait_until 20 "two more updates of pid $1" rated_twice "$1" $((n + 2))
	wait_until 20 "a --stats line of pid $1" more_stats "$1" $((s + 1))
}
not_raised() {
	p=$(priority_of "$2")
	[ -n "$p" ] || fail "$1: no --stats line for pid $2"
	[ "$p" -le 0 ] || fail "$1: pid $2 got client_priority $p"
	all_threads "$2" '^policy=0 nice=3 ' ||
		fail "$1: pid $2 was hinted: $FW_SEEN"
	has_line "$FW_ERR" "hints: pid $2 idle -> interactive" &&
		fail "$1: pid $2 was made interactive"
	log "$1: pid $2 priority $p, attributes $FW_SEEN"
}

priority_is() {
	FW_SEEN="client_priority $(priority_of "$1")"
	[ "$(priority_of "$1")" = "$2" ]
}
# refused TEXT WHAT: --check-config refuses the rule TEXT, saying WHAT.
refused() {
	printf '%s\n' "$1" >"$FW_TMP/check.conf"
	"$FAIRWAY" --check-config "$FW_TMP/check.conf" >"$FW_TMP/check.out" 2>&1 &&
		fail "--check-config took '$1'"
	grep -q "$2" "$FW_TMP/check.out" ||
		fail "--check-config on '$1' said: $(cat "$FW_TMP/check.out")"
	log "'$1': $(cat "$FW_TMP/check.out")"
}

# a. exe= is the executable's full path: a name is refused, and neither a
# symlink named Xwayland nor a copy at a path that ends like Xwayland's
# matches the real one's, while the path of the executable a rule names
# does.
refused 'rule exe=Xwayland priority 5 hint interactive' 'full path'
mkdir -p -m 755 "$FW_TMP/bin" "$FW_TMP/usr/bin"
ln -s "$FW_TEST_CLIENT" "$FW_TMP/bin/Xwayland"
cp "$FW_TEST_CLIENT" "$FW_TMP/usr/bin/Xwayland"
cp "$FW_TEST_CLIENT" "$FW_TMP/bin/named"
start_with symlink "rule exe=/usr/bin/Xwayland priority 5 hint interactive
rule exe=$FW_TMP/bin/named priority 4"
start_bg nice -n 3 "$FW_TMP/bin/Xwayland" --color 3060c0 --size 200x200 \
	>"$FW_TMP/symlink.out" 2>&1
flooder=$BG_PID
start_bg nice -n 3 "$FW_TMP/usr/bin/Xwayland" --color 3060c0 --size 200x200 \
	>"$FW_TMP/copy.out" 2>&1
copy=$BG_PID
start_bg "$FW_TMP/bin/named" --color 3060c0 --size 200x200 \
	>"$FW_TMP/named.out" 2>&1
named=$BG_PID
wait_until 20 "the symlinked client mapped" has_line "$FW_TMP/symlink.out" '^mapped'
wait_until 20 "the copy mapped" has_line "$FW_TMP/copy.out" '^mapped'
wait_until 20 "client_priority 4 for the executable the rule names" \
	priority_is "$named" 4
settled "$flooder"
settled "$copy"
not_raised "a symlink named Xwayland" "$flooder"
not_raised "a copy at */usr/bin/Xwayland" "$copy"
fw_stop

# b. Another app's app_id: refused unless the file says any client may
# claim it; as a file found by itself, the claimer gets nothing; said
# "spoofable", it gets what the file says.
rule='rule app_id=org.example.trusted priority 5 hint interactive'
refused "$rule" spoofable
start_with claim "$rule"
start_bg nice -n 3 "$FW_TEST_CLIENT" --app-id org.example.trusted \
	--color 3060c0 --size 200x200 >"$FW_TMP/claim.out" 2>&1
claimer=$BG_PID
wait_until 20 "the claiming client mapped" has_line "$FW_TMP/claim.out" '^mapped'
settled "$claimer"
not_raised "an app_id claimed" "$claimer"
fw_stop
start_with spoofable "$rule spoofable"
start_bg "$FW_TEST_CLIENT" --app-id org.example.trusted --color 3060c0 \
	--size 200x200 >"$FW_TMP/spoofable.out" 2>&1
said=$BG_PID
wait_until 20 "client_priority 5 where the file says spoofable" \
	priority_is "$said" 5
fw_stop

# c. A new app_id after a negative rule matched.
start_with escape 'rule app_id=org.example.game priority -5'
mkfifo "$FW_TMP/escape.cmd"
"$FW_TEST_CLIENT" --commands --app-id org.example.game --color 3060c0 \
	--size 200x200 <>"$FW_TMP/escape.cmd" >"$FW_TMP/escape.out" 2>&1 &
game=$!
FW_HELPERS="$FW_HELPERS $game"
wait_until 20 "the game mapped" has_line "$FW_TMP/escape.out" '^mapped'
wait_until 20 "the game lowered to -5" priority_is "$game" -5
echo "app-id org.example.other" >"$FW_TMP/escape.cmd"
wait_until 20 "the new app_id handled" has_line "$FW_TMP/escape.out" '^command-requested'
settled "$game"
p=$(priority_of "$game")
[ "$p" = -5 ] || fail "a new app_id took the game from -5 to $p"
log "a new app_id kept the game at -5"
fw_stop

# d. A priority the client lowered itself, then a rule that matches it.
start_with self ''
mkfifo "$FW_TMP/self.cmd"
"$FW_TEST_SCHEDULER" lower-hold -8 <>"$FW_TMP/self.cmd" >"$FW_TMP/self.out" 2>&1 &
self=$!
FW_HELPERS="$FW_HELPERS $self"
wait_until 20 "the client lowered itself" has_line "$FW_TMP/self.out" '^lowered'
wait_until 20 "client_priority -8" priority_is "$self" -8
printf '%s\n' 'rule exe=*fw-test-scheduler priority -2' >"$config"
reloads=$(grep -c 'Configuration reloaded from' "$FW_ERR")
kill -HUP "$(fairway_pid)"
reloaded() {
	[ "$(grep -c 'Configuration reloaded from' "$FW_ERR")" -gt "$reloads" ]
}
wait_until 20 "the reload" reloaded
s=$(stats_lines "$self")
wait_until 20 "a --stats line after the reload" more_stats "$self" $((s + 1))
p=$(priority_of "$self")
[ "$p" = -8 ] || fail "a rule raised the self-lowered client from -8 to $p"
log "the self-lowered client stays at -8"
pass
