#include "scheduler/hints/hints.h"
#include "scheduler/parse_number.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The default mapping.
 * interactive: the user is waiting on it. A 0.5 ms custom slice gives it an
 *   earlier EEVDF deadline than the default (0.7 ms times 1 + log2 CPUs), so
 *   its wakeups preempt sooner; no privilege needed. uclamp_min 256 keeps
 *   the CPU clock from idling down under it. Nice -10 (nine times the
 *   weight of nice 0) where privilege allows: Android's top-app level,
 *   above rtkit's floor of -15, and no more than fairway's own, so that an
 *   application never outweighs the compositor that shows its frames.
 *   Beside a parallel build, -5 was not enough: with 4 hogs on each CPU a
 *   thread or group at -5 gets under half of one when it wakes, and an
 *   animation of 4 ms a frame drops a frame in six (bench/README.md,
 *   "Applications and task groups").
 * output: animates on screen. A 1 ms slice, uclamp_min 128 and nice -10,
 *   for the same reason: it needs throughput at a steady rate more than
 *   the quickest wakeup, and input keeps its lead through the shorter
 *   slice, the higher clamp and the gate's own input boost.
 * background: busy with nothing to show. SCHED_IDLE: the weight of nice
 *   +19 and less, and every other thread's wakeup preempts it at once.
 *   A busy thread that merely runs at a low weight still holds its CPU for
 *   a whole slice once it has it, and a flooder on fairway's CPU then holds
 *   up fairway and the clients waiting on it (bench/README.md compares a
 *   probe's round trips under flooders at nice +19 and SCHED_IDLE). Leaving
 * SCHED_IDLE needs CAP_SYS_NICE or the client's RLIMIT_NICE; where fairway
 * could not restore it, hints.c falls back to SCHED_BATCH, which never preempts
 * on wakeup. idle: the original attributes.
 *
 * The group level (hint_group.h): nice weighs only inside a task group,
 * and desktops put every session in one (autogroups) or every
 * application in a cgroup, so against a build in a terminal's session the
 * threads' nice does nothing. An application alone in its group has the
 * group's weight set too, from group_nice: interactive and output -15,
 * rtkit's floor and where fairway puts its own group, background
 * 19 (the least, and cpu.idle for a cgroup: SCHED_IDLE's group form). A
 * group competes with every other session's as one: beside eight hog
 * sessions on two CPUs a group at -10 gets about seven tenths of the CPU it
 * wakes on, and an animation of 4 ms a frame due every 15 ms then missed
 * ticks, where -15 gives it nearly nine tenths (bench/README.md, "Group
 * weight"). Threads stay at -10: inside the group that weighs only
 * against the application's own threads.
 *
 * The knee (Etsion, Tsafrir and Feitelson, "Process Prioritization Using
 * Output Production": a client's output grows with the CPU it gets up to
 * a knee, and past it more CPU buys no more output). On a display the
 * knee is the refresh rate: a client that commits faster than frames are
 * presented makes frames nobody sees. So each client's commits that
 * carry damage are counted against its surfaces' presented frames over
 * the ratings' window (ratings/ratings_client.h, ratings_params_default):
 * - up to knee_surplus = 1.5 commits per presented frame it is before its
 *   knee. A client that waits for frame callbacks commits at most one
 *   frame per presented one, plus the odd commit a configure or a resize
 *   asks for; half again as many leaves room for those and for frames
 *   the compositor dropped, and no paced client reaches it.
 * - past it, its output earns no `output` boost: it falls to its fair
 *   share (idle: the original attributes), or to background if busy.
 * - above waste_surplus = 4, three quarters or more of its frames are
 *   never shown: mostly waste, so background whatever its output. A
 *   commit flooder that does not wait for frame callbacks is here; so is
 *   a client animating a surface that is hidden or off every output.
 * - below knee_min_commit_rate = 10 commits a second there is no knee to
 *   speak of: a client that commits now and then without being shown
 *   (set-up, an offscreen surface) costs next to nothing, and is not
 *   sent to background for it. Its output still earns the `output`
 *   boost only at knee_surplus or below: 8 presented frames make an
 *   output rating over the window, 80 commits the knee's rate, and a
 *   flooder that has just started shows the first long before the
 *   second.
 * Input still comes first: a client the user is driving stays
 * interactive, paced or not.
 * X clients have the same knee, but their commits are not theirs:
 * Xwayland commits an X window only once its previous frame callback is
 * done, at most once a presented frame, however fast the X client draws.
 * So an X client's committed frames are the frames it draws into its
 * windows, as the X DAMAGE extension reports them: one for each burst of
 * drawing that starts after the last one was counted (the compositor's
 * xwayland_damage.c says why that unit). Its presented frames are its
 * windows' surfaces', as for any client, and the same thresholds apply: a
 * paced X animation draws about one frame a presented one, and an X
 * client that draws without pause (x11perf, Packard's plaid) draws
 * several and earns no `output` boost, for itself or, through it, for
 * Xwayland. Where fairway cannot count X drawing (no DAMAGE), an X
 * client's commits are Xwayland's commits of its windows, as before, and
 * a flooder among X clients goes unseen.
 */
void hints_config_default(struct hints_config *config) {
	*config = (struct hints_config){
			.mode = HINTS_ON,
			.groups = true,
			.burst = HINTS_DEFAULT_BURST,
			.refill_ns = HINTS_DEFAULT_REFILL_MS * SCHED_NS_PER_MS,
			.walk_ns = HINTS_DEFAULT_WALK_MS * SCHED_NS_PER_MS,
	};
	config->targets[RATINGS_INTERACTIVE] = (struct hints_target){
			.policy = SCHED_OTHER,
			.set_nice = true,
			.nice = -10,
			.slice_ns = 500 * 1000,
			.uclamp_min = 256,
			.set_group = true,
			.group_nice = HINTS_NICE_FLOOR,
	};
	config->targets[RATINGS_OUTPUT] = (struct hints_target){
			.policy = SCHED_OTHER,
			.set_nice = true,
			.nice = -10,
			.slice_ns = 1000 * 1000,
			.uclamp_min = 128,
			.set_group = true,
			.group_nice = HINTS_NICE_FLOOR,
	};
	config->targets[RATINGS_BACKGROUND] = (struct hints_target){
			.policy = SCHED_IDLE,
			.uclamp_min = -1,
			.set_group = true,
			.group_nice = 19,
	};
	config->targets[RATINGS_IDLE] = (struct hints_target){
			.keep = true,
			.uclamp_min = -1,
	};
}

static bool parse_pair(
		struct hints_target *target, const char *key, const char *value) {
	long n;
	if (strcmp(key, "policy") == 0) {
		if (strcmp(value, "other") == 0) {
			target->policy = SCHED_OTHER;
		} else if (strcmp(value, "batch") == 0) {
			target->policy = SCHED_BATCH;
		} else if (strcmp(value, "idle") == 0) {
			target->policy = SCHED_IDLE;
		} else {
			return false;
		}
	} else if (strcmp(key, "nice") == 0) {
		if (strcmp(value, "keep") == 0) {
			target->set_nice = false;
		} else if (sched_parse_long(value, -20, 19, &n)) {
			target->set_nice = true;
			target->nice = (int32_t)n;
		} else {
			return false;
		}
	} else if (strcmp(key, "slice_us") == 0) {
		/* The kernel clamps custom slices to 0.1-100 ms. */
		if (!sched_parse_long(value, 0, 100000, &n) || (n != 0 && n < 100)) {
			return false;
		}
		target->slice_ns = (uint64_t)n * 1000;
	} else if (strcmp(key, "group_nice") == 0) {
		if (strcmp(value, "keep") == 0) {
			target->set_group = false;
		} else if (sched_parse_long(value, -20, 19, &n)) {
			target->set_group = true;
			target->group_nice = (int32_t)n;
		} else {
			return false;
		}
	} else if (strcmp(key, "uclamp_min") == 0) {
		if (!sched_parse_long(value, -1, 1024, &n)) {
			return false;
		}
		target->uclamp_min = (int32_t)n;
	} else {
		return false;
	}
	return true;
}

bool hints_config_parse_target(struct hints_config *config, const char *text) {
	const char *colon = strchr(text, ':');
	if (colon == NULL) {
		return false;
	}
	int class = -1;
	for (int i = 0; i < RATINGS_CLASS_COUNT; i++) {
		const char *name = ratings_class_name((enum ratings_class)i);
		if (strlen(name) == (size_t)(colon - text) &&
				strncmp(text, name, strlen(name)) == 0) {
			class = i;
		}
	}
	if (class < 0) {
		return false;
	}
	struct hints_target target = {.policy = SCHED_OTHER, .uclamp_min = -1};
	if (strcmp(colon + 1, "keep") == 0) {
		target.keep = true;
		config->targets[class] = target;
		return true;
	}
	char *copy = strdup(colon + 1);
	if (copy == NULL) {
		return false;
	}
	bool ok = copy[0] != '\0';
	char *save = NULL;
	for (char *pair = strtok_r(copy, ",", &save); ok && pair != NULL;
			pair = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(pair, '=');
		if (eq == NULL) {
			ok = false;
			break;
		}
		*eq = '\0';
		ok = parse_pair(&target, pair, eq + 1);
	}
	free(copy);
	if (ok) {
		config->targets[class] = target;
	}
	return ok;
}

const char *hints_mode_name(enum hints_mode mode) {
	static const char *const names[] = {
			[HINTS_OFF] = "off",
			[HINTS_DRY_RUN] = "dry-run",
			[HINTS_ON] = "on",
	};
	return (size_t)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}

int hints_unsupported_names(const struct hints *hints, char *buf, size_t size) {
	int len = 0;
	if (size > 0) {
		buf[0] = '\0';
	}
	for (unsigned part = 1; part & HINT_PART_ALL; part <<= 1) {
		if (hint_kernel_supports(&hints->kernel, part)) {
			continue;
		}
		int n = snprintf(buf + len, (size_t)len < size ? size - (size_t)len : 0,
				"%s%s", len > 0 ? "," : "",
				hint_part_name((enum hint_attr_part)part));
		if (n < 0) {
			return n;
		}
		len += n;
	}
	return len;
}
