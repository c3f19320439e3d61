#include "scheduler/frame/frame_timing.h"
#include <stdlib.h>
#include <string.h>

#define NS_PER_MS INT64_C(1000000)

/*
 * Percentiles and margins. A client's frame done goes out this far ahead:
 * the 98th percentile of its last 128 draws (about two seconds at 60 Hz),
 * each timed from when the frame done really went out, plus a margin. A
 * draw time varies, and a frame that misses costs only its own motions a
 * period, while every millisecond of lead costs every motion a
 * millisecond: the percentile leaves one draw in fifty to the margin, and
 * a long window keeps one slow frame from moving the lead at all. A miss
 * the client caused widens the margin by how late it was, up to a
 * millisecond at a time, and the margin then holds for a second before it
 * shrinks back: a machine that turns noisy gets a wider margin after its
 * first miss, and keeps it while the noise lasts, rather than missing again
 * each time the margin had shrunk.
 */
#define DRAW_PERCENTILE 98
/*
 * Where the paint waits for a client the user is waiting on (no vsync,
 * frame_client_owed_until), a draw slower than the lead costs only the
 * time it runs over, not a period: the lead is then the 90th percentile.
 * Beside CPU hogs a few draws in a hundred wait milliseconds for a CPU;
 * the 98th percentile would put every frame that far ahead, and the wait
 * covers them.
 */
#define WAITED_PERCENTILE 90
#define DRAW_MARGIN_NS (3 * NS_PER_MS / 10)
#define DRAW_MARGIN_MIN_STEP_NS (NS_PER_MS / 10)
#define DRAW_MARGIN_MAX_STEP_NS NS_PER_MS
#define DRAW_MARGIN_HOLD_NS (1000 * NS_PER_MS)
/* After the hold, a frame in time gives back this much: 0.3 ms a second at
 * 60 Hz. */
#define DRAW_MARGIN_DECAY_NS (5 * NS_PER_MS / 1000)
#define DRAW_MARGIN_MAX_NS (8 * NS_PER_MS)
/* Frame done events are planned this much ahead of their time by the
 * 90th percentile of how late recent ones went out. */
#define SEND_PERCENTILE 90
/* Painting starts ahead of a vsync tick by the 90th percentile of recent
 * paints, a quarter more and half a millisecond. */
#define PAINT_PERCENTILE 90
#define PAINT_MARGIN_NS (NS_PER_MS / 2)
/* Ticks: the shortest of recent intervals (see frame_output_period). */
#define PERIOD_PERCENTILE 1
#define DEFAULT_PERIOD_NS (1000 * NS_PER_MS / 60)

/*
 * The window is also kept sorted, so that a percentile costs nothing: the
 * predictions are asked for at every frame done, for every surface.
 */
static size_t held(uint64_t added, size_t cap) {
	return added < cap ? (size_t)added : cap;
}

/* A ring of the last cap samples and the same sorted. */
static void window_add(int64_t *ring, int64_t *sorted, size_t cap,
		uint64_t *added, int64_t ns) {
	if (ns < 0) {
		ns = 0;
	}
	size_t n = held(*added, cap);
	size_t slot = *added % cap;
	if (n == cap) {
		/* The oldest sample leaves the sorted copy. */
		int64_t old = ring[slot];
		size_t i = 0;
		while (i < n - 1 && sorted[i] != old) {
			i++;
		}
		memmove(&sorted[i], &sorted[i + 1], (n - 1 - i) * sizeof(sorted[0]));
		n--;
	}
	size_t at = n;
	while (at > 0 && sorted[at - 1] > ns) {
		at--;
	}
	memmove(&sorted[at + 1], &sorted[at], (n - at) * sizeof(sorted[0]));
	sorted[at] = ns;
	ring[slot] = ns;
	(*added)++;
}

/* Nearest rank: the smallest sample with percent of them at or below. */
static int64_t window_percentile(const int64_t *sorted, size_t n, int percent) {
	if (n == 0) {
		return -1;
	}
	size_t rank = ((size_t)percent * n + 99) / 100;
	if (rank < 1) {
		rank = 1;
	}
	return sorted[rank - 1];
}

void frame_samples_add(struct frame_samples *samples, int64_t ns) {
	window_add(
			samples->ns, samples->sorted, FRAME_SAMPLES, &samples->added, ns);
}

size_t frame_samples_count(const struct frame_samples *samples) {
	return held(samples->added, FRAME_SAMPLES);
}

int64_t frame_samples_percentile(
		const struct frame_samples *samples, int percent) {
	return window_percentile(
			samples->sorted, frame_samples_count(samples), percent);
}

void frame_late_add(struct frame_late *late, int64_t ns) {
	if (ns < 0) {
		ns = 0;
	}
	late->count++;
	if (ns > late->max_ns) {
		late->max_ns = ns;
	}
	/* Bounds 0.25 ms, doubling: the bucket is how many doublings. */
	size_t bucket = 0;
	for (int64_t bound = NS_PER_MS / 4;
			ns >= bound && bucket < FRAME_LATE_BUCKETS - 1; bound *= 2) {
		bucket++;
	}
	late->buckets[bucket]++;
}

void frame_output_init(struct frame_output_timing *output, int64_t nominal_ns) {
	memset(output, 0, sizeof(*output));
	output->nominal_ns = nominal_ns > 0 ? nominal_ns : DEFAULT_PERIOD_NS;
}

void frame_output_set_nominal(
		struct frame_output_timing *output, int64_t nominal_ns) {
	if (nominal_ns > 0 && nominal_ns != output->nominal_ns) {
		output->nominal_ns = nominal_ns;
		/* Intervals of the old mode say nothing of the new one. */
		memset(&output->intervals, 0, sizeof(output->intervals));
	}
}

void frame_output_use_vblanks(struct frame_output_timing *output) {
	output->vsync = true;
	output->last_tick_ns = 0;
	memset(&output->intervals, 0, sizeof(output->intervals));
}

void frame_output_tick(struct frame_output_timing *output, int64_t tick_ns) {
	if (output->last_tick_ns != 0 && tick_ns > output->last_tick_ns) {
		frame_samples_add(&output->intervals, tick_ns - output->last_tick_ns);
	}
	if (tick_ns > output->last_tick_ns) {
		output->last_tick_ns = tick_ns;
	}
	output->ticks++;
}

void frame_output_tick_after_idle(
		struct frame_output_timing *output, int64_t tick_ns) {
	if (tick_ns > output->last_tick_ns) {
		output->last_tick_ns = tick_ns;
	}
	output->ticks++;
}

void frame_output_add_paint(struct frame_output_timing *output, int64_t ns) {
	frame_samples_add(&output->paints, ns);
}

void frame_output_paint_started(
		struct frame_output_timing *output, int64_t late_ns) {
	frame_late_add(&output->paint_late, late_ns);
}

void frame_output_add_send(
		struct frame_output_timing *output, int64_t late_ns) {
	frame_samples_add(&output->sends, late_ns);
	frame_late_add(&output->send_late, late_ns);
}

int64_t frame_output_send_pred(const struct frame_output_timing *output) {
	int64_t late = frame_samples_percentile(&output->sends, SEND_PERCENTILE);
	return late > 0 ? late : 0;
}

int64_t frame_output_period(const struct frame_output_timing *output) {
	/*
	 * A screen's vblanks come exactly a mode's period apart; intervals
	 * between presented frames are whole multiples of it. Elsewhere (the
	 * headless backend re-arms its timer a period after each commit)
	 * ticks drift later than the nominal period by however long the loop
	 * took from the tick to that commit, and one that ran late is
	 * followed by one at the usual interval: the shortest recent interval
	 * is the one to plan for.
	 */
	if (output->vsync ||
			frame_samples_count(&output->intervals) < FRAME_MIN_SAMPLES) {
		return output->nominal_ns;
	}
	int64_t period =
			frame_samples_percentile(&output->intervals, PERIOD_PERCENTILE);
	/* A stall or a skipped tick says nothing of the period. */
	if (period < output->nominal_ns / 2) {
		return output->nominal_ns / 2;
	}
	if (period > output->nominal_ns * 2) {
		return output->nominal_ns * 2;
	}
	return period;
}

int64_t frame_output_paint_pred(const struct frame_output_timing *output) {
	int64_t period = frame_output_period(output);
	if (frame_samples_count(&output->paints) < FRAME_MIN_SAMPLES) {
		/* Unmeasured: paint early enough for almost anything. */
		return period / 2;
	}
	int64_t paint = frame_samples_percentile(&output->paints, PAINT_PERCENTILE);
	paint += paint / 4 + PAINT_MARGIN_NS;
	return paint < period ? paint : period;
}

int64_t frame_output_next_tick(
		const struct frame_output_timing *output, int64_t after_ns) {
	int64_t period = frame_output_period(output);
	if (output->last_tick_ns == 0) {
		return after_ns + period;
	}
	int64_t tick = output->last_tick_ns + period;
	if (tick <= after_ns) {
		tick += ((after_ns - tick) / period + 1) * period;
	}
	return tick;
}

int64_t frame_output_deadline(
		const struct frame_output_timing *output, int64_t tick_ns) {
	if (!output->vsync) {
		/* The paint is the presentation: painting early would show the
		 * frame before its tick. */
		return tick_ns;
	}
	return tick_ns - frame_output_paint_pred(output);
}

int64_t frame_output_plan(
		struct frame_output_timing *output, int64_t after_ns) {
	output->next_tick_ns = frame_output_next_tick(output, after_ns);
	output->deadline_ns = frame_output_deadline(output, output->next_tick_ns);
	return output->deadline_ns;
}

int64_t frame_output_plan_ready(
		struct frame_output_timing *output, int64_t now_ns) {
	output->next_tick_ns = now_ns;
	output->deadline_ns = now_ns;
	return now_ns;
}

void frame_client_init(struct frame_client_timing *client) {
	memset(client, 0, sizeof(*client));
	client->margin_ns = DRAW_MARGIN_NS;
}

void frame_client_finish(struct frame_client_timing *client) {
	free(client->history);
	client->history = NULL;
}

void frame_client_note_input(struct frame_client_timing *client, int64_t now) {
	client->last_input_ns = now;
	client->had_input = true;
}

bool frame_client_input_recent(
		const struct frame_client_timing *client, int64_t now) {
	return client->had_input &&
			now - client->last_input_ns < FRAME_INPUT_RECENT_NS;
}

bool frame_client_waited_on(
		const struct frame_client_timing *client, int64_t now, bool answers) {
	return answers && frame_client_input_recent(client, now);
}

static size_t draws_held(const struct frame_client_timing *client) {
	return client->history != NULL
			? held(client->history->added, FRAME_DRAW_SAMPLES)
			: 0;
}

int64_t frame_client_draw_percentile(
		const struct frame_client_timing *client, int percent) {
	size_t n = draws_held(client);
	return n > 0 ? window_percentile(client->history->sorted, n, percent) : -1;
}

static int64_t draw_pred_at(
		const struct frame_client_timing *client, int percent) {
	size_t n = draws_held(client);
	if (n < FRAME_MIN_DRAWS) {
		return -1;
	}
	/*
	 * Below fifty draws the 98th percentile is the slowest one, and a
	 * client's first draws are its slowest: its window's first frames,
	 * drawn before fairway hinted it. One of them would set the lead of
	 * the fifty frames after it. So from three draws on, the two others
	 * outvote the slowest, as the window's percentile does once it is
	 * full.
	 */
	size_t rank = ((size_t)percent * n + 99) / 100;
	if (n >= 3 && rank > n - 1) {
		rank = n - 1;
	}
	return client->history->sorted[rank - 1] + client->margin_ns;
}

int64_t frame_client_draw_pred(const struct frame_client_timing *client) {
	return draw_pred_at(client, DRAW_PERCENTILE);
}

int64_t frame_client_waited_pred(const struct frame_client_timing *client) {
	return draw_pred_at(client, WAITED_PERCENTILE);
}

bool frame_client_sent(struct frame_client_timing *client, bool early) {
	client->callbacks++;
	if (early) {
		client->early++;
	}
	if (client->history == NULL) {
		client->history = calloc(1, sizeof(*client->history));
	}
	return client->history != NULL;
}

static void widen(
		struct frame_client_timing *client, int64_t late_ns, int64_t now) {
	if (late_ns < DRAW_MARGIN_MIN_STEP_NS) {
		late_ns = DRAW_MARGIN_MIN_STEP_NS;
	} else if (late_ns > DRAW_MARGIN_MAX_STEP_NS) {
		late_ns = DRAW_MARGIN_MAX_STEP_NS;
	}
	client->margin_ns += late_ns;
	if (client->margin_ns > DRAW_MARGIN_MAX_NS) {
		client->margin_ns = DRAW_MARGIN_MAX_NS;
	}
	client->hold_until_ns = now + DRAW_MARGIN_HOLD_NS;
}

static void met(struct frame_client_timing *client, int64_t now) {
	client->met++;
	if (now < client->hold_until_ns) {
		return;
	}
	client->margin_ns -= DRAW_MARGIN_DECAY_NS;
	if (client->margin_ns < DRAW_MARGIN_NS) {
		client->margin_ns = DRAW_MARGIN_NS;
	}
}

static enum frame_late_cause late_cause(
		const struct frame_answer *answer, int64_t late_ns) {
	if (answer->paint_end_ns == 0 ||
			answer->commit_ns <= answer->paint_end_ns) {
		return FRAME_LATE_PAINT;
	}
	if (answer->sent_ns - answer->planned_ns >= late_ns) {
		return FRAME_LATE_DONE;
	}
	return FRAME_LATE_DRAW;
}

bool frame_client_committed(
		struct frame_client_timing *client, const struct frame_answer *answer) {
	int64_t draw = answer->commit_ns - answer->sent_ns;
	if (client->history == NULL || draw < 0 || draw > 2 * answer->period_ns) {
		return false;
	}
	if (answer->paint_start_ns == 0) {
		met(client, answer->commit_ns);
	} else {
		client->missed++;
		int64_t late = answer->commit_ns - answer->paint_start_ns;
		enum frame_late_cause cause = late_cause(answer, late);
		frame_late_add(&client->history->late[cause], late);
		if (cause != FRAME_LATE_DONE) {
			widen(client, late, answer->commit_ns);
		}
	}
	struct frame_client_history *h = client->history;
	window_add(h->ns, h->sorted, FRAME_DRAW_SAMPLES, &h->added, draw);
	return true;
}

void frame_client_missed(struct frame_client_timing *client, int64_t late_ns) {
	client->missed++;
	if (client->history != NULL) {
		frame_late_add(&client->history->late[FRAME_LATE_DONE], late_ns);
	}
}

bool frame_output_stalled(
		const struct frame_output_timing *output, int64_t now_ns) {
	return output->next_tick_ns != 0 &&
			now_ns - output->next_tick_ns > frame_output_send_pred(output);
}

int64_t frame_client_owed_until(const struct frame_client_timing *client,
		int64_t now_ns, bool stalled, int64_t due_ns, int64_t sent_ns,
		bool answers) {
	int64_t draw = frame_client_draw_pred(client);
	if (draw < 0) {
		return -1;
	}
	bool made_late = stalled || sent_ns > due_ns;
	if (!made_late && !frame_client_waited_on(client, now_ns, answers)) {
		return -1;
	}
	return now_ns + 2 * draw;
}

int64_t frame_callback_time(int64_t earliest_ns, int64_t deadline_ns,
		int64_t draw_ns, int64_t reserve_ns) {
	if (draw_ns < 0) {
		return earliest_ns;
	}
	int64_t at = deadline_ns - draw_ns - reserve_ns;
	return at > earliest_ns ? at : earliest_ns;
}
