#include "scheduler/hints/hint_group.h"
#include "scheduler/hints/hints.h"
#include "scheduler/log.h"
#include "tests/unit/check.h"
#include "tests/unit/family.h"
#include "tests/unit/test_log.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * The group level (scheduler/hints/hint_group.h, hints_app_group.c): which
 * group an application competes in, whether it is alone there, and its class
 * set on the group and given back, journal and crash included.
 *
 * - On a fake tree (a /proc and cgroup mounts of the test's own, through
 *   hint_group_env_set): cgroup v2 and v1 found where the cpu controller
 *   is enabled, autogroups where it is not, autogroups off; a cgroup's
 *   cpu.weight and cpu.idle set, restored, and replayed after a crash.
 * - On the machine's own autogroups (root, autogroups on): an application
 *   alone in its session gets its autogroup's nice and gives it back, one
 *   sharing its session does not; with autogroups switched off (the
 *   switch faked), only its threads.
 * - On the machine's own cgroup v1 cpu controller (root, where mounted):
 *   a cgroup of the test's own gets cpu.shares and cpu.idle.
 */

#define S INT64_C(1000000000)

static char dir[] = "/tmp/fw-hint-group-XXXXXX";
static char fake[] = "/tmp/fw-hint-fake-XXXXXX";
static bool root_user;

static void write_file(const char *path, const char *text) {
	char parent[512];
	snprintf(parent, sizeof(parent), "%s", path);
	for (char *p = parent + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(parent, 0755);
		*p = '/';
	}
	FILE *file = fopen(path, "w");
	CHECK(file != NULL);
	fputs(text, file);
	CHECK(fclose(file) == 0);
}

/* A file's first line, without its newline. */
static const char *read_text(const char *path) {
	static char buf[256];
	FILE *file = fopen(path, "r");
	CHECK(file != NULL);
	if (fgets(buf, sizeof(buf), file) == NULL) {
		buf[0] = '\0';
	}
	fclose(file);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

static void fake_path(char *buf, size_t size, const char *rest) {
	snprintf(buf, size, "%s/%s", fake, rest);
}

static void fake_write(const char *rest, const char *text) {
	char path[512];
	fake_path(path, sizeof(path), rest);
	write_file(path, text);
}

static const char *fake_read(const char *rest) {
	char path[512];
	fake_path(path, sizeof(path), rest);
	return read_text(path);
}

static void fake_env(struct hint_group_env *env, bool autogroups) {
	*env = (struct hint_group_env){0};
	snprintf(env->proc, sizeof(env->proc), "%s/proc", fake);
	snprintf(env->autogroup_switch, sizeof(env->autogroup_switch),
			"%s/proc/sys/kernel/sched_autogroup_enabled", fake);
	snprintf(env->cgroup2, sizeof(env->cgroup2), "%s/cgroup2", fake);
	snprintf(env->cpu_v1, sizeof(env->cpu_v1), "%s/cpu", fake);
	fake_write("proc/sys/kernel/sched_autogroup_enabled",
			autogroups ? "1\n" : "0\n");
}

/* A process of the fake /proc: its stat (parent, session). */
static void fake_process_of(pid_t pid, pid_t ppid, pid_t sid) {
	char rest[128], stat[256];
	snprintf(rest, sizeof(rest), "proc/%d/task/%d/stat", (int)pid, (int)pid);
	snprintf(stat, sizeof(stat),
			"%d (fake (1)) S %d %d %d 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 100 0\n",
			(int)pid, (int)ppid, (int)sid, (int)sid);
	fake_write(rest, stat);
}

/* And its cgroup and autogroup files, its parent 1. */
static void fake_process(pid_t pid, pid_t sid, const char *cgroup) {
	char rest[128], stat[256];
	fake_process_of(pid, 1, sid);
	snprintf(rest, sizeof(rest), "proc/%d/cgroup", (int)pid);
	fake_write(rest, cgroup);
	snprintf(rest, sizeof(rest), "proc/%d/autogroup", (int)pid);
	snprintf(stat, sizeof(stat), "/autogroup-%d nice 0\n", (int)sid);
	fake_write(rest, stat);
}

static void fake_cgroup(
		const char *path, const char *controllers, const char *procs, bool v1) {
	char rest[256];
	const char *mount = v1 ? "cpu" : "cgroup2";
	if (!v1) {
		snprintf(rest, sizeof(rest), "%s%s/cgroup.controllers", mount, path);
		fake_write(rest, controllers);
	}
	snprintf(rest, sizeof(rest), "%s%s/%s", mount, path,
			v1 ? "cpu.shares" : "cpu.weight");
	fake_write(rest, v1 ? "1024\n" : "100\n");
	snprintf(rest, sizeof(rest), "%s%s/cpu.idle", mount, path);
	fake_write(rest, "0\n");
	snprintf(rest, sizeof(rest), "%s%s/cgroup.procs", mount, path);
	fake_write(rest, procs);
}

static void test_locate(void) {
	struct hint_group_env env;
	fake_env(&env, true);
	struct hint_group_place place;

	/* v2, the controller enabled on the application's own scope. */
	fake_cgroup("/user.slice", "cpu memory\n", "", false);
	fake_cgroup("/user.slice/app-a.scope", "cpu memory\n", "10\n", false);
	fake_process(10, 10, "0::/user.slice/app-a.scope\n");
	hint_group_locate(&env, 10, &place);
	CHECK_INT(place.kind, HINT_GROUP_CGROUP);
	CHECK(strcmp(place.cgroup, "/user.slice/app-a.scope") == 0);

	/* Enabled only higher up: that is where its threads compete. */
	fake_cgroup("/user.slice/app-b.scope", "memory\n", "11\n", false);
	fake_process(11, 11, "0::/user.slice/app-b.scope\n");
	hint_group_locate(&env, 11, &place);
	CHECK_INT(place.kind, HINT_GROUP_CGROUP);
	CHECK(strcmp(place.cgroup, "/user.slice") == 0);

	/* Nowhere: the root task group, so its session's autogroup. */
	fake_cgroup("/nocpu", "memory pids\n", "12\n", false);
	fake_process(12, 12, "0::/nocpu\n");
	hint_group_locate(&env, 12, &place);
	CHECK_INT(place.kind, HINT_GROUP_AUTOGROUP);
	CHECK_INT(place.autogroup, 12);

	/* A cgroup v1 cpu controller at its root: autogroups again... */
	fake_process(13, 13, "3:cpu,cpuacct:/\n0::/nocpu\n");
	hint_group_locate(&env, 13, &place);
	CHECK_INT(place.kind, HINT_GROUP_AUTOGROUP);
	/* ...and below it, that cgroup's cpu.shares. */
	fake_cgroup("/fw", "", "14\n", true);
	fake_process(14, 14, "3:cpu,cpuacct:/fw\n0::/nocpu\n");
	hint_group_locate(&env, 14, &place);
	CHECK_INT(place.kind, HINT_GROUP_CGROUP_V1);
	CHECK(strcmp(place.cgroup, "/fw") == 0);

	/* A path that would step out of the mount is not followed. */
	fake_process(15, 15, "3:cpu:/../../etc\n");
	hint_group_locate(&env, 15, &place);
	CHECK_INT(place.kind, HINT_GROUP_NONE);

	/* Autogroups off: nothing but threads. */
	fake_env(&env, false);
	hint_group_locate(&env, 12, &place);
	CHECK_INT(place.kind, HINT_GROUP_NONE);
	CHECK(place.why != NULL && strstr(place.why, "autogroups off") != NULL);
	/* A cgroup does not care about autogroups. */
	hint_group_locate(&env, 10, &place);
	CHECK_INT(place.kind, HINT_GROUP_CGROUP);
}

static void test_weights(void) {
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP, 0), 100);
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP, -5), 305);
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP, 19), 1);
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP, -20), 8668);
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP_V1, -5), 3121);
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP_V1, 0), 1024);
	CHECK_INT(hint_group_weight_of_nice(HINT_GROUP_CGROUP_V1, 19), 15);
}

static bool members_20_21(pid_t pid, void *data) {
	return pid == 20 || pid == 21;
}

static void test_alone(void) {
	struct hint_group_env env;
	fake_env(&env, true);
	fake_process(20, 20, "0::/\n");
	fake_process(21, 20, "0::/\n");
	fake_process(22, 22, "0::/\n");
	size_t scanned = 0;
	CHECK(hint_group_session_alone(&env, 20, members_20_21, NULL, &scanned));
	CHECK(scanned >= 3);
	fake_process(23, 20, "0::/\n");
	CHECK(!hint_group_session_alone(&env, 20, members_20_21, NULL, NULL));

	/* Descent, by parents: 31 and 32 come from 30, 21 from 1. */
	fake_process_of(31, 30, 20);
	fake_process_of(32, 31, 20);
	CHECK(hint_group_descends(&env, 32, 30));
	CHECK(hint_group_descends(&env, 30, 30));
	CHECK(!hint_group_descends(&env, 30, 32));
	CHECK(!hint_group_descends(&env, 21, 20));
	struct hint_group_env system;
	hint_group_env_system(&system);
	CHECK(hint_group_descends(&system, getpid(), getppid()));
	CHECK(!hint_group_descends(&system, getppid(), getpid()));

	fake_cgroup("/app-c.scope", "cpu\n", "20\n21\n", false);
	struct hint_group_place place = {
			.kind = HINT_GROUP_CGROUP, .cgroup = "/app-c.scope"};
	CHECK(hint_group_cgroup_alone(&env, &place, members_20_21, NULL));
	/* A cgroup below holds an outsider: its weight is the outsider's too. */
	fake_cgroup("/app-c.scope/sub", "cpu\n", "23\n", false);
	CHECK(!hint_group_cgroup_alone(&env, &place, members_20_21, NULL));
}

static struct hints *make_hints(void) {
	struct hints_config config;
	hints_config_default(&config);
	struct hints *hints = hints_create(&config, dir);
	CHECK(hints != NULL);
	return hints;
}

/*
 * Without CAP_SYS_ADMIN the kernel takes one autogroup write every 100 ms
 * (EAGAIN): a write put off goes out at a later update.
 */
static void settle(struct hints_app *proc, int64_t *now) {
	for (int i = 0; i < 20 && proc->group.pending; i++) {
		usleep(50 * 1000);
		*now += S / 20;
		hints_app_update(proc, *now);
	}
	CHECK(!proc->group.pending);
}

static void set_class(
		struct hints_app *proc, enum ratings_class class, int64_t *now) {
	*now += S;
	hints_app_set_class(proc, class, *now);
	settle(proc, now);
}

/* A fairway that gives pid's application class, then crashes. */
static void crash_after(pid_t pid, enum ratings_class class) {
	pid_t crasher = fork();
	CHECK(crasher >= 0);
	if (crasher == 0) {
		struct hints *mine = make_hints();
		struct hints_app *app = hints_app_create(mine, pid, -1, geteuid());
		int64_t now = 0;
		set_class(app, class, &now);
		raise(SIGKILL);
	}
	int status;
	CHECK_INT(waitpid(crasher, &status, 0), crasher);
}

/* The family root and its child, in a fake cgroup v2 of their own. */
static void fake_family_cgroup(
		const struct family *family, pid_t child, const char *extra) {
	char procs[128];
	snprintf(procs, sizeof(procs), "%d\n%d\n%s", (int)family->root, (int)child,
			extra);
	fake_cgroup("/app-f.scope", "cpu\n", procs, false);
	fake_process(family->root, family->root, "0::/app-f.scope\n");
}

static void test_cgroup_class(void) {
	struct hint_group_env env;
	fake_env(&env, true);
	hint_group_env_set(&env);
	struct family family;
	family_start(&family, true);
	pid_t child = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	fake_family_cgroup(&family, child, "");
	struct hints *hints = make_hints();
	struct hints_app *proc =
			hints_app_create(hints, family.root, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(proc->group.kind, HINT_GROUP_CGROUP);
	CHECK(proc->group.changed);
	/* The default group nice, -15: cpu.weight 2847 (nice 0 is 100). */
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.weight"), "2847") == 0);
	char json[2048];
	hints_app_json(proc, json, sizeof(json));
	CHECK(strstr(json,
				  "\"group\":{\"kind\":\"cgroup\",\"set\":true,"
				  "\"cgroup\":\"/app-f.scope\",\"weight\":2847,\"idle\":0,"
				  "\"was\":100,\"was_idle\":0}") != NULL);
	hints_app_set_class(proc, RATINGS_BACKGROUND, 1 * S);
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.weight"), "100") == 0);
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.idle"), "1") == 0);
	hints_app_set_class(proc, RATINGS_IDLE, 2 * S);
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.idle"), "0") == 0);
	CHECK(!proc->group.changed);

	/* Someone else in the cgroup: its weight is theirs too, left alone. */
	fake_family_cgroup(&family, child, "1\n");
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 3 * S);
	CHECK(!proc->group.changed);
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.weight"), "100") == 0);
	CHECK(proc->group.why != NULL);
	hints_app_json(proc, json, sizeof(json));
	CHECK(strstr(json,
				  "\"group\":{\"kind\":\"cgroup\",\"set\":false,"
				  "\"why\":\"its cgroup holds processes not of it\"}") != NULL);
	hints_destroy(hints);

	/* A fairway that crashes leaves the original in its journal. */
	fake_family_cgroup(&family, child, "");
	crash_after(family.root, RATINGS_OUTPUT);
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.weight"), "2847") == 0);
	CHECK(hints_replay(dir) > 0);
	CHECK(strcmp(fake_read("cgroup2/app-f.scope/cpu.weight"), "100") == 0);
	hint_group_env_set(NULL);
	family_stop(&family);
}

/* As root would, by hand: the test's own change, not fairway's. */
static bool write_autogroup(pid_t pid, int nice) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/autogroup", (int)pid);
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		return false;
	}
	bool ok = fprintf(f, "%d", nice) > 0;
	return fclose(f) == 0 && ok;
}

static int autogroup_nice(pid_t pid) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/autogroup", (int)pid);
	unsigned long long id;
	int nice;
	CHECK(sscanf(read_text(path), "/autogroup-%llu nice %d", &id, &nice) == 2);
	return nice;
}

static bool autogroups_on(void) {
	return access("/proc/self/autogroup", R_OK) == 0 &&
			strcmp(read_text("/proc/sys/kernel/sched_autogroup_enabled"),
					"1") == 0;
}

/* The machine's autogroups: alone in its session, and not. */
static void test_autogroup(void) {
	if (!root_user || !autogroups_on()) {
		fprintf(stderr, "no autogroups, or not root: skipped\n");
		return;
	}
	struct family family;
	family_start(&family, true);
	pid_t child = family_child(&family, FAMILY_SLEEPER, 1, NULL);
	struct hints *hints = make_hints();
	/* A negative nice needs CAP_SYS_NICE (fairway's own). */
	int boost = hints->cap_sys_nice
			? hints->config.targets[RATINGS_INTERACTIVE].group_nice
			: 0;
	fprintf(stderr, "CAP_SYS_NICE %s: boosted autogroups at nice %d\n",
			hints->cap_sys_nice ? "yes" : "no", boost);
	struct hints_app *proc =
			hints_app_create(hints, family.root, -1, geteuid());
	int64_t now = 0;
	set_class(proc, RATINGS_INTERACTIVE, &now);
	CHECK_INT(proc->group.kind, HINT_GROUP_AUTOGROUP);
	CHECK_INT(autogroup_nice(family.root), boost);
	CHECK_INT(autogroup_nice(child), boost);
	/* Raised from 0 it can always be lowered back: no privilege needed. */
	set_class(proc, RATINGS_BACKGROUND, &now);
	CHECK_INT(autogroup_nice(family.root), 19);
	set_class(proc, RATINGS_IDLE, &now);
	CHECK_INT(autogroup_nice(family.root), 0);
	set_class(proc, RATINGS_BACKGROUND, &now);
	CHECK_INT(autogroup_nice(family.root), 19);
	set_class(proc, RATINGS_OUTPUT, &now);
	CHECK_INT(autogroup_nice(family.root), boost);
	set_class(proc, RATINGS_BACKGROUND, &now);
	hints_destroy(hints);
	CHECK_INT(autogroup_nice(family.root), 0);

	/*
	 * Under a file capability the journal is replayed with the user's
	 * privileges: a group the user could not have lowered (at nice -3
	 * here, by root) is never raised for background, which such a replay
	 * could not undo; with fairway's own privilege it is.
	 */
	for (int as_user = 0; as_user < 2 && hint_have_cap_sys_nice(); as_user++) {
		CHECK(write_autogroup(family.root, -3));
		hints = make_hints();
		hints->undo_as_user = as_user;
		hints->self_nice_floor = 20;
		proc = hints_app_create(hints, family.root, -1, geteuid());
		now = 0;
		set_class(proc, RATINGS_BACKGROUND, &now);
		CHECK_INT(autogroup_nice(family.root), as_user ? -3 : 19);
		hints_destroy(hints);
		CHECK_INT(autogroup_nice(family.root), -3);
		CHECK(write_autogroup(family.root, 0));
	}

	/*
	 * A client that goes right after a change: without CAP_SYS_ADMIN the
	 * kernel puts its restore off, which fairway keeps and finishes at a
	 * later update (of another application) rather than wait for.
	 */
	struct family other;
	family_start(&other, true);
	hints = make_hints();
	struct hints_app *stays =
			hints_app_create(hints, other.root, -1, geteuid());
	proc = hints_app_create(hints, family.root, -1, geteuid());
	now = 0;
	set_class(proc, RATINGS_BACKGROUND, &now);
	CHECK_INT(autogroup_nice(family.root), 19);
	hints_app_destroy(proc);
	fprintf(stderr, "restores put off: %d\n",
			wl_list_length(&hints->orphan_groups));
	usleep(150 * 1000);
	hints_app_update(stays, now + S);
	CHECK_INT(autogroup_nice(family.root), 0);
	CHECK(wl_list_empty(&hints->orphan_groups));
	hints_destroy(hints);
	family_stop(&other);

	/* A child of another uid in the session: the group is not its own. */
	pid_t stranger = family_child(&family, FAMILY_OTHER_UID, 0, NULL);
	hints = make_hints();
	proc = hints_app_create(hints, family.root, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(autogroup_nice(family.root), 0);
	CHECK_INT(autogroup_nice(stranger), 0);
	CHECK(!proc->group.changed);
	hints_destroy(hints);
	family_stop(&family);

	/* In the test's session: shared with the test itself. */
	family_start(&family, false);
	int before = autogroup_nice(getpid());
	hints = make_hints();
	proc = hints_app_create(hints, family.root, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(!proc->group.changed);
	CHECK_INT(autogroup_nice(getpid()), before);
	hints_destroy(hints);
	family_stop(&family);

	/* A crash: the next start gives the autogroup its nice back. */
	family_start(&family, true);
	crash_after(family.root, RATINGS_BACKGROUND);
	CHECK_INT(autogroup_nice(family.root), 19);
	/* Through the kernel's rate limit too. */
	usleep(150 * 1000);
	CHECK(hints_replay(dir) > 0);
	CHECK_INT(autogroup_nice(family.root), 0);
	family_stop(&family);
}

/* Autogroups off (the switch faked, /proc the machine's): threads only. */
static void test_autogroups_off(void) {
	if (!root_user || !autogroups_on()) {
		fprintf(stderr, "no autogroups, or not root: skipped\n");
		return;
	}
	struct hint_group_env env;
	hint_group_env_system(&env);
	fake_path(env.autogroup_switch, sizeof(env.autogroup_switch), "switch-off");
	write_file(env.autogroup_switch, "0\n");
	hint_group_env_set(&env);
	struct family family;
	family_start(&family, true);
	struct hints *hints = make_hints();
	struct hints_app *proc =
			hints_app_create(hints, family.root, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(proc->group.kind, HINT_GROUP_NONE);
	CHECK_INT(autogroup_nice(family.root), 0);
	struct hint_attr attr;
	CHECK(hint_attr_get(family.root, &attr));
	CHECK(attr.reset_on_fork);
	hints_destroy(hints);
	hint_group_env_set(NULL);
	family_stop(&family);
}

static bool write_pid(const char *path, pid_t pid) {
	char text[32];
	snprintf(text, sizeof(text), "%d", (int)pid);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	bool ok = fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	if (fd >= 0) {
		close(fd);
	}
	return ok;
}

/* The machine's cgroup v1 cpu controller, in a cgroup of the test's. */
static void test_cgroup_v1(void) {
	struct hint_group_env env;
	hint_group_env_system(&env);
	char cgroup[300], file[400];
	snprintf(cgroup, sizeof(cgroup), "%s/fw-hint-test-%d", env.cpu_v1,
			(int)getpid());
	if (!root_user || env.cpu_v1[0] == '\0' || mkdir(cgroup, 0755) != 0) {
		fprintf(stderr, "no cgroup v1 cpu controller to use: skipped\n");
		return;
	}
	struct family family;
	family_start(&family, true);
	snprintf(file, sizeof(file), "%s/cgroup.procs", cgroup);
	CHECK(write_pid(file, family.root));
	pid_t child = family_child(&family, FAMILY_SLEEPER, 0, NULL);
	struct hints *hints = make_hints();
	struct hints_app *proc =
			hints_app_create(hints, family.root, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK_INT(proc->group.kind, HINT_GROUP_CGROUP_V1);
	snprintf(file, sizeof(file), "%s/cpu.shares", cgroup);
	CHECK(strcmp(read_text(file), "29154") == 0); /* nice -15 */
	/* An idle group's shares read as the kernel's least (3). */
	hints_app_set_class(proc, RATINGS_BACKGROUND, 1 * S);
	snprintf(file, sizeof(file), "%s/cpu.idle", cgroup);
	if (access(file, F_OK) == 0) {
		CHECK(strcmp(read_text(file), "1") == 0);
	}
	hints_destroy(hints);
	if (access(file, F_OK) == 0) {
		CHECK(strcmp(read_text(file), "0") == 0);
	}
	snprintf(file, sizeof(file), "%s/cpu.shares", cgroup);
	CHECK(strcmp(read_text(file), "1024") == 0);

	/* The test itself joins: the cgroup is no longer the application's. */
	char procs[400];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", cgroup);
	pid_t outsider = fork();
	CHECK(outsider >= 0);
	if (outsider == 0) {
		for (;;) {
			pause();
		}
	}
	CHECK(write_pid(procs, outsider));
	hints = make_hints();
	proc = hints_app_create(hints, family.root, -1, geteuid());
	hints_app_set_class(proc, RATINGS_INTERACTIVE, 0);
	CHECK(!proc->group.changed);
	CHECK(strcmp(read_text(file), "1024") == 0);
	hints_destroy(hints);
	kill(outsider, SIGKILL);
	waitpid(outsider, NULL, 0);

	/* Back to the root cgroup, and the test's cgroup goes. */
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", env.cpu_v1);
	write_pid(procs, family.root);
	write_pid(procs, child);
	family_stop(&family);
	for (int i = 0; i < 100 && rmdir(cgroup) != 0 && errno == EBUSY; i++) {
		usleep(10000);
	}
}

int main(void) {
	test_log_init();
	CHECK(mkdtemp(dir) != NULL);
	CHECK(mkdtemp(fake) != NULL);
	root_user = geteuid() == 0;
	RUN_TEST(test_locate);
	RUN_TEST(test_weights);
	RUN_TEST(test_alone);
	RUN_TEST(test_cgroup_class);
	RUN_TEST(test_autogroup);
	RUN_TEST(test_autogroups_off);
	RUN_TEST(test_cgroup_v1);
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", fake);
	CHECK(system(cmd) == 0);
	rmdir(dir);
	return 0;
}
