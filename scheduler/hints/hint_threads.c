#include "scheduler/hints/hint_threads.h"
#include "scheduler/process/peer.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

void hint_threads_init(struct hint_threads *threads) {
	*threads = (struct hint_threads){0};
}

void hint_threads_finish(struct hint_threads *threads) {
	free(threads->items);
	hint_threads_init(threads);
}

static int compare_tid(const void *a, const void *b) {
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;
	return (x > y) - (x < y);
}

/* The tids in /proc/pid/task, sorted; NULL if they cannot be read. */
static pid_t *read_tids(pid_t pid, size_t *count) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *dir = opendir(path);
	if (dir == NULL) {
		return NULL;
	}
	size_t capacity = 64, n = 0;
	pid_t *tids = malloc(capacity * sizeof(*tids));
	struct dirent *ent;
	while (tids != NULL && (ent = readdir(dir)) != NULL) {
		char *end;
		long tid = strtol(ent->d_name, &end, 10);
		if (*end != '\0' || tid <= 0 || tid > INT32_MAX) {
			continue;
		}
		if (n == capacity) {
			capacity *= 2;
			pid_t *grown = realloc(tids, capacity * sizeof(*tids));
			if (grown == NULL) {
				free(tids);
				tids = NULL;
				break;
			}
			tids = grown;
		}
		tids[n++] = (pid_t)tid;
	}
	closedir(dir);
	if (tids != NULL) {
		qsort(tids, n, sizeof(*tids), compare_tid);
	}
	*count = n;
	return tids;
}

/* Whether tid is tracked, and known to be the thread it was. */
static bool tracked(const struct hint_threads *threads, pid_t tid) {
	if (threads->count == 0) {
		return false;
	}
	const struct hints_thread *found = bsearch(&tid, threads->items,
			threads->count, sizeof(*threads->items), compare_tid);
	return found != NULL && !found->stale;
}

int hint_threads_scan(struct hint_threads *threads, pid_t pid, size_t max,
		hint_threads_gone_func gone, void *data) {
	size_t tid_count;
	pid_t *tids = read_tids(pid, &tid_count);
	if (tids == NULL) {
		return -1;
	}
	/* Known threads still there stay, whatever the cap: they may hold
	 * changes to give back. */
	size_t kept = 0;
	for (size_t i = 0, j = 0; i < threads->count && j < tid_count;) {
		if (threads->items[i].tid < tids[j]) {
			i++;
		} else if (threads->items[i].tid > tids[j]) {
			j++;
		} else {
			kept += !threads->items[i].stale;
			i++;
			j++;
		}
	}
	if (max > HINT_THREADS_MAX) {
		max = HINT_THREADS_MAX;
	}
	size_t room = kept < max ? max - kept : 0;
	/* The main thread first, wherever its tid falls (tids wrap around). */
	bool main_new = tid_count > 0 &&
			bsearch(&pid, tids, tid_count, sizeof(*tids), compare_tid) !=
					NULL &&
			!tracked(threads, pid);
	bool main_reserved = main_new && room > 0;
	if (main_reserved) {
		room--;
	}
	size_t most = kept + main_reserved + (room < tid_count ? room : tid_count);
	struct hints_thread *items = calloc(most > 0 ? most : 1, sizeof(*items));
	if (items == NULL) {
		free(tids);
		return -1;
	}
	size_t n = 0, i = 0, j = 0;
	int fresh = 0;
	threads->untracked = 0;
	while (i < threads->count || j < tid_count) {
		struct hints_thread *old =
				i < threads->count ? &threads->items[i] : NULL;
		pid_t tid = j < tid_count ? tids[j] : 0;
		if (old != NULL && (j == tid_count || old->tid < tid)) {
			/* Exited. */
			gone(old, data);
			i++;
			continue;
		}
		if (old != NULL && old->tid == tid && !old->stale) {
			items[n++] = *old;
			i++;
			j++;
			continue;
		}
		if (old != NULL && old->tid == tid) {
			/* Its tid no longer showed its start time: a new thread. */
			gone(old, data);
			i++;
		}
		j++;
		uint64_t start;
		bool main = tid == pid && main_reserved;
		if (room == 0 && !main) {
			threads->untracked++;
		} else if (peer_start_time(pid, tid, &start)) {
			items[n++] = (struct hints_thread){.tid = tid, .start = start};
			room -= main ? 0 : 1;
			fresh++;
		}
	}
	free(tids);
	free(threads->items);
	threads->items = items;
	threads->count = n;
	threads->capacity = most;
	return fresh;
}
