#include "scheduler/hints/hints.h"
#include "scheduler/log.h"
#include "scheduler/process/peer.h"
#include "tests/unit/check.h"
#include "tests/unit/family.h"
#include "tests/unit/test_log.h"
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Real processes and real sched_setattr: a child with several threads of
 * non-default attributes is hinted, and every thread is checked with
 * sched_getattr. Runs privileged (root) and, through setpriv, without
 * CAP_SYS_NICE; the expectations follow what hints_create detected.
 */

#define S INT64_C(1000000000)
#define MAX_THREADS 32

static char dir[] = "/tmp/fw-hints-XXXXXX";
static bool privileged = true;

struct child {
	pid_t pid;
	int cmd; /* write 'n': one more thread */
	int ack;
};

static void *sleeper(void *arg) {
	/* Attributes a thread did not get from us, to check they come back. */
	setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 2);
	int *ack = arg;
	char c = 1;
	write(*ack, &c, 1);
	for (;;) {
		pause();
	}
	return NULL;
}

static struct child start_child(int threads) {
	int cmd[2], ack[2];
	CHECK(pipe(cmd) == 0 && pipe(ack) == 0);
	struct child child = {.cmd = cmd[1], .ack = ack[0]};
	child.pid = fork();
	CHECK(child.pid >= 0);
	if (child.pid == 0) {
		close(cmd[1]);
		close(ack[0]);
		setpriority(PRIO_PROCESS, 0, 1);
		for (int i = 0; i < threads; i++) {
			pthread_t t;
			pthread_create(&t, NULL, sleeper, &ack[1]);
		}
		char c;
		while (read(cmd[0], &c, 1) == 1) {
			pthread_t t;
			pthread_create(&t, NULL, sleeper, &ack[1]);
		}
		_exit(0);
	}
	close(cmd[0]);
	close(ack[1]);
	for (int i = 0; i < threads; i++) {
		char c;
		CHECK_INT(read(child.ack, &c, 1), 1);
	}
	return child;
}

static void more_threads(struct child *child) {
	char c = 'n';
	CHECK_INT(write(child->cmd, &c, 1), 1);
	CHECK_INT(read(child->ack, &c, 1), 1);
}

static void stop_child(struct child *child) {
	kill(child->pid, SIGKILL);
	waitpid(child->pid, NULL, 0);
	close(child->cmd);
	close(child->ack);
}

struct snapshot {
	int count;
	pid_t tid[MAX_THREADS];
	struct hint_attr attr[MAX_THREADS];
};

static void snap(pid_t pid, struct snapshot *s) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	CHECK(d != NULL);
	s->count = 0;
	struct dirent *ent;
	while ((ent = readdir(d)) != NULL && s->count < MAX_THREADS) {
		if (ent->d_name[0] == '.') {
			continue;
		}
		s->tid[s->count] = atoi(ent->d_name);
		CHECK(hint_attr_get(s->tid[s->count], &s->attr[s->count]));
		s->count++;
	}
	closedir(d);
}

static void check_same(const struct snapshot *a, const struct snapshot *b) {
	CHECK_INT(a->count, b->count);
	for (int i = 0; i < a->count; i++) {
		CHECK_INT(a->tid[i], b->tid[i]);
		CHECK_INT(a->attr[i].policy, b->attr[i].policy);
		CHECK_INT(a->attr[i].nice, b->attr[i].nice);
		CHECK_INT(a->attr[i].runtime_ns, b->attr[i].runtime_ns);
		CHECK_INT(a->attr[i].util_min, b->attr[i].util_min);
		/* Clearing the fork flag needs CAP_SYS_NICE; set, it is harmless. */
		if (privileged || !b->attr[i].reset_on_fork) {
			CHECK_INT(a->attr[i].reset_on_fork, b->attr[i].reset_on_fork);
		}
	}
}

static void check_class(struct hints *hints, pid_t pid,
		const struct snapshot *orig, enum ratings_class class) {
	const struct hints_target *t = &hints->config.targets[class];
	struct snapshot now;
	snap(pid, &now);
	for (int i = 0; i < now.count; i++) {
		int32_t orig_nice = 2;
		for (int j = 0; j < orig->count; j++) {
			if (orig->tid[j] == now.tid[i]) {
				orig_nice = orig->attr[j].nice;
			}
		}
		/* SCHED_IDLE only where fairway may take it back (hints.c). */
		uint32_t policy = t->policy == SCHED_IDLE && !hints->cap_sys_nice
				? SCHED_BATCH
				: t->policy;
		CHECK_INT(now.attr[i].policy, policy);
		CHECK(now.attr[i].reset_on_fork);
		bool slices = hint_kernel_supports(&hints->kernel, HINT_PART_SLICE);
		CHECK_INT(now.attr[i].runtime_ns,
				t->slice_ns && slices ? t->slice_ns
									  : hints->kernel.base_slice_ns);
		/* Without privilege nice moves neither way (no way back down). */
		CHECK_INT(now.attr[i].nice,
				hints->cap_sys_nice && t->set_nice ? t->nice : orig_nice);
		if (hint_kernel_supports(&hints->kernel, HINT_PART_UCLAMP) &&
				t->uclamp_min >= 0) {
			CHECK_INT(now.attr[i].util_min, t->uclamp_min);
		}
	}
}

static void test_apply_and_restore(void) {
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	CHECK(hints != NULL);
	privileged = hints->cap_sys_nice;
	fprintf(stderr, "CAP_SYS_NICE: %s\n", privileged ? "yes" : "no");
	struct child child = start_child(3);
	struct snapshot orig, after;
	snap(child.pid, &orig);
	CHECK_INT(orig.count, 4);
	CHECK_INT(orig.attr[1].nice, 2);

	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	CHECK(proc != NULL);
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 1 * S);
	check_class(hints, child.pid, &orig, RATINGS_INTERACTIVE);

	/* A thread that turns up later gets the class at the next update. */
	more_threads(&child);
	struct snapshot grown;
	snap(child.pid, &grown);
	CHECK_INT(grown.count, 5);
	/* The originals: the old threads' from before, the new one's as is. */
	for (int i = 0; i < grown.count; i++) {
		for (int j = 0; j < orig.count; j++) {
			if (orig.tid[j] == grown.tid[i]) {
				grown.attr[i] = orig.attr[j];
			}
		}
	}
	hints_app_update(proc, 2 * S);
	check_class(hints, child.pid, &grown, RATINGS_INTERACTIVE);

	hints_app_set_class(proc, RATINGS_BACKGROUND, 3 * S);
	check_class(hints, child.pid, &grown, RATINGS_BACKGROUND);
	hints_app_set_class(proc, RATINGS_OUTPUT, 4 * S);
	check_class(hints, child.pid, &grown, RATINGS_OUTPUT);

	/* Idle is the originals, exactly. */
	hints_app_set_class(proc, RATINGS_IDLE, 5 * S);
	snap(child.pid, &after);
	check_same(&grown, &after);

	/* Disconnect restores too, and the journal goes with the changes. */
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 100 * S);
	check_class(hints, child.pid, &grown, RATINGS_INTERACTIVE);
	hints_app_destroy(proc);
	snap(child.pid, &after);
	check_same(&grown, &after);
	hints_destroy(hints);
	CHECK_INT(hints_replay(dir), 0);
	stop_child(&child);
}

static void test_rate_limit(void) {
	struct hints_config config;
	hints_config_default(&config);
	config.burst = 2;
	config.refill_ns = 10 * S;
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(1);
	struct snapshot orig;
	snap(child.pid, &orig);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	hints_app_set_class(proc, RATINGS_BACKGROUND, 1);
	/* The bucket is empty: the third change waits. */
	hints_app_set_class(proc, RATINGS_OUTPUT, 2);
	check_class(hints, child.pid, &orig, RATINGS_BACKGROUND);
	hints_app_update(proc, 5 * S);
	check_class(hints, child.pid, &orig, RATINGS_BACKGROUND);
	hints_app_update(proc, 10 * S);
	check_class(hints, child.pid, &orig, RATINGS_OUTPUT);
	hints_destroy(hints);
	struct snapshot after;
	snap(child.pid, &after);
	check_same(&orig, &after);
	stop_child(&child);
}

static void test_dry_run(void) {
	struct hints_config config;
	hints_config_default(&config);
	config.mode = HINTS_DRY_RUN;
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(2);
	struct snapshot orig, after;
	snap(child.pid, &orig);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	hints_app_set_class(proc, RATINGS_BACKGROUND, S);
	CHECK(hints->changes >= 6);
	snap(child.pid, &after);
	check_same(&orig, &after);
	hints_destroy(hints);
	snap(child.pid, &after);
	check_same(&orig, &after);
	stop_child(&child);
}

/* Makes the next fork get pid `want`; false where that is not possible. */
static bool fork_at(pid_t want, pid_t *got) {
	if (!family_next_pid(want)) {
		return false;
	}
	*got = fork();
	CHECK(*got >= 0);
	if (*got == 0) {
		for (;;) {
			pause();
		}
	}
	return true;
}

/*
 * A client exits with a change pending; its pid is handed to another
 * process before the change's turn comes. Nothing may touch that process.
 */
static void test_pid_reuse(void) {
	struct hints_config config;
	hints_config_default(&config);
	config.burst = 1;
	config.refill_ns = S;
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(0);
	pid_t pid = child.pid;
	struct hints_app *proc = hints_app_create(hints, pid, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	hints_app_set_class(proc, RATINGS_BACKGROUND, 1);
	CHECK_INT(proc->applied, RATINGS_INTERACTIVE);
	uint64_t changes = hints->changes;
	stop_child(&child);

	pid_t other = -1;
	for (int tries = 0; tries < 20 && other != pid; tries++) {
		if (other > 0) {
			kill(other, SIGKILL);
			waitpid(other, NULL, 0);
		}
		if (!fork_at(pid, &other)) {
			break;
		}
	}
	bool reused = other == pid;
	struct snapshot before, after;
	if (reused) {
		snap(other, &before);
	}
	hints_app_update(proc, 10 * S);
	CHECK(proc->gone);
	CHECK_INT(hints->changes, changes);
	hints_destroy(hints);
	if (reused) {
		snap(other, &after);
		check_same(&before, &after);
		fprintf(stderr, "pid %d reused by a new process: untouched\n", pid);
	} else {
		fprintf(stderr,
				"pid reuse not forced (no ns_last_pid); the "
				"pending change still went nowhere\n");
	}
	if (other > 0) {
		kill(other, SIGKILL);
		waitpid(other, NULL, 0);
	}
}

/* The process dies between a change and its check: the change is undone. */
static void kill_during_change(struct hints_app *proc, pid_t tid, void *data) {
	struct child *child = data;
	if (child->pid > 0) {
		kill(child->pid, SIGKILL);
		waitpid(child->pid, NULL, 0);
		child->pid = -1;
	}
}

static void test_undo(void) {
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(1);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints->after_change = kill_during_change;
	hints->after_change_data = &child;
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(proc->gone);
	CHECK_INT(hints->undone, 1);
	CHECK_INT(hints->changes, 1);
	hints_destroy(hints);
	CHECK_INT(hints_replay(dir), 0);
	close(child.cmd);
	close(child.ack);
}

struct recycle {
	struct child *child;
	pid_t stranger; /* the new process on the child's pid, or -1 */
	struct hint_attr shown; /* what the stranger's thread shows */
};

/*
 * Between the change and its check, the child dies and its pid (its only
 * tid) goes to a stranger that shows exactly the change just made: the
 * stranger's thread must be left as it is.
 */
static void recycle_during_change(
		struct hints_app *proc, pid_t tid, void *data) {
	struct recycle *r = data;
	if (r->child->pid < 0) {
		return;
	}
	struct hint_attr changed;
	CHECK(hint_attr_get(tid, &changed));
	pid_t pid = r->child->pid;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	r->child->pid = -1;
	int ready[2];
	CHECK(pipe(ready) == 0);
	for (int tries = 0; tries < 20 && r->stranger != pid; tries++) {
		if (r->stranger > 0) {
			kill(r->stranger, SIGKILL);
			waitpid(r->stranger, NULL, 0);
			r->stranger = -1;
		}
		int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			break;
		}
		dprintf(fd, "%d", (int)pid - 1);
		close(fd);
		r->stranger = fork();
		CHECK(r->stranger >= 0);
		if (r->stranger == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			struct hint_kernel info;
			hint_kernel_probe(&info);
			struct hint_attr mine;
			CHECK(hint_attr_get(0, &mine));
			CHECK(hint_attr_set(&info, 0, &changed, &mine));
			char c = 1;
			write(ready[1], &c, 1);
			for (;;) {
				pause();
			}
		}
		if (r->stranger == pid) {
			char c;
			CHECK_INT(read(ready[0], &c, 1), 1);
			CHECK(hint_attr_get(pid, &r->shown));
			CHECK(hint_attr_equal(&r->shown, &changed));
		}
	}
	close(ready[0]);
	close(ready[1]);
}

static void test_undo_spares_recycled_tid(void) {
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(0);
	/* Start times count clock ticks: the stranger must start a later one. */
	usleep(50 * 1000);
	struct recycle r = {.child = &child, .stranger = -1};
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints->after_change = recycle_during_change;
	hints->after_change_data = &r;
	pid_t pid = child.pid;
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(proc->gone);
	if (r.stranger == pid) {
		struct hint_attr now;
		CHECK(hint_attr_get(pid, &now));
		CHECK(hint_attr_equal(&now, &r.shown));
		fprintf(stderr, "tid %d recycled mid-change: left alone\n", pid);
	} else {
		fprintf(stderr, "tid reuse not forced; skipped\n");
	}
	hints_destroy(hints);
	if (r.stranger > 0) {
		kill(r.stranger, SIGKILL);
		waitpid(r.stranger, NULL, 0);
	}
	close(child.cmd);
	close(child.ack);
}

/* A stale journal (writer pid 999999 is above pid_max) of one entry. */
static void write_journal(pid_t pid, uint32_t policy, int nice) {
	uint64_t start;
	CHECK(peer_start_time(pid, pid, &start));
	char path[128];
	snprintf(path, sizeof(path), "%s/fairway-hints-999999.journal", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	dprintf(fd,
			"fairway-hints 1 999999 0\n%d %d %" PRIu64 " %" PRIu32
			" 1 %d 0 -1\n",
			(int)pid, (int)pid, start, policy, nice);
	close(fd);
}

/*
 * A journal entry restores only what fairway could have saved, on a thread
 * that carries its mark: SCHED_IDLE, or any change to a thread without the
 * fork flag, is refused, and nice goes no lower than fairway's floor.
 */
static void test_replay_clamps(void) {
	/* One thread: its start acknowledges that the main one set its nice. */
	struct child child = start_child(1);
	struct hint_attr orig, now;
	CHECK(hint_attr_get(child.pid, &orig));
	CHECK(!orig.reset_on_fork);
	write_journal(child.pid, SCHED_BATCH, 7);
	CHECK_INT(hints_replay(dir), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK(hint_attr_equal(&now, &orig));

	/* fairway's mark, as every change of its own leaves it. */
	struct hint_kernel info;
	hint_kernel_probe(&info);
	struct hint_attr marked = orig;
	marked.reset_on_fork = true;
	CHECK(hint_attr_set(&info, child.pid, &marked, &orig));
	write_journal(child.pid, SCHED_IDLE, 0);
	CHECK_INT(hints_replay(dir), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK(hint_attr_equal(&now, &marked));

	write_journal(child.pid, SCHED_OTHER, -20);
	CHECK_INT(hints_replay(dir), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK_INT(now.policy, SCHED_OTHER);
	CHECK_INT(now.nice, privileged ? HINTS_NICE_FLOOR : orig.nice);

	write_journal(child.pid, SCHED_BATCH, 7);
	CHECK_INT(hints_replay(dir), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK_INT(now.policy, SCHED_BATCH);
	CHECK_INT(now.nice, 7);
	stop_child(&child);
}

/*
 * A journal in a directory the user's processes may write (fairway with a
 * capability its user lacks) is replayed with the user's privileges only:
 * the kernel refuses a planted entry's nice -20 and its way out of
 * SCHED_IDLE, gives what the user may (a higher nice), and fairway holds
 * CAP_SYS_NICE again after.
 */
static void test_replay_as_user(void) {
	if (!privileged) {
		fprintf(stderr, "no CAP_SYS_NICE: nothing to replay without\n");
		return;
	}
	struct child child = start_child(1);
	struct rlimit none = {0, 0};
	CHECK(prlimit(child.pid, RLIMIT_NICE, &none, NULL) == 0);
	struct hint_kernel info;
	hint_kernel_probe(&info);
	struct hint_attr orig, marked, idle, now;
	CHECK(hint_attr_get(child.pid, &orig));
	marked = orig;
	marked.reset_on_fork = true;
	CHECK(hint_attr_set(&info, child.pid, &marked, &orig));

	write_journal(child.pid, SCHED_OTHER, -20);
	CHECK_INT(hints_replay_as(dir, true), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK(hint_attr_equal(&now, &marked));
	CHECK(hint_have_cap_sys_nice());
	/* The same entry with fairway's privileges: down to its floor. */
	write_journal(child.pid, SCHED_OTHER, -20);
	CHECK_INT(hints_replay_as(dir, false), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK_INT(now.nice, HINTS_NICE_FLOOR);
	CHECK(hint_attr_set(&info, child.pid, &marked, &now));

	idle = marked;
	idle.policy = SCHED_IDLE;
	CHECK(hint_attr_set(&info, child.pid, &idle, &marked));
	write_journal(child.pid, SCHED_OTHER, orig.nice);
	CHECK_INT(hints_replay_as(dir, true), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK_INT(now.policy, SCHED_IDLE);

	CHECK(hint_attr_set(&info, child.pid, &marked, &idle));
	write_journal(child.pid, SCHED_BATCH, 7);
	CHECK_INT(hints_replay_as(dir, true), 1);
	CHECK(hint_attr_get(child.pid, &now));
	CHECK_INT(now.policy, SCHED_BATCH);
	CHECK_INT(now.nice, 7);
	CHECK(hint_have_cap_sys_nice());
	stop_child(&child);
}

/*
 * Changes are only those a replay with the user's privileges could undo:
 * no SCHED_IDLE (SCHED_BATCH instead) and no raised nice for a process
 * whose RLIMIT_NICE allows no way back, while a lowered nice, which any
 * user may raise again, is still given.
 */
static void test_undo_as_user(void) {
	struct hints_config config;
	hints_config_default(&config);
	config.targets[RATINGS_BACKGROUND].set_nice = true;
	config.targets[RATINGS_BACKGROUND].nice = 10;
	struct hints *hints = hints_create(&config, dir);
	hints->undo_as_user = true;
	struct child child = start_child(1);
	struct rlimit none = {0, 0};
	CHECK(prlimit(child.pid, RLIMIT_NICE, &none, NULL) == 0);
	struct snapshot orig, now;
	snap(child.pid, &orig);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	CHECK(proc != NULL);
	hints_app_set_class(proc, RATINGS_BACKGROUND, 0);
	snap(child.pid, &now);
	for (int i = 0; i < now.count; i++) {
		CHECK_INT(now.attr[i].policy, SCHED_BATCH);
		CHECK_INT(now.attr[i].nice, orig.attr[i].nice);
		CHECK(now.attr[i].reset_on_fork);
	}
	hints_app_set_class(proc, RATINGS_INTERACTIVE, S);
	snap(child.pid, &now);
	for (int i = 0; i < now.count; i++) {
		CHECK_INT(now.attr[i].policy, SCHED_OTHER);
		CHECK_INT(now.attr[i].nice,
				privileged ? config.targets[RATINGS_INTERACTIVE].nice
						   : orig.attr[i].nice);
	}
	hints_destroy(hints);
	snap(child.pid, &now);
	check_same(&orig, &now);
	stop_child(&child);
}

/* A process fairway waits on is never put in SCHED_IDLE. */
static void test_never_idle(void) {
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(1);
	struct snapshot orig, now;
	snap(child.pid, &orig);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	CHECK(proc != NULL);
	hints_app_never_idle(proc);
	hints_app_set_class(proc, RATINGS_BACKGROUND, 0);
	snap(child.pid, &now);
	for (int i = 0; i < now.count; i++) {
		CHECK_INT(now.attr[i].policy, SCHED_BATCH);
		CHECK(now.attr[i].reset_on_fork);
	}
	hints_destroy(hints);
	snap(child.pid, &now);
	check_same(&orig, &now);
	stop_child(&child);
}

/* The attributes of one thread of pid. */
static struct hint_attr attr_of(pid_t tid) {
	struct hint_attr attr;
	CHECK(hint_attr_get(tid, &attr));
	return attr;
}

/* How many of pid's threads have the interactive class's slice. */
static int count_interactive(pid_t pid) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	CHECK(d != NULL);
	int count = 0;
	struct dirent *ent;
	while ((ent = readdir(d)) != NULL) {
		if (ent->d_name[0] != '.' &&
				attr_of(atoi(ent->d_name)).runtime_ns == 500 * 1000) {
			count++;
		}
	}
	closedir(d);
	return count;
}

/* Past HINT_THREADS_MAX threads, the rest keep what they have. */
static void test_thread_cap(void) {
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(HINT_THREADS_MAX + 44);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(count_interactive(child.pid), HINT_THREADS_MAX);
	/* The main thread, the lowest tid, is among them. */
	CHECK_INT(attr_of(child.pid).runtime_ns, 500 * 1000);
	CHECK_INT(hint_tree_root(&proc->tree)->threads.untracked, 45);
	hints_destroy(hints);
	CHECK_INT(count_interactive(child.pid), 0);
	stop_child(&child);
}

/*
 * A process started just below pid_max has its threads' tids wrap around
 * below its own: its main thread is hinted all the same.
 */
static void test_main_thread_after_wrap(void) {
	FILE *max_file = fopen("/proc/sys/kernel/pid_max", "r");
	int pid_max = 0;
	CHECK(max_file != NULL && fscanf(max_file, "%d", &pid_max) == 1);
	fclose(max_file);
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || dprintf(fd, "%d", pid_max - 20) < 0) {
		fprintf(stderr, "no ns_last_pid: wrap-around not forced\n");
		if (fd >= 0) {
			close(fd);
		}
		return;
	}
	close(fd);
	struct child child = start_child(HINT_THREADS_MAX + 44);
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	const struct hint_threads *threads = &hint_tree_root(&proc->tree)->threads;
	fprintf(stderr, "main thread %d of %d threads\n", (int)child.pid,
			(int)(threads->count + threads->untracked));
	CHECK_INT(attr_of(child.pid).runtime_ns, 500 * 1000);
	CHECK_INT(count_interactive(child.pid), HINT_THREADS_MAX);
	hints_destroy(hints);
	stop_child(&child);
}

/* Threads that turn up cost a change from the bucket, as a class does. */
static void test_new_threads_take_tokens(void) {
	struct hints_config config;
	hints_config_default(&config);
	config.burst = 1;
	config.refill_ns = 10 * S;
	struct hints *hints = hints_create(&config, dir);
	struct child child = start_child(1);
	struct hints_app *proc = hints_app_create(hints, child.pid, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(count_interactive(child.pid), 2);
	more_threads(&child);
	hints_app_update(proc, 1 * S);
	CHECK_INT(count_interactive(child.pid), 2);
	hints_app_update(proc, 10 * S);
	CHECK_INT(count_interactive(child.pid), 3);
	hints_destroy(hints);
	stop_child(&child);
}

static void test_parse(void) {
	struct hints_config config;
	hints_config_default(&config);
	CHECK(hints_config_parse_target(
			&config, "interactive:nice=-8,slice_us=300,uclamp_min=512"));
	CHECK_INT(config.targets[RATINGS_INTERACTIVE].nice, -8);
	CHECK_INT(config.targets[RATINGS_INTERACTIVE].slice_ns, 300000);
	CHECK_INT(config.targets[RATINGS_INTERACTIVE].uclamp_min, 512);
	CHECK(hints_config_parse_target(&config, "background:policy=batch,nice=9"));
	CHECK_INT(config.targets[RATINGS_BACKGROUND].policy, SCHED_BATCH);
	CHECK(hints_config_parse_target(&config, "output:keep"));
	CHECK(config.targets[RATINGS_OUTPUT].keep);
	CHECK(!hints_config_parse_target(&config, "output:slice_us=50"));
	CHECK(!hints_config_parse_target(&config, "bogus:nice=1"));
	CHECK(!hints_config_parse_target(&config, "idle:nice=99"));
	CHECK(!hints_config_parse_target(&config, "idle:"));
}

int main(void) {
	test_log_init();
	CHECK(mkdtemp(dir) != NULL);
	test_parse();
	test_apply_and_restore();
	test_rate_limit();
	test_dry_run();
	test_pid_reuse();
	test_undo();
	test_replay_clamps();
	test_replay_as_user();
	test_undo_as_user();
	test_never_idle();
	test_thread_cap();
	test_main_thread_after_wrap();
	test_new_threads_take_tokens();
	test_undo_spares_recycled_tid();
	rmdir(dir);
	return 0;
}
