#ifndef FAIRWAY_COMPOSITOR_OUTPUT_SHM_GUARD_H
#define FAIRWAY_COMPOSITOR_OUTPUT_SHM_GUARD_H

#include <stdbool.h>
#include <stddef.h>

struct fw_paint_source;

/*
 * A client's shm pool is a file it can truncate under the compositor: a
 * read past the file's new end raises SIGBUS. libwayland guards reads made
 * between wl_shm_buffer_begin_access and end_access, on the thread that
 * made those calls only. The paint worker reads sources the main thread
 * locked for it, and may call nothing of libwayland's, so it has a guard
 * of its own: a fault in a range it reads gets zero pages mapped over that
 * range, as libwayland maps them over the pool, the read carries on, and
 * the source is marked faulted for the main thread to disconnect its
 * client. Any other SIGBUS goes to the handler this one stacked itself
 * above (libwayland's, once it installed one).
 */

/*
 * Main thread, before each job is handed over, after its sources' data
 * accesses: puts the guard on top of whatever handler is installed now.
 * libwayland installs its own lazily, in the first access to a pool that
 * can fault; a job's build makes that access for any source that can.
 * Returns false if the handler cannot be installed.
 */
bool fw_shm_guard_arm(void);

/* The worker: guards these sources' data until fw_shm_guard_leave. */
void fw_shm_guard_enter(struct fw_paint_source *const *sources, size_t count);
void fw_shm_guard_leave(void);

#endif
