#include "scheduler/ratings.h"
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

static void test_class_order(void) {
	CHECK_INT(
			ratings_class_max(RATINGS_BACKGROUND, RATINGS_IDLE), RATINGS_IDLE);
	CHECK_INT(ratings_class_max(RATINGS_INTERACTIVE, RATINGS_OUTPUT),
			RATINGS_INTERACTIVE);
	CHECK_INT(ratings_class_max(RATINGS_BACKGROUND, RATINGS_OUTPUT),
			RATINGS_OUTPUT);
}

int main(void) {
	test_output_rate_bounded();
	test_small_damage_is_not_output();
	test_input();
	test_busy();
	test_class_order();
	return 0;
}
