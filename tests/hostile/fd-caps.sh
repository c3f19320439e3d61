#!/bin/sh
# No client can make fairway hold fds without bound, and an innocent
# client's roundtrips go on throughout:
# 1. one 4096-byte request sent a byte at a time, 28 fds with each byte:
#    the gate reads at most its 1024-fd budget of them, then drops it
#    (without a budget, one read took fds until fairway ran out);
# 2. a client that holds 3000 wl_keyboards and never reads, while a
#    virtual keyboard (wtype) makes the seat send its keymap, with an fd,
#    to every keyboard: it is dropped once 1024 fds wait for it.
# fairway's fd count (sampled) and its fd table (FDSize, which only
# grows) stay within the caps, and come back once the hogs are gone.
. "$FW_TESTS_DIR/lib.sh"
: "${FW_FD_HOG:?set FW_FD_HOG to the fw-fd-hog binary}"
need_prog wtype

fw_fds() {
	ls "/proc/$(fairway_pid)/fd" | wc -l
}
fd_table() {
	sed -n 's/^FDSize:[[:space:]]*//p' "/proc/$(fairway_pid)/status"
}
fds_back_to() {
	FW_SEEN="$(fw_fds) fds"
	[ "$(fw_fds)" -le "$1" ]
}

fw_start --no-xwayland
FW_ERR="$FW_TMP/fairway-1.err"
fw=$(fairway_pid)
base=$(fw_fds)
log "fairway holds $base fds, fd table $(fd_table)"
# The most fds fairway held, sampled every 20 ms.
start_bg sh -c 'max=0
	while [ -d "/proc/$0" ]; do
		n=$(ls "/proc/$0/fd" 2>/dev/null | wc -l)
		[ "$n" -gt "$max" ] && max=$n && echo "$max" >"$1"
		sleep 0.02
	done' "$fw" "$FW_TMP/peak"
start_bg "$FW_FD_HOG" roundtrips 20 >"$FW_TMP/innocent.out" 2>&1
innocent=$BG_PID

# 1. The dribble.
timeout 60 "$FW_FD_HOG" dribble >"$FW_TMP/dribble.out" 2>&1 ||
	fail "the dribbling client failed: $(cat "$FW_TMP/dribble.out")"
log "dribble: $(cat "$FW_TMP/dribble.out"); fd table $(fd_table)"
[ "$(fd_table)" -le 2048 ] ||
	fail "the dribble grew fairway's fd table to $(fd_table)"
has_line "$FW_ERR" "fds sent with no message to use them" ||
	fail "the dribbling client was not dropped at its fd budget"

# 2. Keyboards that are never read.
start_bg "$FW_FD_HOG" keyboards 3000 >"$FW_TMP/keyboards.out" 2>&1
wait_until 30 "3000 keyboards" has_line "$FW_TMP/keyboards.out" '^holding'
for i in 1 2 3; do
	timeout 30 wtype a || fail "wtype failed"
done
wait_until 30 "the keyboard hog dropped" \
	has_line "$FW_ERR" "does not read its events"
peak=$(cat "$FW_TMP/peak")
table=$(fd_table)
log "peak $peak fds (from $base), fd table $table"
[ "$peak" -le $((base + 1024 + 28 + 64)) ] ||
	fail "fairway held $peak fds, past its caps ($base + 1024 + 28)"
[ "$table" -le 2048 ] || fail "fairway's fd table grew to $table"

wait "$innocent" || fail "the innocent client failed: $(cat "$FW_TMP/innocent.out")"
log "innocent client: $(cat "$FW_TMP/innocent.out")"
wait_until 30 "fairway back to $base fds" fds_back_to "$base"
pass
