#include "scheduler/hints/hints.h"
#include "scheduler/log.h"
#include "tests/unit/check.h"
#include "tests/unit/family.h"
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * A kernel that lacks one attribute (Debian bookworm's 6.1 has no custom
 * slices, and uclamp only with CONFIG_UCLAMP_TASK): with sched_setattr
 * behind a fake that refuses one attribute at a time, the others must
 * still reach every thread of a real process, the refusal be logged once
 * and reported, and a restore give back exactly what the threads had.
 */

#define S INT64_C(1000000000)
#define THREADS 2

static char dir[] = "/tmp/fw-hint-parts-XXXXXX";

struct fake {
	unsigned refuse; /* hint_attr_part that gets err */
	int err;
	int calls; /* setattr calls that reached the fake */
	bool old_kernel; /* 6.1: no slice reported, sched_runtime ignored */
};

/*
 * Where the machine's kernel has no uclamp, the fake keeps each thread's
 * clamp itself, so that a clamp applied beside a refused part is seen.
 */
#define CLAMPS 64
static bool emulate_uclamp;
static struct {
	pid_t tid;
	uint32_t util_min;
} clamps[CLAMPS];

static uint32_t *clamp_of(pid_t tid) {
	for (int i = 0; i < CLAMPS; i++) {
		if (clamps[i].tid == tid || clamps[i].tid == 0) {
			clamps[i].tid = tid;
			return &clamps[i].util_min;
		}
	}
	CHECK(!"room for every thread's clamp");
	return NULL;
}

static struct fake fake;

static int fake_getattr(pid_t tid, struct hint_sched_attr *attr, void *data) {
	int err = hint_syscalls_kernel.getattr(tid, attr, NULL);
	if (err == 0 && emulate_uclamp) {
		attr->sched_util_min = *clamp_of(tid != 0 ? tid : getpid());
	}
	if (err == 0 && fake.old_kernel && attr->sched_policy != SCHED_IDLE) {
		attr->sched_runtime = 0;
	}
	return err;
}

static int fake_setattr(
		pid_t tid, const struct hint_sched_attr *attr, void *data) {
	fake.calls++;
	struct hint_sched_attr now = {0};
	if (hint_syscalls_kernel.getattr(tid, &now, NULL) != 0) {
		return ESRCH;
	}
	bool keep = (attr->sched_flags & HINT_FLAG_KEEP_PARAMS) != 0;
	unsigned touches = 0;
	if (!keep &&
			(attr->sched_policy != now.sched_policy ||
					attr->sched_nice != now.sched_nice)) {
		touches |= HINT_PART_NICE;
	}
	if (!keep && attr->sched_runtime != 0) {
		touches |= HINT_PART_SLICE;
	}
	if (attr->sched_flags & HINT_FLAG_UTIL_CLAMP_MIN) {
		touches |= HINT_PART_UCLAMP;
	}
	if (touches & fake.refuse) {
		return fake.err;
	}
	struct hint_sched_attr sent = *attr;
	if (emulate_uclamp && (sent.sched_flags & HINT_FLAG_UTIL_CLAMP_MIN)) {
		*clamp_of(tid != 0 ? tid : getpid()) =
				sent.sched_util_min == UINT32_MAX ? 0 : sent.sched_util_min;
		sent.sched_flags &= ~(uint64_t)HINT_FLAG_UTIL_CLAMP_MIN;
	}
	if (fake.old_kernel) {
		/* Taken without a word, and never used. */
		sent.sched_runtime = 0;
	}
	return hint_syscalls_kernel.setattr(tid, &sent, NULL);
}

static const struct hint_syscalls fake_syscalls = {
		.getattr = fake_getattr,
		.setattr = fake_setattr,
};

static int refusals_logged;

static void count_log(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	char line[512];
	vsnprintf(line, sizeof(line), fmt, args);
	if (strstr(line, "the kernel refuses") != NULL) {
		refusals_logged++;
	}
	if (getenv("FW_HINTS_DEBUG") != NULL || importance == SCHED_LOG_ERROR) {
		fprintf(stderr, "%s\n", line);
	}
}

static void *sleeper(void *arg) {
	int *ack = arg;
	char c = 1;
	write(*ack, &c, 1);
	for (;;) {
		pause();
	}
	return NULL;
}

struct child {
	pid_t pid;
	pid_t tids[THREADS + 1];
};

static pid_t start_child(void) {
	int ack[2];
	CHECK(pipe(ack) == 0);
	pid_t pid = fork();
	CHECK(pid >= 0);
	if (pid == 0) {
		close(ack[0]);
		for (int i = 0; i < THREADS; i++) {
			pthread_t t;
			pthread_create(&t, NULL, sleeper, &ack[1]);
		}
		for (;;) {
			pause();
		}
	}
	close(ack[1]);
	for (int i = 0; i < THREADS; i++) {
		char c;
		CHECK_INT(read(ack[0], &c, 1), 1);
	}
	close(ack[0]);
	return pid;
}

static void stop_child(pid_t pid) {
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/*
 * The output class asks for all three parts; nice stays (moving it needs
 * privilege both ways) so that the policy carries the first part.
 */
static void config_for_test(struct hints_config *config) {
	hints_config_default(config);
	config->targets[RATINGS_OUTPUT] = (struct hints_target){
			.policy = SCHED_BATCH,
			.slice_ns = 1000 * 1000,
			.uclamp_min = 128,
	};
}

/* Each thread has the target in every part but `missing`, which is orig's. */
static void check_threads(const struct hints_app *proc, unsigned missing,
		unsigned real_unsupported, const struct hint_attr *orig) {
	const struct hint_threads *threads = &hint_tree_root(&proc->tree)->threads;
	CHECK_INT(threads->count, THREADS + 1);
	for (size_t i = 0; i < threads->count; i++) {
		struct hint_attr now;
		CHECK(hint_attr_get(threads->items[i].tid, &now));
		CHECK(now.reset_on_fork);
		CHECK_INT(now.policy,
				missing & HINT_PART_NICE ? orig->policy : SCHED_BATCH);
		if (!(real_unsupported & HINT_PART_SLICE) && !fake.old_kernel) {
			CHECK_INT(now.runtime_ns,
					missing & HINT_PART_SLICE ? orig->runtime_ns : 1000000);
		}
		CHECK_INT(now.util_min,
				missing & HINT_PART_UCLAMP ? orig->util_min : 128);
	}
}

static void check_restored(pid_t pid, const struct hint_attr *orig) {
	struct hint_attr now;
	CHECK(hint_attr_get(pid, &now));
	CHECK_INT(now.policy, orig->policy);
	CHECK_INT(now.nice, orig->nice);
	CHECK_INT(now.util_min, orig->util_min);
	if (!fake.old_kernel) {
		CHECK_INT(now.runtime_ns, orig->runtime_ns);
	}
}

/* The kernel refuses `part` with err once hints are running. */
static void test_refuse(unsigned part, int err, unsigned real_unsupported) {
	struct hints_config config;
	config_for_test(&config);
	fake = (struct fake){0};
	memset(clamps, 0, sizeof(clamps));
	hint_syscalls_set(&fake_syscalls);
	struct hints *hints = hints_create(&config, dir);
	CHECK(hints != NULL);
	CHECK_INT(hints->kernel.unsupported, real_unsupported);
	pid_t pid = start_child();
	struct hint_attr orig;
	CHECK(hint_attr_get(pid, &orig));

	/* From here on the kernel refuses the part. */
	fake = (struct fake){.refuse = part, .err = err};
	refusals_logged = 0;
	struct hints_app *proc = hints_app_create(hints, pid, -1, geteuid());
	CHECK(proc != NULL);
	hints_app_set_class(proc, RATINGS_OUTPUT, 1 * S);
	check_threads(proc, part, real_unsupported, &orig);
	CHECK_INT(hints->kernel.unsupported, part | real_unsupported);
	CHECK_INT(refusals_logged, part & real_unsupported ? 0 : 1);
	char names[64];
	hints_unsupported_names(hints, names, sizeof(names));
	fprintf(stderr, "refused %s (%s): unsupported \"%s\"\n",
			hint_part_name(part), strerror(err), names);
	CHECK(strstr(names, hint_part_name(part)) != NULL);

	/* Learnt: the next change does not ask again, nor logs again. */
	int calls = fake.calls;
	hints_app_set_class(proc, RATINGS_IDLE, 2 * S);
	check_restored(pid, &orig);
	hints_app_set_class(proc, RATINGS_OUTPUT, 3 * S);
	check_threads(proc, part, real_unsupported, &orig);
	CHECK_INT(refusals_logged, part & real_unsupported ? 0 : 1);
	/* One call a thread each way, none refused. */
	CHECK_INT(fake.calls - calls, 2 * (THREADS + 1));

	hints_app_destroy(proc);
	check_restored(pid, &orig);
	hint_syscalls_set(NULL);
	hints_destroy(hints);
	stop_child(pid);
}

/*
 * Linux 6.1 as it is: sched_getattr reports no slice, and sched_setattr
 * takes sched_runtime without complaint and without effect. The probe
 * must find that out, or every update would ask again for a slice the
 * thread never shows.
 */
static void test_old_kernel(void) {
	fake = (struct fake){.old_kernel = true};
	memset(clamps, 0, sizeof(clamps));
	hint_syscalls_set(&fake_syscalls);
	struct hints_config config;
	config_for_test(&config);
	struct hints *hints = hints_create(&config, dir);
	CHECK(hints != NULL);
	CHECK(!hint_kernel_supports(&hints->kernel, HINT_PART_SLICE));
	pid_t pid = start_child();
	struct hint_attr orig;
	CHECK(hint_attr_get(pid, &orig));
	struct hints_app *proc = hints_app_create(hints, pid, -1, geteuid());
	CHECK(proc != NULL);
	hints_app_set_class(proc, RATINGS_OUTPUT, 1 * S);
	check_threads(proc, HINT_PART_SLICE, hints->kernel.unsupported, &orig);
	/* Nothing left to ask: an update makes no call. */
	int calls = fake.calls;
	hints_app_update(proc, 10 * S);
	CHECK_INT(fake.calls, calls);
	hints_app_destroy(proc);
	check_restored(pid, &orig);
	hints_destroy(hints);
	hint_syscalls_set(NULL);
	stop_child(pid);
}

/* Every thread of pid has policy (and reset-on-fork where hinted). */
static void check_process(pid_t pid, int policy, uint32_t util_min) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	CHECK(d != NULL);
	int seen = 0;
	struct dirent *ent;
	while ((ent = readdir(d)) != NULL) {
		struct hint_attr now;
		if (ent->d_name[0] == '.') {
			continue;
		}
		CHECK(hint_attr_get(atoi(ent->d_name), &now));
		CHECK_INT(now.policy, policy);
		CHECK(now.reset_on_fork == (policy == SCHED_BATCH));
		CHECK_INT(now.util_min, util_min);
		seen++;
	}
	closedir(d);
	CHECK(seen > 0);
}

/*
 * Debian bookworm's kernel as most have it: 6.1, no custom slices, and no
 * uclamp (CONFIG_UCLAMP_TASK off: EOPNOTSUPP). An application's child and
 * grandchild, not only the client's own process, still get what the
 * kernel takes (the policy), and get back what they had.
 */
static void test_bookworm_tree(void) {
	fake = (struct fake){
			.old_kernel = true,
			.refuse = HINT_PART_UCLAMP,
			.err = EOPNOTSUPP,
	};
	memset(clamps, 0, sizeof(clamps));
	hint_syscalls_set(&fake_syscalls);
	struct hints_config config;
	config_for_test(&config);
	struct hints *hints = hints_create(&config, dir);
	CHECK(hints != NULL);
	struct family family;
	family_start(&family, true);
	pid_t grandchild;
	pid_t child = family_child(&family, FAMILY_SLEEPER, 2, NULL);
	family_child(&family, FAMILY_GRANDPARENT, 0, &grandchild);
	struct hints_app *app = hints_app_create(hints, family.root, -1, geteuid());
	CHECK(app != NULL);
	CHECK(!app->tree.single);
	hints_app_set_class(app, RATINGS_OUTPUT, 1 * S);
	CHECK(!hint_kernel_supports(&hints->kernel, HINT_PART_SLICE));
	CHECK(!hint_kernel_supports(&hints->kernel, HINT_PART_UCLAMP));
	CHECK_INT(app->tree.count, 4);
	check_process(family.root, SCHED_BATCH, 0);
	check_process(child, SCHED_BATCH, 0);
	check_process(grandchild, SCHED_BATCH, 0);
	hints_app_destroy(app);
	check_process(child, SCHED_OTHER, 0);
	check_process(grandchild, SCHED_OTHER, 0);
	hints_destroy(hints);
	hint_syscalls_set(NULL);
	family_stop(&family);
}

int main(void) {
	sched_log_init(count_log);
	CHECK(mkdtemp(dir) != NULL);
	struct hint_kernel real;
	hint_kernel_probe(&real);
	fprintf(stderr, "this kernel lacks: %s%s\n",
			real.unsupported & HINT_PART_SLICE ? "slice " : "",
			real.unsupported & HINT_PART_UCLAMP ? "uclamp (emulated)" : "");
	emulate_uclamp = (real.unsupported & HINT_PART_UCLAMP) != 0;
	real.unsupported &= ~(unsigned)HINT_PART_UCLAMP;
	test_refuse(HINT_PART_NICE, EINVAL, real.unsupported);
	test_refuse(HINT_PART_SLICE, EINVAL, real.unsupported);
	test_refuse(HINT_PART_SLICE, E2BIG, real.unsupported);
	test_refuse(HINT_PART_UCLAMP, EOPNOTSUPP, real.unsupported);
	test_refuse(HINT_PART_UCLAMP, EINVAL, real.unsupported);
	test_old_kernel();
	test_bookworm_tree();
	rmdir(dir);
	return 0;
}
