#include "scheduler/hint_journal.h"
#include "scheduler/log.h"
#include "scheduler/peer.h"
#include "scheduler/state_dir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JOURNAL_PREFIX "fairway-hints-"
#define JOURNAL_SUFFIX ".journal"
#define JOURNAL_MAGIC "fairway-hints 1"

struct hint_journal *hint_journal_create(const char *dir) {
	struct hint_journal *journal = calloc(1, sizeof(*journal));
	if (journal == NULL) {
		return NULL;
	}
	journal->dir_fd = state_dir_open(dir);
	if (journal->dir_fd < 0) {
		free(journal);
		return NULL;
	}
	snprintf(journal->name, sizeof(journal->name),
			JOURNAL_PREFIX "%d" JOURNAL_SUFFIX, (int)getpid());
	snprintf(journal->tmp_name, sizeof(journal->tmp_name), "%s.tmp",
			journal->name);
	return journal;
}

void hint_journal_destroy(struct hint_journal *journal) {
	if (journal == NULL) {
		return;
	}
	if (journal->count == 0) {
		unlinkat(journal->dir_fd, journal->name, 0);
	} else {
		/* Kept for the next start to replay. */
		hint_journal_sync(journal);
	}
	close(journal->dir_fd);
	free(journal->entries);
	free(journal);
}

bool hint_journal_add(
		struct hint_journal *journal, const struct hint_journal_entry *entry) {
	if (journal->count == journal->capacity) {
		size_t capacity = journal->capacity ? journal->capacity * 2 : 16;
		struct hint_journal_entry *entries =
				realloc(journal->entries, capacity * sizeof(*entries));
		if (entries == NULL) {
			return false;
		}
		journal->entries = entries;
		journal->capacity = capacity;
	}
	journal->entries[journal->count++] = *entry;
	journal->dirty = true;
	return true;
}

void hint_journal_remove(struct hint_journal *journal, pid_t tid) {
	for (size_t i = 0; i < journal->count; i++) {
		if (journal->entries[i].tid == tid) {
			journal->entries[i] = journal->entries[--journal->count];
			journal->dirty = true;
			return;
		}
	}
}

static bool write_entries(struct hint_journal *journal, FILE *file) {
	uint64_t self_start = 0;
	peer_start_time(getpid(), getpid(), &self_start);
	fprintf(file, JOURNAL_MAGIC " %d %" PRIu64 "\n", (int)getpid(), self_start);
	for (size_t i = 0; i < journal->count; i++) {
		const struct hint_journal_entry *e = &journal->entries[i];
		fprintf(file,
				"%d %d %" PRIu64 " %" PRIu32 " %d %" PRId32 " %" PRIu64
				" %" PRId32 "\n",
				(int)e->pid, (int)e->tid, e->start, e->attr.policy,
				e->attr.reset_on_fork ? 1 : 0, e->attr.nice, e->attr.runtime_ns,
				e->attr.util_min);
	}
	return fflush(file) == 0 && fsync(fileno(file)) == 0 && !ferror(file);
}

/*
 * The file the entries are written to before it is renamed into place.
 * Never through a symlink, and never one that was there before: a stale
 * one (a crash mid-write) is removed, the link and not what it names.
 */
static int open_tmp(struct hint_journal *journal) {
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(journal->dir_fd, journal->tmp_name, flags, 0600);
	if (fd < 0 && errno == EEXIST &&
			unlinkat(journal->dir_fd, journal->tmp_name, 0) == 0) {
		fd = openat(journal->dir_fd, journal->tmp_name, flags, 0600);
	}
	return fd;
}

bool hint_journal_sync(struct hint_journal *journal) {
	if (!journal->dirty) {
		return true;
	}
	if (journal->count == 0) {
		unlinkat(journal->dir_fd, journal->name, 0);
		journal->dirty = false;
		return true;
	}
	/* Written aside and renamed, so a crash leaves the old or the new. */
	int fd = open_tmp(journal);
	FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (file == NULL) {
		sched_log(SCHED_LOG_ERROR, "Cannot write the hint journal %s: %s",
				journal->tmp_name, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		return false;
	}
	bool ok = write_entries(journal, file);
	ok = fclose(file) == 0 && ok;
	if (ok &&
			renameat(journal->dir_fd, journal->tmp_name, journal->dir_fd,
					journal->name) != 0) {
		ok = false;
	}
	if (!ok) {
		sched_log(SCHED_LOG_ERROR, "Cannot write the hint journal %s",
				journal->name);
		unlinkat(journal->dir_fd, journal->tmp_name, 0);
	}
	journal->dirty = !ok;
	return ok;
}

static bool parse_entry(const char *line, struct hint_journal_entry *e) {
	int pid, tid, reset;
	*e = (struct hint_journal_entry){0};
	if (sscanf(line,
				"%d %d %" SCNu64 " %" SCNu32 " %d %" SCNd32 " %" SCNu64
				" %" SCNd32,
				&pid, &tid, &e->start, &e->attr.policy, &reset, &e->attr.nice,
				&e->attr.runtime_ns, &e->attr.util_min) != 8) {
		return false;
	}
	e->pid = pid;
	e->tid = tid;
	e->attr.reset_on_fork = reset != 0;
	return pid > 0 && tid > 0;
}

/* Whether the journal's writer (pid and start time) still runs. */
static bool writer_alive(const char *header) {
	int pid;
	uint64_t start, now_start;
	if (sscanf(header, JOURNAL_MAGIC " %d %" SCNu64, &pid, &start) != 2) {
		return false;
	}
	if (pid == getpid()) {
		return false;
	}
	return peer_start_time(pid, pid, &now_start) && now_start == start;
}

/* A journal holds one line per changed thread: far fewer than this. */
#define MAX_REPLAYED_LINES 65536

static int replay_file(int dir_fd, const char *name,
		hint_journal_restore_func restore, void *data) {
	/* O_NONBLOCK: a FIFO planted under the name must not block us. */
	int fd = openat(dir_fd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return 0;
	}
	if (!state_dir_file_trusted(fd, name)) {
		close(fd);
		return 0;
	}
	FILE *file = fdopen(fd, "r");
	if (file == NULL) {
		close(fd);
		return 0;
	}
	char line[256];
	if (fgets(line, sizeof(line), file) == NULL ||
			strncmp(line, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) != 0) {
		fclose(file);
		return 0;
	}
	if (writer_alive(line)) {
		fclose(file);
		return 0;
	}
	int count = 0;
	for (int lines = 0; lines < MAX_REPLAYED_LINES &&
			fgets(line, sizeof(line), file) != NULL;
			lines++) {
		struct hint_journal_entry entry;
		if (parse_entry(line, &entry)) {
			restore(&entry, data);
			count++;
		}
	}
	fclose(file);
	unlinkat(dir_fd, name, 0);
	return count;
}

int hint_journal_replay(
		const char *dir, hint_journal_restore_func restore, void *data) {
	int dir_fd = state_dir_open(dir);
	if (dir_fd < 0) {
		return -1;
	}
	int list_fd = dup(dir_fd);
	DIR *d = list_fd >= 0 ? fdopendir(list_fd) : NULL;
	if (d == NULL) {
		if (list_fd >= 0) {
			close(list_fd);
		}
		close(dir_fd);
		return -1;
	}
	int count = 0;
	struct dirent *ent;
	size_t prefix = strlen(JOURNAL_PREFIX), suffix = strlen(JOURNAL_SUFFIX);
	while ((ent = readdir(d)) != NULL) {
		size_t len = strlen(ent->d_name);
		if (len <= prefix + suffix ||
				strncmp(ent->d_name, JOURNAL_PREFIX, prefix) != 0 ||
				strcmp(ent->d_name + len - suffix, JOURNAL_SUFFIX) != 0) {
			continue;
		}
		count += replay_file(dir_fd, ent->d_name, restore, data);
	}
	closedir(d);
	close(dir_fd);
	return count;
}
