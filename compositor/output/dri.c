#include "compositor/output/dri.h"
#include <dirent.h>
#include <stddef.h>
#include <string.h>

bool fw_dri_has_node(const char *prefix) {
	DIR *dir = opendir("/dev/dri");
	if (dir == NULL) {
		return false;
	}
	size_t len = strlen(prefix);
	bool found = false;
	struct dirent *entry;
	while (!found && (entry = readdir(dir)) != NULL) {
		found = strncmp(entry->d_name, prefix, len) == 0;
	}
	closedir(dir);
	return found;
}
