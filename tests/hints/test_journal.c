#include "scheduler/hints/hint_journal.h"
#include "scheduler/process/peer.h"
#include "tests/unit/check.h"
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct seen {
	int count;
	struct hint_journal_entry last;
};

static void record(const struct hint_journal_entry *entry, void *data) {
	struct seen *seen = data;
	seen->count++;
	seen->last = *entry;
}

static char dir[] = "/tmp/fw-journal-XXXXXX";

static int count_files(void) {
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "ls %s | grep -c journal", dir);
	FILE *p = popen(cmd, "r");
	int n = -1;
	CHECK(p != NULL && fscanf(p, "%d", &n) == 1);
	pclose(p);
	return n;
}

/* A child writes a journal then waits; its journal is live until it dies. */
static void test_live_then_dead(void) {
	int ready[2], hold[2];
	CHECK(pipe(ready) == 0 && pipe(hold) == 0);
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		close(hold[1]);
		close(ready[0]);
		struct hint_journal *j = hint_journal_create(dir);
		struct hint_journal_entry e = {
				.pid = 1234,
				.tid = 1235,
				.start = 99,
				.attr = {.policy = 3,
						.reset_on_fork = true,
						.nice = -7,
						.runtime_ns = 2000000,
						.util_min = -1},
		};
		hint_journal_add(j, &e);
		e.tid = 1236;
		hint_journal_add(j, &e);
		hint_journal_remove(j, 1236);
		if (!hint_journal_sync(j)) {
			_exit(1);
		}
		char c = 1;
		write(ready[1], &c, 1);
		read(hold[0], &c, 1);
		/* Crash: the journal stays. */
		_exit(0);
	}
	close(hold[0]);
	close(ready[1]);
	char c;
	CHECK_INT(read(ready[0], &c, 1), 1);
	CHECK_INT(count_files(), 1);
	struct seen seen = {0};
	CHECK_INT(hint_journal_replay(dir, record, &seen), 0);
	CHECK_INT(seen.count, 0);
	CHECK_INT(count_files(), 1);

	close(hold[1]);
	int status;
	CHECK_INT(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_INT(hint_journal_replay(dir, record, &seen), 1);
	CHECK_INT(seen.count, 1);
	CHECK_INT(seen.last.pid, 1234);
	CHECK_INT(seen.last.tid, 1235);
	CHECK_INT(seen.last.start, 99);
	CHECK_INT(seen.last.attr.policy, 3);
	CHECK(seen.last.attr.reset_on_fork);
	CHECK_INT(seen.last.attr.nice, -7);
	CHECK_INT(seen.last.attr.runtime_ns, 2000000);
	CHECK_INT(seen.last.attr.util_min, -1);
	CHECK_INT(count_files(), 0);
}

static void test_empty_leaves_nothing(void) {
	struct hint_journal *j = hint_journal_create(dir);
	struct hint_journal_entry e = {.pid = 5, .tid = 6, .start = 7};
	CHECK(hint_journal_add(j, &e));
	CHECK(hint_journal_sync(j));
	CHECK_INT(count_files(), 1);
	hint_journal_remove(j, 6);
	CHECK(hint_journal_sync(j));
	CHECK_INT(count_files(), 0);
	hint_journal_destroy(j);
	CHECK_INT(count_files(), 0);
}

static void test_start_time(void) {
	uint64_t a = 0, b = 0;
	CHECK(peer_start_time(getpid(), getpid(), &a));
	CHECK(peer_start_time(getpid(), getpid(), &b));
	CHECK(a == b && a > 0);
	CHECK(!peer_start_time(getpid(), 1, &a));
}

/* A journal of a writer that is gone (pid 1 never started at tick 0). */
static void plant(const char *name, mode_t mode, uid_t uid) {
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *file = fopen(path, "w");
	CHECK(file != NULL);
	fprintf(file, "fairway-hints 1 1 0\n%d %d 1 5 0 0 0 -1\n", (int)getpid(),
			(int)getpid());
	CHECK(fclose(file) == 0);
	CHECK(chmod(path, mode) == 0);
	CHECK(chown(path, uid, (gid_t)-1) == 0);
}

static bool exists(const char *name) {
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	struct stat st;
	return lstat(path, &st) == 0;
}

static void remove_file(const char *name) {
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK(unlink(path) == 0);
}

/*
 * Only fairway's own journals are replayed: a file another uid owns, one
 * others may read, a symlink or a FIFO are left alone (and not removed).
 * The replay does not block on the FIFO.
 */
static void test_replays_only_own_files(void) {
	struct seen seen = {0};
	bool root = geteuid() == 0;
	if (root) {
		plant("fairway-hints-101.journal", 0600, 65534);
	}
	plant("fairway-hints-102.journal", 0644, geteuid());
	char target[128], link[128], fifo[128];
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(link, sizeof(link), "%s/fairway-hints-103.journal", dir);
	snprintf(fifo, sizeof(fifo), "%s/fairway-hints-104.journal", dir);
	plant("target", 0600, geteuid());
	CHECK(symlink(target, link) == 0);
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK_INT(hint_journal_replay(dir, record, &seen), 0);
	CHECK_INT(seen.count, 0);
	CHECK(!root || exists("fairway-hints-101.journal"));
	CHECK(exists("fairway-hints-102.journal"));
	CHECK(exists("fairway-hints-103.journal"));
	CHECK(exists("fairway-hints-104.journal"));
	CHECK(exists("target"));
	if (root) {
		remove_file("fairway-hints-101.journal");
	}
	remove_file("fairway-hints-102.journal");
	remove_file("fairway-hints-103.journal");
	remove_file("fairway-hints-104.journal");
	/* The same file, fairway's own, is replayed. */
	remove_file("target");
	plant("fairway-hints-105.journal", 0600, geteuid());
	CHECK_INT(hint_journal_replay(dir, record, &seen), 1);
	CHECK_INT(seen.last.attr.policy, 5);
	CHECK(!exists("fairway-hints-105.journal"));
}

/* A planted .tmp symlink is removed, never written through. */
static void test_tmp_symlink_not_followed(void) {
	char target[128], tmp[128], name[64];
	snprintf(target, sizeof(target), "%s/precious", dir);
	snprintf(name, sizeof(name), "fairway-hints-%d.journal", (int)getpid());
	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", dir, name);
	FILE *file = fopen(target, "w");
	CHECK(file != NULL);
	fputs("precious\n", file);
	CHECK(fclose(file) == 0);
	CHECK(symlink(target, tmp) == 0);
	struct hint_journal *j = hint_journal_create(dir);
	CHECK(j != NULL);
	struct hint_journal_entry e = {.pid = 5, .tid = 6, .start = 7};
	CHECK(hint_journal_add(j, &e));
	CHECK(hint_journal_sync(j));
	char buf[64] = {0};
	file = fopen(target, "r");
	CHECK(file != NULL);
	CHECK(fgets(buf, sizeof(buf), file) != NULL);
	fclose(file);
	CHECK(strcmp(buf, "precious\n") == 0);
	struct stat st;
	char path[128];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	CHECK(lstat(path, &st) == 0 && S_ISREG(st.st_mode));
	CHECK_INT(st.st_mode & 07777, 0600);
	CHECK(lstat(tmp, &st) != 0);
	hint_journal_remove(j, 6);
	hint_journal_destroy(j);
	remove_file("precious");
	CHECK_INT(count_files(), 0);
}

/* A directory others may write, or another uid's, is no state dir. */
static void test_refuses_open_dirs(void) {
	struct seen seen = {0};
	CHECK(chmod(dir, 0777) == 0);
	CHECK(hint_journal_create(dir) == NULL);
	CHECK_INT(hint_journal_replay(dir, record, &seen), -1);
	CHECK(chmod(dir, 0720) == 0);
	CHECK(hint_journal_create(dir) == NULL);
	CHECK(chmod(dir, 0700) == 0);
	if (geteuid() == 0) {
		CHECK(chown(dir, 65534, (gid_t)-1) == 0);
		CHECK(hint_journal_create(dir) == NULL);
		CHECK_INT(hint_journal_replay(dir, record, &seen), -1);
		CHECK(chown(dir, 0, (gid_t)-1) == 0);
	}
	struct hint_journal *j = hint_journal_create(dir);
	CHECK(j != NULL);
	hint_journal_destroy(j);
}

/* Group records: what a stale journal held comes back whole, paths too. */
struct groups_seen {
	int threads, autogroups, cgroups;
	struct hint_journal_entry autogroup_entry;
	struct hint_journal_group autogroup, cgroup;
};

static void record_group(const struct hint_journal_entry *entry, void *data) {
	struct groups_seen *seen = data;
	if (entry->kind == HINT_JOURNAL_THREAD) {
		CHECK(entry->group == NULL);
		seen->threads++;
	} else if (entry->kind == HINT_JOURNAL_AUTOGROUP) {
		seen->autogroups++;
		seen->autogroup_entry = *entry;
		seen->autogroup = *entry->group;
	} else {
		seen->cgroups++;
		seen->cgroup = *entry->group;
	}
}

static void test_groups(void) {
	pid_t child = fork();
	CHECK(child >= 0);
	if (child == 0) {
		struct hint_journal *j = hint_journal_create(dir);
		struct hint_journal_entry thread = {.pid = 40, .tid = 41, .start = 9};
		struct hint_journal_entry autogroup = {.kind = HINT_JOURNAL_AUTOGROUP,
				.pid = 40,
				.tid = 40,
				.start = 9};
		struct hint_journal_group ag = {.sid = 40, .id = 77, .nice = 3};
		struct hint_journal_entry cgroup = {.kind = HINT_JOURNAL_CGROUP};
		struct hint_journal_group cg = {.id = 1234,
				.version = 2,
				.weight = 250,
				.idle = 0,
				.path = "/user.slice/app-my app.scope"};
		struct hint_journal_group other = cg;
		other.id = 99;
		struct hint_journal_group broken = cg;
		snprintf(broken.path, sizeof(broken.path), "/a\nthread 1 2 3");
		if (!hint_journal_add(j, &thread) ||
				!hint_journal_add_group(j, &autogroup, &ag) ||
				!hint_journal_add_group(j, &cgroup, &cg) ||
				!hint_journal_add_group(j, &cgroup, &other) ||
				hint_journal_add_group(j, &cgroup, &broken) ||
				hint_journal_add_group(j, &thread, &ag)) {
			_exit(1);
		}
		hint_journal_remove_group(j, HINT_JOURNAL_CGROUP, 99);
		/* An autogroup's id is not a cgroup's inode. */
		hint_journal_remove_group(j, HINT_JOURNAL_CGROUP, 77);
		_exit(hint_journal_sync(j) ? 0 : 1);
	}
	int status;
	CHECK_INT(waitpid(child, &status, 0), child);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* Groups in a file of their own, which older fairways never read (nor
	 * delete): the threads' file holds none of their lines. */
	char path[128], line[256];
	snprintf(path, sizeof(path), "%s/fairway-groups-%d.journal", dir,
			(int)child);
	CHECK(access(path, F_OK) == 0);
	snprintf(
			path, sizeof(path), "%s/fairway-hints-%d.journal", dir, (int)child);
	FILE *threads = fopen(path, "r");
	CHECK(threads != NULL);
	while (fgets(line, sizeof(line), threads) != NULL) {
		CHECK(strncmp(line, "autogroup", 9) != 0);
		CHECK(strncmp(line, "cgroup", 6) != 0);
	}
	fclose(threads);
	struct groups_seen seen = {0};
	CHECK_INT(hint_journal_replay(dir, record_group, &seen), 3);
	CHECK_INT(seen.threads, 1);
	CHECK_INT(seen.autogroups, 1);
	CHECK_INT(seen.cgroups, 1);
	CHECK_INT(seen.autogroup_entry.pid, 40);
	CHECK_INT(seen.autogroup_entry.start, 9);
	CHECK_INT(seen.autogroup.sid, 40);
	CHECK_INT(seen.autogroup.id, 77);
	CHECK_INT(seen.autogroup.nice, 3);
	CHECK_INT(seen.cgroup.id, 1234);
	CHECK_INT(seen.cgroup.version, 2);
	CHECK_INT(seen.cgroup.weight, 250);
	CHECK_INT(seen.cgroup.idle, 0);
	CHECK(strcmp(seen.cgroup.path, "/user.slice/app-my app.scope") == 0);
	CHECK_INT(count_files(), 0);

	/* Groups alone keep a journal on disk, and removing them takes it. */
	struct hint_journal *j = hint_journal_create(dir);
	struct hint_journal_entry autogroup = {
			.kind = HINT_JOURNAL_AUTOGROUP, .pid = 1, .tid = 1};
	struct hint_journal_group ag = {.sid = 1, .id = 5};
	CHECK(hint_journal_add_group(j, &autogroup, &ag));
	CHECK(hint_journal_sync(j));
	CHECK_INT(count_files(), 1);
	hint_journal_remove_group(j, HINT_JOURNAL_AUTOGROUP, 5);
	CHECK(hint_journal_sync(j));
	CHECK_INT(count_files(), 0);
	hint_journal_destroy(j);
}

int main(void) {
	CHECK(mkdtemp(dir) != NULL);
	test_live_then_dead();
	test_empty_leaves_nothing();
	test_start_time();
	test_replays_only_own_files();
	test_tmp_symlink_not_followed();
	test_refuses_open_dirs();
	test_groups();
	rmdir(dir);
	return 0;
}
