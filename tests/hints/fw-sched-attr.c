#include "scheduler/hints/hints.h"
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Prints the scheduling attributes of every thread of each PID, one line
 * each: "TID policy=P nice=N slice=NS reset=0|1 uclamp_min=U", sorted by
 * tid within a process. The hint tests compare these lines before, during
 * and after; several pids at once spare a tree's test a process each.
 */

static int compare_tid(const void *a, const void *b) {
	return *(const int *)a - *(const int *)b;
}

static int print_process(const char *pid) {
	char path[64];
	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	DIR *dir = opendir(path);
	if (dir == NULL) {
		perror(path);
		return 1;
	}
	int tids[4096];
	size_t count = 0;
	struct dirent *ent;
	while ((ent = readdir(dir)) != NULL && count < 4096) {
		if (ent->d_name[0] != '.') {
			tids[count++] = atoi(ent->d_name);
		}
	}
	closedir(dir);
	qsort(tids, count, sizeof(tids[0]), compare_tid);
	for (size_t i = 0; i < count; i++) {
		struct hint_attr attr;
		if (!hint_attr_get(tids[i], &attr)) {
			continue;
		}
		printf("%d policy=%" PRIu32 " nice=%" PRId32 " slice=%" PRIu64
			   " reset=%d uclamp_min=%" PRId32 "\n",
				tids[i], attr.policy, attr.nice, attr.runtime_ns,
				attr.reset_on_fork ? 1 : 0, attr.util_min);
	}
	return 0;
}

int main(int argc, char *argv[]) {
	if (argc < 2) {
		fprintf(stderr, "usage: fw-sched-attr PID...\n");
		return 2;
	}
	int status = 0;
	for (int i = 1; i < argc; i++) {
		status |= print_process(argv[i]);
	}
	return status;
}
