#include "scheduler/hints/cpu_pressure.h"
#include "tests/unit/check.h"
#include <stdint.h>

/*
 * /proc/pressure/cpu read as fairway reads it: the "some" line's total,
 * and a contended CPU known from its growth over a window, with a mark to
 * enter and a lower one to leave.
 */

#define MS (1000000LL)

static void test_parse(void) {
	uint64_t total = 0;
	CHECK(cpu_pressure_parse("some avg10=0.92 avg60=28.72 avg300=38.85 "
							 "total=849238241\n"
							 "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
			&total));
	CHECK_INT(total, 849238241);
	/* "full" first, as no kernel writes it, still finds "some". */
	CHECK(cpu_pressure_parse(
			"full avg10=0.00 total=7\nsome avg10=1 total=42\n", &total));
	CHECK_INT(total, 42);
	CHECK(!cpu_pressure_parse("", &total));
	CHECK(!cpu_pressure_parse("full avg10=0.00 total=7\n", &total));
	/* A total on the next line is not this line's. */
	CHECK(!cpu_pressure_parse("some avg10=1\nfull total=3\n", &total));
	CHECK(!cpu_pressure_parse("some avg10=1 total=x\n", &total));
}

static void test_sample(void) {
	struct cpu_pressure p = {0};
	/* The first sample is the base, whatever its total. */
	CHECK(!cpu_pressure_sample(&p, 1000000, 0));
	CHECK(!p.contended);
	/* 400 ms stalled of 500: 80 %, past the mark to enter. */
	CHECK(cpu_pressure_sample(&p, 1400000, 500 * MS));
	CHECK(p.contended);
	/* 30 %: below the mark to enter, above the one to leave: stays. */
	CHECK(!cpu_pressure_sample(&p, 1550000, 1000 * MS));
	CHECK(p.contended);
	/* 10 %: leaves. */
	CHECK(cpu_pressure_sample(&p, 1600000, 1500 * MS));
	CHECK(!p.contended);
	/* 30 % again: not enough to enter. */
	CHECK(!cpu_pressure_sample(&p, 1750000, 2000 * MS));
	CHECK(!p.contended);
	/* A counter that went back (a new file in a test, a new namespace):
	 * a new base, no answer from it. */
	CHECK(!cpu_pressure_sample(&p, 10, 2500 * MS));
	CHECK(!p.contended);
	CHECK(cpu_pressure_sample(&p, 10 + 450000, 3000 * MS));
	CHECK(p.contended);
	/* No time passed: nothing is learnt. */
	CHECK(!cpu_pressure_sample(&p, 10 + 450000, 3000 * MS));
	CHECK(p.contended);
}

int main(void) {
	test_parse();
	test_sample();
	return 0;
}
