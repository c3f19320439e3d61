#ifndef FAIRWAY_COMPOSITOR_SCHED_SELF_PRIORITY_H
#define FAIRWAY_COMPOSITOR_SCHED_SELF_PRIORITY_H

#include <stdbool.h>

struct fw_server;

/*
 * fairway's own thread above its clients: sway 1.8 makes itself
 * SCHED_RR, mutter and KWin raise their KMS threads. fairway lowers its
 * main thread's nice to FW_SELF_NICE where it may (CAP_SYS_NICE, or an
 * RLIMIT_NICE that allows it), with SCHED_FLAG_RESET_ON_FORK so that
 * neither the clients it spawns nor threads started later inherit it.
 * Nice first, and real time only on top of it (fw_self_priority_realtime)
 * once the server has started: the hints' probe (hint_attr.h) reads the
 * default slice from a fair thread, and a start is a burst. Where it may
 * not, it says so once and changes nothing.
 */

#define FW_SELF_NICE (-10)

/* True if the thread runs at FW_SELF_NICE or lower now. */
bool fw_self_priority_raise(void);

/*
 * --raise-priority rr: the main thread SCHED_RR at priority 1 as well,
 * as sway 1.8 and later run theirs, with SCHED_FLAG_RESET_ON_FORK so that
 * no client or later thread (the paint worker) starts real-time. Where it
 * may (CAP_SYS_NICE, or RLIMIT_RTPRIO 1 or more). RLIMIT_RTTIME is set so
 * that a main thread that runs FW_SELF_RTTIME_US without blocking gets
 * SIGXCPU, and its handler puts the thread back at once to the fair
 * attributes it had (fw_self_priority_raise's): a loop gone wrong then
 * starves nothing. The loop takes SCHED_RR again a second later, later
 * each time it loses it again soon. Call it once the server has started,
 * so that the burst of starting (a keymap compiled, a first paint) is not
 * taken for one. True if the thread is SCHED_RR now; false, with one log
 * line why, leaves it as it was.
 *
 * AUTOMATIC (--raise-priority auto): SCHED_RR only while the CPU is
 * contended by programs other than fairway and its clients, and the main
 * thread is not itself busy (scheduler/hints/cpu_pressure.h), sampled
 * every half second; fair otherwise. Real time wins beside other programs' CPU
 * hogs; it costs a cheap client's idle tail, and a fair client's round trips
 * under a flood of fairway's own clients (bench/README.md, "fairway's main
 * thread at SCHED_RR"), which auto does not pay: it is the default. Without the
 * kernel's pressure information it says so and stays fair. True if it will
 * take SCHED_RR when contended.
 */
#define FW_SELF_RTTIME_US (50 * 1000)
bool fw_self_priority_realtime(struct fw_server *server, bool automatic);
/* Back to the fair attributes; the loop's sources removed. */
void fw_self_priority_realtime_finish(void);

/*
 * A custom EEVDF slice for the main thread, FW_SELF_SLICE_NS, where the
 * kernel has them (Linux 6.12 and later; before, it changes nothing). A
 * slice shorter than the default gives fairway's wakeups an earlier
 * deadline, so that they preempt a CPU hog in another task group at once
 * rather than at the end of its slice (the kernel takes a group's
 * shortest slice for the group): a motion and a commit reach the screen
 * sooner beside a parallel build (bench/README.md, "Applications and task
 * groups"). Call it after the hints are made: their probe (hint_attr.h)
 * reads the default slice from this thread.
 */
#define FW_SELF_SLICE_NS (500 * 1000)
void fw_self_priority_slice(void);

/*
 * The same for fairway's task group, since the kernel shares the CPU
 * between groups before it looks at a thread's nice: its session's
 * autogroup as low as the hints ever put an application's group
 * (HINTS_NICE_FLOOR, rtkit's floor), so that no application's group
 * outweighs the compositor that shows its frames, or as low as
 * RLIMIT_NICE allows without CAP_SYS_NICE; where autogroups apply and the
 * session holds
 * only fairway and its descendants (never a login shell's or a
 * terminal's session). Where it may not, it says why once. True if the
 * group is raised now.
 */
bool fw_self_priority_raise_group(void);
/* The autogroup's nice back as it was, if fairway raised it and it holds. */
void fw_self_priority_lower_group(void);

#endif
