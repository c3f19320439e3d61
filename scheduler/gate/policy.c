#include "scheduler/gate/policy.h"
#include <assert.h>
#include <stddef.h>
#include <string.h>

/*
 * Rounds of all the ready clients a client may be passed over for before
 * it is lifted to base. Clients that are busy all the time take turns
 * below base within two rounds, so they are never lifted, and a client
 * that rests keeps its lead over them.
 */
#define STARVE_ROUNDS 4

void sched_params_init(struct sched_params *params, int64_t interval_ns) {
	params->interval_ns = interval_ns;
	params->max_slice_ns = 3 * interval_ns;
	params->lone_after_ns = 1000 * SCHED_NS_PER_MS;
	params->idle_slices = 2;
	params->base_priority = 0;
}

static int clamp_priority(int priority) {
	if (priority < SCHED_MIN_PRIORITY) {
		return SCHED_MIN_PRIORITY;
	}
	if (priority > SCHED_MAX_PRIORITY) {
		return SCHED_MAX_PRIORITY;
	}
	return priority;
}

static int level_of(int priority) {
	return priority - SCHED_MIN_PRIORITY;
}

static void set_params(
		struct sched_policy *policy, const struct sched_params *params) {
	policy->params = *params;
	policy->params.base_priority = clamp_priority(policy->params.base_priority);
	if (policy->params.max_slice_ns < policy->params.interval_ns) {
		policy->params.max_slice_ns = policy->params.interval_ns;
	}
}

void sched_policy_init(
		struct sched_policy *policy, const struct sched_params *params) {
	memset(policy, 0, sizeof(*policy));
	set_params(policy, params);
	wl_list_init(&policy->entities);
	wl_list_init(&policy->ready);
	/*
	 * Indices start at 1 so that, with every last_index at 0, the first
	 * entities are served in their order of arrival.
	 */
	policy->next_index = 1;
	policy->current = NULL;
	policy->previous = NULL;
	policy->slice_ns = policy->params.interval_ns;
}

void sched_policy_finish(struct sched_policy *policy) {
	assert(wl_list_empty(&policy->entities));
	policy->current = NULL;
	policy->previous = NULL;
}

void sched_policy_set_params(
		struct sched_policy *policy, const struct sched_params *params) {
	set_params(policy, params);
	if (policy->slice_ns < policy->params.interval_ns) {
		policy->slice_ns = policy->params.interval_ns;
	} else if (policy->slice_ns > policy->params.max_slice_ns) {
		policy->slice_ns = policy->params.max_slice_ns;
	}
}

void sched_entity_add(
		struct sched_policy *policy, struct sched_entity *entity, int64_t now) {
	memset(entity, 0, sizeof(*entity));
	entity->priority = policy->params.base_priority;
	entity->ready = false;
	entity->index = policy->next_index++;
	entity->start_ns = now;
	entity->stop_ns = now;
	wl_list_insert(policy->entities.prev, &entity->link);
	wl_list_init(&entity->ready_link);
}

void sched_entity_remove(
		struct sched_policy *policy, struct sched_entity *entity) {
	if (policy->current == entity) {
		policy->current = NULL;
	}
	if (policy->previous == entity) {
		policy->previous = NULL;
	}
	wl_list_remove(&entity->link);
	wl_list_init(&entity->link);
	if (entity->ready) {
		policy->ready_count--;
	}
	wl_list_remove(&entity->ready_link);
	wl_list_init(&entity->ready_link);
}

void sched_entity_set_ready(
		struct sched_policy *policy, struct sched_entity *entity, bool ready) {
	if (ready == entity->ready) {
		return;
	}
	entity->ready = ready;
	wl_list_remove(&entity->ready_link);
	wl_list_init(&entity->ready_link);
	if (!ready) {
		policy->ready_count--;
		entity->idle_since_ns = policy->now_ns;
		return;
	}
	policy->ready_count++;
	wl_list_insert(policy->ready.prev, &entity->ready_link);
	entity->ready_since_ns = policy->now_ns;
	if (policy->current == entity) {
		/*
		 * It ran out of work and is back before the next pick. Its turn
		 * ended when it ran dry, unpunished: left open, the next pick
		 * would count the wait in between as a slice it used up.
		 */
		entity->stop_ns = entity->idle_since_ns;
		policy->current = NULL;
	}
	/*
	 * Time with nothing to ask for pays service back, so that only a
	 * client that asks for more than it rests sinks: an interactive
	 * client's short bursts never add up to a penalty.
	 */
	int64_t idle = policy->now_ns - entity->idle_since_ns;
	int base = policy->params.base_priority;
	/*
	 * Above base, rest pays nothing back: a boost from input is spent by
	 * being served, so a client that got a window's configure and then
	 * floods cannot keep outranking the ones that ask for little.
	 */
	if (entity->priority <= base) {
		entity->used_ns -= idle;
		if (entity->used_ns < 0) {
			entity->used_ns = 0;
		}
	}
	/* And a real rest wins back a point per idle period, up to base. */
	int64_t idle_ns =
			(int64_t)policy->params.idle_slices * policy->params.interval_ns;
	int64_t points = idle / idle_ns;
	if (entity->priority < base && points > 0) {
		entity->priority = points >= base - entity->priority
				? base
				: entity->priority + (int)points;
	}
}

void sched_entity_set_client_priority(struct sched_policy *policy,
		struct sched_entity *entity, int client_priority) {
	entity->client_priority = clamp_priority(client_priority);
}

/* Which of two entities goes first, before round-robin. */
static bool outranks(
		const struct sched_entity *a, const struct sched_entity *b) {
	if (a->client_priority != b->client_priority) {
		return a->client_priority > b->client_priority;
	}
	return a->priority > b->priority;
}

void sched_entity_note_input(
		struct sched_policy *policy, struct sched_entity *entity) {
	if (entity->priority < SCHED_MAX_PRIORITY) {
		entity->priority++;
		entity->stats.boosts++;
	}
}

static bool higher_priority_ready(
		struct sched_policy *policy, const struct sched_entity *current) {
	struct sched_entity *entity;
	wl_list_for_each(entity, &policy->ready, ready_link) {
		if (entity->ready && outranks(entity, current)) {
			return true;
		}
	}
	return false;
}

static void end_turn(struct sched_policy *policy, int64_t now) {
	struct sched_entity *current = policy->current;
	bool expired = now - policy->turn_start_ns >= policy->slice_ns;

	/* Running out of work is never punished, only using a whole slice. */
	if (current->ready) {
		if (expired && current->penalized) {
			/* Its service already cost it a point this turn. */
		} else if (expired) {
			if (current->priority > SCHED_MIN_PRIORITY) {
				current->priority--;
			}
			current->stats.expired++;
		} else {
			current->stats.preempted++;
		}
	}
	current->stop_ns = now;
	policy->current = NULL;
}

struct sched_entity *sched_policy_next(
		struct sched_policy *policy, int64_t now) {
	policy->now_ns = now;
	struct sched_entity *current = policy->current;
	if (current != NULL) {
		if (current->ready && now - policy->turn_start_ns < policy->slice_ns &&
				!higher_priority_ready(policy, current)) {
			return current;
		}
		end_turn(policy, now);
	}

	int64_t idle_ns = (int64_t)policy->params.idle_slices * policy->slice_ns;
	int base = policy->params.base_priority;
	int64_t starve_ns = STARVE_ROUNDS * policy->ready_count * policy->slice_ns;
	struct sched_entity *best = NULL;
	uint32_t best_robin = 0;
	struct sched_entity *entity;
	wl_list_for_each(entity, &policy->ready, ready_link) {
		/*
		 * One point back per idle period spent waiting, so that nobody
		 * starves. Picks come every batch here, not once per slice as in
		 * Xorg, so the credit must not come with each of them. And
		 * waiting wins back only up to just below base: a busy client
		 * must not catch up with the ones that only ask now and then,
		 * which win their points back by resting (set_ready).
		 */
		int64_t since = entity->stop_ns > entity->credit_ns ? entity->stop_ns
															: entity->credit_ns;
		if (now - since >= idle_ns && entity->priority < base - 1) {
			entity->priority++;
			entity->credit_ns = now;
		}
		/*
		 * Yet a level can stay busy with no one in it busy for long:
		 * flooders that a pipeline limits, each resting briefly after
		 * every small batch, as one waiting for its buffers back does.
		 * Resting keeps them at base and they take turns there, and one
		 * a point below would wait forever. So a client passed over for
		 * STARVE_ROUNDS rounds of the ready ones is level with base.
		 */
		int64_t waiting = entity->stop_ns > entity->ready_since_ns
				? entity->stop_ns
				: entity->ready_since_ns;
		if (entity->priority < base && now - waiting >= starve_ns) {
			entity->priority = base;
			entity->credit_ns = now;
			entity->stats.rescued++;
		}
		/*
		 * The distance back from the last entity served at this level:
		 * the one right after it in index order is the farthest, and the
		 * last one served is 0, so it goes last. (Xorg subtracts the
		 * other way round, which cycles in falling index order; this
		 * serves a level in order of arrival.)
		 */
		uint32_t robin =
				policy->last_index[level_of(entity->priority)] - entity->index;
		if (best == NULL || outranks(entity, best) ||
				(!outranks(best, entity) && robin > best_robin)) {
			best = entity;
			best_robin = robin;
		}
	}
	if (best == NULL) {
		return NULL;
	}

	policy->last_index[level_of(best->priority)] = best->index;
	if (best != policy->previous) {
		best->start_ns = now;
		best->stats.turns++;
		policy->previous = best;
	}

	/*
	 * A client alone for a long while gets longer slices to save switches;
	 * as soon as it has company, latency matters again.
	 */
	const struct sched_params *params = &policy->params;
	if (policy->ready_count == 1) {
		if (now - best->start_ns > params->lone_after_ns &&
				policy->slice_ns < params->max_slice_ns) {
			policy->slice_ns += params->interval_ns;
			if (policy->slice_ns > params->max_slice_ns) {
				policy->slice_ns = params->max_slice_ns;
			}
		}
	} else {
		policy->slice_ns = params->interval_ns;
	}

	policy->turn_start_ns = now;
	policy->current = best;
	best->penalized = false;
	return best;
}

void sched_entity_charge(
		struct sched_policy *policy, struct sched_entity *entity, int64_t ns) {
	entity->stats.run_ns += ns;
	entity->used_ns += ns;
	int64_t interval = policy->params.interval_ns;
	while (entity->used_ns >= interval) {
		entity->used_ns -= interval;
		if (entity->priority > SCHED_MIN_PRIORITY) {
			entity->priority--;
		}
		entity->stats.expired++;
		entity->penalized = true;
	}
}

/* Before any batch was measured, assume a request costs this much. */
#define INITIAL_REQUEST_COST_NS 2000

int64_t sched_entity_request_cost(const struct sched_entity *entity) {
	return entity->request_cost_ns > 0 ? entity->request_cost_ns
									   : INITIAL_REQUEST_COST_NS;
}

void sched_entity_charge_batch(struct sched_policy *policy,
		struct sched_entity *entity, int64_t ns, int requests) {
	if (requests <= 0) {
		return;
	}
	int64_t known = sched_entity_request_cost(entity);
	int64_t sample = ns / requests;
	if (sample > SCHED_MAX_COST_RISE * known) {
		sample = SCHED_MAX_COST_RISE * known;
	}
	sched_entity_charge(policy, entity, sample * requests);
	entity->request_cost_ns =
			entity->request_cost_ns == 0 ? sample : (7 * known + sample) / 8;
}

bool sched_policy_alone(const struct sched_policy *policy) {
	return policy->current != NULL && policy->ready_count == 1;
}

int64_t sched_policy_slice_left(
		const struct sched_policy *policy, int64_t now) {
	if (policy->current == NULL) {
		return 0;
	}
	int64_t left = policy->slice_ns - (now - policy->turn_start_ns);
	return left > 0 ? left : 0;
}
