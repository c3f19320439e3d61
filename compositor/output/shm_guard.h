#ifndef FAIRWAY_COMPOSITOR_OUTPUT_SHM_GUARD_H
#define FAIRWAY_COMPOSITOR_OUTPUT_SHM_GUARD_H

#include <stdbool.h>
#include <stddef.h>

struct fw_paint_source;

/*
 * A client's shm pool is a file it can truncate under the compositor: a
 * read past the file's new end raises SIGBUS. fairway's wl_shm (shm.h)
 * guards reads made inside a buffer's data access
 * (wlr_buffer_begin_data_ptr_access), on the thread that opened it.
 * fairway reads its paint jobs' sources outside any access, on the paint
 * worker, which may call nothing of wlroots, and on the main thread alike,
 * under a guard of its own: a fault in a range it reads gets zero pages
 * mapped over that range, the read carries on, and the source is marked
 * faulted for the main thread to disconnect its client with a protocol
 * error. Any other SIGBUS goes to the handler this one stacked itself
 * above.
 */

/*
 * Before each job is run or handed over, after its sources' data accesses:
 * puts the guard on top of whatever handler is installed now (fairway's
 * wl_shm's, installed once, sees a fault first otherwise and passes on
 * what is not its own). Returns false if the handler cannot be installed.
 */
bool fw_shm_guard_arm(void);

/* The calling thread: guards these sources' data until fw_shm_guard_leave. */
void fw_shm_guard_enter(struct fw_paint_source *const *sources, size_t count);
void fw_shm_guard_leave(void);

#endif
