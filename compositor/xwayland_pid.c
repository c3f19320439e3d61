#include "compositor/xwayland_pid.h"
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether /proc/pid is an Xwayland serving display. */
static bool is_xwayland_of(pid_t pid, const char *display) {
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	FILE *file = fopen(path, "re");
	if (file == NULL) {
		return false;
	}
	size_t len = fread(buf, 1, sizeof(buf) - 1, file);
	fclose(file);
	buf[len] = '\0';
	const char *name = strrchr(buf, '/');
	if (strcmp(name != NULL ? name + 1 : buf, "Xwayland") != 0) {
		return false;
	}
	for (size_t i = strlen(buf) + 1; i < len; i += strlen(buf + i) + 1) {
		if (strcmp(buf + i, display) == 0) {
			return true;
		}
	}
	return false;
}

pid_t fw_xwayland_find_pid(const char *display) {
	DIR *dir = opendir("/proc");
	if (dir == NULL) {
		return 0;
	}
	pid_t found = 0;
	struct dirent *ent;
	while (found == 0 && (ent = readdir(dir)) != NULL) {
		char *end;
		long pid = strtol(ent->d_name, &end, 10);
		if (*end == '\0' && pid > 0 && is_xwayland_of((pid_t)pid, display)) {
			found = (pid_t)pid;
		}
	}
	closedir(dir);
	return found;
}
