#include "scheduler/gate/policy.h"
#include "tests/unit/check.h"
#include "tests/unit/policy_fixture.h"
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

static void test_defaults(void) {
	struct sched_params params;
	sched_params_init(&params, MS(5));
	CHECK_INT(params.interval_ns, MS(5));
	CHECK_INT(params.max_slice_ns, MS(15));
	CHECK_INT(params.lone_after_ns, MS(1000));
	CHECK_INT(params.idle_slices, 2);
	CHECK_INT(params.base_priority, 0);

	struct sched_policy policy;
	sched_policy_init(&policy, &params);
	CHECK_PTR(sched_policy_next(&policy, 0), NULL);
	CHECK_INT(sched_policy_slice_left(&policy, 0), 0);
	sched_policy_finish(&policy);
}

static void test_drop_on_full_slice(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a;
	sched_entity_add(&policy, &a, 0);
	CHECK_INT(a.priority, 0);
	sched_entity_set_ready(&policy, &a, true);

	CHECK_PTR(sched_policy_next(&policy, 0), &a);
	CHECK_INT(sched_policy_slice_left(&policy, MS(2)), MS(3));
	/* One nanosecond short of the slice: the turn goes on, unpunished. */
	CHECK_PTR(sched_policy_next(&policy, MS(5) - 1), &a);
	CHECK_INT(a.priority, 0);
	CHECK_INT(a.stats.expired, 0);
	CHECK_INT(sched_policy_slice_left(&policy, MS(5)), 0);

	CHECK_PTR(sched_policy_next(&policy, MS(5)), &a);
	CHECK_INT(a.priority, -1);
	CHECK_INT(a.stats.expired, 1);
	CHECK_INT(a.stats.preempted, 0);
	/* Picked again right after its own turn: one turn, not two. */
	CHECK_INT(a.stats.turns, 1);
	CHECK_INT(sched_policy_slice_left(&policy, MS(5)), MS(5));

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

static void test_no_drop_when_out_of_work(void) {
	struct sched_policy policy;
	struct sched_entity a;
	setup_one_running(&policy, &a);

	sched_entity_set_ready(&policy, &a, false);
	CHECK_PTR(sched_policy_next(&policy, MS(3)), NULL);
	CHECK_INT(a.priority, 0);
	CHECK_INT(a.stats.expired, 0);
	CHECK_INT(a.stop_ns, MS(3));
	CHECK_INT(sched_policy_slice_left(&policy, MS(3)), 0);

	/* Noticed only after the slice would have ended: still no penalty. */
	sched_entity_set_ready(&policy, &a, true);
	CHECK_PTR(sched_policy_next(&policy, MS(4)), &a);
	sched_entity_set_ready(&policy, &a, false);
	CHECK_PTR(sched_policy_next(&policy, MS(20)), NULL);
	CHECK_INT(a.priority, 0);
	CHECK_INT(a.stats.expired, 0);

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

/*
 * Out of work and back again before the policy picks: what lay between
 * was a wait, not a slice used up.
 */
static void test_no_drop_when_dry_between_picks(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a;
	sched_entity_add(&policy, &a, 0);
	sched_entity_set_ready(&policy, &a, true);
	CHECK_PTR(sched_policy_next(&policy, 0), &a);
	sched_entity_set_ready(&policy, &a, false);
	sched_entity_set_ready(&policy, &a, true);
	CHECK_PTR(sched_policy_next(&policy, MS(7)), &a);
	CHECK_INT(a.priority, 0);
	CHECK_INT(a.stats.expired, 0);
	CHECK_INT(a.stop_ns, 0);
	/* A fresh slice from the pick on. */
	CHECK_INT(sched_policy_slice_left(&policy, MS(8)), MS(4));
	/* Used up while ready, it does cost a point. */
	CHECK_PTR(sched_policy_next(&policy, MS(12)), &a);
	CHECK_INT(a.priority, -1);
	CHECK_INT(a.stats.expired, 1);

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

/* Runs `a` alone for `slices` whole slices from t = 0; returns the time. */
static int64_t run_alone(
		struct sched_policy *policy, struct sched_entity *a, int slices) {
	sched_entity_set_ready(policy, a, true);
	int64_t t = 0;
	CHECK_PTR(sched_policy_next(policy, t), a);
	for (int i = 0; i < slices; i++) {
		t += MS(5);
		CHECK_PTR(sched_policy_next(policy, t), a);
	}
	return t;
}

static void test_rise_when_idle(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);

	int64_t t = run_alone(&policy, &a, 3);
	CHECK_INT(t, MS(15));
	CHECK_INT(a.priority, -3);

	/* b outranks a, so a waits while ready. */
	for (int i = 0; i < 5; i++) {
		sched_entity_note_input(&policy, &b);
	}
	CHECK_INT(b.priority, 5);
	sched_entity_set_ready(&policy, &b, true);
	CHECK_PTR(sched_policy_next(&policy, MS(16)), &b);
	CHECK_INT(a.stats.preempted, 1);
	CHECK_INT(a.stop_ns, MS(16));
	CHECK_INT(a.priority, -3);

	/* Waited one slice: not yet. */
	CHECK_PTR(sched_policy_next(&policy, MS(21)), &b);
	CHECK_INT(b.priority, 4);
	CHECK_INT(a.priority, -3);
	/*
	 * Two slices: +1, and another for every further two slices of
	 * waiting, however often the policy picks in between.
	 */
	CHECK_PTR(sched_policy_next(&policy, MS(26)), &b);
	CHECK_INT(a.priority, -2);
	CHECK_PTR(sched_policy_next(&policy, MS(27)), &b);
	CHECK_PTR(sched_policy_next(&policy, MS(31)), &b);
	CHECK_INT(a.priority, -2);
	CHECK_PTR(sched_policy_next(&policy, MS(36)), &b);
	CHECK_INT(a.priority, -1);
	/*
	 * Waiting wins back points only up to just below base: b, which
	 * rested, runs first at base.
	 */
	CHECK_PTR(sched_policy_next(&policy, MS(46)), &b);
	CHECK_INT(a.priority, -1);
	CHECK_INT(b.priority, 0);
	CHECK_PTR(sched_policy_next(&policy, MS(51)), &b);
	CHECK_INT(a.priority, -1);
	CHECK_INT(b.priority, -1);
	/* Now level with b, a gets its turn. */
	CHECK_PTR(sched_policy_next(&policy, MS(56)), &a);

	sched_entity_remove(&policy, &a);
	sched_entity_remove(&policy, &b);
	sched_policy_finish(&policy);
}

static void test_rise_counts_time_not_ready(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a;
	sched_entity_add(&policy, &a, 0);
	int64_t t = run_alone(&policy, &a, 3);
	CHECK_INT(a.priority, -3);

	sched_entity_set_ready(&policy, &a, false);
	CHECK_PTR(sched_policy_next(&policy, t + 1), NULL);
	CHECK_INT(a.stop_ns, t + 1);

	/* Back after less than two slices: no reward. */
	sched_entity_set_ready(&policy, &a, true);
	CHECK_PTR(sched_policy_next(&policy, t + 1 + MS(10) - 1), &a);
	CHECK_INT(a.priority, -3);
	sched_entity_set_ready(&policy, &a, false);
	t = t + 1 + MS(10) - 1;
	CHECK_PTR(sched_policy_next(&policy, t), NULL);

	sched_entity_set_ready(&policy, &a, true);
	CHECK_PTR(sched_policy_next(&policy, t + MS(10)), &a);
	CHECK_INT(a.priority, -2);

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

static void test_input_boost(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a;
	sched_entity_add(&policy, &a, 0);
	for (int i = 1; i <= 25; i++) {
		sched_entity_note_input(&policy, &a);
		CHECK_INT(a.priority, i < SCHED_MAX_PRIORITY ? i : SCHED_MAX_PRIORITY);
	}
	CHECK_INT(a.priority, 20);
	CHECK_INT(a.stats.boosts, 20);

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

static void test_floor(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a;
	sched_entity_add(&policy, &a, 0);
	sched_entity_set_ready(&policy, &a, true);
	CHECK_PTR(sched_policy_next(&policy, 0), &a);
	for (int i = 1; i <= 30; i++) {
		CHECK_PTR(sched_policy_next(&policy, i * MS(5)), &a);
		CHECK_INT(
				a.priority, -i > SCHED_MIN_PRIORITY ? -i : SCHED_MIN_PRIORITY);
	}
	CHECK_INT(a.priority, -20);
	CHECK_INT(a.stats.expired, 30);

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

/*
 * One turn that ends with the entity out of work, so no penalty: everyone
 * stays at one level and only the round-robin decides. The previous one
 * gets work again once it is no longer current.
 */
static void rr_step(struct sched_policy *policy, int64_t *t,
		struct sched_entity **prev, struct sched_entity *want) {
	struct sched_entity *got = sched_policy_next(policy, *t);
	CHECK_PTR(got, want);
	if (*prev != NULL) {
		sched_entity_set_ready(policy, *prev, true);
	}
	sched_entity_set_ready(policy, got, false);
	*prev = got;
	*t += US(100);
}

static void test_round_robin(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity e[4];
	for (int i = 0; i < 3; i++) {
		sched_entity_add(&policy, &e[i], 0);
		sched_entity_set_ready(&policy, &e[i], true);
	}
	CHECK_INT(e[0].index + 1, e[1].index);
	CHECK_INT(e[1].index + 1, e[2].index);

	int64_t t = 0;
	struct sched_entity *prev = NULL;
	for (int i = 0; i < 12; i++) {
		rr_step(&policy, &t, &prev, &e[i % 3]);
	}
	for (int i = 0; i < 3; i++) {
		CHECK_INT(e[i].priority, 0);
		CHECK_INT(e[i].stats.turns, 4);
		CHECK_INT(e[i].stats.expired, 0);
	}

	/* A newcomer comes after the last one served, in index order. */
	sched_entity_add(&policy, &e[3], t);
	sched_entity_set_ready(&policy, &e[3], true);
	rr_step(&policy, &t, &prev, &e[3]);
	rr_step(&policy, &t, &prev, &e[0]);
	rr_step(&policy, &t, &prev, &e[1]);
	rr_step(&policy, &t, &prev, &e[2]);
	rr_step(&policy, &t, &prev, &e[3]);

	/* A gap in the indices changes nothing for the others. */
	sched_entity_remove(&policy, &e[1]);
	for (int i = 0; i < 6; i++) {
		struct sched_entity *order[] = {&e[0], &e[2], &e[3]};
		rr_step(&policy, &t, &prev, order[i % 3]);
	}

	sched_entity_remove(&policy, &e[0]);
	sched_entity_remove(&policy, &e[2]);
	sched_entity_remove(&policy, &e[3]);
	sched_policy_finish(&policy);
}

static void test_round_robin_busy(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity e[3];
	for (int i = 0; i < 3; i++) {
		sched_entity_add(&policy, &e[i], 0);
		sched_entity_set_ready(&policy, &e[i], true);
	}
	/*
	 * Three always-busy entities: each loses 1 per slice and wins it back
	 * after waiting two slices (but only up to just below base), so they
	 * take turns in order forever.
	 */
	for (int i = 0; i < 30; i++) {
		CHECK_PTR(sched_policy_next(&policy, i * MS(5)), &e[i % 3]);
	}
	for (int i = 0; i < 3; i++) {
		CHECK_INT(e[i].stats.turns, 10);
		CHECK(e[i].priority >= -2 && e[i].priority <= -1);
		sched_entity_remove(&policy, &e[i]);
	}
	sched_policy_finish(&policy);
}

static void test_highest_first(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity e[3];
	for (int i = 0; i < 3; i++) {
		sched_entity_add(&policy, &e[i], 0);
		sched_entity_set_ready(&policy, &e[i], true);
	}
	sched_entity_note_input(&policy, &e[2]);
	sched_entity_note_input(&policy, &e[1]);
	sched_entity_note_input(&policy, &e[1]);
	CHECK_PTR(sched_policy_next(&policy, 0), &e[1]);
	sched_entity_set_ready(&policy, &e[1], false);
	CHECK_PTR(sched_policy_next(&policy, US(10)), &e[2]);
	sched_entity_set_ready(&policy, &e[2], false);
	CHECK_PTR(sched_policy_next(&policy, US(20)), &e[0]);
	sched_entity_set_ready(&policy, &e[0], false);
	CHECK_PTR(sched_policy_next(&policy, US(30)), NULL);

	for (int i = 0; i < 3; i++) {
		sched_entity_remove(&policy, &e[i]);
	}
	sched_policy_finish(&policy);
}

static void test_preemption(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);
	sched_entity_set_ready(&policy, &a, true);
	sched_entity_set_ready(&policy, &b, true);

	CHECK_PTR(sched_policy_next(&policy, 0), &a);
	/* An equal priority does not cut the turn. */
	CHECK_PTR(sched_policy_next(&policy, MS(1)), &a);
	sched_entity_note_input(&policy, &b);
	CHECK_INT(b.stats.boosts, 1);
	CHECK_PTR(sched_policy_next(&policy, MS(2)), &b);
	CHECK_INT(a.stats.preempted, 1);
	CHECK_INT(a.stats.expired, 0);
	CHECK_INT(a.priority, 0);
	CHECK_INT(a.stop_ns, MS(2));
	CHECK_INT(b.priority, 1);
	CHECK_INT(sched_policy_slice_left(&policy, MS(2)), MS(5));

	/* A higher priority that is not ready does not cut the turn. */
	sched_entity_set_ready(&policy, &b, false);
	CHECK_PTR(sched_policy_next(&policy, MS(3)), &a);
	for (int i = 0; i < 3; i++) {
		sched_entity_note_input(&policy, &b);
	}
	CHECK_PTR(sched_policy_next(&policy, MS(4)), &a);
	CHECK_INT(a.stats.preempted, 1);

	sched_entity_remove(&policy, &a);
	sched_entity_remove(&policy, &b);
	sched_policy_finish(&policy);
}

static void test_lone_slice_growth(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);
	sched_entity_set_ready(&policy, &a, true);

	/* Turns at 0, 5, ..., 1000 ms: a has not been alone > 1 s yet. */
	int64_t t = 0;
	for (; t <= MS(1000); t += MS(5)) {
		CHECK_PTR(sched_policy_next(&policy, t), &a);
		CHECK_INT(sched_policy_slice_left(&policy, t), MS(5));
	}
	CHECK_INT(a.start_ns, 0);
	CHECK_INT(a.stats.turns, 1);
	/* One interval more per turn... */
	CHECK_PTR(sched_policy_next(&policy, t), &a);
	CHECK_INT(sched_policy_slice_left(&policy, t), MS(10));
	/* ...a turn goes on for the whole longer slice... */
	CHECK_PTR(sched_policy_next(&policy, t + MS(9)), &a);
	t += MS(10);
	CHECK_PTR(sched_policy_next(&policy, t), &a);
	CHECK_INT(sched_policy_slice_left(&policy, t), MS(15));
	/* ...up to the maximum. */
	for (int i = 0; i < 3; i++) {
		t += MS(15);
		CHECK_PTR(sched_policy_next(&policy, t), &a);
		CHECK_INT(sched_policy_slice_left(&policy, t), MS(15));
	}
	CHECK_INT(a.priority, -20);

	/* Company: b outranks a and cuts in, with a plain slice. */
	sched_entity_set_ready(&policy, &b, true);
	CHECK_PTR(sched_policy_next(&policy, t + MS(1)), &b);
	CHECK_INT(sched_policy_slice_left(&policy, t + MS(1)), MS(5));
	CHECK_INT(a.stats.preempted, 1);
	t += MS(1);

	/* Alone again, a starts a new run of turns: no growth for 1 s. */
	sched_entity_set_ready(&policy, &b, false);
	CHECK_PTR(sched_policy_next(&policy, t + MS(1)), &a);
	t += MS(1);
	CHECK_INT(a.start_ns, t);
	CHECK_INT(a.stats.turns, 2);
	CHECK_INT(sched_policy_slice_left(&policy, t), MS(5));
	t += MS(5);
	CHECK_PTR(sched_policy_next(&policy, t), &a);
	CHECK_INT(sched_policy_slice_left(&policy, t), MS(5));

	sched_entity_remove(&policy, &a);
	sched_entity_remove(&policy, &b);
	sched_policy_finish(&policy);
}

static void test_lone_slice_reset_same_level(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);
	sched_entity_set_ready(&policy, &a, true);
	int64_t t = 0;
	CHECK_PTR(sched_policy_next(&policy, t), &a);
	while (policy.slice_ns < MS(15)) {
		t += sched_policy_slice_left(&policy, t);
		CHECK_PTR(sched_policy_next(&policy, t), &a);
	}
	CHECK_INT(t, MS(1015));
	CHECK_INT(sched_policy_slice_left(&policy, t), MS(15));

	/*
	 * Put b at a's level, so that it cannot cut in: it waits for the end
	 * of a's long slice, and from then on the slice is plain again.
	 */
	sched_entity_set_ready(&policy, &b, true);
	/* (b rested for a second: it is back at base, so set it after.) */
	b.priority = a.priority;
	CHECK_PTR(sched_policy_next(&policy, t + MS(14)), &a);
	t += MS(15);
	CHECK_PTR(sched_policy_next(&policy, t), &b);
	CHECK_INT(sched_policy_slice_left(&policy, t), MS(5));

	sched_entity_remove(&policy, &a);
	sched_entity_remove(&policy, &b);
	sched_policy_finish(&policy);
}

static void test_service_charge(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);
	sched_entity_set_ready(&policy, &a, true);
	sched_entity_set_ready(&policy, &b, true);

	/* Every interval of service costs a point, as a used-up slice does. */
	CHECK_PTR(sched_policy_next(&policy, 0), &a);
	charge_current(&policy, MS(3));
	CHECK_INT(a.priority, 0);
	charge_current(&policy, MS(2));
	CHECK_INT(a.priority, -1);
	CHECK_INT(a.stats.expired, 1);
	CHECK_INT(a.stats.run_ns, MS(5));
	/* The slice also ran out, but that point is already paid. */
	CHECK_PTR(sched_policy_next(&policy, MS(5)), &b);
	CHECK_INT(a.priority, -1);
	CHECK_INT(a.stats.expired, 1);

	sched_entity_set_ready(&policy, &b, false);
	CHECK_PTR(sched_policy_next(&policy, MS(6)), &a);
	charge_current(&policy, MS(4));
	CHECK_INT(a.priority, -1);

	/*
	 * A rest of 24 ms pays the 4 ms of service back and is worth two
	 * idle periods of 10 ms: back to base, not above it.
	 */
	sched_entity_set_ready(&policy, &a, false);
	CHECK_PTR(sched_policy_next(&policy, MS(6)), NULL);
	CHECK_PTR(sched_policy_next(&policy, MS(30)), NULL);
	sched_entity_set_ready(&policy, &a, true);
	CHECK_INT(a.priority, 0);
	CHECK_PTR(sched_policy_next(&policy, MS(30)), &a);
	charge_current(&policy, MS(4));
	CHECK_INT(a.priority, 0);
	charge_current(&policy, MS(1));
	CHECK_INT(a.priority, -1);

	sched_entity_remove(&policy, &a);
	sched_entity_remove(&policy, &b);
	sched_policy_finish(&policy);
}

static void test_batch_charge(void) {
	struct sched_policy policy;
	struct sched_entity a;
	setup_one_running(&policy, &a);
	int64_t guess = sched_entity_request_cost(&a);
	CHECK(guess > 0);

	/* The first batch is what its requests cost from then on. */
	sched_entity_charge_batch(&policy, &a, 10 * guess / 2, 10);
	CHECK_INT(sched_entity_request_cost(&a), guess / 2);
	CHECK_INT(a.stats.run_ns, 10 * guess / 2);

	/*
	 * A batch the kernel interrupted for 1 ms is charged at most
	 * SCHED_MAX_COST_RISE times its known cost, and moves that cost by an
	 * eighth of the way only.
	 */
	int64_t known = sched_entity_request_cost(&a);
	int64_t run = a.stats.run_ns;
	sched_entity_charge_batch(&policy, &a, MS(1), 10);
	CHECK_INT(a.stats.run_ns - run, 10 * SCHED_MAX_COST_RISE * known);
	CHECK_INT(sched_entity_request_cost(&a),
			(7 * known + SCHED_MAX_COST_RISE * known) / 8);
	CHECK_INT(a.priority, 0);

	/* No batch, no charge. */
	run = a.stats.run_ns;
	sched_entity_charge_batch(&policy, &a, MS(1), 0);
	CHECK_INT(a.stats.run_ns, run);

	/*
	 * Requests that really got dearer (100 us each) raise the cost batch
	 * by batch until it is learned, and the client pays for them: an
	 * interval of service costs it a point, as ever.
	 */
	int64_t before = sched_entity_request_cost(&a);
	for (int i = 0; i < 60; i++) {
		int64_t cost = sched_entity_request_cost(&a);
		run = a.stats.run_ns;
		sched_entity_charge_batch(&policy, &a, 10 * US(100), 10);
		CHECK(a.stats.run_ns - run <= 10 * SCHED_MAX_COST_RISE * cost);
		CHECK(sched_entity_request_cost(&a) >= cost);
	}
	CHECK(before < US(10));
	CHECK(sched_entity_request_cost(&a) > US(99));
	CHECK(sched_entity_request_cost(&a) <= US(100));
	CHECK(a.priority < -5);

	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

static void test_remove_current(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);
	sched_entity_set_ready(&policy, &a, true);
	sched_entity_set_ready(&policy, &b, true);

	CHECK_PTR(sched_policy_next(&policy, 0), &a);
	charge_current(&policy, US(300));
	CHECK_INT(a.stats.run_ns, US(300));
	sched_entity_remove(&policy, &a);
	CHECK_PTR(policy.current, NULL);
	CHECK_INT(sched_policy_slice_left(&policy, US(400)), 0);
	/* Nobody to charge: no crash, nothing recorded anywhere. */
	charge_current(&policy, US(100));
	CHECK_INT(b.stats.run_ns, 0);

	CHECK_PTR(sched_policy_next(&policy, US(400)), &b);
	CHECK_INT(b.priority, 0);
	charge_current(&policy, US(50));
	CHECK_INT(b.stats.run_ns, US(50));

	/* Removing one that is not running leaves the turn alone. */
	struct sched_entity c;
	sched_entity_add(&policy, &c, US(400));
	sched_entity_remove(&policy, &c);
	CHECK_PTR(policy.current, &b);
	CHECK_PTR(sched_policy_next(&policy, US(500)), &b);

	sched_entity_remove(&policy, &b);
	CHECK_PTR(sched_policy_next(&policy, US(600)), NULL);
	sched_policy_finish(&policy);
}

/*
 * Flooders that a pipeline limits, like a client with three buffers that
 * waits for a release before each commit: each batch is small and is
 * followed by a short rest, the client's own turnaround. Resting keeps
 * them at base. One of them is a point down from a moment it was busier;
 * the others at base between them always have one ready. It must still
 * get its share, and soon.
 */
static void test_no_starving_below_pipelined(void) {
	struct sched_policy policy;
	setup(&policy);
	enum { FLOODERS = 4 };
	struct sched_entity flooder[FLOODERS];
	int64_t back_at[FLOODERS] = {0};
	for (int i = 0; i < FLOODERS; i++) {
		sched_entity_add(&policy, &flooder[i], 0);
		sched_entity_set_ready(&policy, &flooder[i], true);
	}
	flooder[0].priority = -1;

	const int64_t batch = US(20), rest = US(30), end = MS(2000);
	int64_t t = 0;
	int64_t first_turn = -1;
	while (t < end) {
		for (int i = 0; i < FLOODERS; i++) {
			if (!flooder[i].ready && back_at[i] <= t) {
				policy.now_ns = t;
				sched_entity_set_ready(&policy, &flooder[i], true);
			}
		}
		struct sched_entity *e = sched_policy_next(&policy, t);
		if (e == NULL) {
			t += US(1);
			continue;
		}
		int i = (int)(e - flooder);
		if (i == 0 && first_turn < 0) {
			first_turn = t;
		}
		charge_current(&policy, batch);
		t += batch;
		policy.now_ns = t;
		sched_entity_set_ready(&policy, e, false);
		back_at[i] = t + rest;
	}
	/* Served within a few rounds, not never. */
	CHECK(first_turn >= 0 && first_turn < MS(100));
	for (int i = 0; i < FLOODERS; i++) {
		/* A fair share is end / FLOODERS; at least half of it. */
		CHECK(flooder[i].stats.run_ns > end / (2 * FLOODERS));
		sched_entity_remove(&policy, &flooder[i]);
	}
	sched_policy_finish(&policy);
}

/*
 * The client priority (Xorg's client->priority) is compared before the
 * smart one: a client that sank far below another by using whole slices
 * still goes first when its client priority is higher, and one with a
 * lower client priority waits even when it is the better behaved.
 */
static void test_client_priority_beats_smart(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity a, b;
	sched_entity_add(&policy, &a, 0);
	sched_entity_add(&policy, &b, 0);
	CHECK_INT(a.client_priority, 0);

	/* a floods alone for 5 slices and sinks to -5. */
	int64_t t = run_alone(&policy, &a, 5);
	CHECK_INT(a.priority, -5);
	/* b, boosted by input to 3, preempts it at the next pick. */
	for (int i = 0; i < 3; i++) {
		sched_entity_note_input(&policy, &b);
	}
	sched_entity_set_ready(&policy, &b, true);
	CHECK_PTR(sched_policy_next(&policy, t + US(10)), &b);

	/* A client priority of 1 makes a go first, at smart -5 against 3. */
	sched_entity_set_client_priority(&policy, &a, 1);
	CHECK_INT(a.client_priority, 1);
	CHECK_PTR(sched_policy_next(&policy, t + US(20)), &a);
	CHECK_INT(b.stats.preempted, 1);
	CHECK_INT(a.priority, -5);
	CHECK_INT(b.priority, 3);
	/*
	 * And it keeps going while it has requests, slice after slice, even
	 * as its smart priority sinks to the floor: b waits.
	 */
	t += US(20);
	for (int i = 0; i < 30; i++) {
		t += MS(5);
		CHECK_PTR(sched_policy_next(&policy, t), &a);
	}
	CHECK_INT(a.priority, SCHED_MIN_PRIORITY);
	/* Out of requests, it lets b in at once. */
	sched_entity_set_ready(&policy, &a, false);
	CHECK_PTR(sched_policy_next(&policy, t + 1), &b);

	/* Clamped to the range. */
	sched_entity_set_client_priority(&policy, &a, 99);
	CHECK_INT(a.client_priority, SCHED_MAX_PRIORITY);
	sched_entity_set_client_priority(&policy, &a, -99);
	CHECK_INT(a.client_priority, SCHED_MIN_PRIORITY);

	sched_entity_remove(&policy, &a);
	sched_entity_remove(&policy, &b);
	sched_policy_finish(&policy);
}

/* Below 0, a client yields to one that sank far below it by flooding. */
static void test_client_priority_below_base(void) {
	struct sched_policy policy;
	setup(&policy);
	struct sched_entity flooder, polite;
	sched_entity_add(&policy, &flooder, 0);
	sched_entity_add(&policy, &polite, 0);
	int64_t t = run_alone(&policy, &flooder, 5);
	CHECK_INT(flooder.priority, -5);

	/* At the same client priority, the one that rested cuts in. */
	sched_entity_set_ready(&policy, &polite, true);
	CHECK_PTR(sched_policy_next(&policy, t + 1), &polite);
	sched_entity_set_ready(&policy, &polite, false);
	CHECK_PTR(sched_policy_next(&policy, t + 2), &flooder);

	/* At -1 it waits behind the flooder, whatever their smart ones. */
	sched_entity_set_client_priority(&policy, &polite, -1);
	sched_entity_set_ready(&policy, &polite, true);
	CHECK_INT(polite.priority, 0);
	CHECK(flooder.priority < polite.priority);
	for (int i = 1; i <= 10; i++) {
		CHECK_PTR(sched_policy_next(&policy, t + 2 + i * MS(5)), &flooder);
	}
	CHECK_INT(polite.stats.turns, 1);
	/* Level again, the smart priorities decide. */
	sched_entity_set_client_priority(&policy, &polite, 0);
	CHECK_PTR(sched_policy_next(&policy, t + 2 + MS(51)), &polite);

	sched_entity_remove(&policy, &flooder);
	sched_entity_remove(&policy, &polite);
	sched_policy_finish(&policy);
}

/* New parameters on a running policy: the slice follows at once. */
static void test_set_params(void) {
	struct sched_policy policy;
	struct sched_entity a;
	setup_one_running(&policy, &a);
	CHECK_INT(sched_policy_slice_left(&policy, 0), MS(5));
	struct sched_params params;
	sched_params_init(&params, MS(5));
	params.interval_ns = MS(2);
	params.max_slice_ns = MS(1); /* below the interval: raised to it */
	sched_policy_set_params(&policy, &params);
	CHECK_INT(policy.params.max_slice_ns, MS(2));
	CHECK_INT(sched_policy_slice_left(&policy, 0), MS(2));
	CHECK_PTR(sched_policy_next(&policy, MS(2)), &a);
	CHECK_INT(a.priority, -1);
	sched_entity_remove(&policy, &a);
	sched_policy_finish(&policy);
}

int main(void) {
	RUN_TEST(test_defaults);
	RUN_TEST(test_drop_on_full_slice);
	RUN_TEST(test_no_drop_when_out_of_work);
	RUN_TEST(test_rise_when_idle);
	RUN_TEST(test_rise_counts_time_not_ready);
	RUN_TEST(test_input_boost);
	RUN_TEST(test_floor);
	RUN_TEST(test_round_robin);
	RUN_TEST(test_round_robin_busy);
	RUN_TEST(test_no_starving_below_pipelined);
	RUN_TEST(test_highest_first);
	RUN_TEST(test_preemption);
	RUN_TEST(test_lone_slice_growth);
	RUN_TEST(test_lone_slice_reset_same_level);
	RUN_TEST(test_service_charge);
	RUN_TEST(test_batch_charge);
	RUN_TEST(test_no_drop_when_dry_between_picks);
	RUN_TEST(test_remove_current);
	RUN_TEST(test_client_priority_beats_smart);
	RUN_TEST(test_client_priority_below_base);
	RUN_TEST(test_set_params);
	return 0;
}
