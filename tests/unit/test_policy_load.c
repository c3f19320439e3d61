#include "scheduler/gate/policy.h"
#include "tests/unit/check.h"
#include "tests/unit/policy_fixture.h"
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/*
 * Flooders that always have work and one light client that has 50 us of
 * work every 10 ms, served the way the gate serves them: one batch of at
 * most 100 us per sched_policy_next call.
 */
struct sim_result {
	uint64_t wakeups; /* light wake-ups after the warm-up */
	uint64_t at_once; /* picked by the first call after waking */
	int64_t worst_light_wait; /* from waking to being picked */
	uint64_t overruns; /* woke up again before being picked */
	int64_t worst_flooder_wait; /* a ready flooder not served */
	uint64_t min_flooder_turns;
	int max_flooder_priority; /* seen at the light's wake-ups */
};

#define MAX_FLOODERS 8

static void simulate(int flooders, bool input, struct sim_result *res) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity flooder[MAX_FLOODERS], light;
	CHECK(flooders <= MAX_FLOODERS);
	for (int i = 0; i < flooders; i++) {
		sched_entity_add(&policy, &flooder[i], 0);
		sched_entity_set_ready(&policy, &flooder[i], true);
	}
	sched_entity_add(&policy, &light, 0);

	const int64_t period = MS(10), work = US(50), batch = US(100);
	const int64_t warmup = MS(200), end = MS(5000);
	/* Offset so that it wakes up in the middle of flooders' slices. */
	int64_t light_wakes = MS(3) + US(300), woke_at = 0;
	int64_t last_served[MAX_FLOODERS] = {0};
	memset(res, 0, sizeof(*res));
	res->max_flooder_priority = SCHED_MIN_PRIORITY;

	for (int64_t t = 0; t < end;) {
		bool woke = false;
		if (t >= light_wakes) {
			light_wakes += period;
			if (light.ready) {
				/* Still waiting since the last one: the wait goes on. */
				res->overruns += t >= warmup;
			} else {
				woke_at = t;
				/* Like a terminal echoing a key press. */
				if (input) {
					sched_entity_note_input(&policy, &light);
				}
				sched_entity_set_ready(&policy, &light, true);
				woke = t >= warmup;
			}
		}
		struct sched_entity *e = sched_policy_next(&policy, t);
		CHECK(e != NULL);
		if (woke) {
			res->wakeups++;
			res->at_once += e == &light;
			for (int i = 0; i < flooders; i++) {
				if (flooder[i].priority > res->max_flooder_priority) {
					res->max_flooder_priority = flooder[i].priority;
				}
			}
		}
		int64_t spent = batch;
		if (e == &light) {
			spent = work;
			sched_entity_set_ready(&policy, &light, false);
			if (t >= warmup && t - woke_at > res->worst_light_wait) {
				res->worst_light_wait = t - woke_at;
			}
		} else {
			int i = (int)(e - flooder);
			CHECK(i >= 0 && i < flooders);
			if (t >= warmup && t - last_served[i] > res->worst_flooder_wait) {
				res->worst_flooder_wait = t - last_served[i];
			}
			last_served[i] = t + spent;
		}
		charge_current(&policy, spent);
		t += spent;
	}

	res->min_flooder_turns = UINT64_MAX;
	for (int i = 0; i < flooders; i++) {
		if (flooder[i].stats.turns < res->min_flooder_turns) {
			res->min_flooder_turns = flooder[i].stats.turns;
		}
		/* Every flooder was served for about the same time. */
		CHECK(flooder[i].stats.run_ns > end / (2 * flooders));
		sched_entity_remove(&policy, &flooder[i]);
	}
	/* With input it sits at the top, give or take the interval of service
	 * it is charged between boosts. */
	CHECK(input ? light.priority >= SCHED_MAX_PRIORITY - 1
				: light.priority == 0);
	/* Only a boosted light client pays for its service with points. */
	CHECK(input || light.stats.expired == 0);
	sched_entity_remove(&policy, &light);
	sched_policy_finish(&policy);

	fprintf(stderr,
			"%d flooders%s: light picked at once %" PRIu64 "/%" PRIu64
			", worst wait %" PRId64 " us, %" PRIu64
			" overruns; flooders: >= %" PRIu64 " turns, worst wait %" PRId64
			" us, max priority %d\n",
			flooders, input ? " (input)" : "", res->at_once, res->wakeups,
			res->worst_light_wait / 1000, res->overruns, res->min_flooder_turns,
			res->worst_flooder_wait / 1000, res->max_flooder_priority);
}

static void test_flooders_and_light(void) {
	for (int flooders = 1; flooders <= MAX_FLOODERS; flooders++) {
		struct sim_result res;
		simulate(flooders, false, &res);
		CHECK(res.wakeups > 100);
		/*
		 * No starvation: a flooder waits at most about two rounds of all
		 * the ready entities, since flooders at different levels catch up
		 * by waiting, one point per two slices.
		 */
		CHECK(res.min_flooder_turns > 100);
		CHECK(res.worst_flooder_wait <= 2 * (flooders + 1) * MS(5));

		/*
		 * Flooders sink below base and stay there, since waiting wins
		 * back points only up to base - 1, while the light client rests
		 * between requests and so is back at base each time it wakes: it
		 * cuts in at the first call after it wakes up, every time, with
		 * any number of flooders, even without input.
		 */
		CHECK(res.max_flooder_priority < 0);
		CHECK_INT(res.overruns, 0);
		CHECK_INT(res.at_once, res.wakeups);
		CHECK(res.wakeups >= 470);
		CHECK(res.worst_light_wait == 0);

		/* Input lifts it above any number of flooders. */
		simulate(flooders, true, &res);
		CHECK_INT(res.overruns, 0);
		CHECK_INT(res.at_once, res.wakeups);
		CHECK(res.wakeups >= 470);
		CHECK(res.worst_flooder_wait <= 2 * (flooders + 1) * MS(5));
	}
}

int main(void) {
	RUN_TEST(test_flooders_and_light);
	return 0;
}
