#include "scheduler/frame/frame_timing.h"
#include "tests/unit/check.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The clock is just a number: every call is told the time. */
#define US(x) (INT64_C(1000) * (x))
#define MS(x) (INT64_C(1000000) * (x))
#define PERIOD US(16667)

static void test_percentiles(void) {
	struct frame_samples samples = {0};
	CHECK_INT(frame_samples_count(&samples), 0);
	CHECK_INT(frame_samples_percentile(&samples, 90), -1);
	for (int i = 1; i <= 10; i++) {
		frame_samples_add(&samples, MS(i));
	}
	/* Nearest rank: a sample that really occurred. */
	CHECK_INT(frame_samples_percentile(&samples, 90), MS(9));
	CHECK_INT(frame_samples_percentile(&samples, 50), MS(5));
	CHECK_INT(frame_samples_percentile(&samples, 100), MS(10));
	CHECK_INT(frame_samples_percentile(&samples, 1), MS(1));
	/* Only the last FRAME_SAMPLES count: old slow ones age out. */
	for (int i = 0; i < FRAME_SAMPLES; i++) {
		frame_samples_add(&samples, US(500));
	}
	CHECK_INT(frame_samples_count(&samples), FRAME_SAMPLES);
	CHECK_INT(frame_samples_percentile(&samples, 100), US(500));
	/* The sorted copy follows the ring through repeats and evictions. */
	uint32_t x = 12345;
	for (int i = 0; i < 500; i++) {
		x = x * 1103515245u + 12345u;
		frame_samples_add(&samples, (int64_t)((x >> 16) % 8) * US(100));
		int64_t last[FRAME_SAMPLES];
		size_t n = frame_samples_count(&samples);
		memcpy(last, samples.ns, sizeof(last));
		for (size_t a = 1; a < n; a++) {
			for (size_t b = a; b > 0 && last[b - 1] > last[b]; b--) {
				int64_t t = last[b];
				last[b] = last[b - 1];
				last[b - 1] = t;
			}
		}
		for (int p = 1; p <= 100; p += 7) {
			size_t rank = ((size_t)p * n + 99) / 100;
			CHECK_INT(frame_samples_percentile(&samples, p), last[rank - 1]);
		}
	}
}

/* Headless: the frame event is the tick, and the paint is the present. */
static void test_paint_estimate(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	/* Unmeasured, painting is planned early enough for almost anything. */
	CHECK_INT(frame_output_paint_pred(&out), PERIOD / 2);
	for (int i = 0; i < 9; i++) {
		frame_output_add_paint(&out, MS(1));
	}
	frame_output_add_paint(&out, MS(3));
	/* 90th percentile of ten paints, a quarter more, half a ms. */
	CHECK_INT(frame_output_paint_pred(&out), MS(1) + US(250) + US(500));
	/* One slow paint in ten is above the 90th percentile; two are not. */
	frame_output_add_paint(&out, MS(3));
	frame_output_add_paint(&out, MS(3));
	CHECK_INT(frame_output_paint_pred(&out), MS(3) + US(750) + US(500));
	/* Never more than a period: then painting starts at once. */
	for (int i = 0; i < FRAME_SAMPLES; i++) {
		frame_output_add_paint(&out, MS(40));
	}
	CHECK_INT(frame_output_paint_pred(&out), PERIOD);
}

static void test_ticks_without_vsync(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	/* Before any tick, the nominal period from now. */
	CHECK_INT(frame_output_next_tick(&out, MS(100)), MS(100) + PERIOD);
	/* A timer re-armed after each frame: ticks drift, one ran late. */
	int64_t t = MS(1000);
	int64_t intervals[] = {
			US(16050), US(16060), US(17900), US(16050), US(16055), US(16070)};
	frame_output_tick(&out, t);
	for (size_t i = 0; i < sizeof(intervals) / sizeof(intervals[0]); i++) {
		t += intervals[i];
		frame_output_tick(&out, t);
	}
	CHECK_INT(out.ticks, 7);
	/* The shortest recent interval: a later tick costs only slack. */
	CHECK_INT(frame_output_period(&out), US(16050));
	CHECK_INT(frame_output_next_tick(&out, t), t + US(16050));
	CHECK_INT(frame_output_next_tick(&out, t + US(20000)), t + US(32100));
	/* The deadline is the tick itself: painting sooner would present the
	 * frame before its tick. */
	CHECK_INT(frame_output_deadline(&out, t + US(16050)), t + US(16050));
	for (int i = 0; i < 8; i++) {
		frame_output_add_paint(&out, MS(2));
	}
	CHECK_INT(frame_output_plan(&out, t), t + US(16050));
	CHECK_INT(out.next_tick_ns, t + US(16050));
	/* A stall says nothing of the period. */
	struct frame_output_timing stalled;
	frame_output_init(&stalled, PERIOD);
	for (int i = 0; i < 8; i++) {
		frame_output_tick(&stalled, MS(100) * i);
	}
	CHECK_INT(frame_output_period(&stalled), PERIOD * 2);
}

/*
 * Headless after a tick that showed nothing: the next tick comes when a
 * frame is ready, a moment later, and is no measure of the period; the
 * frame is due at once.
 */
static void test_tick_after_idle(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	int64_t t = MS(1000);
	for (int i = 0; i < 8; i++) {
		frame_output_tick(&out, t);
		t += US(16100);
	}
	CHECK_INT(frame_output_period(&out), US(16100));
	/* The tick that showed nothing, then the frame drawn on its frame
	 * done, 2 ms later. */
	frame_output_tick(&out, t);
	CHECK_INT(frame_output_plan_ready(&out, t + US(300)), t + US(300));
	CHECK_INT(out.next_tick_ns, t + US(300));
	CHECK_INT(out.deadline_ns, t + US(300));
	/* A frame done planned for it goes out at once. */
	CHECK_INT(frame_callback_time(t + US(300), out.deadline_ns, MS(2), 0),
			t + US(300));
	frame_output_tick_after_idle(&out, t + MS(2));
	CHECK_INT(out.ticks, 10);
	CHECK_INT(out.last_tick_ns, t + MS(2));
	CHECK_INT(frame_output_period(&out), US(16100));
	/* Counted as an interval, it would have halved the period. */
	frame_output_tick(&out, t + MS(4));
	CHECK_INT(frame_output_period(&out), PERIOD / 2);
}

/* A screen: ticks are vblanks, painting starts ahead of them. */
static void test_deadline_with_vsync(void) {
	struct frame_output_timing out;
	frame_output_init(&out, 0);
	CHECK_INT(out.nominal_ns, INT64_C(16666666));
	frame_output_set_nominal(&out, PERIOD);
	/* Until the first vblank is reported, frame events are the ticks. */
	frame_output_tick(&out, MS(400));
	frame_output_tick(&out, MS(400) + PERIOD + US(800));
	CHECK(!out.vsync);
	frame_output_use_vblanks(&out);
	CHECK(out.vsync);
	int64_t vblank = MS(500);
	frame_output_tick(&out, vblank);
	CHECK_INT(out.last_tick_ns, vblank);
	/* A frame skipped by the client is two periods, not a longer one. */
	frame_output_tick(&out, vblank + 2 * PERIOD);
	vblank += 2 * PERIOD;
	CHECK_INT(frame_output_period(&out), PERIOD);
	for (int i = 0; i < 10; i++) {
		frame_output_add_paint(&out, MS(2));
	}
	int64_t paint = MS(2) + US(500) + US(500);
	/* The frame event comes just after the vblank: plan the next one. */
	int64_t tick = frame_output_next_tick(&out, vblank + US(300));
	CHECK_INT(tick, vblank + PERIOD);
	CHECK_INT(frame_output_deadline(&out, tick), tick - paint);
	/* Once painted for that tick, the following one. */
	CHECK_INT(frame_output_plan(&out, tick), tick + PERIOD - paint);
	CHECK_INT(out.next_tick_ns, tick + PERIOD);
	/* A mode change: the old mode's ticks no longer say anything. */
	frame_output_set_nominal(&out, MS(8));
	CHECK_INT(frame_output_period(&out), MS(8));
	CHECK_INT(frame_samples_count(&out.intervals), 0);
}

/* A frame done sent at sent, answered draw later, its frame painted from
 * start to end (0: not yet begun, or not yet over). */
static bool answer(struct frame_client_timing *client, int64_t planned,
		int64_t sent, int64_t draw, int64_t start, int64_t end) {
	struct frame_answer a = {
			.planned_ns = planned,
			.sent_ns = sent,
			.commit_ns = sent + draw,
			.period_ns = PERIOD,
			.paint_start_ns = start,
			.paint_end_ns = end,
	};
	return frame_client_committed(client, &a);
}

static void test_new_client(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	/* No history: its frame done goes out right after the paint, as a
	 * compositor without deadlines sends it; nothing is allocated. */
	CHECK_INT(frame_client_draw_pred(&client), -1);
	CHECK(client.history == NULL);
	int64_t painted = MS(1000), deadline = MS(1016);
	CHECK_INT(frame_callback_time(painted, deadline, -1, 0), painted);
	/* A commit with no frame done answers nothing. */
	CHECK(!answer(&client, painted, painted, US(200), 0, 0));
	CHECK(frame_client_sent(&client, false));
	CHECK(client.history != NULL);
	CHECK(answer(&client, painted, painted, US(200), 0, 0));
	CHECK_INT(frame_client_draw_pred(&client), -1);
	CHECK(answer(&client, painted, painted, US(400), 0, 0));
	/* Two draws: the larger and the 0.3 ms margin. */
	int64_t pred = US(400) + US(300);
	CHECK_INT(frame_client_draw_pred(&client), pred);
	CHECK_INT(frame_callback_time(painted, deadline, pred, 0), deadline - pred);
	CHECK_INT(client.met, 2);
	CHECK_INT(client.missed, 0);
	/* From three, the slowest is outvoted: a slow first frame does not
	 * set the lead of the fifty after it. */
	CHECK(answer(&client, painted, painted, US(100), 0, 0));
	CHECK_INT(frame_client_draw_pred(&client), US(200) + US(300));
	for (int i = 3; i < 49; i++) {
		CHECK(answer(&client, painted, painted, US(100), 0, 0));
		CHECK_INT(frame_client_draw_pred(&client), US(200) + US(300));
	}
	/* A commit long after its frame done answers something else. */
	CHECK(!answer(&client, painted, painted, 3 * PERIOD, MS(1016), MS(1017)));
	CHECK_INT(client.missed, 0);
	CHECK_INT(frame_client_draw_pred(&client), US(200) + US(300));
	frame_client_finish(&client);
	CHECK(client.history == NULL);
}

/* A draw that varies: two slow frames in 128 do not move the lead; a
 * third does. */
static void test_prediction_percentile(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	frame_client_sent(&client, false);
	for (int i = 0; i < FRAME_DRAW_SAMPLES - 2; i++) {
		answer(&client, 0, 0, MS(1), 0, 0);
	}
	answer(&client, 0, 0, MS(5), 0, 0);
	answer(&client, 0, 0, MS(5), 0, 0);
	CHECK_INT(frame_client_draw_pred(&client), MS(1) + US(300));
	answer(&client, 0, 0, MS(5), 0, 0);
	CHECK_INT(frame_client_draw_pred(&client), MS(5) + US(300));
	/* They age out of the window. */
	for (int i = 0; i < FRAME_DRAW_SAMPLES; i++) {
		answer(&client, 0, 0, US(700), 0, 0);
	}
	CHECK_INT(frame_client_draw_pred(&client), US(700) + US(300));
	frame_client_finish(&client);
}

/* Where the paint waits for a late commit, a few slow draws in a hundred
 * (a CPU hog's) do not move the lead; where it does not, they do. */
static void test_waited_prediction(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	CHECK_INT(frame_client_waited_pred(&client), -1);
	frame_client_sent(&client, false);
	for (int i = 0; i < FRAME_DRAW_SAMPLES; i++) {
		answer(&client, 0, 0, i % 25 == 0 ? MS(3) : US(100), 0, 0);
	}
	CHECK_INT(frame_client_draw_pred(&client), MS(3) + US(300));
	CHECK_INT(frame_client_waited_pred(&client), US(100) + US(300));
	/* One slow draw in eight is more than the wait is for. */
	for (int i = 0; i < FRAME_DRAW_SAMPLES; i++) {
		answer(&client, 0, 0, i % 8 == 0 ? MS(3) : US(100), 0, 0);
	}
	CHECK_INT(frame_client_waited_pred(&client), MS(3) + US(300));
	frame_client_finish(&client);
}

static void test_missed_causes(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	frame_client_sent(&client, true);
	for (int i = 0; i < 10; i++) {
		answer(&client, MS(100), MS(100), US(300), 0, 0);
	}
	CHECK_INT(frame_client_draw_pred(&client), US(600));
	struct frame_late *late = client.history->late;
	/* It drew for too long: 1.5 ms past a paint of 0.5 ms. */
	int64_t start = MS(200);
	CHECK(answer(&client, start - MS(3), start - MS(3), US(4500), start,
			start + US(500)));
	CHECK_INT(client.missed, 1);
	CHECK_INT(late[FRAME_LATE_DRAW].count, 1);
	CHECK_INT(late[FRAME_LATE_DRAW].max_ns, US(1500));
	/* The margin widens by how late it was, a millisecond at most. */
	CHECK_INT(client.margin_ns, US(300) + MS(1));
	/* Its commit came while its frame was painting. */
	start = MS(300);
	CHECK(answer(
			&client, start - MS(2), start - MS(2), MS(2) + US(200), start, 0));
	CHECK_INT(late[FRAME_LATE_PAINT].count, 1);
	CHECK_INT(late[FRAME_LATE_PAINT].max_ns, US(200));
	CHECK_INT(client.margin_ns, US(1300) + US(200));
	/* fairway sent it 3 ms late, and it was 2 ms late: not the client's
	 * fault, its margin stays. */
	start = MS(400);
	CHECK(answer(&client, start - MS(5), start - MS(2), MS(4), start,
			start + US(500)));
	CHECK_INT(late[FRAME_LATE_DONE].count, 1);
	CHECK_INT(client.margin_ns, US(1500));
	/* A frame done still unsent when its frame was painted. */
	frame_client_missed(&client, US(700));
	CHECK_INT(late[FRAME_LATE_DONE].count, 2);
	CHECK_INT(client.missed, 4);
	CHECK_INT(client.met, 10);
	frame_client_finish(&client);
}

/* A miss widens the margin, which holds for a second, then shrinks back
 * slowly; it never grows without bound. */
static void test_margin_holds(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	frame_client_sent(&client, true);
	int64_t t = MS(1000);
	CHECK(answer(&client, t, t, MS(3), t + MS(2), t + MS(2) + US(500)));
	CHECK_INT(client.margin_ns, US(1300));
	/* Frames in time within the second: held. */
	for (int i = 0; i < 59; i++) {
		t += PERIOD;
		answer(&client, t, t, MS(1), 0, 0);
	}
	CHECK_INT(client.margin_ns, US(1300));
	/* After it, 5 us a frame, to the floor. */
	t = MS(2100);
	answer(&client, t, t, MS(1), 0, 0);
	CHECK_INT(client.margin_ns, US(1295));
	for (int i = 0; i < 1000; i++) {
		t += PERIOD;
		answer(&client, t, t, MS(1), 0, 0);
	}
	CHECK_INT(client.margin_ns, US(300));
	/* A tiny miss still widens by a tenth of a millisecond. */
	answer(&client, t, t, US(500), t + US(490), t + US(495));
	CHECK_INT(client.margin_ns, US(400));
	for (int i = 0; i < 100; i++) {
		answer(&client, t, t, MS(20), t + MS(1), t + MS(2));
	}
	CHECK_INT(client.margin_ns, MS(8));
	frame_client_finish(&client);
}

static void test_late_buckets(void) {
	struct frame_late late = {0};
	int64_t values[] = {0, US(249), US(250), US(600), MS(1), MS(3), MS(7),
			MS(15), MS(16), MS(400), -5};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		frame_late_add(&late, values[i]);
	}
	uint64_t want[FRAME_LATE_BUCKETS] = {3, 1, 1, 1, 1, 1, 1, 2};
	for (int i = 0; i < FRAME_LATE_BUCKETS; i++) {
		CHECK_INT(late.buckets[i], want[i]);
	}
	CHECK_INT(late.count, 11);
	CHECK_INT(late.max_ns, MS(400));
}

/* fairway's own lateness in sending is planned for, from the output's
 * recent sends, not charged to each client's draws. */
static void test_send_lateness(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	CHECK_INT(frame_output_send_pred(&out), 0);
	for (int i = 0; i < 9; i++) {
		frame_output_add_send(&out, US(50));
	}
	frame_output_add_send(&out, MS(2));
	CHECK_INT(frame_output_send_pred(&out), US(50));
	frame_output_add_send(&out, MS(2));
	CHECK_INT(frame_output_send_pred(&out), MS(2));
	CHECK_INT(out.send_late.count, 11);
	/* Early (a timer that fired ahead) counts as on time. */
	struct frame_output_timing early;
	frame_output_init(&early, PERIOD);
	frame_output_add_send(&early, -US(30));
	CHECK_INT(frame_output_send_pred(&early), 0);
}

/* Clients with recent input draw last, just before the deadline; others
 * are asked before them, by what the input clients need. */
/* A tick that came late, or a frame done that went out late, holds the
 * paint for the clients still drawing, where no vsync fixes the tick; so
 * does a client the user is waiting on that is still drawing. */
static void test_catch_up(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	int64_t tick = frame_output_plan(&out, MS(1000));
	for (int i = 0; i < 10; i++) {
		frame_output_add_send(&out, US(100));
	}
	CHECK(!frame_output_stalled(&out, tick));
	CHECK(!frame_output_stalled(&out, tick + US(100)));
	CHECK(frame_output_stalled(&out, tick + US(101)));

	struct frame_client_timing client;
	frame_client_init(&client);
	int64_t due = tick - MS(1), sent = due;
	/* No prediction yet: owed nothing. */
	CHECK_INT(
			frame_client_owed_until(&client, tick, true, due, sent, false), -1);
	CHECK(frame_client_sent(&client, false));
	CHECK(answer(&client, 0, 0, US(200), 0, 0));
	CHECK(answer(&client, 0, 0, US(400), 0, 0));
	int64_t pred = frame_client_draw_pred(&client);
	CHECK_INT(pred, US(700));
	/* Sent in time, no stall: a client still drawing is its own miss. */
	CHECK_INT(frame_client_owed_until(&client, tick, false, due, sent, false),
			-1);
	/* Sent late, or a stall: twice its draw, from the tick. */
	CHECK_INT(
			frame_client_owed_until(&client, tick, false, due, due + 1, false),
			tick + 2 * pred);
	CHECK_INT(frame_client_owed_until(
					  &client, tick + MS(3), true, due, sent, false),
			tick + MS(3) + 2 * pred);
	/* Answering every frame done, but with no input: its own miss. */
	CHECK_INT(
			frame_client_owed_until(&client, tick, false, due, sent, true), -1);
	/* With input, it is owed; once that input is a second old, not. */
	frame_client_note_input(&client, tick - MS(500));
	CHECK_INT(frame_client_owed_until(&client, tick, false, due, sent, true),
			tick + 2 * pred);
	/* Input, but it left its last frame done unanswered: not drawing. */
	CHECK_INT(frame_client_owed_until(&client, tick, false, due, sent, false),
			-1);
	CHECK_INT(frame_client_owed_until(
					  &client, tick + MS(500), false, due, sent, true),
			-1);
	frame_client_finish(&client);
}

static void test_first_claim(void) {
	struct frame_client_timing typing, other;
	frame_client_init(&typing);
	frame_client_init(&other);
	frame_client_note_input(&typing, MS(1000));
	CHECK(frame_client_input_recent(&typing, MS(1500)));
	CHECK(!frame_client_input_recent(&other, MS(1500)));
	CHECK(!frame_client_input_recent(
			&typing, MS(1000) + FRAME_INPUT_RECENT_NS));
	int64_t painted = MS(1500), deadline = MS(1516);
	int64_t reserve = MS(2);
	CHECK_INT(frame_callback_time(painted, deadline, MS(2), 0), MS(1514));
	CHECK_INT(frame_callback_time(painted, deadline, MS(3), reserve), MS(1511));
	/* Never before the previous frame was painted. */
	CHECK_INT(frame_callback_time(painted, deadline, MS(15), reserve), painted);
}

/* A flooder commits without frame done events: nothing of it reaches the
 * output's deadline, which only its ticks and paints decide. */
static void test_flooder_does_not_move_deadline(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	for (int i = 0; i < 10; i++) {
		frame_output_tick(&out, MS(1000) + i * US(16100));
		frame_output_add_paint(&out, US(600));
	}
	int64_t last = MS(1000) + 9 * US(16100);
	int64_t deadline = frame_output_plan(&out, last);
	struct frame_client_timing flooder;
	frame_client_init(&flooder);
	for (int i = 0; i < 1000; i++) {
		/* No frame done was ever sent: nothing to answer. */
		answer(&flooder, 0, 0, -1, MS(1), MS(2));
	}
	CHECK_INT(flooder.missed, 0);
	CHECK_INT(frame_client_draw_pred(&flooder), -1);
	CHECK_INT(frame_output_plan(&out, last), deadline);
	CHECK_INT(deadline, last + US(16100));
}

static void test_json(void) {
	struct frame_output_timing out;
	frame_output_init(&out, PERIOD);
	char buf[512];
	int n = frame_output_json(&out, "HEADLESS-1", 1.5, buf, sizeof(buf));
	CHECK(n > 0 && (size_t)n < sizeof(buf));
	CHECK(strstr(buf, "\"output\":\"HEADLESS-1\"") != NULL);
	CHECK(strstr(buf, "\"paint_p50_ms\":null") != NULL);
	CHECK(strstr(buf, "\"deadline_before_tick_ms\":null") != NULL);
	struct frame_client_timing client;
	frame_client_init(&client);
	n = frame_client_json(&client, 0, buf, sizeof(buf));
	CHECK(n > 0 && buf[0] == ',');
	CHECK(strstr(buf, "\"draw_pred_ms\":null") != NULL);
	CHECK(strstr(buf, "\"waited_pred_ms\":null") != NULL);
	CHECK(strstr(buf, "\"late\"") == NULL);
	frame_client_sent(&client, true);
	answer(&client, MS(10), MS(10), MS(3), MS(12), MS(12) + US(100));
	n = frame_client_json(&client, 0, buf, sizeof(buf));
	CHECK(n > 0 && (size_t)n < sizeof(buf));
	CHECK(strstr(buf,
				  "\"late\":{\"draw\":{\"n\":1,\"max_ms\":1.000,"
				  "\"hist\":[0,0,0,1,0,0,0,0]}}") != NULL);
	frame_client_finish(&client);
	n = frame_output_json(&out, "HEADLESS-1", 1.5, buf, sizeof(buf));
	CHECK(strstr(buf, "\"send_late\":{\"n\":0,\"max_ms\":null") != NULL);
}

int main(void) {
	RUN_TEST(test_percentiles);
	RUN_TEST(test_paint_estimate);
	RUN_TEST(test_ticks_without_vsync);
	RUN_TEST(test_tick_after_idle);
	RUN_TEST(test_deadline_with_vsync);
	RUN_TEST(test_new_client);
	RUN_TEST(test_prediction_percentile);
	RUN_TEST(test_waited_prediction);
	RUN_TEST(test_missed_causes);
	RUN_TEST(test_margin_holds);
	RUN_TEST(test_late_buckets);
	RUN_TEST(test_send_lateness);
	RUN_TEST(test_catch_up);
	RUN_TEST(test_first_claim);
	RUN_TEST(test_flooder_does_not_move_deadline);
	RUN_TEST(test_json);
	return 0;
}
