#include "compositor/sched/build_top.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FAIRWAY_IN_BUILD "/compositor/fairway"
#define TOP_IN_BUILD "/clients/fairway-top"

char *fw_build_top_path(void) {
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t suffix = strlen(FAIRWAY_IN_BUILD);
	if (len <= 0) {
		return NULL;
	}
	exe[len] = '\0';
	if ((size_t)len <= suffix ||
			strcmp(exe + len - suffix, FAIRWAY_IN_BUILD) != 0) {
		return NULL;
	}
	exe[len - suffix] = '\0';
	/* A build tree, not an installed prefix that happens to match. */
	char marker[PATH_MAX + 16];
	snprintf(marker, sizeof(marker), "%s/build.ninja", exe);
	if (access(marker, F_OK) != 0) {
		return NULL;
	}
	size_t size = strlen(exe) + strlen(TOP_IN_BUILD) + 1;
	char *path = malloc(size);
	if (path != NULL) {
		snprintf(path, size, "%s%s", exe, TOP_IN_BUILD);
	}
	return path;
}

/* Ours or root's, and no one else's to change. */
static bool owned_and_closed(const char *path, bool dir) {
	struct stat st;
	if (lstat(path, &st) != 0 ||
			(dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode))) {
		return false;
	}
	return (st.st_uid == geteuid() || st.st_uid == 0) &&
			(st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

bool fw_build_top_trusted(const char *top, const char *client_path) {
	if (top == NULL || client_path == NULL || strcmp(top, client_path) != 0) {
		return false;
	}
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s", top);
	if (!owned_and_closed(path, false)) {
		return false;
	}
	/* clients/, then the build tree itself. */
	for (int i = 0; i < 2; i++) {
		char *slash = strrchr(path, '/');
		if (slash == NULL || slash == path) {
			return false;
		}
		*slash = '\0';
		if (!owned_and_closed(path, true)) {
			return false;
		}
	}
	return true;
}
