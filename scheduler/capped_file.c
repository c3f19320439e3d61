#include "scheduler/capped_file.h"
#include "scheduler/log.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct capped_file {
	char *path;
	FILE *out; /* NULL once it could not be begun again */
	size_t cap, written;
	unsigned rotations;
};

static FILE *open_out(const char *path) {
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
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
