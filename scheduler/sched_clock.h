#ifndef FAIRWAY_SCHEDULER_SCHED_CLOCK_H
#define FAIRWAY_SCHEDULER_SCHED_CLOCK_H

#include <stdint.h>

/*
 * Scheduling time is read from CLOCK_MONOTONIC when it is needed, as
 * Xorg's -dumbSched does: no SIGALRM, no itimer (Gomez, Ramos and Rego,
 * "Signals, timers, and continuations for multithreaded user-level
 * protocols", on why).
 */
int64_t sched_clock_now_ns(void);
/* The calling thread's CPU time: what a piece of work cost it. */
int64_t sched_clock_thread_cpu_ns(void);

#define SCHED_NS_PER_MS INT64_C(1000000)

#endif
