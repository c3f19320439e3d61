#include "scheduler/hints/hint_group.h"
#include "scheduler/process/proc_stat.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Room for any path built here: a mount, a cgroup's path and a file. */
#define FILE_MAX 1024

/* Builds a path in buf (FILE_MAX); false if it does not fit. */
__attribute__((format(printf, 2, 3))) static bool path_fmt(
		char *buf, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	int len = vsnprintf(buf, FILE_MAX, fmt, args);
	va_end(args);
	return len >= 0 && len < FILE_MAX;
}

/* The kernel's sched_prio_to_weight: nice -20 to 19. */
static const uint32_t nice_weight[40] = {88761, 71755, 56483, 46273, 36291,
		29154, 23254, 18705, 14949, 11916, 9548, 7620, 6100, 4904, 3906, 3121,
		2501, 1991, 1586, 1277, 1024, 820, 655, 526, 423, 335, 272, 215, 172,
		137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15};

const char *hint_group_kind_name(enum hint_group_kind kind) {
	switch (kind) {
	case HINT_GROUP_NONE:
		return "none";
	case HINT_GROUP_AUTOGROUP:
		return "autogroup";
	case HINT_GROUP_CGROUP:
		return "cgroup";
	case HINT_GROUP_CGROUP_V1:
		return "cgroup-v1";
	}
	return "?";
}

uint32_t hint_group_default_weight(enum hint_group_kind kind) {
	return kind == HINT_GROUP_CGROUP ? 100 : 1024;
}

uint32_t hint_group_weight_of_nice(enum hint_group_kind kind, int nice) {
	nice = nice < -20 ? -20 : nice > 19 ? 19 : nice;
	uint64_t weight = nice_weight[nice + 20];
	if (kind == HINT_GROUP_CGROUP) {
		/* As cpu.weight.nice converts: to 100 for nice 0, 1 to 10000. */
		weight = (weight * 100 + 512) / 1024;
		return weight < 1 ? 1 : weight > 10000 ? 10000 : (uint32_t)weight;
	}
	return weight < 2 ? 2 : (uint32_t)weight;
}

static const struct hint_group_env *test_env;

void hint_group_env_set(const struct hint_group_env *env) {
	test_env = env;
}

void hint_group_env_system(struct hint_group_env *env) {
	if (test_env != NULL) {
		*env = *test_env;
		return;
	}
	*env = (struct hint_group_env){0};
	snprintf(env->proc, sizeof(env->proc), "%s", PROC_ROOT);
	snprintf(env->autogroup_switch, sizeof(env->autogroup_switch),
			"%s/sys/kernel/sched_autogroup_enabled", PROC_ROOT);
	FILE *file = fopen("/proc/self/mountinfo", "re");
	if (file == NULL) {
		return;
	}
	char line[1024];
	while (fgets(line, sizeof(line), file) != NULL) {
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - TYPE SOURCE SUPER */
		char root[256], point[256], type[64], super[512];
		const char *dash = strstr(line, " - ");
		if (dash == NULL ||
				sscanf(line, "%*s %*s %*s %255s %255s", root, point) != 2 ||
				sscanf(dash, " - %63s %*s %511s", type, super) != 2 ||
				strcmp(root, "/") != 0) {
			/* A cgroup mounted below its hierarchy's root would name
			 * paths /proc/PID/cgroup does not: not used. */
			continue;
		}
		if (strcmp(type, "cgroup2") == 0 && env->cgroup2[0] == '\0') {
			snprintf(env->cgroup2, sizeof(env->cgroup2), "%s", point);
		} else if (strcmp(type, "cgroup") == 0 && env->cpu_v1[0] == '\0') {
			char *save = NULL;
			for (char *opt = strtok_r(super, ",", &save); opt != NULL;
					opt = strtok_r(NULL, ",", &save)) {
				if (strcmp(opt, "cpu") == 0) {
					snprintf(env->cpu_v1, sizeof(env->cpu_v1), "%s", point);
				}
			}
		}
	}
	fclose(file);
}

bool hint_group_place_equal(
		const struct hint_group_place *a, const struct hint_group_place *b) {
	if (a->kind != b->kind) {
		return false;
	}
	switch (a->kind) {
	case HINT_GROUP_NONE:
		return true;
	case HINT_GROUP_AUTOGROUP:
		return a->autogroup == b->autogroup;
	case HINT_GROUP_CGROUP:
	case HINT_GROUP_CGROUP_V1:
		return a->ino == b->ino && strcmp(a->cgroup, b->cgroup) == 0;
	}
	return false;
}

/* A file's first line, without its newline; false if unreadable. */
static bool read_line(const char *path, char *buf, size_t size) {
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		return false;
	}
	ssize_t len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0) {
		return false;
	}
	buf[len] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* Whether a space-separated list holds word. */
static bool has_word(const char *list, const char *word) {
	size_t len = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += len) {
		if ((p == list || p[-1] == ' ') && (p[len] == '\0' || p[len] == ' ')) {
			return true;
		}
	}
	return false;
}

/* A path under a cgroup mount that cannot step out of it. */
static bool sane_path(const char *path) {
	return path[0] == '/' && strstr(path, "/..") == NULL &&
			strlen(path) < HINT_GROUP_PATH_MAX;
}

static bool fill_cgroup(const char *mount, const char *path,
		enum hint_group_kind kind, struct hint_group_place *place) {
	char dir[FILE_MAX];
	struct stat st;
	if (!path_fmt(dir, "%s%s", mount, path) || stat(dir, &st) != 0 ||
			!S_ISDIR(st.st_mode)) {
		return false;
	}
	place->kind = kind;
	place->ino = (uint64_t)st.st_ino;
	snprintf(place->cgroup, sizeof(place->cgroup), "%s", path);
	return true;
}

/*
 * The cgroup v2 whose cpu.weight pid's threads compete with: the nearest
 * of its cgroup and their parents, short of the root, where the cpu
 * controller is enabled (it lists cpu in cgroup.controllers).
 */
static bool locate_v2(const struct hint_group_env *env, const char *path,
		struct hint_group_place *place) {
	char walk[HINT_GROUP_PATH_MAX];
	snprintf(walk, sizeof(walk), "%s", path);
	while (strcmp(walk, "/") != 0 && walk[0] != '\0') {
		char file[FILE_MAX], controllers[256];
		if (path_fmt(file, "%s%s/cgroup.controllers", env->cgroup2, walk) &&
				read_line(file, controllers, sizeof(controllers)) &&
				has_word(controllers, "cpu")) {
			return fill_cgroup(env->cgroup2, walk, HINT_GROUP_CGROUP, place);
		}
		char *slash = strrchr(walk, '/');
		if (slash == NULL) {
			break;
		}
		*(slash == walk ? slash + 1 : slash) = '\0';
	}
	return false;
}

static bool read_autogroup(const struct hint_group_env *env, pid_t pid,
		uint64_t *id, int32_t *nice) {
	char path[FILE_MAX], line[128];
	unsigned long long n;
	int value;
	if (!path_fmt(path, "%s/%d/autogroup", env->proc, (int)pid) ||
			!read_line(path, line, sizeof(line)) ||
			sscanf(line, "/autogroup-%llu nice %d", &n, &value) != 2) {
		return false;
	}
	*id = n;
	*nice = value;
	return true;
}

void hint_group_locate(const struct hint_group_env *env, pid_t pid,
		struct hint_group_place *place) {
	*place = (struct hint_group_place){.kind = HINT_GROUP_NONE};
	char path[FILE_MAX];
	FILE *file = path_fmt(path, "%s/%d/cgroup", env->proc, (int)pid)
			? fopen(path, "re")
			: NULL;
	if (file == NULL) {
		place->why = "gone";
		return;
	}
	char line[HINT_GROUP_PATH_MAX + 128];
	char v1[HINT_GROUP_PATH_MAX] = "", v2[HINT_GROUP_PATH_MAX] = "";
	while (fgets(line, sizeof(line), file) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		/* HIERARCHY:CONTROLLERS:PATH; v2's is 0::PATH. */
		char *first = strchr(line, ':');
		char *second = first != NULL ? strchr(first + 1, ':') : NULL;
		if (second == NULL) {
			continue;
		}
		*second = '\0';
		const char *controllers = first + 1;
		if (strncmp(line, "0:", 2) == 0 && controllers[0] == '\0') {
			snprintf(v2, sizeof(v2), "%s", second + 1);
			continue;
		}
		char list[256];
		snprintf(list, sizeof(list), "%s", controllers);
		for (char *c = list; *c != '\0'; c++) {
			*c = *c == ',' ? ' ' : *c;
		}
		if (has_word(list, "cpu")) {
			snprintf(v1, sizeof(v1), "%s", second + 1);
		}
	}
	fclose(file);
	if (v1[0] != '\0' && strcmp(v1, "/") != 0) {
		if (env->cpu_v1[0] != '\0' && sane_path(v1) &&
				fill_cgroup(env->cpu_v1, v1, HINT_GROUP_CGROUP_V1, place)) {
			return;
		}
		place->why = "its cgroup v1 cannot be found";
		return;
	}
	if (v1[0] == '\0' && v2[0] != '\0' && env->cgroup2[0] != '\0' &&
			sane_path(v2) && locate_v2(env, v2, place)) {
		return;
	}
	char enabled[16];
	if (!read_line(env->autogroup_switch, enabled, sizeof(enabled)) ||
			strcmp(enabled, "1") != 0) {
		place->why = "autogroups off, and no cgroup of its own";
		return;
	}
	int32_t nice;
	if (!read_autogroup(env, pid, &place->autogroup, &nice)) {
		place->why = "no autogroup (a kernel without them)";
		return;
	}
	place->kind = HINT_GROUP_AUTOGROUP;
}

/* A file of the cgroup at place, in buf (FILE_MAX). */
static bool cgroup_file(const struct hint_group_env *env,
		const struct hint_group_place *place, const char *name, char *buf) {
	return path_fmt(buf, "%s%s/%s",
			place->kind == HINT_GROUP_CGROUP ? env->cgroup2 : env->cpu_v1,
			place->cgroup, name);
}

/* The cgroup's directory is still the one located. */
static bool same_cgroup(const struct hint_group_env *env,
		const struct hint_group_place *place) {
	char dir[FILE_MAX];
	struct stat st;
	return cgroup_file(env, place, ".", dir) && stat(dir, &st) == 0 &&
			(uint64_t)st.st_ino == place->ino;
}

static bool read_number(const char *path, long long *value) {
	char line[64];
	char *end;
	if (!read_line(path, line, sizeof(line))) {
		return false;
	}
	errno = 0;
	*value = strtoll(line, &end, 10);
	return errno == 0 && end != line;
}

static const char *weight_file(enum hint_group_kind kind) {
	return kind == HINT_GROUP_CGROUP ? "cpu.weight" : "cpu.shares";
}

bool hint_group_read(const struct hint_group_env *env,
		const struct hint_group_place *place, pid_t pid,
		struct hint_group_value *value) {
	*value = (struct hint_group_value){.idle = -1};
	if (place->kind == HINT_GROUP_AUTOGROUP) {
		uint64_t id;
		return read_autogroup(env, pid, &id, &value->nice) &&
				id == place->autogroup;
	}
	if (place->kind == HINT_GROUP_NONE || !same_cgroup(env, place)) {
		return false;
	}
	char path[FILE_MAX];
	long long n;
	if (!cgroup_file(env, place, weight_file(place->kind), path) ||
			!read_number(path, &n) || n <= 0 || n > UINT32_MAX) {
		return false;
	}
	value->weight = (uint32_t)n;
	if (cgroup_file(env, place, "cpu.idle", path) && read_number(path, &n)) {
		value->idle = n != 0;
	}
	return true;
}

/* Truncated as a shell's `>` opens it: the kernel's files ignore that, and
 * a plain file standing in for one (the tests') then holds one value. */
static int write_text(const char *path, const char *text) {
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
	if (fd < 0) {
		return errno;
	}
	size_t len = strlen(text);
	int err = write(fd, text, len) == (ssize_t)len ? 0 : errno;
	close(fd);
	return err;
}

int hint_group_write(const struct hint_group_env *env,
		const struct hint_group_place *place, pid_t pid,
		const struct hint_group_value *value,
		const struct hint_group_value *current) {
	char path[FILE_MAX], text[32];
	if (place->kind == HINT_GROUP_AUTOGROUP) {
		uint64_t id;
		int32_t nice;
		if (!read_autogroup(env, pid, &id, &nice) || id != place->autogroup) {
			return ESTALE;
		}
		if (value->nice == current->nice) {
			return 0;
		}
		if (!path_fmt(path, "%s/%d/autogroup", env->proc, (int)pid)) {
			return ENAMETOOLONG;
		}
		snprintf(text, sizeof(text), "%d", (int)value->nice);
		return write_text(path, text);
	}
	if (place->kind == HINT_GROUP_NONE || !same_cgroup(env, place)) {
		return ESTALE;
	}
	int err = 0;
	/* Idle first when leaving it: its weight is what counts after. */
	if (value->idle >= 0 && current->idle >= 0 &&
			value->idle != current->idle && !value->idle) {
		err = cgroup_file(env, place, "cpu.idle", path) ? write_text(path, "0")
														: ENAMETOOLONG;
	}
	if (err == 0 && value->weight != current->weight) {
		snprintf(text, sizeof(text), "%" PRIu32, value->weight);
		err = cgroup_file(env, place, weight_file(place->kind), path)
				? write_text(path, text)
				: ENAMETOOLONG;
	}
	if (err == 0 && value->idle >= 0 && current->idle >= 0 &&
			value->idle != current->idle && value->idle) {
		err = cgroup_file(env, place, "cpu.idle", path) ? write_text(path, "1")
														: ENAMETOOLONG;
	}
	return err;
}

bool hint_group_session_alone(const struct hint_group_env *env, pid_t sid,
		hint_group_member_func member, void *data, size_t *scanned) {
	DIR *dir = opendir(env->proc);
	size_t count = 0;
	bool alone = dir != NULL;
	struct dirent *ent;
	while (alone && (ent = readdir(dir)) != NULL) {
		char *end;
		long pid = strtol(ent->d_name, &end, 10);
		if (*end != '\0' || pid <= 0 || pid > INT32_MAX) {
			continue;
		}
		struct proc_stat stat;
		count++;
		if (proc_stat_read(env->proc, (pid_t)pid, (pid_t)pid, &stat) &&
				stat.sid == sid && stat.state != 'Z' &&
				!member((pid_t)pid, data)) {
			alone = false;
		}
	}
	if (dir != NULL) {
		closedir(dir);
	}
	if (scanned != NULL) {
		*scanned = count;
	}
	return alone;
}

bool hint_group_descends(
		const struct hint_group_env *env, pid_t pid, pid_t ancestor) {
	for (int generations = 0; generations < 64 && pid > 1; generations++) {
		if (pid == ancestor) {
			return true;
		}
		struct proc_stat stat;
		if (!proc_stat_read(env->proc, pid, pid, &stat)) {
			return false;
		}
		pid = stat.ppid;
	}
	return pid == ancestor;
}

/* Every pid in dir's cgroup.procs and below is a member; budget counts. */
static bool procs_alone(const char *dir, int depth, size_t *budget,
		hint_group_member_func member, void *data) {
	char path[FILE_MAX];
	FILE *file =
			path_fmt(path, "%s/cgroup.procs", dir) ? fopen(path, "re") : NULL;
	if (file == NULL) {
		return false;
	}
	int pid;
	bool alone = true;
	while (alone && fscanf(file, "%d", &pid) == 1) {
		alone = *budget > 0 && member((pid_t)pid, data);
		*budget -= *budget > 0 ? 1 : 0;
	}
	fclose(file);
	DIR *d = alone ? opendir(dir) : NULL;
	struct dirent *ent;
	while (d != NULL && alone && (ent = readdir(d)) != NULL) {
		if (ent->d_type != DT_DIR || ent->d_name[0] == '.') {
			continue;
		}
		/* Deeper than a path can name, it is not ours to judge. */
		alone = depth < 32 && path_fmt(path, "%s/%s", dir, ent->d_name) &&
				procs_alone(path, depth + 1, budget, member, data);
	}
	if (d != NULL) {
		closedir(d);
	}
	return alone;
}

bool hint_group_cgroup_alone(const struct hint_group_env *env,
		const struct hint_group_place *place, hint_group_member_func member,
		void *data) {
	if (place->kind != HINT_GROUP_CGROUP &&
			place->kind != HINT_GROUP_CGROUP_V1) {
		return false;
	}
	char dir[FILE_MAX];
	size_t budget = HINT_GROUP_CGROUP_PROCS_MAX;
	return cgroup_file(env, place, ".", dir) &&
			procs_alone(dir, 0, &budget, member, data);
}
