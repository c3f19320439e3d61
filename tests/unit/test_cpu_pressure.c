#include "scheduler/hints/cpu_pressure.h"
#include "tests/unit/check.h"
#include <stdint.h>

/*
 * /proc/pressure/cpu and /proc/stat read as fairway reads them, and a CPU
 * contended by others known from their growth over a window, against
 * fairway's own and its clients' time, with marks to enter and lower ones
 * to leave.
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

static void test_parse_busy(void) {
	uint64_t busy = 0;
	CHECK(cpu_pressure_parse_busy("cpu  100 2 30 5000 40 6 7 8 0 0\n"
								  "cpu0 50 1 15 2500 20 3 4 4 0 0\n",
			&busy));
	/* user, nice, system, irq, softirq: not idle, iowait or steal. */
	CHECK_INT(busy, 100 + 2 + 30 + 6 + 7);
	/* An old kernel's four fields are not enough. */
	CHECK(!cpu_pressure_parse_busy("cpu  1 2 3 4\n", &busy));
	CHECK(!cpu_pressure_parse_busy("cpu0 1 2 3 4 5 6 7\n", &busy));
	CHECK(!cpu_pressure_parse_busy("", &busy));
}

/* Stalled for STALLED of each 500 ms, others busy for OTHERS CPUs. */
static void step(
		struct cpu_pressure_reading *r, double stalled, double others) {
	r->stalled_us += (uint64_t)(stalled * 500000);
	r->own_ns += 300 * MS;
	r->busy_ns += 300 * MS + (uint64_t)(others * 500 * MS);
}

/* A sample half a second on: whether the answer changed, and what it is
 * now (a macro, so that a failure names the line). */
#define EXPECT(changed, now_contended) \
	do { \
		t += 500 * MS; \
		CHECK(cpu_pressure_sample(&p, &r, t) == (changed)); \
		CHECK(p.contended == (now_contended)); \
	} while (0)

static void test_sample(void) {
	struct cpu_pressure p = {0};
	struct cpu_pressure_reading r = {1000000, 7000 * MS, 9 * MS};
	int64_t t = 0;
	/* The first sample is the base, whatever its counters. */
	CHECK(!cpu_pressure_sample(&p, &r, t));
	CHECK(!p.contended);
	/* 80 % stalled, others on 1.5 CPUs: past both marks to enter. */
	step(&r, 0.8, 1.5);
	EXPECT(true, true);
	CHECK(p.stalled_share > 0.79 && p.stalled_share < 0.81);
	CHECK(p.others_cpus > 1.49 && p.others_cpus < 1.51);
	/* 30 % and 0.3 CPUs: below the marks to enter, above those to
	 * leave: stays. */
	step(&r, 0.3, 0.3);
	EXPECT(false, true);
	/* Others under a quarter of a CPU, the CPU still stalled: leaves. */
	step(&r, 0.9, 0.1);
	EXPECT(true, false);
	/* Stalled throughout, by fairway and its clients alone: stays out. */
	step(&r, 1.0, 0.0);
	EXPECT(false, false);
	/* Others busy on a CPU that nobody waits for: stays out. */
	step(&r, 0.1, 1.5);
	EXPECT(false, false);
	/* Both: enters; then 10 % stalled: leaves. */
	step(&r, 0.6, 0.6);
	EXPECT(true, true);
	step(&r, 0.1, 1.0);
	EXPECT(true, false);
	/* fairway's own time grew past the machine's (read a moment
	 * apart): others at none, not a wrapped number. */
	r.own_ns += 800 * MS;
	r.stalled_us += 400000;
	EXPECT(false, false);
	CHECK(p.others_cpus == 0.0);
	/* A counter that went back (a new file in a test, a new namespace):
	 * a new base, no answer from it. */
	r.stalled_us = 10;
	EXPECT(false, false);
	step(&r, 0.9, 1.0);
	EXPECT(true, true);
	/* A main thread busy for half the window or more: out at once,
	 * however contended, and not back in while it stays busy. */
	step(&r, 0.9, 1.5);
	r.main_ns += 250 * MS;
	EXPECT(true, false);
	CHECK(p.main_share > 0.49 && p.main_share < 0.51);
	step(&r, 0.9, 1.5);
	r.main_ns += 400 * MS;
	EXPECT(false, false);
	/* Mostly asleep again: in. */
	step(&r, 0.9, 1.5);
	r.main_ns += 20 * MS;
	EXPECT(true, true);
	/* No time passed: nothing is learnt. */
	step(&r, 0.0, 0.0);
	CHECK(!cpu_pressure_sample(&p, &r, t));
	CHECK(p.contended);
}

int main(void) {
	test_parse();
	test_parse_busy();
	test_sample();
	return 0;
}
