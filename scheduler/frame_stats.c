/* The frame predictors' figures as --stats prints them. */
#include "scheduler/frame_timing.h"
#include <inttypes.h>
#include <stdio.h>

/* A duration in ms, or null where it is unknown (negative). */
static const char *ms(int64_t ns, char *buf, size_t size) {
	if (ns < 0) {
		snprintf(buf, size, "null");
	} else {
		snprintf(buf, size, "%.3f", (double)ns / 1e6);
	}
	return buf;
}

int frame_output_json(const struct frame_output_timing *output,
		const char *name, double t, char *buf, size_t size) {
	char period[32], paint_pred[32], paint_p50[32], paint_p90[32], lead[32];
	int64_t deadline_lead = output->deadline_ns != 0
			? output->next_tick_ns - output->deadline_ns
			: -1;
	return snprintf(buf, size,
			"{\"t\":%.3f,\"output\":\"%s\",\"vsync\":%s,\"period_ms\":%s,"
			"\"paint_pred_ms\":%s,\"paint_p50_ms\":%s,\"paint_p90_ms\":%s,"
			"\"deadline_before_tick_ms\":%s,\"ticks\":%" PRIu64
			",\"paints\":%" PRIu64 ",\"skipped\":%" PRIu64 "}",
			t, name, output->vsync ? "true" : "false",
			ms(frame_output_period(output), period, sizeof(period)),
			ms(frame_output_paint_pred(output), paint_pred, sizeof(paint_pred)),
			ms(frame_samples_percentile(&output->paints, 50), paint_p50,
					sizeof(paint_p50)),
			ms(frame_samples_percentile(&output->paints, 90), paint_p90,
					sizeof(paint_p90)),
			ms(deadline_lead, lead, sizeof(lead)), output->ticks,
			output->paints.added, output->skipped);
}

int frame_client_json(const struct frame_client_timing *client, int64_t now,
		char *buf, size_t size) {
	char pred[32], p50[32], p90[32], margin[32];
	return snprintf(buf, size,
			",\"frame\":{\"draw_pred_ms\":%s,\"draw_p50_ms\":%s,"
			"\"draw_p90_ms\":%s,\"margin_ms\":%s,\"draws\":%" PRIu64
			",\"callbacks\":%" PRIu64 ",\"early\":%" PRIu64 ",\"met\":%" PRIu64
			",\"missed\":%" PRIu64 ",\"input_recent\":%s}",
			ms(frame_client_draw_pred(client), pred, sizeof(pred)),
			ms(frame_samples_percentile(&client->draws, 50), p50, sizeof(p50)),
			ms(frame_samples_percentile(&client->draws, 90), p90, sizeof(p90)),
			ms(client->margin_ns, margin, sizeof(margin)), client->draws.added,
			client->callbacks, client->early, client->met, client->missed,
			frame_client_input_recent(client, now) ? "true" : "false");
}
