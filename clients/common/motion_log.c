#include "clients/common/motion_log.h"

#include <stdlib.h>

#include "clients/common/time.h"

/* How far past the last match a delivered position is looked for. */
#define MATCH_WINDOW 128

enum motion_state {
	MOTION_SENT,
	MOTION_DELIVERED,
	MOTION_ECHOED,
	MOTION_MISSED,
};

struct fw_motion_state {
	enum motion_state state;
	uint64_t event_ns; /* its timestamp, on our clock */
	uint64_t commit_seq; /* first commit that drew it; 0: not yet */
};

int fw_motion_log_init(struct fw_motion_log *log, size_t cap) {
	log->motions = calloc(cap, sizeof(*log->motions));
	log->states = calloc(cap, sizeof(*log->states));
	log->cap = cap;
	atomic_init(&log->count, 0);
	log->next_match = log->next_draw = log->next_echo = 0;
	fw_stats_init(&log->receipt);
	fw_stats_init(&log->echo);
	fw_stats_init(&log->event);
	return log->motions != NULL && log->states != NULL ? 0 : -1;
}

void fw_motion_log_finish(struct fw_motion_log *log) {
	free(log->motions);
	free(log->states);
	fw_stats_finish(&log->receipt);
	fw_stats_finish(&log->echo);
	fw_stats_finish(&log->event);
}

struct fw_motion *fw_motion_log_next(struct fw_motion_log *log) {
	size_t i = atomic_load_explicit(&log->count, memory_order_relaxed);
	return i < log->cap ? &log->motions[i] : NULL;
}

void fw_motion_log_publish(struct fw_motion_log *log) {
	atomic_fetch_add_explicit(&log->count, 1, memory_order_release);
}

size_t fw_motion_log_count(struct fw_motion_log *log) {
	return atomic_load_explicit(&log->count, memory_order_acquire);
}

static void deliver(
		struct fw_motion_log *log, size_t i, uint64_t now, uint64_t event_ns) {
	log->states[i].state = MOTION_DELIVERED;
	log->states[i].event_ns = event_ns;
	fw_stats_add(&log->receipt,
			fw_ns_to_ms((int64_t)(now - log->motions[i].gen_ns)));
}

void fw_motion_log_match(struct fw_motion_log *log, int32_t x, int32_t y,
		uint64_t now, uint64_t event_ns) {
	size_t count = fw_motion_log_count(log);
	size_t limit = log->next_match + MATCH_WINDOW;
	if (limit > count) {
		limit = count;
	}
	for (size_t i = log->next_match; i < limit; i++) {
		const struct fw_motion *m = &log->motions[i];
		if (m->x != x || m->y != y) {
			continue;
		}
		for (size_t j = log->next_match; j < i; j++) {
			log->states[j].state = MOTION_MISSED;
		}
		deliver(log, i, now, event_ns);
		log->next_match = i + 1;
		return;
	}
}

void fw_motion_log_add_delivered(struct fw_motion_log *log, int32_t x,
		int32_t y, uint64_t now, uint64_t event_ns) {
	struct fw_motion *m = fw_motion_log_next(log);
	if (m == NULL) {
		return;
	}
	*m = (struct fw_motion){x, y, event_ns};
	fw_motion_log_publish(log);
	size_t i = fw_motion_log_count(log) - 1;
	deliver(log, i, now, event_ns);
	log->next_match = i + 1;
}

void fw_motion_log_drawn(struct fw_motion_log *log, uint64_t seq) {
	for (; log->next_draw < log->next_match; log->next_draw++) {
		struct fw_motion_state *s = &log->states[log->next_draw];
		if (s->state == MOTION_DELIVERED && s->commit_seq == 0) {
			s->commit_seq = seq;
		}
	}
}

void fw_motion_log_presented(
		struct fw_motion_log *log, uint64_t seq, uint64_t present_ns) {
	for (; log->next_echo < log->next_draw; log->next_echo++) {
		struct fw_motion_state *s = &log->states[log->next_echo];
		if (s->state != MOTION_DELIVERED) {
			continue;
		}
		if (s->commit_seq > seq) {
			break;
		}
		s->state = MOTION_ECHOED;
		uint64_t gen = log->motions[log->next_echo].gen_ns;
		if (present_ns >= gen) {
			fw_stats_add(&log->echo, fw_ns_to_ms((int64_t)(present_ns - gen)));
		}
		if (present_ns >= s->event_ns) {
			fw_stats_add(&log->event,
					fw_ns_to_ms((int64_t)(present_ns - s->event_ns)));
		}
	}
}

uint64_t fw_motion_log_missed(struct fw_motion_log *log, size_t from) {
	size_t count = fw_motion_log_count(log);
	uint64_t missed = 0;
	for (size_t i = from; i < count; i++) {
		if (log->states[i].state == MOTION_SENT ||
				log->states[i].state == MOTION_MISSED) {
			missed++;
		}
	}
	return missed;
}

bool fw_motion_log_waiting(struct fw_motion_log *log) {
	return log->next_echo < log->next_match ||
			log->next_match < fw_motion_log_count(log);
}
