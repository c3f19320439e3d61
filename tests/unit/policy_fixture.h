#ifndef FAIRWAY_TESTS_UNIT_POLICY_FIXTURE_H
#define FAIRWAY_TESTS_UNIT_POLICY_FIXTURE_H

#include "scheduler/gate/policy.h"
#include "tests/unit/check.h"
#include <stdint.h>

/* The clock is just a number: every call is told the time. */
#define US(x) (INT64_C(1000) * (x))
#define MS(x) (INT64_C(1000000) * (x))

/* Charges the entity whose turn it is, if any. */
static inline void charge_current(struct sched_policy *policy, int64_t ns) {
	if (policy->current != NULL) {
		sched_entity_charge(policy, policy->current, ns);
	}
}

static inline void setup(struct sched_policy *policy) {
	struct sched_params params;
	sched_params_init(&params, MS(5));
	sched_policy_init(policy, &params);
}

/* One entity, ready and picked at time 0. */
static inline void setup_one_running(
		struct sched_policy *policy, struct sched_entity *entity) {
	setup(policy);
	sched_entity_add(policy, entity, 0);
	sched_entity_set_ready(policy, entity, true);
	CHECK_PTR(sched_policy_next(policy, 0), entity);
}

#endif
