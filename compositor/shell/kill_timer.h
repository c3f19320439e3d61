#ifndef FAIRWAY_COMPOSITOR_SHELL_KILL_TIMER_H
#define FAIRWAY_COMPOSITOR_SHELL_KILL_TIMER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/types.h>

/*
 * SIGKILL for a process after a delay, sent from a thread of its own: the
 * display's thread may be the one waiting on that process, blocked where no
 * timer of the event loop can run (in wlroots' xcb_flush to an Xwayland
 * that no longer reads). The process is held by a pidfd, so a pid reused
 * in the meantime is never hit, and the caller names it by one: a process
 * it pinned (peer.h), never one it found by a pid or a name.
 */
struct fw_kill_timer {
	pthread_t thread;
	int pidfd;
	int cancel_fd;
	int delay_ms;
	atomic_bool fired;
};

/*
 * Arms the timer for the process pidfd names; takes pidfd, even on
 * failure. False, with nothing to finish, if it could not be armed.
 */
bool fw_kill_timer_init(struct fw_kill_timer *timer, int pidfd, int delay_ms);
/* Disarms it (or waits for it to fire); true if it killed the process. */
bool fw_kill_timer_finish(struct fw_kill_timer *timer);

#endif
