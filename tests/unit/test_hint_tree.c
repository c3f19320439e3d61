#include "scheduler/hints/hints.h"
#include "scheduler/log.h"
#include "scheduler/process/proc_stat.h"
#include "tests/unit/check.h"
#include "tests/unit/family.h"
#include "tests/unit/test_log.h"
#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * An application's processes (scheduler/hints/hint_tree.h) through the hints,
 * on real processes with the clock in the test's hands: children and
 * grandchildren in the client's session get its class, a child that
 * called setsid(), one of another uid and one that exited do not; the
 * caps on processes and threads; walks only with a token to spare, and
 * paid for only when they find something; a child that changes uid is
 * given back what it had; a pid reused by a stranger is never touched.
 *
 * The classes here use only what needs no privilege and every kernel
 * has: interactive is SCHED_BATCH, so a thread is hinted exactly when its
 * policy is SCHED_BATCH with SCHED_FLAG_RESET_ON_FORK (a child of a
 * hinted thread inherits SCHED_BATCH, but the kernel clears the flag).
 */

#define S INT64_C(1000000000)
#define MS INT64_C(1000000)

static char dir[] = "/tmp/fw-hint-tree-XXXXXX";
static bool root_user;

static struct hints *make_hints(int burst, int64_t refill_ns) {
	struct hints_config config;
	hints_config_default(&config);
	config.burst = burst;
	config.refill_ns = refill_ns;
	config.targets[RATINGS_INTERACTIVE] = (struct hints_target){
			.policy = SCHED_BATCH,
			.uclamp_min = -1,
	};
	config.targets[RATINGS_OUTPUT] = (struct hints_target){
			.policy = SCHED_OTHER,
			.slice_ns = 1000 * 1000,
			.uclamp_min = -1,
	};
	struct hints *hints = hints_create(&config, dir);
	CHECK(hints != NULL);
	return hints;
}

/* How many of pid's threads are hinted, and (others) are not. */
static int batch_threads_of(pid_t pid, int *others) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	CHECK(d != NULL);
	int batch = 0, other = 0;
	struct dirent *ent;
	while ((ent = readdir(d)) != NULL) {
		struct hint_attr attr;
		if (ent->d_name[0] != '.' && hint_attr_get(atoi(ent->d_name), &attr)) {
			bool batch_flagged =
					attr.policy == SCHED_BATCH && attr.reset_on_fork;
			batch += batch_flagged;
			other += !batch_flagged;
		}
	}
	closedir(d);
	if (others != NULL) {
		*others = other;
	}
	return batch;
}

static int batch_threads(pid_t pid) {
	return batch_threads_of(pid, NULL);
}

/* Whether every thread of pid is hinted; false if none is. */
static bool hinted(pid_t pid) {
	int others;
	int batch = batch_threads_of(pid, &others);
	CHECK(batch == 0 || others == 0);
	return batch > 0;
}

/* The family's root, as a client's application. */
static struct hints_app *root_app(struct hints *hints, struct family *family) {
	struct hints_app *proc =
			hints_app_create(hints, family->root, -1, geteuid());
	CHECK(proc != NULL);
	return proc;
}

static void wait_zombie(pid_t pid) {
	struct proc_stat stat;
	for (int i = 0; i < 2000; i++) {
		if (proc_stat_read(PROC_ROOT, pid, pid, &stat) && stat.state == 'Z') {
			return;
		}
		usleep(1000);
	}
	CHECK(!"never a zombie");
}

static bool member(struct hints_app *proc, pid_t pid) {
	return hint_tree_find(&proc->tree, pid) != NULL;
}

/* Children and grandchildren in the session get the class; others not. */
static void test_application(void) {
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	pid_t grandchild;
	pid_t child = family_child(&family, FAMILY_SLEEPER, 2, NULL);
	pid_t parent = family_child(&family, FAMILY_GRANDPARENT, 0, &grandchild);
	pid_t own_session = family_child(&family, FAMILY_SETSID, 0, NULL);
	pid_t exited = family_child(&family, FAMILY_EXITS, 0, NULL);
	pid_t other_uid =
			root_user ? family_child(&family, FAMILY_OTHER_UID, 0, NULL) : 0;
	wait_zombie(exited);

	struct hints_app *proc = root_app(hints, &family);
	CHECK(proc != NULL);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(hinted(family.root));
	CHECK(hinted(child));
	CHECK(hinted(parent));
	CHECK(hinted(grandchild));
	CHECK(!hinted(own_session));
	CHECK(!member(proc, own_session));
	CHECK(!member(proc, exited));
	CHECK_INT(proc->tree.count, 4);
	if (root_user) {
		CHECK(!hinted(other_uid));
		CHECK(!member(proc, other_uid));
		CHECK_INT(proc->tree.outsiders, 1);
	}

	/* As --stats shows it. */
	char json[2048], want[64];
	CHECK(hints_app_json(proc, json, sizeof(json)) < (int)sizeof(json));
	CHECK(strstr(json, "\"hint_class\":\"interactive\",\"scope\":\"tree\"") !=
			NULL);
	snprintf(want, sizeof(want),
			"{\"process\":%d,\"threads\":3,\"hinted\":true}", (int)child);
	CHECK(strstr(json, want) != NULL);
	CHECK(strstr(json, "\"untracked\":0") != NULL);
	/* A buffer too small is not overrun, and says what it needed. */
	char small[16];
	CHECK(hints_app_json(proc, small, sizeof(small)) == (int)strlen(json));
	CHECK(strlen(small) == sizeof(small) - 1);

	/* A new child gets the class at the next walk, a second on. */
	pid_t late = family_child(&family, FAMILY_SLEEPER, 1, NULL);
	hints_app_update(proc, 500 * MS);
	CHECK(!hinted(late));
	hints_app_update(proc, 1 * S);
	CHECK(hinted(late));

	/* Narrowed to the client's own process, the rest get theirs back. */
	hints_app_set_single(proc, true);
	hints_app_update(proc, 2 * S);
	CHECK(hinted(family.root));
	CHECK(!hinted(child) && !hinted(late) && !hinted(grandchild));
	CHECK_INT(proc->tree.count, 1);
	hints_app_set_single(proc, false);
	hints_app_update(proc, 3 * S);
	CHECK(hinted(child) && hinted(late) && hinted(grandchild));

	/* Idle is every original back; so is the end. */
	hints_app_set_class(proc, RATINGS_IDLE, 4 * S);
	CHECK(!hinted(family.root) && !hinted(child) && !hinted(grandchild));
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 5 * S);
	CHECK(hinted(child));
	hints_destroy(hints);
	CHECK(!hinted(family.root) && !hinted(child) && !hinted(late));
	/* late was started by a hinted root: what it inherited is undone. */
	struct hint_attr attr;
	CHECK(hint_attr_get(late, &attr));
	CHECK_INT(attr.policy, SCHED_OTHER);
	CHECK_INT(hints_replay(dir), 0);
	family_stop(&family);
}

/* Past HINT_TREE_PROCS_MAX processes the rest keep what they have. */
static void test_process_cap(void) {
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	enum { CHILDREN = 199 };
	pid_t children[CHILDREN];
	for (int i = 0; i < CHILDREN; i++) {
		children[i] = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	}
	struct hints_app *proc = root_app(hints, &family);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	int count = hinted(family.root);
	for (int i = 0; i < CHILDREN; i++) {
		count += hinted(children[i]);
	}
	CHECK_INT(count, HINT_TREE_PROCS_MAX);
	CHECK_INT(proc->tree.count, HINT_TREE_PROCS_MAX);
	CHECK_INT(proc->tree.untracked, CHILDREN + 1 - HINT_TREE_PROCS_MAX);
	/* Walks after do not creep past the cap. */
	hints_app_update(proc, 1 * S);
	hints_app_update(proc, 2 * S);
	CHECK_INT(proc->tree.count, HINT_TREE_PROCS_MAX);
	hints_destroy(hints);
	for (int i = 0; i < CHILDREN; i++) {
		CHECK(!hinted(children[i]));
	}
	family_stop(&family);
}

/* Threads counted over the processes of the application, to its cap. */
static void test_thread_cap(void) {
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	enum { CHILDREN = 5, THREADS = 250 };
	pid_t children[CHILDREN];
	for (int i = 0; i < CHILDREN; i++) {
		children[i] = family_child(&family, FAMILY_SLEEPER, THREADS - 1, NULL);
	}
	struct hints_app *proc = root_app(hints, &family);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(hint_tree_thread_count(&proc->tree), HINT_TREE_THREADS_MAX);
	/* The root's one thread, four children's 250: the fifth gets 23. */
	int count = batch_threads(family.root);
	for (int i = 0; i < CHILDREN; i++) {
		count += batch_threads(children[i]);
	}
	CHECK_INT(count, HINT_TREE_THREADS_MAX);
	hints_destroy(hints);
	for (int i = 0; i < CHILDREN; i++) {
		CHECK_INT(batch_threads(children[i]), 0);
	}
	family_stop(&family);
}

/*
 * Walks come at most each walk_ns, only with a token in the bucket, and
 * take one only when they find something to hint.
 */
static void test_walk_rate_limit(void) {
	struct hints *hints = make_hints(1, 10 * S);
	struct family family;
	family_start(&family, true);
	struct hints_app *proc = root_app(hints, &family);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	pid_t child = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	hints_app_update(proc, 1 * S);
	CHECK(!member(proc, child));
	hints_app_update(proc, 10 * S);
	CHECK(member(proc, child));
	CHECK(hinted(child));
	hints_destroy(hints);

	/* A walk that finds nothing new is free: the class change after it
	 * still finds its token. */
	hints = make_hints(4, 100 * S);
	proc = root_app(hints, &family);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	for (int i = 1; i <= 5; i++) {
		hints_app_update(proc, i * S);
	}
	CHECK(proc->walked_ns == 5 * S);
	hints_app_set_class(proc, RATINGS_OUTPUT, 6 * S);
	CHECK_INT(proc->applied, RATINGS_OUTPUT);
	CHECK(!hinted(child));
	/* And none more often than walk_ns. */
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 7 * S);
	pid_t late = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	CHECK_INT(proc->applied, RATINGS_INTERACTIVE);
	hints_app_update(proc, 7 * S + 500 * MS);
	CHECK(!member(proc, late));
	hints_app_update(proc, 8 * S);
	CHECK(member(proc, late));
	CHECK(hinted(late));
	hints_destroy(hints);
	family_stop(&family);
}

/* A member that changes uid is given back what it had, and leaves. */
static void test_uid_change(void) {
	if (!root_user) {
		fprintf(stderr, "not root: no uid to change to; skipped\n");
		return;
	}
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	pid_t child = family_child(&family, FAMILY_UID_ON_SIGNAL, 0, NULL);
	struct hints_app *proc = root_app(hints, &family);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(hinted(child));
	kill(child, SIGUSR1);
	family_wait_uid(child, 65534);
	hints_app_update(proc, 1 * S);
	CHECK(!hinted(child));
	CHECK(!member(proc, child));
	/* Nor is it taken back later. */
	hints_app_update(proc, 2 * S);
	CHECK(!member(proc, child));
	CHECK_INT(proc->tree.outsiders, 1);
	hints_destroy(hints);
	CHECK(!hinted(child));
	family_stop(&family);
}

/*
 * A member exits and its pid goes to a stranger (a process outside the
 * application): the stranger is never touched. The same pid given to a
 * new child of the application is a new member, with its own originals.
 */
static void test_reused_pid(void) {
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	pid_t child = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	struct hints_app *proc = root_app(hints, &family);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(hinted(child));
	family_kill(&family, child);

	pid_t stranger = -1;
	for (int tries = 0; tries < 20 && stranger != child; tries++) {
		if (stranger > 0) {
			kill(stranger, SIGKILL);
			waitpid(stranger, NULL, 0);
		}
		if (!family_next_pid(child)) {
			break;
		}
		stranger = fork();
		CHECK(stranger >= 0);
		if (stranger == 0) {
			for (;;) {
				pause();
			}
		}
	}
	if (stranger != child) {
		fprintf(stderr, "pid reuse not forced (no ns_last_pid); skipped\n");
		if (stranger > 0) {
			kill(stranger, SIGKILL);
			waitpid(stranger, NULL, 0);
		}
		hints_destroy(hints);
		family_stop(&family);
		return;
	}
	hints_app_update(proc, 1 * S);
	CHECK(!member(proc, stranger));
	CHECK(!hinted(stranger));
	hints_app_set_class(proc, RATINGS_OUTPUT, 2 * S);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 3 * S);
	CHECK(!hinted(stranger));
	kill(stranger, SIGKILL);
	waitpid(stranger, NULL, 0);

	/* The application's own new child on the same pid. */
	pid_t again;
	if (family_child_at(&family, child, &again)) {
		hints_app_update(proc, 4 * S);
		CHECK(member(proc, again));
		CHECK(hinted(again));
		hints_app_set_class(proc, RATINGS_IDLE, 5 * S);
		CHECK(!hinted(again));
	}
	hints_destroy(hints);
	CHECK_INT(hints_replay(dir), 0);
	family_stop(&family);
}

/* A child that exits during its change is undone; the rest carry on. */
static pid_t victim;

static void kill_child_during_change(
		struct hints_app *proc, pid_t tid, void *data) {
	struct family *family = data;
	if (tid == victim) {
		family_kill(family, victim);
	}
}

static void test_child_exits_mid_change(void) {
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	pid_t other = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	victim = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	struct hints_app *proc = root_app(hints, &family);
	hints->after_change = kill_child_during_change;
	hints->after_change_data = &family;
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(!proc->gone);
	CHECK_INT(hints->undone, 1);
	CHECK(hinted(family.root));
	CHECK(hinted(other));
	hints_app_update(proc, 1 * S);
	CHECK(!member(proc, victim));
	hints_destroy(hints);
	CHECK_INT(hints_replay(dir), 0);
	family_stop(&family);
}

/*
 * A descendant that connects on its own is its own application: the one
 * that held it gives it back before the new one saves what it has.
 */
static void test_own_client(void) {
	struct hints *hints = make_hints(4, 2 * S);
	struct family family;
	family_start(&family, true);
	pid_t grandchild;
	pid_t child = family_child(&family, FAMILY_GRANDPARENT, 0, &grandchild);
	struct hints_app *app = root_app(hints, &family);
	hints_app_set_class(app, RATINGS_INTERACTIVE, 0);
	CHECK(hinted(child) && hinted(grandchild));
	struct hints_app *own = hints_app_create(hints, child, -1, geteuid());
	CHECK(own != NULL);
	CHECK(!hinted(child));
	CHECK(!hinted(grandchild));
	hints_app_set_class(own, RATINGS_OUTPUT, 1 * S);
	hints_app_update(app, 2 * S);
	CHECK(!member(app, child) && !member(app, grandchild));
	CHECK(member(own, grandchild));
	CHECK(hinted(family.root));
	CHECK(!hinted(child) && !hinted(grandchild));
	/* Given back, they are the originals, not the other's class. */
	hints_app_destroy(own);
	struct hint_attr attr;
	CHECK(hint_attr_get(child, &attr));
	CHECK_INT(attr.policy, SCHED_OTHER);
	hints_destroy(hints);
	CHECK_INT(hints_replay(dir), 0);
	family_stop(&family);
}

int main(void) {
	test_log_init();
	CHECK(mkdtemp(dir) != NULL);
	root_user = geteuid() == 0;
	RUN_TEST(test_application);
	RUN_TEST(test_process_cap);
	RUN_TEST(test_thread_cap);
	RUN_TEST(test_walk_rate_limit);
	RUN_TEST(test_uid_change);
	RUN_TEST(test_reused_pid);
	RUN_TEST(test_child_exits_mid_change);
	RUN_TEST(test_own_client);
	rmdir(dir);
	return 0;
}
