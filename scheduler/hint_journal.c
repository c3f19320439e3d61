#include "scheduler/hint_journal.h"
#include "scheduler/log.h"
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

bool hint_proc_start_time(pid_t pid, pid_t tid, uint64_t *start) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	FILE *file = fopen(path, "re");
	if (file == NULL) {
		return false;
	}
	char buf[1024];
	size_t len = fread(buf, 1, sizeof(buf) - 1, file);
	fclose(file);
	buf[len] = '\0';
	/* The command name may hold spaces and parentheses: skip to the last. */
	char *p = strrchr(buf, ')');
	if (p == NULL) {
		return false;
	}
	p++;
	/* Fields 3 to 21 precede the start time (field 22). */
	for (int field = 3; field <= 22; field++) {
		while (*p == ' ') {
			p++;
		}
		if (field == 22) {
			char *end;
			errno = 0;
			unsigned long long value = strtoull(p, &end, 10);
			if (errno != 0 || end == p) {
				return false;
			}
			*start = value;
			return true;
		}
		p = strchr(p, ' ');
		if (p == NULL) {
			return false;
		}
	}
	return false;
}

static char *journal_path(const char *dir, pid_t pid) {
	char *path = NULL;
	if (asprintf(&path, "%s/" JOURNAL_PREFIX "%d" JOURNAL_SUFFIX, dir,
				(int)pid) < 0) {
		return NULL;
	}
	return path;
}

struct hint_journal *hint_journal_create(const char *dir) {
	struct hint_journal *journal = calloc(1, sizeof(*journal));
	if (journal == NULL) {
		return NULL;
	}
	journal->path = journal_path(dir, getpid());
	if (journal->path == NULL) {
		free(journal);
		return NULL;
	}
	return journal;
}

void hint_journal_destroy(struct hint_journal *journal) {
	if (journal == NULL) {
		return;
	}
	if (journal->count == 0) {
		unlink(journal->path);
	} else {
		/* Kept for the next start to replay. */
		hint_journal_sync(journal);
	}
	free(journal->entries);
	free(journal->path);
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
	hint_proc_start_time(getpid(), getpid(), &self_start);
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

bool hint_journal_sync(struct hint_journal *journal) {
	if (!journal->dirty) {
		return true;
	}
	if (journal->count == 0) {
		unlink(journal->path);
		journal->dirty = false;
		return true;
	}
	/* Written aside and renamed, so a crash leaves the old or the new. */
	char *tmp = NULL;
	if (asprintf(&tmp, "%s.tmp", journal->path) < 0) {
		return false;
	}
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (file == NULL) {
		sched_log(SCHED_LOG_ERROR, "Cannot write the hint journal %s: %s", tmp,
				strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		free(tmp);
		return false;
	}
	bool ok = write_entries(journal, file);
	ok = fclose(file) == 0 && ok;
	if (ok && rename(tmp, journal->path) != 0) {
		ok = false;
	}
	if (!ok) {
		sched_log(SCHED_LOG_ERROR, "Cannot write the hint journal %s",
				journal->path);
		unlink(tmp);
	}
	free(tmp);
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
	return hint_proc_start_time(pid, pid, &now_start) && now_start == start;
}

static int replay_file(
		const char *path, hint_journal_restore_func restore, void *data) {
	FILE *file = fopen(path, "re");
	if (file == NULL) {
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
	while (fgets(line, sizeof(line), file) != NULL) {
		struct hint_journal_entry entry;
		if (parse_entry(line, &entry)) {
			restore(&entry, data);
			count++;
		}
	}
	fclose(file);
	unlink(path);
	return count;
}

int hint_journal_replay(
		const char *dir, hint_journal_restore_func restore, void *data) {
	DIR *d = opendir(dir);
	if (d == NULL) {
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
		char *path = NULL;
		if (asprintf(&path, "%s/%s", dir, ent->d_name) < 0) {
			continue;
		}
		count += replay_file(path, restore, data);
		free(path);
	}
	closedir(d);
	return count;
}
