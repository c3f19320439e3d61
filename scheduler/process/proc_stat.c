#include "scheduler/process/proc_stat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The file at path, read at once into buf: what follows the command
 * name, which may hold spaces and parentheses (so: after the last). */
static char *read_after_name(const char *path, char *buf, size_t size) {
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return NULL;
	}
	ssize_t len = read(fd, buf, size - 1);
	close(fd);
	if (len <= 0) {
		return NULL;
	}
	buf[len] = '\0';
	return strrchr(buf, ')');
}

/* Fields first..last of the text after the name (field 3, the state, is
 * the first after it), as numbers into values[field - first]. */
static bool read_fields(
		char *p, int first, int last, unsigned long long *values) {
	int found = 0;
	char *save = NULL;
	int field = 3;
	for (char *tok = strtok_r(p + 1, " ", &save); tok != NULL && field <= last;
			tok = strtok_r(NULL, " ", &save), field++) {
		if (field < first) {
			continue;
		}
		char *end;
		errno = 0;
		values[field - first] = strtoull(tok, &end, 10);
		if (errno != 0 || end == tok) {
			return false;
		}
		found++;
	}
	return found == last - first + 1;
}

bool proc_stat_read(
		const char *root, pid_t pid, pid_t tid, struct proc_stat *stat) {
	char path[256];
	snprintf(
			path, sizeof(path), "%s/%d/task/%d/stat", root, (int)pid, (int)tid);
	char buf[1024];
	char *p = read_after_name(path, buf, sizeof(buf));
	if (p == NULL) {
		return false;
	}
	/* 4 is the parent, 6 the session, 22 the start time. */
	unsigned long long fields[22 - 4 + 1];
	char state = p[1] == ' ' ? p[2] : '\0';
	if (!read_fields(p, 4, 22, fields)) {
		return false;
	}
	*stat = (struct proc_stat){
			.state = state,
			.ppid = (pid_t)fields[4 - 4],
			.sid = (pid_t)fields[6 - 4],
			.start = fields[22 - 4],
	};
	return true;
}

bool proc_stat_read_cpu(const char *root, pid_t pid, uint64_t *ticks) {
	char path[256];
	snprintf(path, sizeof(path), "%s/%d/stat", root, (int)pid);
	char buf[1024];
	char *p = read_after_name(path, buf, sizeof(buf));
	/* 14 and 15: user and system time. */
	unsigned long long fields[2];
	if (p == NULL || !read_fields(p, 14, 15, fields)) {
		return false;
	}
	*ticks = fields[0] + fields[1];
	return true;
}

bool proc_stat_read_uid(const char *root, pid_t pid, uid_t *uid) {
	char path[256];
	snprintf(path, sizeof(path), "%s/%d/status", root, (int)pid);
	FILE *file = fopen(path, "re");
	if (file == NULL) {
		return false;
	}
	char line[256];
	unsigned long ids[3];
	int found = 0;
	while (found != 3 && fgets(line, sizeof(line), file) != NULL) {
		if (strncmp(line, "Uid:", 4) == 0) {
			found = sscanf(line + 4, "%lu %lu %lu", &ids[0], &ids[1], &ids[2]);
		}
	}
	fclose(file);
	if (found != 3 || ids[0] != ids[1] || ids[0] != ids[2]) {
		return false;
	}
	*uid = (uid_t)ids[0];
	return true;
}

bool proc_stat_pidfd_alive(int pidfd) {
	if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0) {
		return true;
	}
	return errno == EPERM;
}
