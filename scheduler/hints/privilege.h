#ifndef FAIRWAY_SCHEDULER_HINTS_PRIVILEGE_H
#define FAIRWAY_SCHEDULER_HINTS_PRIVILEGE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * What fairway may do that its user may not. It runs as root, as a user
 * with a capability (the file capability cap_sys_nice, the way gamescope
 * is installed, or one its parent passed on), or as a plain user. In the
 * second case its state directory is the user's $XDG_RUNTIME_DIR
 * (state_dir.h), which every process of that user may write: what fairway
 * reads back from there may be the user's own doing, so it is done with
 * the user's privileges and no more (hints.c), the kernel judging.
 */

/* Whether this process holds a capability while its uid is not root's. */
bool privilege_beyond_user(void);

/* The calling thread's effective capabilities, as privilege_drop saw them. */
struct privilege_saved {
	bool dropped;
	uint32_t effective[2];
};

/*
 * Drops CAP_SYS_NICE from the calling thread's effective set (capabilities
 * are per thread), keeping it permitted so that privilege_restore can
 * raise it again. True when the thread holds it no more (or never did).
 */
bool privilege_drop_nice(struct privilege_saved *saved);
void privilege_restore(const struct privilege_saved *saved);

#endif
