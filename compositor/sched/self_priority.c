#include "compositor/sched/self_priority.h"
#include "scheduler/hints/hint_attr.h"
#include "scheduler/hints/hint_group.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
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
	struct rlimit lim = {0};
	getrlimit(RLIMIT_NICE, &lim);
	/* RLIMIT_NICE n allows nice down to 20 - n. */
	bool allowed = hint_have_cap_sys_nice() || lim.rlim_cur == RLIM_INFINITY ||
			20 - (long long)lim.rlim_cur <= FW_SELF_NICE;
	if (!allowed) {
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

/* The thread fw_self_priority_realtime made SCHED_RR. */
static pid_t realtime_tid;

/*
 * A signal handler of its own, not the event loop's: SIGXCPU comes
 * because the main thread has not returned to its loop for
 * FW_SELF_RTTIME_US, so a loop's signalfd would be read only once it
 * does. Only system calls here, and errno kept.
 */
static void handle_sigxcpu(int signum) {
	int saved = errno;
	struct hint_sched_attr attr = raised_attr(0);
	if (syscall(SYS_sched_setattr, realtime_tid, &attr, 0) == 0) {
		static const char msg[] = "fairway: Own priority: main thread ran "
								  "too long at SCHED_RR, now at nice -10\n";
		ssize_t n = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)n;
	}
	errno = saved;
}

bool fw_self_priority_realtime(void) {
	struct rlimit rtprio = {0};
	getrlimit(RLIMIT_RTPRIO, &rtprio);
	if (!hint_have_cap_sys_nice() && rtprio.rlim_cur < 1) {
		wlr_log(WLR_INFO,
				"Own priority: not SCHED_RR, no CAP_SYS_NICE and "
				"RLIMIT_RTPRIO %llu",
				(unsigned long long)rtprio.rlim_cur);
		return false;
	}
	/*
	 * Soft: SIGXCPU, caught. Hard: SIGKILL, never reached once the soft
	 * one put the thread back to a fair policy; at most rtkit's 200 ms,
	 * so that a child that asks rtkit for real time is not refused for
	 * the limit it inherited.
	 */
	struct rlimit rttime = {FW_SELF_RTTIME_US, 4 * FW_SELF_RTTIME_US};
	struct rlimit had = {0};
	getrlimit(RLIMIT_RTTIME, &had);
	if (had.rlim_max != RLIM_INFINITY && had.rlim_max < rttime.rlim_max) {
		rttime.rlim_max = had.rlim_max;
		if (rttime.rlim_cur > rttime.rlim_max) {
			rttime.rlim_cur = rttime.rlim_max;
		}
	}
	struct sigaction action = {.sa_handler = handle_sigxcpu};
	sigemptyset(&action.sa_mask);
	if (setrlimit(RLIMIT_RTTIME, &rttime) != 0 ||
			sigaction(SIGXCPU, &action, NULL) != 0) {
		wlr_log_errno(WLR_INFO, "Own priority: not SCHED_RR, no RLIMIT_RTTIME");
		return false;
	}
	realtime_tid = (pid_t)syscall(SYS_gettid);
	struct hint_sched_attr attr = {
			.size = sizeof(attr),
			.sched_policy = 2, /* SCHED_RR */
			.sched_flags = HINT_FLAG_RESET_ON_FORK,
			.sched_priority = 1,
	};
	if (syscall(SYS_sched_setattr, 0, &attr, 0) != 0) {
		wlr_log(WLR_INFO, "Own priority: cannot take SCHED_RR: %s",
				strerror(errno));
		return false;
	}
	wlr_log(WLR_INFO,
			"Own priority: main thread SCHED_RR 1, reset on fork, back to "
			"nice %d after %d ms without blocking",
			FW_SELF_NICE, FW_SELF_RTTIME_US / 1000);
	return true;
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
	if (was.nice <= FW_SELF_NICE) {
		return true;
	}
	want = was;
	want.nice = FW_SELF_NICE;
	int err = hint_group_write(&env, &place, getpid(), &want, &was);
	if (err != 0) {
		wlr_log(WLR_INFO, "Own group: cannot set autogroup %llu to nice %d: %s",
				(unsigned long long)place.autogroup, FW_SELF_NICE,
				strerror(err));
		return false;
	}
	own_group.raised = true;
	own_group.place = place;
	own_group.was = was;
	wlr_log(WLR_INFO, "Own group: autogroup %llu at nice %d (was %d)",
			(unsigned long long)place.autogroup, FW_SELF_NICE, was.nice);
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
			now.nice == FW_SELF_NICE) {
		hint_group_write(
				&env, &own_group.place, getpid(), &own_group.was, &now);
	}
}
