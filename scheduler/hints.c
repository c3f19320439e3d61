#include "scheduler/hints.h"
#include "scheduler/log.h"
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc has no sched_setattr wrapper; this is the kernel's VER1 layout. */
struct sched_attr_abi {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
};

#define FLAG_RESET_ON_FORK 0x01
#define FLAG_KEEP_POLICY 0x08
#define FLAG_KEEP_PARAMS 0x10
#define FLAG_UTIL_CLAMP_MIN 0x20

#define CAP_SYS_NICE_BIT 23
#define NS_PER_MS INT64_C(1000000)

/*
 * The default mapping.
 * interactive: the user is waiting on it. A 0.5 ms custom slice gives it an
 *   earlier EEVDF deadline than the default (0.7 ms times 1 + log2 CPUs), so
 *   its wakeups preempt sooner; no privilege needed. uclamp_min 256 keeps
 *   the CPU clock from idling down under it. Nice -5 (three times the weight
 *   of nice 0) where privilege allows: a firm preference, far from rtkit's
 *   floor of -15 and milder than Android's -10 top-app boost.
 * output: animates on screen. A 1 ms slice, uclamp_min 128 and nice -3
 *   (twice the weight of nice 0): it needs throughput at a steady rate
 *   more than the quickest wakeup.
 * background: busy with nothing to show. SCHED_BATCH never preempts on
 *   wakeup; nice +5 (a third of the weight of nice 0), only where fairway
 *   may lower it back when restoring.
 * idle: the original attributes.
 */
void hints_config_default(struct hints_config *config) {
	*config = (struct hints_config){
			.mode = HINTS_ON,
			.burst = HINTS_DEFAULT_BURST,
			.refill_ns = HINTS_DEFAULT_REFILL_MS * NS_PER_MS,
	};
	config->targets[RATINGS_INTERACTIVE] = (struct hints_target){
			.policy = SCHED_OTHER,
			.set_nice = true,
			.nice = -5,
			.slice_ns = 500 * 1000,
			.uclamp_min = 256,
	};
	config->targets[RATINGS_OUTPUT] = (struct hints_target){
			.policy = SCHED_OTHER,
			.set_nice = true,
			.nice = -3,
			.slice_ns = 1000 * 1000,
			.uclamp_min = 128,
	};
	config->targets[RATINGS_BACKGROUND] = (struct hints_target){
			.policy = SCHED_BATCH,
			.set_nice = true,
			.nice = 5,
			.uclamp_min = -1,
	};
	config->targets[RATINGS_IDLE] = (struct hints_target){
			.keep = true,
			.uclamp_min = -1,
	};
}

static bool parse_long(const char *text, long min, long max, long *out) {
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || value < min ||
			value > max) {
		return false;
	}
	*out = value;
	return true;
}

static bool parse_pair(
		struct hints_target *target, const char *key, const char *value) {
	long n;
	if (strcmp(key, "policy") == 0) {
		if (strcmp(value, "other") == 0) {
			target->policy = SCHED_OTHER;
		} else if (strcmp(value, "batch") == 0) {
			target->policy = SCHED_BATCH;
		} else {
			return false;
		}
	} else if (strcmp(key, "nice") == 0) {
		if (strcmp(value, "keep") == 0) {
			target->set_nice = false;
		} else if (parse_long(value, -20, 19, &n)) {
			target->set_nice = true;
			target->nice = (int32_t)n;
		} else {
			return false;
		}
	} else if (strcmp(key, "slice_us") == 0) {
		/* The kernel clamps custom slices to 0.1-100 ms. */
		if (!parse_long(value, 0, 100000, &n) || (n != 0 && n < 100)) {
			return false;
		}
		target->slice_ns = (uint64_t)n * 1000;
	} else if (strcmp(key, "uclamp_min") == 0) {
		if (!parse_long(value, -1, 1024, &n)) {
			return false;
		}
		target->uclamp_min = (int32_t)n;
	} else {
		return false;
	}
	return true;
}

bool hints_config_parse_target(struct hints_config *config, const char *text) {
	const char *colon = strchr(text, ':');
	if (colon == NULL) {
		return false;
	}
	int class = -1;
	for (int i = 0; i < RATINGS_CLASS_COUNT; i++) {
		const char *name = ratings_class_name((enum ratings_class)i);
		if (strlen(name) == (size_t)(colon - text) &&
				strncmp(text, name, strlen(name)) == 0) {
			class = i;
		}
	}
	if (class < 0) {
		return false;
	}
	struct hints_target target = {.policy = SCHED_OTHER, .uclamp_min = -1};
	if (strcmp(colon + 1, "keep") == 0) {
		target.keep = true;
		config->targets[class] = target;
		return true;
	}
	char *copy = strdup(colon + 1);
	if (copy == NULL) {
		return false;
	}
	bool ok = copy[0] != '\0';
	char *save = NULL;
	for (char *pair = strtok_r(copy, ",", &save); ok && pair != NULL;
			pair = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(pair, '=');
		if (eq == NULL) {
			ok = false;
			break;
		}
		*eq = '\0';
		ok = parse_pair(&target, pair, eq + 1);
	}
	free(copy);
	if (ok) {
		config->targets[class] = target;
	}
	return ok;
}

const char *hints_mode_name(enum hints_mode mode) {
	switch (mode) {
	case HINTS_OFF:
		return "off";
	case HINTS_DRY_RUN:
		return "dry-run";
	case HINTS_ON:
		return "on";
	}
	return "?";
}

bool hints_get_attr(pid_t tid, struct hint_attr *attr) {
	struct sched_attr_abi abi = {0};
	if (syscall(SYS_sched_getattr, tid, &abi, sizeof(abi), 0) != 0) {
		return false;
	}
	*attr = (struct hint_attr){
			.policy = abi.sched_policy,
			.reset_on_fork = (abi.sched_flags & FLAG_RESET_ON_FORK) != 0,
			.nice = abi.sched_nice,
			.runtime_ns = abi.sched_runtime,
			.util_min = (int32_t)abi.sched_util_min,
	};
	return true;
}

static bool attr_equal(const struct hint_attr *a, const struct hint_attr *b) {
	return a->policy == b->policy && a->reset_on_fork == b->reset_on_fork &&
			a->nice == b->nice && a->runtime_ns == b->runtime_ns &&
			a->util_min == b->util_min;
}

static bool fair_policy(uint32_t policy) {
	return policy == SCHED_OTHER || policy == SCHED_BATCH;
}

/* What the kernel needs to know to set attributes exactly. */
struct kernel_info {
	bool uclamp;
	uint64_t base_slice_ns;
};

/*
 * Moves a thread from `current` to `want`, both as sched_getattr reports.
 * Only what differs is sent: when policy, nice, slice and the fork flag
 * stay, KEEP_POLICY|KEEP_PARAMS stop the kernel from resetting nice and
 * slice to their defaults.
 */
static bool set_attr(const struct kernel_info *info, pid_t tid,
		const struct hint_attr *want, const struct hint_attr *current) {
	struct sched_attr_abi abi = {
			.size = sizeof(abi),
			.sched_policy = want->policy,
			.sched_nice = want->nice,
			/* The default slice is asked for with 0, not its value. */
			.sched_runtime = want->runtime_ns == info->base_slice_ns
					? 0
					: want->runtime_ns,
	};
	bool params = want->policy != current->policy ||
			want->nice != current->nice ||
			want->runtime_ns != current->runtime_ns ||
			want->reset_on_fork != current->reset_on_fork;
	bool clamp = info->uclamp && want->util_min != current->util_min;
	if (!params && !clamp) {
		return true;
	}
	abi.sched_flags = want->reset_on_fork ? FLAG_RESET_ON_FORK : 0;
	if (!params) {
		abi.sched_flags |= FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS;
	}
	if (clamp) {
		abi.sched_flags |= FLAG_UTIL_CLAMP_MIN;
		/* -1 hands the clamp back to the system default (0 for min). */
		abi.sched_util_min =
				want->util_min <= 0 ? UINT32_MAX : (uint32_t)want->util_min;
	}
	if (syscall(SYS_sched_setattr, tid, &abi, 0) == 0) {
		return true;
	}
	if (errno == EPERM && current->reset_on_fork && !want->reset_on_fork) {
		/* Clearing the fork flag needs CAP_SYS_NICE; it is harmless set. */
		abi.sched_flags |= FLAG_RESET_ON_FORK;
		if (syscall(SYS_sched_setattr, tid, &abi, 0) == 0) {
			sched_log(SCHED_LOG_DEBUG,
					"hints: tid %d keeps SCHED_FLAG_RESET_ON_FORK (no "
					"CAP_SYS_NICE to clear it)",
					(int)tid);
			return true;
		}
	}
	sched_log(SCHED_LOG_DEBUG, "hints: sched_setattr(%d): %s", (int)tid,
			strerror(errno));
	return false;
}

static void probe_kernel(struct kernel_info *info) {
	struct hint_attr self;
	info->base_slice_ns = 0;
	if (hints_get_attr(0, &self) && fair_policy(self.policy)) {
		/* fairway runs without a custom slice of its own. */
		info->base_slice_ns = self.runtime_ns;
	}
	struct sched_attr_abi abi = {
			.size = sizeof(abi),
			.sched_flags = FLAG_KEEP_POLICY | FLAG_KEEP_PARAMS |
					FLAG_UTIL_CLAMP_MIN |
					(self.reset_on_fork ? FLAG_RESET_ON_FORK : 0),
			.sched_util_min = UINT32_MAX,
	};
	info->uclamp = syscall(SYS_sched_setattr, 0, &abi, 0) == 0;
}

static bool has_cap_sys_nice(void) {
	FILE *file = fopen("/proc/self/status", "re");
	if (file == NULL) {
		return false;
	}
	char line[256];
	unsigned long long caps = 0;
	while (fgets(line, sizeof(line), file) != NULL) {
		if (sscanf(line, "CapEff: %llx", &caps) == 1) {
			break;
		}
	}
	fclose(file);
	return (caps >> CAP_SYS_NICE_BIT) & 1;
}

/* The lowest nice fairway may give pid's threads (20: none below theirs). */
static int lowest_nice(struct hints *hints, pid_t pid) {
	if (hints->cap_sys_nice) {
		return -20;
	}
	/* Without the capability the target's own RLIMIT_NICE decides. */
	struct rlimit lim;
	if (prlimit(pid, RLIMIT_NICE, NULL, &lim) != 0 || lim.rlim_cur == 0) {
		return 20;
	}
	return 20 - (int)(lim.rlim_cur > 40 ? 40 : lim.rlim_cur);
}

static void compute_target(struct hints_proc *proc,
		const struct hints_target *target, const struct hint_attr *orig,
		struct hint_attr *out) {
	struct hints *hints = proc->hints;
	*out = *orig;
	if (target->keep) {
		return;
	}
	out->policy = target->policy;
	out->reset_on_fork = true;
	if (target->set_nice) {
		int floor = lowest_nice(hints, proc->pid);
		int want = target->nice < HINTS_NICE_FLOOR ? HINTS_NICE_FLOOR
												   : target->nice;
		if (want < orig->nice) {
			want = want < floor ? floor : want;
			want = want > orig->nice ? orig->nice : want;
		} else if (want > orig->nice && floor > orig->nice) {
			/* Raised, it could never be lowered back on restore. */
			want = orig->nice;
		}
		out->nice = want;
	}
	if (target->slice_ns != 0) {
		out->runtime_ns = target->slice_ns;
	}
	if (target->uclamp_min >= 0 && hints->uclamp) {
		out->util_min = target->uclamp_min;
	}
}

static bool pidfd_alive(int pidfd) {
	if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0) {
		return true;
	}
	return errno == EPERM;
}

/* The pid and tid still name the process and thread we took them for. */
static bool verify(struct hints_proc *proc, struct hints_thread *thread) {
	uint64_t start;
	if (!pidfd_alive(proc->pidfd) ||
			!hint_proc_start_time(proc->pid, proc->pid, &start) ||
			start != proc->start) {
		return false;
	}
	if (thread != NULL) {
		if (!hint_proc_start_time(proc->pid, thread->tid, &start) ||
				start != thread->start) {
			return false;
		}
	}
	/* Checked again last: a pid recycled after the reads fails here. */
	return pidfd_alive(proc->pidfd);
}

static void log_change(struct hints_proc *proc, struct hints_thread *thread,
		const struct hint_attr *want, const char *what) {
	sched_log(proc->hints->config.mode == HINTS_DRY_RUN ? SCHED_LOG_INFO
														: SCHED_LOG_DEBUG,
			"hints%s: pid %d tid %d %s: policy %" PRIu32 " nice %" PRId32
			" slice %" PRIu64 " ns uclamp_min %" PRId32 "%s",
			proc->hints->config.mode == HINTS_DRY_RUN ? " (dry-run)" : "",
			(int)proc->pid, (int)thread->tid, what, want->policy, want->nice,
			want->runtime_ns, want->util_min,
			want->reset_on_fork ? " reset-on-fork" : "");
}

static void forget_thread(
		struct hints_proc *proc, struct hints_thread *thread) {
	if (thread->changed && proc->hints->journal != NULL) {
		hint_journal_remove(proc->hints->journal, thread->tid);
	}
	wl_list_remove(&thread->link);
	free(thread);
}

/* Gives one thread the attributes of class (restore: its saved ones). */
static void apply_thread(struct hints_proc *proc, struct hints_thread *thread,
		enum ratings_class class, bool restore) {
	struct hints *hints = proc->hints;
	struct kernel_info info = {hints->uclamp, hints->base_slice_ns};
	const struct hints_target *target = &hints->config.targets[class];
	restore = restore || target->keep;
	if (thread->left_alone || (restore && !thread->changed)) {
		return;
	}
	struct hint_attr current, want;
	if (!verify(proc, thread) || !hints_get_attr(thread->tid, &current)) {
		return;
	}
	if (!thread->changed && !fair_policy(current.policy)) {
		/* Real-time and SCHED_IDLE threads chose that: leave them be. */
		thread->left_alone = true;
		return;
	}
	if (hints->config.mode == HINTS_DRY_RUN) {
		if (restore) {
			log_change(proc, thread, &thread->saved, "would restore");
			thread->changed = false;
			return;
		}
		if (!thread->changed) {
			thread->saved = current;
			thread->changed = true;
		}
		compute_target(proc, target, &thread->saved, &want);
		log_change(proc, thread, &want, ratings_class_name(class));
		hints->changes++;
		return;
	}
	if (!thread->changed) {
		/* Saved by apply_class; a thread that turned up since waits. */
		return;
	}
	if (restore) {
		want = thread->saved;
	} else {
		compute_target(proc, target, &thread->saved, &want);
	}
	if (!attr_equal(&want, &current)) {
		log_change(proc, thread, &want,
				restore ? "restore" : ratings_class_name(class));
		if (!set_attr(&info, thread->tid, &want, &current)) {
			return;
		}
		hints->changes++;
		if (hints->after_change != NULL) {
			hints->after_change(proc, thread->tid, hints->after_change_data);
		}
		if (!verify(proc, thread)) {
			/*
			 * The tid may be someone else's now. If it shows our change,
			 * give back what the tid had just before it.
			 */
			struct hint_attr after;
			if (hints_get_attr(thread->tid, &after) &&
					attr_equal(&after, &want)) {
				set_attr(&info, thread->tid, &current, &want);
			}
			hints->undone++;
			proc->gone = true;
			sched_log(SCHED_LOG_INFO,
					"hints: pid %d went away during a change; undone on tid "
					"%d",
					(int)proc->pid, (int)thread->tid);
			return;
		}
	}
	if (restore) {
		hint_journal_remove(hints->journal, thread->tid);
		thread->changed = false;
	}
}

/* Saves and journals the threads about to be changed for the first time. */
static bool save_threads(struct hints_proc *proc) {
	struct hints *hints = proc->hints;
	if (hints->config.mode == HINTS_DRY_RUN) {
		return true;
	}
	struct hints_thread *thread;
	wl_list_for_each(thread, &proc->threads, link) {
		if (thread->changed || thread->left_alone) {
			continue;
		}
		struct hint_attr current;
		if (!verify(proc, thread) || !hints_get_attr(thread->tid, &current)) {
			continue;
		}
		if (!fair_policy(current.policy)) {
			thread->left_alone = true;
			continue;
		}
		struct hint_journal_entry entry = {
				.pid = proc->pid,
				.tid = thread->tid,
				.start = thread->start,
				.attr = current,
		};
		if (!hint_journal_add(hints->journal, &entry)) {
			return false;
		}
		thread->saved = current;
		thread->changed = true;
	}
	/* Written ahead: a crash from here on leaves the originals on disk. */
	return hint_journal_sync(hints->journal);
}

static void apply_class(struct hints_proc *proc, enum ratings_class class,
		bool restore, bool fresh_only) {
	struct hints *hints = proc->hints;
	if (!restore && !hints->config.targets[class].keep && !save_threads(proc)) {
		sched_log(SCHED_LOG_ERROR, "hints: no journal, so no change to pid %d",
				(int)proc->pid);
		return;
	}
	struct hints_thread *thread, *tmp;
	wl_list_for_each_safe(thread, tmp, &proc->threads, link) {
		if (proc->gone) {
			break;
		}
		if (!fresh_only || !thread->seen) {
			apply_thread(proc, thread, class, restore);
		}
		thread->seen = true;
	}
	if (hints->journal != NULL) {
		hint_journal_sync(hints->journal);
	}
}

static struct hints_thread *find_thread(struct hints_proc *proc, pid_t tid) {
	struct hints_thread *thread;
	wl_list_for_each(thread, &proc->threads, link) {
		if (thread->tid == tid) {
			return thread;
		}
	}
	return NULL;
}

/*
 * Brings the thread list up to date; new threads have seen == false until
 * apply_class gets to them. Returns how many are new.
 */
static int scan_threads(struct hints_proc *proc) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)proc->pid);
	DIR *dir = opendir(path);
	if (dir == NULL) {
		return 0;
	}
	struct hints_thread *thread, *tmp;
	uint64_t *found = NULL;
	size_t found_count = 0;
	int fresh = 0;
	struct dirent *ent;
	while ((ent = readdir(dir)) != NULL) {
		long tid;
		uint64_t start;
		if (!parse_long(ent->d_name, 1, INT32_MAX, &tid) ||
				!hint_proc_start_time(proc->pid, (pid_t)tid, &start)) {
			continue;
		}
		thread = find_thread(proc, (pid_t)tid);
		if (thread != NULL && thread->start != start) {
			forget_thread(proc, thread);
			thread = NULL;
		}
		if (thread == NULL) {
			thread = calloc(1, sizeof(*thread));
			if (thread == NULL) {
				continue;
			}
			thread->tid = (pid_t)tid;
			thread->start = start;
			wl_list_insert(proc->threads.prev, &thread->link);
			fresh++;
		}
		uint64_t *grown = realloc(found, (found_count + 1) * sizeof(*found));
		if (grown != NULL) {
			found = grown;
			found[found_count++] = (uint64_t)tid;
		}
	}
	closedir(dir);
	wl_list_for_each_safe(thread, tmp, &proc->threads, link) {
		bool present = false;
		for (size_t i = 0; i < found_count && !present; i++) {
			present = found[i] == (uint64_t)thread->tid;
		}
		if (!present) {
			/* Exited: nothing left to restore. */
			forget_thread(proc, thread);
		}
	}
	free(found);
	return fresh;
}

struct hints *hints_create(
		const struct hints_config *config, const char *runtime_dir) {
	struct hints *hints = calloc(1, sizeof(*hints));
	if (hints == NULL) {
		return NULL;
	}
	hints->config = *config;
	wl_list_init(&hints->procs);
	struct kernel_info info;
	probe_kernel(&info);
	hints->uclamp = info.uclamp;
	hints->base_slice_ns = info.base_slice_ns;
	hints->cap_sys_nice = has_cap_sys_nice();
	struct rlimit lim = {0};
	getrlimit(RLIMIT_NICE, &lim);
	if (config->mode == HINTS_ON) {
		if (runtime_dir == NULL) {
			sched_log(SCHED_LOG_ERROR, "hints: no runtime dir for the journal");
			free(hints);
			return NULL;
		}
		hints->journal = hint_journal_create(runtime_dir);
		if (hints->journal == NULL) {
			free(hints);
			return NULL;
		}
	}
	sched_log(SCHED_LOG_INFO,
			"hints %s: CAP_SYS_NICE %s, RLIMIT_NICE %llu, uclamp %s, "
			"default slice %" PRIu64 " ns; %s",
			hints_mode_name(config->mode), hints->cap_sys_nice ? "yes" : "no",
			(unsigned long long)lim.rlim_cur,
			hints->uclamp ? "yes" : "no (kernel without CONFIG_UCLAMP_TASK)",
			hints->base_slice_ns,
			hints->cap_sys_nice
					? "nice may be lowered"
					: "nice only where the client's RLIMIT_NICE allows; "
					  "slices and SCHED_BATCH need no privilege");
	return hints;
}

void hints_destroy(struct hints *hints) {
	if (hints == NULL) {
		return;
	}
	struct hints_proc *proc, *tmp;
	wl_list_for_each_safe(proc, tmp, &hints->procs, link) {
		hints_proc_destroy(proc);
	}
	hint_journal_destroy(hints->journal);
	free(hints);
}

struct hints_proc *hints_proc_create(
		struct hints *hints, pid_t pid, int pidfd) {
	if (pid <= 0) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	struct hints_proc *proc = calloc(1, sizeof(*proc));
	if (proc == NULL) {
		if (pidfd >= 0) {
			close(pidfd);
		}
		return NULL;
	}
	proc->hints = hints;
	proc->pid = pid;
	proc->pidfd = pidfd;
	proc->wanted = proc->applied = RATINGS_IDLE;
	proc->tokens = hints->config.burst;
	proc->tokens_ns = INT64_MIN;
	wl_list_init(&proc->threads);
	if (proc->pidfd < 0) {
		proc->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	}
	/* The start time read while the pidfd's process is alive is its own. */
	if (proc->pidfd < 0 || !hint_proc_start_time(pid, pid, &proc->start) ||
			!pidfd_alive(proc->pidfd)) {
		sched_log(SCHED_LOG_DEBUG, "hints: pid %d is gone already", (int)pid);
		if (proc->pidfd >= 0) {
			close(proc->pidfd);
		}
		free(proc);
		return NULL;
	}
	scan_threads(proc);
	wl_list_insert(&hints->procs, &proc->link);
	return proc;
}

void hints_proc_destroy(struct hints_proc *proc) {
	if (proc == NULL) {
		return;
	}
	if (!proc->gone && verify(proc, NULL)) {
		apply_class(proc, proc->applied, true, false);
	}
	struct hints_thread *thread, *tmp;
	wl_list_for_each_safe(thread, tmp, &proc->threads, link) {
		forget_thread(proc, thread);
	}
	if (proc->hints->journal != NULL) {
		hint_journal_sync(proc->hints->journal);
	}
	wl_list_remove(&proc->link);
	close(proc->pidfd);
	free(proc);
}

static bool take_token(struct hints_proc *proc, int64_t now) {
	const struct hints_config *config = &proc->hints->config;
	if (proc->tokens_ns != INT64_MIN && config->refill_ns > 0) {
		proc->tokens +=
				(double)(now - proc->tokens_ns) / (double)config->refill_ns;
	}
	if (proc->tokens > config->burst) {
		proc->tokens = config->burst;
	}
	proc->tokens_ns = now;
	if (proc->tokens < 1) {
		return false;
	}
	proc->tokens -= 1;
	return true;
}

void hints_proc_update(struct hints_proc *proc, int64_t now) {
	if (proc->gone) {
		return;
	}
	if (!verify(proc, NULL)) {
		proc->gone = true;
		struct hints_thread *thread, *tmp;
		wl_list_for_each_safe(thread, tmp, &proc->threads, link) {
			forget_thread(proc, thread);
		}
		if (proc->hints->journal != NULL) {
			hint_journal_sync(proc->hints->journal);
		}
		return;
	}
	int fresh = scan_threads(proc);
	if (proc->wanted != proc->applied && take_token(proc, now)) {
		sched_log(SCHED_LOG_INFO, "hints: pid %d %s -> %s", (int)proc->pid,
				ratings_class_name(proc->applied),
				ratings_class_name(proc->wanted));
		proc->applied = proc->wanted;
		bool restore = proc->hints->config.targets[proc->wanted].keep;
		apply_class(proc, proc->applied, restore, false);
	} else if (fresh > 0) {
		apply_class(proc, proc->applied,
				proc->hints->config.targets[proc->applied].keep, true);
	}
}

void hints_proc_set_class(
		struct hints_proc *proc, enum ratings_class class, int64_t now) {
	proc->wanted = class;
	hints_proc_update(proc, now);
}

static void restore_entry(const struct hint_journal_entry *entry, void *data) {
	const struct kernel_info *info = data;
	uint64_t start;
	struct hint_attr current;
	/* The start time names the very thread the journal saved. */
	if (!hint_proc_start_time(entry->pid, entry->tid, &start) ||
			start != entry->start || !hints_get_attr(entry->tid, &current)) {
		return;
	}
	if (!attr_equal(&current, &entry->attr) &&
			!set_attr(info, entry->tid, &entry->attr, &current)) {
		sched_log(SCHED_LOG_ERROR, "hints: cannot restore tid %d: %s",
				(int)entry->tid, strerror(errno));
		return;
	}
	/* Gone between the check and the change: give the new one back. */
	if (!hint_proc_start_time(entry->pid, entry->tid, &start) ||
			start != entry->start) {
		set_attr(info, entry->tid, &current, &entry->attr);
	}
}

int hints_replay(const char *runtime_dir) {
	if (runtime_dir == NULL) {
		return 0;
	}
	struct kernel_info info;
	probe_kernel(&info);
	int count = hint_journal_replay(runtime_dir, restore_entry, &info);
	if (count > 0) {
		sched_log(SCHED_LOG_INFO,
				"hints: restored %d thread(s) from an old journal", count);
	}
	return count;
}
