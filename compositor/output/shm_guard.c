#include "compositor/output/shm_guard.h"
#include "compositor/output/paint_job.h"
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* The thread's scope: the sources it reads now. Read in the handler, so
 * thread-local and set only by the thread itself. */
static _Thread_local struct fw_paint_source *const *scope_sources;
static _Thread_local size_t scope_count;

/* Zero pages over the source's data: page-aligned, and inside the pool's
 * mapping, which starts on a page and ends on one. */
static bool map_zeros(struct fw_paint_source *source) {
	/* glibc answers from a value it read at start: no lock, no call. */
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t start = (uintptr_t)source->start & ~(page - 1);
	uintptr_t end =
			((uintptr_t)source->start + source->size + page - 1) & ~(page - 1);
	if (mmap((void *)start, end - start, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) == MAP_FAILED) {
		return false;
	}
	source->faulted = true;
	return true;
}

bool fw_shm_guard_handle(const siginfo_t *info) {
	if (scope_sources == NULL) {
		return false;
	}
	if (info->si_code <= 0) {
		/*
		 * Sent, not a fault: a handler above this one raised it again
		 * for a fault it does not know. Where it came from is lost:
		 * every client source read now gets zeros.
		 */
		bool mapped = true;
		for (size_t i = 0; i < scope_count; i++) {
			if (scope_sources[i]->owner != NULL) {
				mapped = map_zeros(scope_sources[i]) && mapped;
			}
		}
		return mapped;
	}
	const char *addr = info->si_addr;
	for (size_t i = 0; i < scope_count; i++) {
		struct fw_paint_source *source = scope_sources[i];
		if (source->owner != NULL && addr >= source->start &&
				addr < source->start + source->size) {
			return map_zeros(source);
		}
	}
	return false;
}

void fw_shm_guard_enter(struct fw_paint_source *const *sources, size_t count) {
	scope_count = count;
	scope_sources = sources;
}

void fw_shm_guard_leave(void) {
	scope_sources = NULL;
	scope_count = 0;
}
