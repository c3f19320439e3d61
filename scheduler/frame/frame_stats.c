/* The frame predictors' figures as --stats prints them. */
#include "scheduler/frame/frame_timing.h"
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

int frame_late_json(const struct frame_late *late, char *buf, size_t size) {
	char max[32];
	int len = snprintf(buf, size, "{\"n\":%" PRIu64 ",\"max_ms\":%s,\"hist\":[",
			late->count,
			ms(late->count > 0 ? late->max_ns : -1, max, sizeof(max)));
	for (int i = 0; i < FRAME_LATE_BUCKETS && len >= 0; i++) {
		size_t at = (size_t)len < size ? (size_t)len : size;
		int more = snprintf(buf + at, size - at, "%s%" PRIu64, i > 0 ? "," : "",
				late->buckets[i]);
		len = more < 0 ? more : len + more;
	}
	if (len >= 0) {
		size_t at = (size_t)len < size ? (size_t)len : size;
		int more = snprintf(buf + at, size - at, "]}");
		len = more < 0 ? more : len + more;
	}
	return len;
}

int frame_output_json(const struct frame_output_timing *output,
		const char *name, double t, char *buf, size_t size) {
	char period[32], paint_pred[32], paint_p50[32], paint_p90[32], lead[32];
	char send_pred[32], send_late[160], paint_late[160];
	frame_late_json(&output->send_late, send_late, sizeof(send_late));
	frame_late_json(&output->paint_late, paint_late, sizeof(paint_late));
	int64_t deadline_lead = output->deadline_ns != 0
			? output->next_tick_ns - output->deadline_ns
			: -1;
	return snprintf(buf, size,
			"{\"t\":%.3f,\"output\":\"%s\",\"vsync\":%s,\"period_ms\":%s,"
			"\"paint_pred_ms\":%s,\"paint_p50_ms\":%s,\"paint_p90_ms\":%s,"
			"\"deadline_before_tick_ms\":%s,\"ticks\":%" PRIu64
			",\"paints\":%" PRIu64 ",\"skipped\":%" PRIu64
			",\"caught_up\":%" PRIu64
			",\"send_pred_ms\":%s,\"send_late\":%s,\"paint_late\":%s}",
			t, name, output->vsync ? "true" : "false",
			ms(frame_output_period(output), period, sizeof(period)),
			ms(frame_output_paint_pred(output), paint_pred, sizeof(paint_pred)),
			ms(frame_samples_percentile(&output->paints, 50), paint_p50,
					sizeof(paint_p50)),
			ms(frame_samples_percentile(&output->paints, 90), paint_p90,
					sizeof(paint_p90)),
			ms(deadline_lead, lead, sizeof(lead)), output->ticks,
			output->paints.added, output->skipped, output->caught_up,
			ms(frame_output_send_pred(output), send_pred, sizeof(send_pred)),
			send_late, paint_late);
}

static const char *const cause_names[FRAME_LATE_CAUSES] = {
		[FRAME_LATE_DONE] = "done",
		[FRAME_LATE_PAINT] = "paint",
		[FRAME_LATE_DRAW] = "draw",
};

/* ",\"late\":{...}" with the causes that happened; "" with none. */
static void late_json(
		const struct frame_client_timing *client, char *buf, size_t size) {
	buf[0] = '\0';
	if (client->history == NULL || client->missed == 0) {
		return;
	}
	size_t len = 0;
	for (int i = 0; i < FRAME_LATE_CAUSES && len < size; i++) {
		const struct frame_late *late = &client->history->late[i];
		if (late->count == 0) {
			continue;
		}
		char one[160];
		frame_late_json(late, one, sizeof(one));
		int more = snprintf(buf + len, size - len, "%s\"%s\":%s",
				len == 0 ? ",\"late\":{" : ",", cause_names[i], one);
		len = more < 0 ? size : len + (size_t)more;
	}
	if (len > 0 && len < size) {
		snprintf(buf + len, size - len, "}");
	}
}

int frame_client_json(const struct frame_client_timing *client, int64_t now,
		char *buf, size_t size) {
	char pred[32], waited[32], p50[32], p90[32], p98[32], margin[32];
	char late[512];
	late_json(client, late, sizeof(late));
	return snprintf(buf, size,
			",\"frame\":{\"draw_pred_ms\":%s,\"waited_pred_ms\":%s,"
			"\"draw_p50_ms\":%s,"
			"\"draw_p90_ms\":%s,\"draw_p98_ms\":%s,\"margin_ms\":%s,"
			"\"draws\":%" PRIu64 ",\"callbacks\":%" PRIu64 ",\"early\":%" PRIu64
			",\"met\":%" PRIu64 ",\"missed\":%" PRIu64
			",\"input_recent\":%s%s}",
			ms(frame_client_draw_pred(client), pred, sizeof(pred)),
			ms(frame_client_waited_pred(client), waited, sizeof(waited)),
			ms(frame_client_draw_percentile(client, 50), p50, sizeof(p50)),
			ms(frame_client_draw_percentile(client, 90), p90, sizeof(p90)),
			ms(frame_client_draw_percentile(client, 98), p98, sizeof(p98)),
			ms(client->margin_ns, margin, sizeof(margin)),
			client->history != NULL ? client->history->added : 0,
			client->callbacks, client->early, client->met, client->missed,
			frame_client_input_recent(client, now) ? "true" : "false", late);
}
