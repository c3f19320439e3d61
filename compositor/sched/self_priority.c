#include "compositor/sched/self_priority.h"
#include "compositor/sched/ratings.h"
#include "compositor/server.h"
#include "scheduler/hints/cpu_pressure.h"
#include "scheduler/hints/hint_attr.h"
#include "scheduler/hints/hint_group.h"
#include "scheduler/hints/hints.h"
#include "scheduler/process/proc_stat.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

/* A fair policy at FW_SELF_NICE, not inherited by what the thread makes. */
static struct hint_sched_attr raised_attr(uint32_t policy) {
	return (struct hint_sched_attr){
			.size = sizeof(struct hint_sched_attr),
			.sched_policy = policy,
			.sched_flags = HINT_FLAG_RESET_ON_FORK,
			.sched_nice = FW_SELF_NICE,
			/* 0: the default slice, as the thread had. */
	};
}

/* The lowest nice fairway may give its own thread or autogroup: the
 * kernel checks both alike. RLIMIT_NICE n allows nice down to 20 - n. */
static int own_nice_floor(void) {
	return hint_have_cap_sys_nice() ? -20 : hint_rlimit_nice_floor(0);
}

bool fw_self_priority_raise(void) {
	struct hint_sched_attr attr = {0};
	if (syscall(SYS_sched_getattr, 0, &attr, sizeof(attr), 0) != 0) {
		wlr_log_errno(WLR_INFO, "Own priority: sched_getattr");
		return false;
	}
	if (attr.sched_policy != 0 && attr.sched_policy != 3) {
		/* Real-time or SCHED_IDLE: whoever started us chose that. */
		wlr_log(WLR_INFO, "Own priority: policy %u left as it is",
				attr.sched_policy);
		return attr.sched_policy != 5;
	}
	if (attr.sched_nice <= FW_SELF_NICE) {
		return true;
	}
	if (own_nice_floor() > FW_SELF_NICE) {
		struct rlimit lim = {0};
		getrlimit(RLIMIT_NICE, &lim);
		wlr_log(WLR_INFO,
				"Own priority: staying at nice %d, no CAP_SYS_NICE and "
				"RLIMIT_NICE %llu (nice %d needs %d)",
				attr.sched_nice, (unsigned long long)lim.rlim_cur, FW_SELF_NICE,
				20 - FW_SELF_NICE);
		return false;
	}
	attr = raised_attr(attr.sched_policy);
	if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
		wlr_log(WLR_INFO, "Own priority: cannot take nice %d: %s", FW_SELF_NICE,
				strerror(errno));
		return false;
	}
	wlr_log(WLR_INFO,
			"Own priority: main thread at nice %d, reset on fork "
			"(clients and later threads start from the defaults)",
			FW_SELF_NICE);
	return true;
}

/*
 * --raise-priority rr. Process-wide, as the signal handler must find it:
 * there is one main thread.
 */
static struct {
	pid_t tid;
	/* What the thread had before SCHED_RR, and goes back to on SIGXCPU. */
	struct hint_sched_attr fair;
	/* The handler writes a byte, the loop reads it and plans the retry. */
	int wake[2];
	struct wl_event_source *wake_source;
	struct wl_event_source *retry_timer;
	int retry_ms;
	struct timespec raised_at;
	bool held; /* SCHED_RR now */
	/* --raise-priority auto: SCHED_RR only while the CPU is contended. */
	bool automatic;
	bool cooling; /* lost to SIGXCPU; the retry timer ends it */
	struct fw_server *server;
	int psi_fd, stat_fd;
	uint64_t ns_per_tick;
	struct wl_event_source *pressure_timer;
	struct cpu_pressure pressure;
	/* What the pressure showed, and whether SCHED_RR, as last logged. */
	enum cpu_pressure_why told_why;
	bool told_held;
} realtime = {.wake = {-1, -1}, .psi_fd = -1, .stat_fd = -1};

/* RLIMIT_RTTIME as fairway found it, for every child it forks (wlroots'
 * Xwayland too): set there before anything runs. */
static struct rlimit original_rttime = {RLIM_INFINITY, RLIM_INFINITY};
static bool rttime_restored_in_children;

static void restore_rttime(void) {
	setrlimit(RLIMIT_RTTIME, &original_rttime);
}

/* How often --raise-priority auto reads the CPU's pressure. */
#define PRESSURE_SAMPLE_MS 500

/* Back to SCHED_RR at most this often after a SIGXCPU, doubling. */
#define REALTIME_RETRY_MIN_MS 1000
#define REALTIME_RETRY_MAX_MS (64 * 1000)

/*
 * A signal handler of its own, not the event loop's: SIGXCPU comes
 * because the main thread has not returned to its loop for
 * FW_SELF_RTTIME_US, so a loop's signalfd would be read only once it
 * does. Only system calls here, and errno kept.
 */
static void handle_sigxcpu(int signum) {
	int saved = errno;
	if (syscall(SYS_sched_setattr, realtime.tid, &realtime.fair, 0) == 0) {
		ssize_t n = write(realtime.wake[1], "x", 1);
		(void)n;
	}
	errno = saved;
}

static bool take_realtime(void) {
	struct hint_sched_attr attr = {
			.size = sizeof(attr),
			.sched_policy = 2, /* SCHED_RR */
			.sched_flags = HINT_FLAG_RESET_ON_FORK,
			.sched_priority = 1,
	};
	if (syscall(SYS_sched_setattr, realtime.tid, &attr, 0) != 0) {
		return false;
	}
	clock_gettime(CLOCK_MONOTONIC, &realtime.raised_at);
	realtime.held = true;
	return true;
}

/*
 * A long burst is not a loop gone wrong for ever: a keymap compiled, a
 * first paint of a large output, a sanitizer's build. The thread takes
 * SCHED_RR again after a while, later each time it loses it soon after.
 */
static int handle_demoted(int fd, uint32_t mask, void *data) {
	char buf[16];
	while (read(fd, buf, sizeof(buf)) > 0) {
	}
	realtime.held = false;
	realtime.cooling = realtime.automatic;
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	bool soon = now.tv_sec - realtime.raised_at.tv_sec <
			REALTIME_RETRY_MAX_MS / 1000;
	if (realtime.retry_ms == 0 || !soon) {
		realtime.retry_ms = REALTIME_RETRY_MIN_MS;
	} else if (realtime.retry_ms < REALTIME_RETRY_MAX_MS) {
		realtime.retry_ms *= 2;
	}
	wlr_log(WLR_INFO,
			"Own priority: main thread ran %d ms without blocking, back to "
			"nice %d; SCHED_RR again in %d s%s",
			FW_SELF_RTTIME_US / 1000, realtime.fair.sched_nice,
			realtime.retry_ms / 1000,
			realtime.automatic ? " if the CPU is still contended" : "");
	wl_event_source_timer_update(realtime.retry_timer, realtime.retry_ms);
	return 0;
}

static int handle_retry(void *data) {
	if (realtime.automatic) {
		/* The next pressure sample decides. */
		realtime.cooling = false;
		return 0;
	}
	if (take_realtime()) {
		wlr_log(WLR_INFO, "Own priority: main thread SCHED_RR again");
	} else {
		wlr_log(WLR_INFO, "Own priority: cannot take SCHED_RR again: %s",
				strerror(errno));
	}
	return 0;
}

static bool read_text(int fd, char *text, size_t size) {
	ssize_t n = pread(fd, text, size - 1, 0);
	if (n <= 0) {
		return false;
	}
	text[n] = '\0';
	return true;
}

/* The counters auto decides on; false if the kernel's cannot be read. */
static bool read_pressure(struct cpu_pressure_reading *reading) {
	char psi[256];
	/* The first line is the machine's; the per-CPU lines may be long. */
	char stat[512];
	uint64_t busy_ticks, own_ticks;
	if (!read_text(realtime.psi_fd, psi, sizeof(psi)) ||
			!cpu_pressure_parse(psi, &reading->stalled_us) ||
			!read_text(realtime.stat_fd, stat, sizeof(stat)) ||
			!cpu_pressure_parse_busy(stat, &busy_ticks) ||
			!proc_stat_read_cpu(PROC_ROOT, getpid(), &own_ticks)) {
		return false;
	}
	own_ticks += fw_ratings_cpu_ticks(realtime.server);
	reading->busy_ns = busy_ticks * realtime.ns_per_tick;
	reading->own_ns = own_ticks * realtime.ns_per_tick;
	/* Read on the main thread: its timer runs there. */
	struct timespec main_time;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &main_time) != 0) {
		return false;
	}
	reading->main_ns = (uint64_t)main_time.tv_sec * 1000000000 +
			(uint64_t)main_time.tv_nsec;
	return true;
}

/* Once for each change of what the pressure showed or of the policy. */
static void log_pressure(const struct cpu_pressure *pressure) {
	static const char *const why_text[] = {
			[CPU_PRESSURE_FREE] = "free",
			[CPU_PRESSURE_OWN_LOAD] = "fairway's and its clients' load",
			[CPU_PRESSURE_MAIN_BUSY] = "the main thread itself busy",
			[CPU_PRESSURE_OTHERS] = "others' load",
	};
	if (pressure->why == realtime.told_why &&
			realtime.held == realtime.told_held) {
		return;
	}
	realtime.told_why = pressure->why;
	realtime.told_held = realtime.held;
	char policy[32] = "SCHED_RR";
	if (!realtime.held) {
		snprintf(policy, sizeof(policy), "nice %d", realtime.fair.sched_nice);
	}
	wlr_log(WLR_DEBUG,
			"Own priority: %.0f %% stalled, others use %.2f CPUs, the main "
			"thread ran %.0f %%: %s, %s",
			pressure->stalled_share * 100, pressure->others_cpus,
			pressure->main_share * 100, why_text[pressure->why], policy);
}

static int handle_pressure(void *data) {
	wl_event_source_timer_update(realtime.pressure_timer, PRESSURE_SAMPLE_MS);
	struct cpu_pressure_reading reading;
	if (!read_pressure(&reading)) {
		return 0;
	}
	struct cpu_pressure *pressure = &realtime.pressure;
	cpu_pressure_sample(pressure, &reading, sched_clock_now_ns());
	bool want = pressure->contended && !realtime.cooling;
	if (want && !realtime.held) {
		take_realtime();
	} else if (!want && realtime.held &&
			syscall(SYS_sched_setattr, realtime.tid, &realtime.fair, 0) == 0) {
		realtime.held = false;
	}
	log_pressure(pressure);
	return 0;
}

static int open_counter(const char *test_env, const char *path) {
	const char *test = getenv(test_env);
	return open(test != NULL ? test : path, O_RDONLY | O_CLOEXEC);
}

/* The counters, and a first sample: false, said once, without. */
static bool open_pressure(struct wl_event_loop *loop) {
	realtime.psi_fd =
			open_counter("FAIRWAY_TEST_PSI_FILE", "/proc/pressure/cpu");
	realtime.stat_fd = open_counter("FAIRWAY_TEST_STAT_FILE", "/proc/stat");
	long hz = sysconf(_SC_CLK_TCK);
	realtime.ns_per_tick = hz > 0 ? (uint64_t)(1000000000 / hz) : 10000000;
	struct cpu_pressure_reading reading;
	if (realtime.psi_fd < 0 || realtime.stat_fd < 0 ||
			!read_pressure(&reading)) {
		const char *psi = getenv("FAIRWAY_TEST_PSI_FILE");
		wlr_log(WLR_INFO,
				"Own priority: not SCHED_RR, no CPU pressure in %s (a kernel "
				"with PSI, or psi=1 on its command line) or no CPU time in "
				"/proc/stat",
				psi != NULL ? psi : "/proc/pressure/cpu");
		return false;
	}
	cpu_pressure_sample(&realtime.pressure, &reading, sched_clock_now_ns());
	realtime.pressure_timer =
			wl_event_loop_add_timer(loop, handle_pressure, NULL);
	if (realtime.pressure_timer == NULL) {
		return false;
	}
	wl_event_source_timer_update(realtime.pressure_timer, PRESSURE_SAMPLE_MS);
	return true;
}

/* What the thread has now, as fairway itself set it: the fair policy,
 * its nice, its slice if fairway chose one. */
static bool read_fair(struct hint_sched_attr *fair) {
	struct hint_sched_attr now = {0};
	if (syscall(SYS_sched_getattr, 0, &now, sizeof(now), 0) != 0 ||
			!hint_fair_policy(now.sched_policy)) {
		return false;
	}
	*fair = (struct hint_sched_attr){
			.size = sizeof(*fair),
			.sched_policy = now.sched_policy,
			.sched_flags = HINT_FLAG_RESET_ON_FORK,
			.sched_nice = now.sched_nice,
			.sched_runtime = now.sched_runtime == FW_SELF_SLICE_NS
					? FW_SELF_SLICE_NS
					: 0,
	};
	return true;
}

bool fw_self_priority_realtime(struct fw_server *server, bool automatic) {
	struct wl_event_loop *loop = server->loop;
	struct rlimit rtprio = {0};
	getrlimit(RLIMIT_RTPRIO, &rtprio);
	if (!hint_have_cap_sys_nice() && rtprio.rlim_cur < 1) {
		wlr_log(WLR_INFO,
				"Own priority: not SCHED_RR, no CAP_SYS_NICE and "
				"RLIMIT_RTPRIO %llu",
				(unsigned long long)rtprio.rlim_cur);
		return false;
	}
	if (!read_fair(&realtime.fair)) {
		wlr_log(WLR_INFO, "Own priority: not SCHED_RR, policy not fair now");
		return false;
	}
	/*
	 * The soft limit only: SIGXCPU, caught. The hard one stays as it was,
	 * and what fairway forks gets the soft one back (restore_rttime): a
	 * program of the session that takes real time itself is not killed
	 * for a limit that is fairway's.
	 */
	struct rlimit had = {0};
	getrlimit(RLIMIT_RTTIME, &had);
	struct rlimit rttime = {FW_SELF_RTTIME_US, had.rlim_max};
	if (had.rlim_max != RLIM_INFINITY && had.rlim_max < rttime.rlim_cur) {
		rttime.rlim_cur = had.rlim_max;
	}
	if (pipe2(realtime.wake, O_CLOEXEC | O_NONBLOCK) != 0) {
		wlr_log_errno(WLR_INFO, "Own priority: not SCHED_RR, pipe");
		goto error;
	}
	realtime.wake_source = wl_event_loop_add_fd(
			loop, realtime.wake[0], WL_EVENT_READABLE, handle_demoted, NULL);
	realtime.retry_timer = wl_event_loop_add_timer(loop, handle_retry, NULL);
	if (realtime.wake_source == NULL || realtime.retry_timer == NULL) {
		wlr_log(WLR_INFO, "Own priority: not SCHED_RR, no event source");
		goto error;
	}
	struct sigaction action = {.sa_handler = handle_sigxcpu};
	sigemptyset(&action.sa_mask);
	if (setrlimit(RLIMIT_RTTIME, &rttime) != 0 ||
			sigaction(SIGXCPU, &action, NULL) != 0) {
		wlr_log_errno(WLR_INFO, "Own priority: not SCHED_RR, no RLIMIT_RTTIME");
		goto error;
	}
	original_rttime = had;
	if (!rttime_restored_in_children) {
		pthread_atfork(NULL, NULL, restore_rttime);
		rttime_restored_in_children = true;
	}
	realtime.tid = (pid_t)syscall(SYS_gettid);
	realtime.automatic = automatic;
	realtime.server = server;
	if (automatic) {
		if (!open_pressure(loop)) {
			goto error;
		}
		wlr_log(WLR_INFO,
				"Own priority: main thread SCHED_RR 1 while the CPU is "
				"contended by others than fairway's clients, reset on fork, "
				"back to nice %d after %d ms without blocking",
				realtime.fair.sched_nice, FW_SELF_RTTIME_US / 1000);
		return true;
	}
	if (!take_realtime()) {
		wlr_log(WLR_INFO, "Own priority: cannot take SCHED_RR: %s",
				strerror(errno));
		goto error;
	}
	wlr_log(WLR_INFO,
			"Own priority: main thread SCHED_RR 1, reset on fork, back to "
			"nice %d after %d ms without blocking",
			realtime.fair.sched_nice, FW_SELF_RTTIME_US / 1000);
	return true;

error:
	fw_self_priority_realtime_finish();
	return false;
}

void fw_self_priority_realtime_finish(void) {
	if (realtime.tid != 0) {
		struct sigaction action = {.sa_handler = SIG_DFL};
		sigemptyset(&action.sa_mask);
		sigaction(SIGXCPU, &action, NULL);
		syscall(SYS_sched_setattr, realtime.tid, &realtime.fair, 0);
		realtime.tid = 0;
	}
	if (rttime_restored_in_children) {
		restore_rttime();
	}
	if (realtime.retry_timer != NULL) {
		wl_event_source_remove(realtime.retry_timer);
		realtime.retry_timer = NULL;
	}
	if (realtime.pressure_timer != NULL) {
		wl_event_source_remove(realtime.pressure_timer);
		realtime.pressure_timer = NULL;
	}
	if (realtime.psi_fd >= 0) {
		close(realtime.psi_fd);
		realtime.psi_fd = -1;
	}
	if (realtime.stat_fd >= 0) {
		close(realtime.stat_fd);
		realtime.stat_fd = -1;
	}
	realtime.server = NULL;
	realtime.held = false;
	if (realtime.wake_source != NULL) {
		wl_event_source_remove(realtime.wake_source);
		realtime.wake_source = NULL;
	}
	for (int i = 0; i < 2; i++) {
		if (realtime.wake[i] >= 0) {
			close(realtime.wake[i]);
			realtime.wake[i] = -1;
		}
	}
}

void fw_self_priority_slice(void) {
	struct hint_sched_attr attr = {0};
	if (syscall(SYS_sched_getattr, 0, &attr, sizeof(attr), 0) != 0 ||
			!hint_fair_policy(attr.sched_policy)) {
		return;
	}
	attr = (struct hint_sched_attr){
			.size = sizeof(attr),
			.sched_policy = attr.sched_policy,
			/* Setting it needs no privilege: nothing fairway spawns
			 * inherits the slice, raised or not. */
			.sched_flags = HINT_FLAG_RESET_ON_FORK,
			.sched_nice = attr.sched_nice,
			.sched_runtime = FW_SELF_SLICE_NS,
	};
	struct hint_sched_attr now = {0};
	if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0 ||
			syscall(SYS_sched_getattr, 0, &now, sizeof(now), 0) != 0 ||
			now.sched_runtime != FW_SELF_SLICE_NS) {
		wlr_log(WLR_INFO, "Own priority: no custom slice on this kernel");
		return;
	}
	wlr_log(WLR_INFO, "Own priority: main thread's slice %d us",
			FW_SELF_SLICE_NS / 1000);
}

/* The autogroup raised, and the nice it had, for fw_self_priority_lower. */
static struct {
	bool raised;
	struct hint_group_place place;
	struct hint_group_value was;
	int set; /* the nice fairway gave it */
} own_group;

static bool own_process(pid_t pid, void *data) {
	const struct hint_group_env *env = data;
	return hint_group_descends(env, pid, getpid());
}

bool fw_self_priority_raise_group(void) {
	struct hint_group_env env;
	hint_group_env_system(&env);
	struct hint_group_place place;
	hint_group_locate(&env, getpid(), &place);
	if (place.kind != HINT_GROUP_AUTOGROUP) {
		wlr_log(WLR_INFO, "Own group: none raised (%s)",
				place.kind == HINT_GROUP_NONE && place.why != NULL
						? place.why
						: hint_group_kind_name(place.kind));
		return false;
	}
	/* Never a group fairway shares: a login shell's, a terminal's. */
	if (!hint_group_session_alone(&env, getsid(0), own_process, &env, NULL)) {
		wlr_log(WLR_INFO,
				"Own group: autogroup %llu left as it is, its session holds "
				"processes not fairway's (start fairway with setsid)",
				(unsigned long long)place.autogroup);
		return false;
	}
	struct hint_group_value was, want;
	if (!hint_group_read(&env, &place, getpid(), &was)) {
		wlr_log(WLR_INFO, "Own group: cannot read autogroup %llu",
				(unsigned long long)place.autogroup);
		return false;
	}
	int floor = own_nice_floor();
	int want_nice = floor > HINTS_NICE_FLOOR ? floor : HINTS_NICE_FLOOR;
	if (was.nice <= want_nice) {
		if (was.nice > HINTS_NICE_FLOOR) {
			wlr_log(WLR_INFO,
					"Own group: autogroup %llu stays at nice %d, no "
					"CAP_SYS_NICE and RLIMIT_NICE allows %d",
					(unsigned long long)place.autogroup, was.nice, floor);
		}
		return was.nice < 0;
	}
	want = was;
	want.nice = want_nice;
	int err = hint_group_write(&env, &place, getpid(), &want, &was);
	if (err != 0) {
		wlr_log(WLR_INFO, "Own group: cannot set autogroup %llu to nice %d: %s",
				(unsigned long long)place.autogroup, want_nice, strerror(err));
		return false;
	}
	own_group.raised = true;
	own_group.place = place;
	own_group.was = was;
	own_group.set = want_nice;
	wlr_log(WLR_INFO, "Own group: autogroup %llu at nice %d (was %d)",
			(unsigned long long)place.autogroup, want_nice, was.nice);
	return true;
}

void fw_self_priority_lower_group(void) {
	if (!own_group.raised) {
		return;
	}
	own_group.raised = false;
	struct hint_group_env env;
	hint_group_env_system(&env);
	struct hint_group_value now;
	if (hint_group_read(&env, &own_group.place, getpid(), &now) &&
			now.nice == own_group.set) {
		hint_group_write(
				&env, &own_group.place, getpid(), &own_group.was, &now);
	}
}
