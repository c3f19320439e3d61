#include "scheduler/frame_timing.h"
#include <string.h>

#define NS_PER_MS INT64_C(1000000)

/*
 * Percentiles and margins. A client's frame done goes out this far ahead:
 * the 90th percentile of its recent draws, a quarter more, and a margin
 * for what a percentile of 32 frames cannot see (the client or fairway
 * descheduled now and then). The margin starts at 1.5 ms, grows by half a
 * millisecond with each missed frame and shrinks back by a 200th of that
 * with each frame in time: it settles where about one frame in 200 is
 * missed, or at its floor where fewer are.
 */
#define DRAW_PERCENTILE 90
#define DRAW_MARGIN_NS (3 * NS_PER_MS / 2)
#define DRAW_MARGIN_STEP_NS (NS_PER_MS / 2)
#define DRAW_MARGIN_DECAY_NS (DRAW_MARGIN_STEP_NS / 200)
#define DRAW_MARGIN_MAX_NS (8 * NS_PER_MS)
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
void frame_samples_add(struct frame_samples *samples, int64_t ns) {
	if (ns < 0) {
		ns = 0;
	}
	size_t n = frame_samples_count(samples);
	size_t slot = samples->added % FRAME_SAMPLES;
	if (n == FRAME_SAMPLES) {
		/* The oldest sample leaves the sorted copy. */
		int64_t old = samples->ns[slot];
		size_t i = 0;
		while (i < n - 1 && samples->sorted[i] != old) {
			i++;
		}
		memmove(&samples->sorted[i], &samples->sorted[i + 1],
				(n - 1 - i) * sizeof(samples->sorted[0]));
		n--;
	}
	size_t at = n;
	while (at > 0 && samples->sorted[at - 1] > ns) {
		at--;
	}
	memmove(&samples->sorted[at + 1], &samples->sorted[at],
			(n - at) * sizeof(samples->sorted[0]));
	samples->sorted[at] = ns;
	samples->ns[slot] = ns;
	samples->added++;
}

size_t frame_samples_count(const struct frame_samples *samples) {
	return samples->added < FRAME_SAMPLES ? (size_t)samples->added
										  : FRAME_SAMPLES;
}

int64_t frame_samples_percentile(
		const struct frame_samples *samples, int percent) {
	size_t n = frame_samples_count(samples);
	if (n == 0) {
		return -1;
	}
	/* Nearest rank: the smallest sample with percent of them at or below. */
	size_t rank = ((size_t)percent * n + 99) / 100;
	if (rank < 1) {
		rank = 1;
	}
	return samples->sorted[rank - 1];
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

void frame_output_add_paint(struct frame_output_timing *output, int64_t ns) {
	frame_samples_add(&output->paints, ns);
}

int64_t frame_output_period(const struct frame_output_timing *output) {
	/*
	 * A screen's vblanks come exactly a mode's period apart; intervals
	 * between presented frames are whole multiples of it. Elsewhere (the
	 * headless backend's timer is re-armed after each frame) ticks drift
	 * later than the nominal period by however late the loop ran, and
	 * one that ran late is followed by one at the usual interval: the
	 * shortest recent interval is the one to plan for.
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

void frame_client_init(struct frame_client_timing *client) {
	memset(client, 0, sizeof(*client));
	client->margin_ns = DRAW_MARGIN_NS;
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

int64_t frame_client_draw_pred(const struct frame_client_timing *client) {
	if (frame_samples_count(&client->draws) < FRAME_MIN_DRAWS) {
		return -1;
	}
	int64_t draw = frame_samples_percentile(&client->draws, DRAW_PERCENTILE);
	return draw + draw / 4 + client->margin_ns;
}

void frame_client_sent(struct frame_client_timing *client, bool early) {
	client->callbacks++;
	if (early) {
		client->early++;
	}
}

bool frame_client_committed(struct frame_client_timing *client, int64_t done_ns,
		int64_t commit_ns, int64_t period_ns, bool in_time) {
	if (in_time) {
		client->met++;
		client->margin_ns -= DRAW_MARGIN_DECAY_NS;
		if (client->margin_ns < DRAW_MARGIN_NS) {
			client->margin_ns = DRAW_MARGIN_NS;
		}
	}
	int64_t draw = commit_ns - done_ns;
	if (draw < 0 || draw > 2 * period_ns) {
		return false;
	}
	if (!in_time) {
		frame_client_missed(client);
	}
	frame_samples_add(&client->draws, draw);
	return true;
}

void frame_client_missed(struct frame_client_timing *client) {
	client->missed++;
	client->margin_ns += DRAW_MARGIN_STEP_NS;
	if (client->margin_ns > DRAW_MARGIN_MAX_NS) {
		client->margin_ns = DRAW_MARGIN_MAX_NS;
	}
}

int64_t frame_callback_time(int64_t earliest_ns, int64_t deadline_ns,
		int64_t draw_ns, int64_t reserve_ns) {
	if (draw_ns < 0) {
		return earliest_ns;
	}
	int64_t at = deadline_ns - draw_ns - reserve_ns;
	return at > earliest_ns ? at : earliest_ns;
}
