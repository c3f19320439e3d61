#ifndef FAIRWAY_COMPOSITOR_OUTPUT_SHM_GUARD_H
#define FAIRWAY_COMPOSITOR_OUTPUT_SHM_GUARD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct fw_paint_source;

/*
 * A client's shm pool is a file it can truncate under the compositor: a
 * read past the file's new end raises SIGBUS. fairway reads its paint
 * jobs' sources outside any data access, on the paint worker, which may
 * call nothing of wlroots, and on the main thread alike, inside a scope
 * set here. The one SIGBUS handler, fairway's wl_shm's (shm.h), asks
 * fw_shm_guard_handle after its own data accesses: a fault in a range the
 * thread reads gets zero pages mapped over that range, the read carries
 * on, and the source is marked faulted for the main thread to disconnect
 * its client with a protocol error.
 */

/* The calling thread: guards these sources' data until fw_shm_guard_leave. */
void fw_shm_guard_enter(struct fw_paint_source *const *sources, size_t count);
void fw_shm_guard_leave(void);

/*
 * In the SIGBUS handler, on the faulting thread: true if the fault was in
 * its scope and is mended. A signal sent rather than raised by a fault
 * (si_code 0 or less) says no address: every client source of the scope
 * gets zeros.
 */
bool fw_shm_guard_handle(const siginfo_t *info);

#endif
