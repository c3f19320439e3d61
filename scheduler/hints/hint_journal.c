#include "scheduler/hints/hint_journal.h"
#include "scheduler/hints/state_dir.h"
#include "scheduler/log.h"
#include "scheduler/process/peer.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define JOURNAL_PREFIX "fairway-hints-"
#define GROUPS_PREFIX "fairway-groups-"
#define JOURNAL_SUFFIX ".journal"
#define JOURNAL_MAGIC "fairway-hints 1"

static void name_file(struct hint_journal_file *file, const char *prefix) {
	snprintf(file->name, sizeof(file->name), "%s%d" JOURNAL_SUFFIX, prefix,
			(int)getpid());
	snprintf(file->tmp_name, sizeof(file->tmp_name), "%s.tmp", file->name);
}

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
	name_file(&journal->threads_file, JOURNAL_PREFIX);
	name_file(&journal->groups_file, GROUPS_PREFIX);
	return journal;
}

void hint_journal_destroy(struct hint_journal *journal) {
	if (journal == NULL) {
		return;
	}
	/* What is left is kept for the next start to replay. */
	hint_journal_sync(journal);
	close(journal->dir_fd);
	free(journal->entries);
	free(journal->groups);
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
	journal->threads_file.dirty = true;
	return true;
}

void hint_journal_remove(struct hint_journal *journal, pid_t tid) {
	for (size_t i = 0; i < journal->count; i++) {
		if (journal->entries[i].tid == tid) {
			journal->entries[i] = journal->entries[--journal->count];
			journal->threads_file.dirty = true;
			return;
		}
	}
}

bool hint_journal_add_group(struct hint_journal *journal,
		const struct hint_journal_entry *entry,
		const struct hint_journal_group *group) {
	/* A path is the rest of its line: one that breaks it is refused. */
	if (entry->kind == HINT_JOURNAL_THREAD ||
			memchr(group->path, '\n', sizeof(group->path)) != NULL ||
			memchr(group->path, '\0', sizeof(group->path)) == NULL) {
		return false;
	}
	if (journal->group_count == journal->group_capacity) {
		size_t capacity =
				journal->group_capacity ? journal->group_capacity * 2 : 4;
		struct hint_journal_saved_group *groups =
				realloc(journal->groups, capacity * sizeof(*groups));
		if (groups == NULL) {
			return false;
		}
		journal->groups = groups;
		journal->group_capacity = capacity;
	}
	journal->groups[journal->group_count++] = (struct hint_journal_saved_group){
			.entry = *entry,
			.group = *group,
	};
	journal->groups_file.dirty = true;
	return true;
}

void hint_journal_remove_group(struct hint_journal *journal,
		enum hint_journal_kind kind, uint64_t id) {
	for (size_t i = 0; i < journal->group_count; i++) {
		if (journal->groups[i].entry.kind == kind &&
				journal->groups[i].group.id == id) {
			journal->groups[i] = journal->groups[--journal->group_count];
			journal->groups_file.dirty = true;
			return;
		}
	}
}

static void write_group(
		FILE *file, const struct hint_journal_saved_group *saved) {
	const struct hint_journal_entry *e = &saved->entry;
	const struct hint_journal_group *g = &saved->group;
	if (e->kind == HINT_JOURNAL_AUTOGROUP) {
		fprintf(file, "autogroup %d %" PRIu64 " %d %" PRIu64 " %" PRId32 "\n",
				(int)e->pid, e->start, (int)g->sid, g->id, g->nice);
	} else {
		fprintf(file, "cgroup %d %" PRIu64 " %" PRIu32 " %d %s\n", g->version,
				g->id, g->weight, g->idle, g->path);
	}
}

/* The header both files start with: the writer, to tell a live one. */
static void write_header(FILE *file) {
	uint64_t self_start = 0;
	peer_start_time(getpid(), getpid(), &self_start);
	fprintf(file, JOURNAL_MAGIC " %d %" PRIu64 "\n", (int)getpid(), self_start);
}

static void write_threads(struct hint_journal *journal, FILE *file) {
	for (size_t i = 0; i < journal->count; i++) {
		const struct hint_journal_entry *e = &journal->entries[i];
		fprintf(file,
				"%d %d %" PRIu64 " %" PRIu32 " %d %" PRId32 " %" PRIu64
				" %" PRId32 "\n",
				(int)e->pid, (int)e->tid, e->start, e->attr.policy,
				e->attr.reset_on_fork ? 1 : 0, e->attr.nice, e->attr.runtime_ns,
				e->attr.util_min);
	}
}

static void write_groups(struct hint_journal *journal, FILE *file) {
	for (size_t i = 0; i < journal->group_count; i++) {
		write_group(file, &journal->groups[i]);
	}
}

/*
 * The file the entries are written to before it is renamed into place.
 * Never through a symlink, and never one that was there before: a stale
 * one (a crash mid-write) is removed, the link and not what it names.
 */
static int open_tmp(struct hint_journal *journal, const char *tmp_name) {
	int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd = openat(journal->dir_fd, tmp_name, flags, 0600);
	if (fd < 0 && errno == EEXIST &&
			unlinkat(journal->dir_fd, tmp_name, 0) == 0) {
		fd = openat(journal->dir_fd, tmp_name, flags, 0600);
	}
	return fd;
}

/* Writes one file if it changed: removed when it holds nothing. */
static bool sync_file(struct hint_journal *journal, struct hint_journal_file *f,
		size_t count, void (*write)(struct hint_journal *journal, FILE *file)) {
	if (!f->dirty) {
		return true;
	}
	if (count == 0) {
		unlinkat(journal->dir_fd, f->name, 0);
		f->dirty = false;
		return true;
	}
	/* Written aside and renamed, so a crash leaves the old or the new. */
	int fd = open_tmp(journal, f->tmp_name);
	FILE *file = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (file == NULL) {
		sched_log(SCHED_LOG_ERROR, "Cannot write the hint journal %s: %s",
				f->tmp_name, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		return false;
	}
	write_header(file);
	write(journal, file);
	bool ok = fflush(file) == 0 && fsync(fileno(file)) == 0 && !ferror(file);
	ok = fclose(file) == 0 && ok;
	if (ok &&
			renameat(journal->dir_fd, f->tmp_name, journal->dir_fd, f->name) !=
					0) {
		ok = false;
	}
	if (!ok) {
		sched_log(SCHED_LOG_ERROR, "Cannot write the hint journal %s", f->name);
		unlinkat(journal->dir_fd, f->tmp_name, 0);
	}
	f->dirty = !ok;
	return ok;
}

bool hint_journal_sync(struct hint_journal *journal) {
	bool threads = sync_file(
			journal, &journal->threads_file, journal->count, write_threads);
	bool groups = sync_file(
			journal, &journal->groups_file, journal->group_count, write_groups);
	return threads && groups;
}

/* A group's line; false if it is not one, or not well formed. */
static bool parse_group(const char *line, struct hint_journal_entry *e,
		struct hint_journal_group *g) {
	int pid, sid, used = 0;
	*e = (struct hint_journal_entry){.group = g};
	*g = (struct hint_journal_group){.idle = -1};
	if (sscanf(line, "autogroup %d %" SCNu64 " %d %" SCNu64 " %" SCNd32 "%n",
				&pid, &e->start, &sid, &g->id, &g->nice, &used) == 5 &&
			used > 0) {
		e->kind = HINT_JOURNAL_AUTOGROUP;
		e->pid = e->tid = pid;
		g->sid = sid;
		return pid > 0 && sid > 0;
	}
	if (sscanf(line, "cgroup %d %" SCNu64 " %" SCNu32 " %d %n", &g->version,
				&g->id, &g->weight, &g->idle, &used) == 4 &&
			used > 0) {
		e->kind = HINT_JOURNAL_CGROUP;
		snprintf(g->path, sizeof(g->path), "%s", line + used);
		g->path[strcspn(g->path, "\n")] = '\0';
		return (g->version == 1 || g->version == 2) && g->path[0] == '/';
	}
	return false;
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

/* A journal left unread, and why: never without a word. */
static int skip_file(const char *name, const char *why, int fd,
		struct hint_journal_report *report) {
	if (why != NULL) {
		sched_log(SCHED_LOG_ERROR, "hints: journal %s not replayed: %s", name,
				why);
	}
	if (report != NULL) {
		report->journals_skipped++;
	}
	if (fd >= 0) {
		close(fd);
	}
	return 0;
}

static int replay_file(int dir_fd, const char *name,
		hint_journal_restore_func restore, void *data,
		struct hint_journal_report *report) {
	/* O_NONBLOCK: a FIFO planted under the name must not block us. */
	int fd = openat(dir_fd, name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return skip_file(name,
				errno == ELOOP ? "a symbolic link; fairway never wrote it"
							   : strerror(errno),
				-1, report);
	}
	if (!state_dir_file_trusted(fd, name)) {
		/* (Which said why.) */
		return skip_file(name, NULL, fd, report);
	}
	FILE *file = fdopen(fd, "r");
	if (file == NULL) {
		return skip_file(name, strerror(errno), fd, report);
	}
	/* Room for a group's path (hint_journal_group). */
	char line[HINT_JOURNAL_PATH_MAX + 128];
	if (fgets(line, sizeof(line), file) == NULL ||
			strncmp(line, JOURNAL_MAGIC, strlen(JOURNAL_MAGIC)) != 0) {
		fclose(file);
		return skip_file(name, "no journal header", -1, report);
	}
	if (writer_alive(line)) {
		fclose(file);
		sched_log(SCHED_LOG_INFO,
				"hints: journal %s is a running fairway's: left to it", name);
		if (report != NULL) {
			report->journals_live++;
		}
		return 0;
	}
	int count = 0;
	for (int lines = 0; lines < MAX_REPLAYED_LINES &&
			fgets(line, sizeof(line), file) != NULL;
			lines++) {
		struct hint_journal_entry entry;
		struct hint_journal_group group;
		if (parse_entry(line, &entry) || parse_group(line, &entry, &group)) {
			restore(&entry, data);
			count++;
		}
	}
	fclose(file);
	unlinkat(dir_fd, name, 0);
	return count;
}

/* Whether name is one of a journal's files: PREFIX...SUFFIX. */
static bool journal_name(const char *name, const char *prefix) {
	size_t len = strlen(name), pre = strlen(prefix),
		   suffix = strlen(JOURNAL_SUFFIX);
	return len > pre + suffix && strncmp(name, prefix, pre) == 0 &&
			strcmp(name + len - suffix, JOURNAL_SUFFIX) == 0;
}

int hint_journal_replay(
		const char *dir, hint_journal_restore_func restore, void *data) {
	return hint_journal_replay_report(dir, restore, data, NULL);
}

int hint_journal_replay_report(const char *dir,
		hint_journal_restore_func restore, void *data,
		struct hint_journal_report *report) {
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
	while ((ent = readdir(d)) != NULL) {
		if (journal_name(ent->d_name, JOURNAL_PREFIX) ||
				journal_name(ent->d_name, GROUPS_PREFIX)) {
			count += replay_file(dir_fd, ent->d_name, restore, data, report);
		}
	}
	closedir(d);
	close(dir_fd);
	return count;
}
