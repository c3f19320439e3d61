#include "scheduler/hint_journal.h"
#include "tests/unit/check.h"
#include <signal.h>
#include <stdio.h>
#include <string.h>
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
	CHECK(hint_proc_start_time(getpid(), getpid(), &a));
	CHECK(hint_proc_start_time(getpid(), getpid(), &b));
	CHECK(a == b && a > 0);
	CHECK(!hint_proc_start_time(getpid(), 1, &a));
}

int main(void) {
	CHECK(mkdtemp(dir) != NULL);
	test_live_then_dead();
	test_empty_leaves_nothing();
	test_start_time();
	rmdir(dir);
	return 0;
}
