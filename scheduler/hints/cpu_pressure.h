#ifndef FAIRWAY_SCHEDULER_HINTS_CPU_PRESSURE_H
#define FAIRWAY_SCHEDULER_HINTS_CPU_PRESSURE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Whether the CPU is contended by programs fairway does not steer, for
 * --raise-priority auto.
 *
 * Contended: the kernel's pressure stall information (/proc/pressure/cpu,
 * Linux 4.20 and later where PSI is on). Its "some" line's total counts
 * the microseconds in which at least one runnable task waited for a CPU;
 * the share of a sampling window spent so is that total's growth over the
 * window's length. Its own averages (avg10 and longer) would take seconds
 * to follow a load that comes and goes.
 *
 * By others: the machine's busy CPU time (/proc/stat) less fairway's own
 * and its clients' (their processes, as the hints know them). nice -10
 * already puts fairway ahead of its clients in its own task group, and the
 * hints lower the busy ones: against them SCHED_RR gains nothing and
 * makes a fair client wait behind a main thread that cannot be preempted
 * (bench/README.md). Against programs in task groups of their own (a
 * build, a game, another session) nice weighs nothing, and real time is
 * what keeps the frames.
 *
 * Entering takes both marks to ENTER, leaving either under LEAVE, so that
 * a load near one mark does not flip the answer at each sample.
 *
 * And never for a main thread that is itself busy: real time is for a
 * thread that mostly sleeps and must run at once when woken. One that ran
 * CPU_PRESSURE_MAIN_MAX of the window or more is serving a load (a
 * client's flood, with a hog of the same user beside it), and at real
 * time it would take that CPU from every fair task of the machine, other
 * users' included, where a fair policy bounds it to its group's share.
 */
#define CPU_PRESSURE_ENTER 0.5
#define CPU_PRESSURE_LEAVE 0.2
/* Others' use, in CPUs: half of one to enter, a quarter to leave. */
#define CPU_PRESSURE_OTHERS_ENTER 0.5
#define CPU_PRESSURE_OTHERS_LEAVE 0.25

#define CPU_PRESSURE_MAIN_MAX 0.5

/* One reading of the counters, each only ever growing. */
struct cpu_pressure_reading {
	uint64_t stalled_us; /* /proc/pressure/cpu "some" total */
	uint64_t busy_ns; /* every CPU's busy time, /proc/stat */
	uint64_t own_ns; /* fairway's and its clients' CPU time */
	uint64_t main_ns; /* fairway's main thread's CPU time */
};

/* What the last window showed, from the marks above. */
enum cpu_pressure_why {
	CPU_PRESSURE_FREE, /* too little stalled */
	CPU_PRESSURE_OWN_LOAD, /* stalled, but the busy time is fairway's */
	CPU_PRESSURE_MAIN_BUSY, /* stalled by others, the main thread busy */
	CPU_PRESSURE_OTHERS, /* stalled by others: contended */
};

struct cpu_pressure {
	bool sampled; /* a first sample was taken */
	struct cpu_pressure_reading last;
	int64_t at_ns;
	enum cpu_pressure_why why;
	bool contended; /* why is CPU_PRESSURE_OTHERS: what auto acts on */
	/* The last window's figures, for the log. */
	double stalled_share;
	double others_cpus;
	double main_share;
};

/* The "some" line's total in TEXT (the file's contents); false if none. */
bool cpu_pressure_parse(const char *text, uint64_t *total_us);

/*
 * The busy clock ticks of every CPU in TEXT (/proc/stat's contents: its
 * "cpu" line's user, nice, system, irq and softirq); false if none.
 */
bool cpu_pressure_parse_busy(const char *text, uint64_t *ticks);

/*
 * A sample taken at NOW_NS. Returns true when the answer changed; the
 * answer is in pressure->contended. The first sample only sets the base.
 */
bool cpu_pressure_sample(struct cpu_pressure *pressure,
		const struct cpu_pressure_reading *reading, int64_t now_ns);

#endif
