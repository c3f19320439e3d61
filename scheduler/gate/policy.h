#ifndef FAIRWAY_SCHEDULER_GATE_POLICY_H
#define FAIRWAY_SCHEDULER_GATE_POLICY_H

#include "scheduler/sched_clock.h"
#include <stdbool.h>
#include <stdint.h>
#include <wayland-util.h>

/*
 * X-style smart scheduling (Packard 2000, and dix/dispatch.c as today's Xorg
 * runs it), over abstract entities. No I/O and no clock reads: every call is
 * given the time, so the policy runs under a fake clock in tests.
 */

#define SCHED_MIN_PRIORITY (-20)
#define SCHED_MAX_PRIORITY 20
#define SCHED_LEVELS (SCHED_MAX_PRIORITY - SCHED_MIN_PRIORITY + 1)

struct sched_params {
	int64_t interval_ns; /* the base slice, Xorg's SmartScheduleInterval */
	int64_t max_slice_ns; /* how far a lone client's slice may grow */
	int64_t lone_after_ns; /* how long a client must run alone to grow */
	int idle_slices; /* idle this many slices to win back 1 */
	int base_priority;
};

/*
 * The parameters for a time slice of interval_ns, as Xorg derives them:
 * a lone client's slice grows to three intervals after 1 s alone, and two
 * idle slices win a point back. Xorg's own are those of 5 ms (5 and 15);
 * fairway's, GATE_DEFAULT_INTERVAL_NS (gate.h).
 */
void sched_params_init(struct sched_params *params, int64_t interval_ns);

struct sched_stats {
	uint64_t turns; /* times picked after another entity */
	uint64_t expired; /* slices used up while still busy (penalties) */
	uint64_t boosts; /* input boosts that raised the priority */
	uint64_t preempted; /* turns cut short by a higher priority */
	uint64_t rescued; /* lifted to base after being passed over long */
	int64_t run_ns; /* time charged */
};

struct sched_entity {
	/*
	 * What the user gave it, in [SCHED_MIN_PRIORITY, SCHED_MAX_PRIORITY]:
	 * Xorg's client->priority (XSync SetPriority). It is compared before
	 * the smart priority and never changes by itself.
	 */
	int client_priority;
	/* The smart priority: what scheduling made of its behaviour. */
	int priority;
	bool ready; /* has whole requests waiting */
	uint32_t index; /* order of arrival, for round-robin */
	int64_t start_ns; /* when its current run of turns began */
	int64_t stop_ns; /* when its last turn ended */
	int64_t credit_ns; /* when it last won a point back by waiting */
	int64_t idle_since_ns; /* when it last ran out of requests */
	int64_t ready_since_ns; /* when it last got requests again */
	/* Service charged and not yet paid back by idle time, mod interval. */
	int64_t used_ns;
	bool penalized; /* lost a point during the current turn */
	/* What one of its requests costs, a moving average; 0: not measured. */
	int64_t request_cost_ns;
	struct sched_stats stats;
	struct wl_list link; /* sched_policy.entities */
	struct wl_list ready_link; /* sched_policy.ready, while ready */
};

struct sched_policy {
	struct sched_params params;
	struct wl_list entities;
	/* Only the ready ones, so that picking costs nothing per idle client. */
	struct wl_list ready;
	int64_t ready_count; /* the length of ready */
	uint32_t next_index;
	uint32_t last_index[SCHED_LEVELS]; /* round-robin position per level */
	struct sched_entity *current; /* whose turn it is, or NULL */
	struct sched_entity *previous; /* who had the last turn, or NULL */
	int64_t turn_start_ns;
	int64_t slice_ns; /* length of the current slice */
	int64_t now_ns; /* the latest time it was given */
};

void sched_policy_init(
		struct sched_policy *policy, const struct sched_params *params);
/* Every entity must have been removed first. */
void sched_policy_finish(struct sched_policy *policy);
/*
 * New parameters while entities are scheduled (a configuration reload):
 * the current slice is cut to the new bounds at the next pick.
 */
void sched_policy_set_params(
		struct sched_policy *policy, const struct sched_params *params);

/* Initializes the entity at the base priority and adds it. */
void sched_entity_add(
		struct sched_policy *policy, struct sched_entity *entity, int64_t now);
/* Removes it; if it was running, its turn ends without a penalty. */
void sched_entity_remove(
		struct sched_policy *policy, struct sched_entity *entity);
void sched_entity_set_ready(
		struct sched_policy *policy, struct sched_entity *entity, bool ready);
/*
 * Sets its client priority, clamped to [SCHED_MIN_PRIORITY,
 * SCHED_MAX_PRIORITY] (0 when added). As in Xorg, a ready entity with a
 * higher client priority always goes first, whatever the smart priorities:
 * a lower one is served only while no higher one has requests ready.
 */
void sched_entity_set_client_priority(struct sched_policy *policy,
		struct sched_entity *entity, int client_priority);
/* Input was delivered to it: +1, up to SCHED_MAX_PRIORITY. */
void sched_entity_note_input(
		struct sched_policy *policy, struct sched_entity *entity);

/*
 * Whose turn it is at `now`. "Higher" compares the client priority first,
 * then the smart priority. The current turn goes on while its slice lasts,
 * its entity is ready and no ready entity has a higher priority. Otherwise
 * the turn ends: an entity still ready after using its whole slice loses 1
 * (down to SCHED_MIN_PRIORITY). Then every ready entity that has not run for
 * idle_slices slices gains 1 (up to base), and the ready entity with the
 * highest priority starts a turn, round-robin within a level. A lone ready
 * entity that has run for lone_after_ns has its slice grown by one interval
 * per turn up to max_slice_ns; the slice is back to one interval as soon as
 * another entity is ready. Returns NULL when nothing is ready.
 */
struct sched_entity *sched_policy_next(
		struct sched_policy *policy, int64_t now);

/*
 * Charges time an entity spent being served. Each interval of service it
 * accumulates, less the time it spent with nothing to ask for, costs it 1,
 * as a slice used up does: a client whose requests are expensive loses
 * priority even when each of its turns ends early because its queue ran
 * dry.
 */
void sched_entity_charge(
		struct sched_policy *policy, struct sched_entity *entity, int64_t ns);

/*
 * Charges an entity for a batch of `requests` that took `ns` of wall time,
 * and learns from it what its requests cost. A batch that took more than
 * SCHED_MAX_COST_RISE times what its requests are known to cost was
 * interrupted (the kernel ran someone else meanwhile): it is charged that
 * much, not the interruption. A client whose requests really grow dearer
 * raises its cost by up to that factor a batch.
 */
#define SCHED_MAX_COST_RISE 4
void sched_entity_charge_batch(struct sched_policy *policy,
		struct sched_entity *entity, int64_t ns, int requests);
/* What one of its requests is expected to cost (a guess before any batch). */
int64_t sched_entity_request_cost(const struct sched_entity *entity);

/* Whether the current entity is the only one ready. */
bool sched_policy_alone(const struct sched_policy *policy);

/* Time left in the current turn's slice at `now` (0 if none or expired). */
int64_t sched_policy_slice_left(const struct sched_policy *policy, int64_t now);

#endif
