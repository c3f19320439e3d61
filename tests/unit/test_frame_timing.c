#include "scheduler/frame_timing.h"
#include "tests/unit/check.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The clock is just a number: every call is told the time. */
#define US(x) ((int64_t)(x)*1000)
#define MS(x) ((int64_t)(x)*1000000)
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

static void test_new_client(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	/* No history: its frame done goes out right after the paint, as a
	 * compositor without deadlines sends it. */
	CHECK_INT(frame_client_draw_pred(&client), -1);
	int64_t painted = MS(1000), deadline = MS(1016);
	CHECK_INT(frame_callback_time(painted, deadline, -1, 0), painted);
	frame_client_sent(&client, false);
	CHECK(frame_client_committed(
			&client, painted, painted + US(200), PERIOD, true));
	CHECK_INT(frame_client_draw_pred(&client), -1);
	CHECK(frame_client_committed(
			&client, painted, painted + US(400), PERIOD, true));
	/* Two draws: the larger, a quarter more, and the 1.5 ms margin. */
	int64_t pred = US(400) + US(100) + US(1500);
	CHECK_INT(frame_client_draw_pred(&client), pred);
	CHECK_INT(frame_callback_time(painted, deadline, pred, 0), deadline - pred);
	CHECK_INT(client.met, 2);
	CHECK_INT(client.missed, 0);
	/* A commit long after its frame done answers something else. */
	CHECK(!frame_client_committed(
			&client, painted, painted + 3 * PERIOD, PERIOD, false));
	CHECK_INT(client.missed, 0);
	CHECK_INT(frame_client_draw_pred(&client), pred);
}

static void test_missed_deadline(void) {
	struct frame_client_timing client;
	frame_client_init(&client);
	for (int i = 0; i < 10; i++) {
		frame_client_committed(&client, 0, US(300), PERIOD, true);
	}
	int64_t before = frame_client_draw_pred(&client);
	CHECK_INT(before, US(300) + US(75) + US(1500));
	/* It took 5 ms, past the paint: shown a tick late, and its next frame
	 * done goes out earlier. */
	CHECK(frame_client_committed(&client, 0, MS(5), PERIOD, false));
	CHECK_INT(client.missed, 1);
	CHECK_INT(client.met, 10);
	int64_t after = frame_client_draw_pred(&client);
	CHECK_INT(after, before + US(500));
	/* Misses a tenth of the time: the 90th percentile moves to them. */
	frame_client_committed(&client, 0, MS(5), PERIOD, false);
	CHECK_INT(frame_client_draw_pred(&client),
			MS(5) + US(1250) + MS(2) + US(500));
	/* A frame done that fairway sent too late counts against the margin
	 * too, and frames in time win it back slowly. */
	frame_client_missed(&client);
	CHECK_INT(client.margin_ns, MS(3));
	for (int i = 0; i < 200; i++) {
		frame_client_committed(&client, 0, US(300), PERIOD, true);
	}
	CHECK_INT(client.margin_ns, US(2500));
	for (int i = 0; i < 2000; i++) {
		frame_client_committed(&client, 0, US(300), PERIOD, true);
	}
	CHECK_INT(client.margin_ns, US(1500));
	/* It never grows without bound. */
	for (int i = 0; i < 100; i++) {
		frame_client_missed(&client);
	}
	CHECK_INT(client.margin_ns, MS(8));
}

/* Clients with recent input draw last, just before the deadline; others
 * are asked before them, by what the input clients need. */
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
		frame_client_committed(&flooder, 0, -1, PERIOD, false);
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
}

int main(void) {
	RUN_TEST(test_percentiles);
	RUN_TEST(test_paint_estimate);
	RUN_TEST(test_ticks_without_vsync);
	RUN_TEST(test_deadline_with_vsync);
	RUN_TEST(test_new_client);
	RUN_TEST(test_missed_deadline);
	RUN_TEST(test_first_claim);
	RUN_TEST(test_flooder_does_not_move_deadline);
	RUN_TEST(test_json);
	return 0;
}
