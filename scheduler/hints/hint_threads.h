#ifndef FAIRWAY_SCHEDULER_HINTS_HINT_THREADS_H
#define FAIRWAY_SCHEDULER_HINTS_HINT_THREADS_H

#include "scheduler/hints/hint_journal.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The threads of a hinted process, sorted by tid, so that each scan of
 * /proc/PID/task is one readdir, a sort and a merge, however many threads
 * the process has: a list searched for every tid took a quadratic walk
 * each second. At most HINT_THREADS_MAX are tracked: the main thread, then
 * the lowest tids (tids wrap around, so the main thread's may not be the
 * lowest); the rest keep what they have. A known thread's start
 * time is not read again at each scan: every change reads it first
 * (hints.c), and marks it stale when it no longer matches.
 */

#define HINT_THREADS_MAX 256

struct hints_thread {
	pid_t tid;
	uint64_t start;
	struct hint_attr saved; /* valid once changed */
	bool changed; /* saved, journalled, and changed by us */
	bool left_alone; /* a policy (real-time, idle) we never touch */
	bool seen; /* given the process's class since it turned up */
	bool stale; /* its tid no longer showed its start time: read again */
};

struct hint_threads {
	struct hints_thread *items; /* sorted by tid */
	size_t count, capacity;
	size_t untracked; /* threads past the cap at the last scan */
};

void hint_threads_init(struct hint_threads *threads);
void hint_threads_finish(struct hint_threads *threads);

typedef void (*hint_threads_gone_func)(struct hints_thread *thread, void *data);

/*
 * Brings the set up to date with /proc/pid/task, tracking at most max
 * threads (and never more than HINT_THREADS_MAX): an application's
 * processes share a budget (hint_tree.h). Each thread that is gone (or
 * whose tid now names a new thread) is handed to gone before it is
 * dropped; new ones have seen false. Returns how many are new, or -1 if
 * the process's threads cannot be read.
 */
int hint_threads_scan(struct hint_threads *threads, pid_t pid, size_t max,
		hint_threads_gone_func gone, void *data);

#endif
