#include "scheduler/ratings/ratings_client.h"
#include "tests/unit/check.h"

#define S INT64_C(1000000000)
#define FRAME (S / 60)

static void test_output_rate_bounded(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	/* 8 s of 60 presented frames, each a whole surface (and more). */
	int64_t now = 100 * S;
	for (int i = 0; i < 8 * 60; i++) {
		ratings_client_add_frame(&c, i % 2 ? 1.0 : 7.5, now);
		now += FRAME;
	}
	double rate = ratings_client_output_rate(&c, &params, now - 1);
	CHECK(rate > 59.0 && rate <= 60.0);
	CHECK_INT(ratings_client_classify(&c, &params, now - 1), RATINGS_OUTPUT);
	/* Remembered for the window, then forgotten. */
	CHECK(ratings_client_output_rate(&c, &params, now + 3 * S) > 20);
	CHECK(ratings_client_output_rate(&c, &params, now + 9 * S) == 0);
	CHECK_INT(ratings_client_classify(&c, &params, now + 9 * S), RATINGS_IDLE);
}

static void test_small_damage_is_not_output(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	/* A cursor blinking twice a second: one cell of an 80x24 terminal. */
	for (int i = 0; i < 16; i++) {
		ratings_client_add_frame(&c, 1.0 / (80 * 24), i * S / 2);
	}
	CHECK(ratings_client_output_rate(&c, &params, 8 * S - 1) < 0.01);
	CHECK_INT(ratings_client_classify(&c, &params, 8 * S - 1), RATINGS_IDLE);
	ratings_client_add_frame(&c, -1, 8 * S);
	CHECK(ratings_client_output_rate(&c, &params, 8 * S) < 0.01);
}

static void test_input(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	CHECK(!ratings_client_has_input(&c, &params, 0));
	CHECK(ratings_client_note_input(&c, &params, 10 * S));
	CHECK(!ratings_client_note_input(&c, &params, 11 * S));
	CHECK_INT(
			ratings_client_classify(&c, &params, 18 * S), RATINGS_INTERACTIVE);
	CHECK(!ratings_client_has_input(&c, &params, 19 * S));
	CHECK(ratings_client_note_input(&c, &params, 19 * S));
}

/*
 * The pointer crossed one window on its way to another, which it then
 * drives: the first keeps its input rating only until the handoff, and
 * falls back to what its output earns; new input wins it back.
 */
static void test_input_handoff(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client crossed, driven;
	ratings_client_init(&crossed, 42);
	ratings_client_init(&driven, 43);
	CHECK_INT(ratings_client_last_input(&crossed), INT64_MIN);
	for (int i = 0; i < 8 * 60; i++) {
		ratings_client_add_frame(&crossed, 1.0, i * FRAME);
		ratings_client_add_commit(&crossed, i * FRAME);
		ratings_client_add_presented(&crossed, 1, i * FRAME);
	}
	int64_t now = 8 * S;
	ratings_client_note_input(&crossed, &params, now);
	for (int64_t t = now + S / 4; t <= now + 3 * S; t += S / 4) {
		ratings_client_note_input(&driven, &params, t);
		int64_t newest = ratings_client_last_input(&driven);
		enum ratings_class want = t - now <= params.handoff_ns
				? RATINGS_INTERACTIVE
				: RATINGS_OUTPUT;
		CHECK_INT(ratings_client_classify_among(&crossed, &params, t, newest),
				want);
		CHECK_INT(ratings_client_classify_among(&driven, &params, t, newest),
				RATINGS_INTERACTIVE);
	}
	/* Alone, the crossed window keeps its input for the whole window. */
	CHECK_INT(ratings_client_classify(&crossed, &params, now + 3 * S),
			RATINGS_INTERACTIVE);
	/* Input again: it is the newest, and the driven one is not. */
	ratings_client_note_input(&crossed, &params, now + 5 * S);
	int64_t newest = ratings_client_last_input(&crossed);
	CHECK_INT(ratings_client_classify_among(
					  &crossed, &params, now + 5 * S, newest),
			RATINGS_INTERACTIVE);
	CHECK_INT(ratings_client_classify_among(
					  &driven, &params, now + 5 * S, newest),
			RATINGS_IDLE);
}

static void test_busy(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	/* Served 30 % of the time for 2 s: 60 % of a second over 8 s. */
	for (int i = 0; i < 20; i++) {
		ratings_client_add_busy(&c, 30 * 1000 * 1000, i * S / 10);
	}
	double share = ratings_client_busy_share(&c, &params, 2 * S - 1);
	CHECK(share > 0.07 && share < 0.08);
	CHECK_INT(ratings_client_classify(&c, &params, 2 * S - 1),
			RATINGS_BACKGROUND);
	/* Output and input outrank being busy. */
	for (int i = 0; i < 60; i++) {
		ratings_client_add_frame(&c, 1, i * FRAME);
	}
	CHECK_INT(ratings_client_classify(&c, &params, 2 * S - 1), RATINGS_OUTPUT);
	ratings_client_note_input(&c, &params, S);
	CHECK_INT(ratings_client_classify(&c, &params, 2 * S - 1),
			RATINGS_INTERACTIVE);
	CHECK_INT(ratings_client_classify(&c, &params, 20 * S), RATINGS_IDLE);
}

/*
 * 8 s of frames at 60 Hz from 100 s on, each presented, with commits
 * commits spread evenly over each; returns the end of the last frame.
 */
static int64_t commit_and_present(struct ratings_client *c, int commits) {
	int64_t now = 100 * S;
	for (int frame = 0; frame < 8 * 60; frame++) {
		for (int i = 0; i < commits; i++) {
			ratings_client_add_commit(c, now + i * FRAME / commits);
		}
		ratings_client_add_frame(c, 1.0, now + FRAME - 1);
		ratings_client_add_presented(c, 1, now + FRAME - 1);
		now += FRAME;
	}
	return now;
}

/* A client committing 10 frames per presented one is past its knee. */
static void test_knee_flooder(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	int64_t now = commit_and_present(&c, 10);
	double surplus = ratings_client_surplus(&c, &params, now - 1);
	CHECK(surplus > 9.9 && surplus < 10.1);
	CHECK(ratings_client_output_rate(&c, &params, now - 1) > 59);
	CHECK_INT(ratings_client_knee(&c, &params, now - 1), RATINGS_WASTE);
	/* Its 60 fps of output earn it no boost: mostly waste. */
	CHECK_INT(
			ratings_client_classify(&c, &params, now - 1), RATINGS_BACKGROUND);
	/* Input still comes first. */
	ratings_client_note_input(&c, &params, now - 1);
	CHECK_INT(
			ratings_client_classify(&c, &params, now - 1), RATINGS_INTERACTIVE);
}

/*
 * A flooder a fifth of a second in, drawing 180 frames a second of which
 * 45 are presented, after a few seconds of little (x11perf calibrating):
 * below the knee's commit rate still, but never output.
 */
static void test_knee_flooder_starting(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	for (int second = 0; second < 4; second++) {
		ratings_client_add_commit(&c, 100 * S + second * S);
		ratings_client_add_frame(&c, 1.0, 100 * S + second * S + FRAME);
		ratings_client_add_presented(&c, 1, 100 * S + second * S + FRAME);
	}
	int64_t start = 104 * S + S / 2;
	int64_t now = start;
	for (int i = 0; i < 180 / 5; i++) {
		now = start + (int64_t)i * S / 180;
		ratings_client_add_commit(&c, now);
		if (i % 4 == 0) {
			ratings_client_add_frame(&c, 1.0, now);
			ratings_client_add_presented(&c, 1, now);
		}
	}
	CHECK(ratings_client_output_rate(&c, &params, now) > 1.0);
	CHECK_INT(ratings_client_knee(&c, &params, now), RATINGS_BEFORE_KNEE);
	CHECK(ratings_client_surplus(&c, &params, now) > 2.5);
	CHECK(ratings_client_classify(&c, &params, now) != RATINGS_OUTPUT);
}

/* A 60 fps animation presenting each frame is not. */
static void test_knee_animation(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	int64_t now = commit_and_present(&c, 1);
	double surplus = ratings_client_surplus(&c, &params, now - 1);
	CHECK(surplus > 0.99 && surplus < 1.01);
	CHECK_INT(ratings_client_knee(&c, &params, now - 1), RATINGS_BEFORE_KNEE);
	CHECK_INT(ratings_client_classify(&c, &params, now - 1), RATINGS_OUTPUT);
}

/* Twice as many commits as frames: past the knee, back to its fair share. */
static void test_knee_fair_share(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client c;
	ratings_client_init(&c, 42);
	int64_t now = commit_and_present(&c, 2);
	CHECK_INT(ratings_client_knee(&c, &params, now - 1), RATINGS_PAST_KNEE);
	CHECK_INT(ratings_client_classify(&c, &params, now - 1), RATINGS_IDLE);
	/* A few commits never shown are no knee at all. */
	struct ratings_client d;
	ratings_client_init(&d, 43);
	for (int i = 0; i < 40; i++) {
		ratings_client_add_commit(&d, 100 * S + i * S / 10);
	}
	CHECK_INT(ratings_client_knee(&d, &params, 104 * S), RATINGS_BEFORE_KNEE);
}

/*
 * A declared video or game counts from its first frame, and is worth no
 * more than the same frames undeclared: the same class once a window of
 * them has passed, never above output, and past its knee no boost.
 */
static void test_declared_motion(void) {
	struct ratings_params params;
	ratings_params_default(&params);
	struct ratings_client declared, plain;
	ratings_client_init(&declared, 42);
	ratings_client_init(&plain, 43);
	int64_t now = 100 * S;
	ratings_client_add_commit(&declared, now);
	ratings_client_add_frame(&declared, 1.0, now);
	ratings_client_add_presented(&declared, 1, now);
	ratings_client_declare_motion(&declared, true);
	ratings_client_add_commit(&plain, now);
	ratings_client_add_frame(&plain, 1.0, now);
	ratings_client_add_presented(&plain, 1, now);
	/* One frame is no pace yet; the next one at a video's is. */
	CHECK_INT(ratings_client_classify(&declared, &params, now), RATINGS_IDLE);
	ratings_client_add_commit(&declared, now + FRAME);
	ratings_client_add_frame(&declared, 1.0, now + FRAME);
	ratings_client_add_presented(&declared, 1, now + FRAME);
	CHECK_INT(ratings_client_classify(&declared, &params, now + FRAME),
			RATINGS_OUTPUT);
	CHECK_INT(ratings_client_classify(&plain, &params, now + FRAME),
			RATINGS_IDLE);
	/* Two frames and no more: a second at most. */
	CHECK_INT(ratings_client_classify(&declared, &params, now + FRAME + S),
			RATINGS_IDLE);
	ratings_client_init(&declared, 42);
	ratings_client_add_frame(&declared, 1.0, now);
	ratings_client_declare_motion(&declared, true);
	/* Frames a second apart: as undeclared, then the same all along. */
	for (int i = 1; i < 12; i++) {
		int64_t t = now + i * S;
		ratings_client_add_frame(&declared, 1.0, t);
		ratings_client_add_frame(&plain, 1.0, t);
		CHECK_INT(ratings_client_classify(&declared, &params, t + S / 2),
				RATINGS_IDLE);
	}
	int64_t later = now + 12 * S;
	CHECK(ratings_client_output_rate(&declared, &params, later) ==
			ratings_client_output_rate(&plain, &params, later));
	/* Never interactive by its declaration, and past its knee nothing. */
	struct ratings_client flooder;
	ratings_client_init(&flooder, 44);
	for (int i = 0; i < 200; i++) {
		ratings_client_add_commit(&flooder, now + i * FRAME / 10);
	}
	ratings_client_add_frame(&flooder, 1.0, now + 20 * FRAME);
	ratings_client_add_presented(&flooder, 1, now + 20 * FRAME);
	ratings_client_declare_motion(&flooder, true);
	CHECK(ratings_client_classify(&flooder, &params, now + 21 * FRAME) <
			RATINGS_OUTPUT);
}

static void test_class_order(void) {
	CHECK_INT(
			ratings_class_max(RATINGS_BACKGROUND, RATINGS_IDLE), RATINGS_IDLE);
	CHECK_INT(ratings_class_max(RATINGS_INTERACTIVE, RATINGS_OUTPUT),
			RATINGS_INTERACTIVE);
	CHECK_INT(ratings_class_max(RATINGS_BACKGROUND, RATINGS_OUTPUT),
			RATINGS_OUTPUT);
}

int main(void) {
	test_knee_flooder();
	test_knee_animation();
	test_knee_flooder_starting();
	test_knee_fair_share();
	test_output_rate_bounded();
	test_small_damage_is_not_output();
	test_input();
	test_input_handoff();
	test_busy();
	test_class_order();
	test_declared_motion();
	return 0;
}
