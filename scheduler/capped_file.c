#include "scheduler/capped_file.h"
#include "scheduler/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct capped_file {
	char *path;
	FILE *out; /* NULL once it could not be begun again */
	size_t cap, written;
	unsigned rotations;
};

/* Why an existing file is not one to write over, or NULL. */
static const char *foreign(const struct stat *st) {
	if (!S_ISREG(st->st_mode)) {
		return "not a regular file";
	}
	if (st->st_uid != geteuid()) {
		return "owned by another user";
	}
	if (st->st_nlink != 1) {
		return "it has other links";
	}
	return NULL;
}

/*
 * Opens path to write from its start. fairway may run as root and the
 * path may lie where others write (/tmp, a user's directory), so: never
 * through a symlink, never a fifo or a device (not even opened: a fifo
 * would block, a device act), and an existing file only if it is a
 * regular file of fairway's uid with one link, which is then truncated.
 * NULL with errno, and the reason logged, otherwise.
 */
static FILE *open_out(const char *path) {
	struct stat st;
	const char *why = NULL;
	if (lstat(path, &st) == 0) {
		why = S_ISLNK(st.st_mode) ? "a symbolic link" : foreign(&st);
	}
	int fd = -1;
	if (why == NULL) {
		fd = open(path,
				O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
						O_CLOEXEC,
				0600);
		if (fd < 0 && errno == ELOOP) {
			why = "a symbolic link";
		} else if (fd < 0) {
			return NULL;
		} else if (fstat(fd, &st) != 0) {
			why = strerror(errno);
		} else {
			/* Checked again on what was opened: it may have changed. */
			why = foreign(&st);
		}
	}
	if (why == NULL && (ftruncate(fd, 0) != 0 || fcntl(fd, F_SETFL, 0) != 0)) {
		why = strerror(errno);
	}
	if (why != NULL) {
		sched_log(SCHED_LOG_ERROR, "refusing to write %s: %s", path, why);
		if (fd >= 0) {
			close(fd);
		}
		errno = EPERM;
		return NULL;
	}
	FILE *out = fdopen(fd, "w");
	if (out == NULL) {
		close(fd);
	}
	return out;
}

struct capped_file *capped_file_open(const char *path, size_t cap) {
	struct capped_file *file = calloc(1, sizeof(*file));
	if (file == NULL) {
		return NULL;
	}
	file->path = strdup(path);
	file->cap = cap;
	file->out = file->path != NULL ? open_out(path) : NULL;
	if (file->out == NULL) {
		int saved = errno;
		free(file->path);
		free(file);
		errno = saved;
		return NULL;
	}
	return file;
}

void capped_file_close(struct capped_file *file) {
	if (file == NULL) {
		return;
	}
	if (file->out != NULL) {
		fclose(file->out);
	}
	free(file->path);
	free(file);
}

/* The full file becomes FILE.1; a new one begins. */
static void rotate(struct capped_file *file) {
	fclose(file->out);
	file->out = NULL;
	file->written = 0;
	size_t len = strlen(file->path) + 3;
	char *old = malloc(len);
	if (old != NULL) {
		snprintf(old, len, "%s.1", file->path);
		if (rename(file->path, old) != 0) {
			sched_log(SCHED_LOG_ERROR, "cannot rename %s to %s: %s", file->path,
					old, strerror(errno));
		}
		free(old);
	}
	file->out = open_out(file->path);
	if (file->out == NULL) {
		sched_log(SCHED_LOG_ERROR,
				"cannot begin %s again: %s; no more "
				"records are written",
				file->path, strerror(errno));
		return;
	}
	file->rotations++;
	sched_log(SCHED_LOG_INFO, "%s reached %zu bytes: the full one is %s.1",
			file->path, file->cap, file->path);
}

void capped_file_printf(struct capped_file *file, const char *fmt, ...) {
	if (file->out == NULL) {
		return;
	}
	char line[CAPPED_FILE_LINE_MAX];
	va_list args;
	va_start(args, fmt);
	int n = vsnprintf(line, sizeof(line), fmt, args);
	va_end(args);
	if (n < 0) {
		return;
	}
	size_t len = (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1;
	if (file->written > 0 && file->written + len > file->cap) {
		rotate(file);
		if (file->out == NULL) {
			return;
		}
	}
	fwrite(line, 1, len, file->out);
	file->written += len;
}

void capped_file_flush(struct capped_file *file) {
	if (file->out != NULL) {
		fflush(file->out);
	}
}
