#ifndef FAIRWAY_SCHEDULER_CAPPED_FILE_H
#define FAIRWAY_SCHEDULER_CAPPED_FILE_H

#include <stddef.h>

/*
 * An output file that never grows past its cap, for --trace and --stats:
 * records are whole lines, and one that would take the file past the cap
 * starts a new file instead, the full one kept as FILE.1 (replacing the
 * one before). So at most twice the cap is on disk, and the latest
 * records are always there. A file that cannot be begun again stops the
 * writing, with a log line.
 */
struct capped_file;

/*
 * Creates path, mode 0600, or truncates it if it is a regular file of
 * fairway's uid with one link; never a symlink, a fifo, a device or
 * another user's file (logged). NULL with errno if it cannot be.
 */
struct capped_file *capped_file_open(const char *path, size_t cap);
/* Flushes and closes. Accepts NULL. */
void capped_file_close(struct capped_file *file);

/* One record: a line of at most CAPPED_FILE_LINE_MAX - 1 bytes, newline
 * included. */
#define CAPPED_FILE_LINE_MAX 4096
void capped_file_printf(struct capped_file *file, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));
void capped_file_flush(struct capped_file *file);

#endif
