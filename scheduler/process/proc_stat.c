#include "scheduler/process/proc_stat.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

bool proc_stat_read(
		const char *root, pid_t pid, pid_t tid, struct proc_stat *stat) {
	char path[256];
	snprintf(
			path, sizeof(path), "%s/%d/task/%d/stat", root, (int)pid, (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		return false;
	}
	char buf[1024];
	ssize_t len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0) {
		return false;
	}
	buf[len] = '\0';
	/* The command name may hold spaces and parentheses: skip to the last. */
	char *p = strrchr(buf, ')');
	if (p == NULL) {
		return false;
	}
	/* Fields from 3 (the state) on, split at spaces: 4 is the parent,
	 * 6 the session, 22 the start time. */
	unsigned long long ppid = 0, sid = 0, start = 0;
	char state = p[1] == ' ' ? p[2] : '\0';
	int found = 0;
	char *save = NULL;
	int field = 3;
	for (char *tok = strtok_r(p + 1, " ", &save); tok != NULL && field <= 22;
			tok = strtok_r(NULL, " ", &save), field++) {
		unsigned long long *want = field == 4 ? &ppid
				: field == 6                  ? &sid
				: field == 22                 ? &start
											  : NULL;
		if (want == NULL) {
			continue;
		}
		char *end;
		errno = 0;
		*want = strtoull(tok, &end, 10);
		if (errno != 0 || end == tok) {
			return false;
		}
		found++;
	}
	if (found != 3) {
		return false;
	}
	*stat = (struct proc_stat){
			.state = state,
			.ppid = (pid_t)ppid,
			.sid = (pid_t)sid,
			.start = start,
	};
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
