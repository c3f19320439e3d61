#!/bin/sh
# foot running a busy shell job: foot starts its shell in a session of its
# own, as every terminal does, so the shell and its job are not foot's
# application. While foot is typed into, foot gets the interactive class;
# the job, which burns a CPU all along, never gets it, nor does its
# session's autogroup.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_prog foot
need_prog wtype

fw_start --no-xwayland
# The job: a loop that never ends, in the shell foot starts.
start_bg foot -c /dev/null -o pad=0x0 sh -c 'while :; do :; done & wait' \
	>"$FW_TMP/foot.out" 2>"$FW_TMP/foot.err"
foot=$BG_PID
shell_and_job() {
	shell=$(children_of "$foot" | head -n 1)
	[ -n "$shell" ] || return 1
	job=$(children_of "$shell" | head -n 1)
	[ -n "$job" ]
}
wait_until 20 "foot's shell and its job" shell_and_job
[ "$(session_of "$shell")" = "$shell" ] ||
	fail "foot's shell is not in a session of its own"
log "foot $foot, shell $shell, job $job (session $(session_of "$job"))"
job_group=$(autogroup_nice "$job")

typed_into() {
	wtype "x" || return 1
	all_threads "$foot" "^$INTERACTIVE"
}
wait_until 30 "foot interactive while typed into" typed_into
log "foot: $FW_SEEN"
# Typing on, the job is never given foot's class.
end=$(($(date +%s) + 8))
while [ "$(date +%s)" -lt "$end" ]; do
	wtype "y" || fail "wtype failed"
	now=$(attrs "$job" | tr '\n' ';')
	case "$now" in
	*"nice=-"* | *"slice=1000000 "* | *"slice=500000 "*)
		fail "the job has foot's class: $now" ;;
	esac
	[ "$(autogroup_nice "$job")" = "$job_group" ] ||
		fail "the job's autogroup changed: nice $(autogroup_nice "$job")"
	sleep 0.5
done
all_threads "$foot" "^$INTERACTIVE" || fail "foot lost its class: $FW_SEEN"
log "job: $(attrs "$job" | tr '\n' ';')"
pass
