#!/bin/sh
# An application is its client's process and the descendants in its
# session: fairway-anim drawing in a child (--draw-in child) gets the
# output class on the child that draws too, while its second child, which
# called setsid() as a terminal's job does, is never boosted. Started in a
# session of its own, as fairway starts applications, the animation is
# alone in its session: its autogroup gets the output class's group nice,
# and the setsid() child's autogroup is left as it was.
. "$(dirname "$0")/lib-hints.sh"
need_privilege
need_autogroups
[ -n "${FW_ANIM:-}" ] || skip "built without -Dclients"

fw_start --no-xwayland
start_bg sh -c 'exec setsid "$0" --duration 60 --draw-in child --setsid-child' \
	"$FW_ANIM" >"$FW_TMP/anim.out" 2>&1
anim=$BG_PID

# The two children: the one in anim's session draws; the other has its own.
two_children() {
	set -- $(children_of "$anim")
	[ $# -eq 2 ]
}
wait_until 20 "fairway-anim's two children" two_children
for child in $(children_of "$anim"); do
	if [ "$(session_of "$child")" = "$anim" ]; then
		drawer=$child
	else
		outsider=$child
	fi
done
[ -n "${drawer:-}" ] && [ -n "${outsider:-}" ] ||
	fail "no drawing child and setsid() child among $(children_of "$anim")"
log "anim $anim, drawing child $drawer, setsid() child $outsider"
outsider_group=$(autogroup_nice "$outsider")

both_output() {
	all_threads "$anim" "^$OUTPUT" && all_threads "$drawer" "^$OUTPUT"
}
wait_until 30 "the output attributes on anim and its drawing child" both_output
log "drawing child: $FW_SEEN"
anim_group() {
	FW_SEEN="autogroup nice $(autogroup_nice "$anim")"
	[ "$(autogroup_nice "$anim")" = "$GROUP_BOOST" ]
}
wait_until 10 "anim's autogroup at nice $GROUP_BOOST" anim_group

never_boosted "$outsider" "the setsid() child" 6
[ "$(autogroup_nice "$outsider")" = "$outsider_group" ] ||
	fail "the setsid() child's autogroup changed: $(autogroup_nice "$outsider")"
all_threads "$drawer" "^$OUTPUT" || fail "the drawing child lost its class: $FW_SEEN"

pass
