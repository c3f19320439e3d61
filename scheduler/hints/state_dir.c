#include "scheduler/hints/state_dir.h"
#include "scheduler/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What no one but the owner may do to a state directory. */
#define FOREIGN_WRITE (S_IWGRP | S_IWOTH)

static bool dir_trusted(const struct stat *st, const char *path) {
	if (!S_ISDIR(st->st_mode)) {
		sched_log(SCHED_LOG_ERROR, "state dir %s: not a directory", path);
		return false;
	}
	if (st->st_uid != geteuid()) {
		sched_log(SCHED_LOG_ERROR,
				"state dir %s: owned by uid %u, not %u: refused", path,
				(unsigned)st->st_uid, (unsigned)geteuid());
		return false;
	}
	if (st->st_mode & FOREIGN_WRITE) {
		sched_log(SCHED_LOG_ERROR,
				"state dir %s: mode %04o lets others write: refused", path,
				(unsigned)(st->st_mode & 07777));
		return false;
	}
	return true;
}

int state_dir_open(const char *path) {
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		sched_log(SCHED_LOG_ERROR, "state dir %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || !dir_trusted(&st, path)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* /run/fairway: /run must be root's alone, then the directory is made. */
static const char *locate_root(void) {
	int run = open("/run", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (run < 0) {
		sched_log(SCHED_LOG_ERROR, "state dir: /run: %s", strerror(errno));
		return NULL;
	}
	struct stat st;
	bool ok = fstat(run, &st) == 0 && dir_trusted(&st, "/run");
	if (ok && mkdirat(run, STATE_DIR_NAME, 0700) != 0 && errno != EEXIST) {
		sched_log(SCHED_LOG_ERROR, "state dir %s: %s", STATE_DIR_ROOT,
				strerror(errno));
		ok = false;
	}
	close(run);
	return ok ? STATE_DIR_ROOT : NULL;
}

const char *state_dir_locate(void) {
	if (geteuid() == 0) {
		return locate_root();
	}
	const char *dir = getenv("XDG_RUNTIME_DIR");
	if (dir == NULL || dir[0] != '/') {
		sched_log(SCHED_LOG_ERROR, "state dir: XDG_RUNTIME_DIR is not set");
		return NULL;
	}
	return dir;
}

bool state_dir_file_trusted(int fd, const char *name) {
	struct stat st;
	if (fstat(fd, &st) != 0) {
		return false;
	}
	const char *why = NULL;
	if (!S_ISREG(st.st_mode)) {
		why = "not a regular file";
	} else if (st.st_uid != geteuid()) {
		why = "owned by another user";
	} else if ((st.st_mode & 07777) != 0600) {
		why = "mode is not 0600";
	} else if (st.st_nlink != 1) {
		why = "has other links";
	}
	if (why != NULL) {
		sched_log(SCHED_LOG_ERROR,
				"refusing %s (uid %u, mode %04o): %s; fairway never wrote it",
				name, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777), why);
		return false;
	}
	return true;
}
