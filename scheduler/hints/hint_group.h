#ifndef FAIRWAY_SCHEDULER_HINTS_HINT_GROUP_H
#define FAIRWAY_SCHEDULER_HINTS_HINT_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The task group an application's threads compete in, and the lever on
 * it. The kernel's fair scheduler shares the CPU between task groups
 * first and only then between the threads of a group by their nice, so a
 * thread's nice weighs only against the threads of its own group:
 *
 * - A process in the root cgroup of the cpu controller belongs to its
 *   session's autogroup where autogroups are on
 *   (/proc/sys/kernel/sched_autogroup_enabled; Debian's kernels and most
 *   desktops). Its weight is set by writing a nice to /proc/PID/autogroup:
 *   a negative one needs CAP_SYS_NICE or the writer's own RLIMIT_NICE, and
 *   the kernel takes one write every 100 ms from writers without
 *   CAP_SYS_ADMIN, system-wide (EAGAIN otherwise).
 * - A process in any other cgroup with the cpu controller (a systemd
 *   scope, say) competes as that cgroup: cgroup v2's cpu.weight (1-10000,
 *   100 by default) and cpu.idle (Linux 5.15), or v1's cpu.shares (2 to
 *   262144, 1024 by default) and cpu.idle. Writing them needs write access
 *   to the files: root, or a delegated subtree.
 * - Otherwise (autogroups off, root cgroup) every thread competes with
 *   every other: per-thread attributes are the whole story.
 *
 * This file finds which applies and reads and writes the files, under
 * roots a test may replace (struct hint_group_env). Deciding when to use
 * them, and undoing it, is hints_app_group.c's.
 */

#define HINT_GROUP_PATH_MAX 512

enum hint_group_kind {
	HINT_GROUP_NONE, /* per-thread attributes only */
	HINT_GROUP_AUTOGROUP, /* the session's autogroup: its nice */
	HINT_GROUP_CGROUP, /* cgroup v2 cpu.weight and cpu.idle */
	HINT_GROUP_CGROUP_V1, /* cgroup v1 cpu.shares and cpu.idle */
};

const char *hint_group_kind_name(enum hint_group_kind kind);

/* The files the group level reads and writes: the system's, or a test's. */
struct hint_group_env {
	char proc[256]; /* "/proc" */
	char autogroup_switch[300]; /* .../sys/kernel/sched_autogroup_enabled */
	char cgroup2[256]; /* the cgroup2 mount; "" if none */
	char cpu_v1[256]; /* the v1 hierarchy with the cpu controller; "" if none */
};

/* The system's, from /proc/self/mountinfo, or a test's (below). */
void hint_group_env_system(struct hint_group_env *env);
/* Tests only: what hint_group_env_system gives from now on; NULL: the
 * system's again. */
void hint_group_env_set(const struct hint_group_env *env);

/* Where a process's threads compete. */
struct hint_group_place {
	enum hint_group_kind kind;
	/* HINT_GROUP_AUTOGROUP: its id (the N of /autogroup-N). */
	uint64_t autogroup;
	/* Cgroups: its path under the mount, and its directory's inode. */
	char cgroup[HINT_GROUP_PATH_MAX];
	uint64_t ino;
	/* HINT_GROUP_NONE: why, for the log and --stats. */
	const char *why;
};

/* Whether two places are the same group. */
bool hint_group_place_equal(
		const struct hint_group_place *a, const struct hint_group_place *b);

/*
 * Where pid's threads compete now. Always fills place: kind NONE, with
 * why, where no group applies or the files cannot be read.
 */
void hint_group_locate(const struct hint_group_env *env, pid_t pid,
		struct hint_group_place *place);

/*
 * A group's value: an autogroup's nice, or a cgroup's weight in its own
 * unit (v2 cpu.weight, v1 cpu.shares) and cpu.idle (-1: the kernel has
 * none).
 */
struct hint_group_value {
	int32_t nice;
	uint32_t weight;
	int idle;
};

/*
 * Reads place's value; for an autogroup through pid, which must still be
 * in it (its id is checked). False if it cannot be read, or is not the
 * same group any more.
 */
bool hint_group_read(const struct hint_group_env *env,
		const struct hint_group_place *place, pid_t pid,
		struct hint_group_value *value);
/*
 * Writes what differs between value and current (an autogroup through
 * pid). Returns 0 or an errno: EAGAIN is the kernel's rate limit on
 * autogroup writes, EPERM or EACCES a lack of privilege, ESTALE a group
 * that is no longer the one located.
 */
int hint_group_write(const struct hint_group_env *env,
		const struct hint_group_place *place, pid_t pid,
		const struct hint_group_value *value,
		const struct hint_group_value *current);

/* The weight of a nice in place's unit (the kernel's own table). */
uint32_t hint_group_weight_of_nice(enum hint_group_kind kind, int nice);
/* Its default weight: what nice 0 is. */
uint32_t hint_group_default_weight(enum hint_group_kind kind);

typedef bool (*hint_group_member_func)(pid_t pid, void *data);

/*
 * Whether every process in session sid is a member; a scan of every
 * process's stat (stops at the first outsider). scanned, if not NULL,
 * gets how many processes were read.
 */
bool hint_group_session_alone(const struct hint_group_env *env, pid_t sid,
		hint_group_member_func member, void *data, size_t *scanned);
/*
 * Whether pid is ancestor or one of its descendants, by the parents /proc
 * names (at most 64 generations): fairway's own processes, for its own
 * group (Xwayland, and what it starts before a client calls setsid()).
 */
bool hint_group_descends(
		const struct hint_group_env *env, pid_t pid, pid_t ancestor);

/*
 * Whether every process in the cgroup and the cgroups below it is a
 * member (cgroup.procs, at most HINT_GROUP_CGROUP_PROCS_MAX in all).
 */
#define HINT_GROUP_CGROUP_PROCS_MAX 4096
bool hint_group_cgroup_alone(const struct hint_group_env *env,
		const struct hint_group_place *place, hint_group_member_func member,
		void *data);

#endif
