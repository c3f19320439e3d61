#include "scheduler/capped_file.h"
#include "tests/unit/check.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * --trace and --stats files: never past their cap; the full one is kept
 * as FILE.1, every record whole, the latest always in FILE. And never
 * written where fairway did not mean to: not through a symlink, not into
 * a fifo (without blocking), a directory, another user's file or one with
 * other links; a file of its own is truncated.
 */

static long size_of(const char *path) {
	struct stat st;
	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Every line is "record N\n", N counting up from first; returns the last. */
static long check_lines(const char *path, long first) {
	FILE *file = fopen(path, "r");
	CHECK(file != NULL);
	char line[64];
	long expect = first, last = -1;
	while (fgets(line, sizeof(line), file) != NULL) {
		long n;
		CHECK(sscanf(line, "record %ld\n", &n) == 1);
		CHECK(line[strlen(line) - 1] == '\n');
		if (expect >= 0) {
			CHECK_INT(n, expect);
		}
		expect = n + 1;
		last = n;
	}
	fclose(file);
	return last;
}

static void write_file(const char *path, const char *text) {
	FILE *file = fopen(path, "w");
	CHECK(file != NULL);
	fputs(text, file);
	fclose(file);
}

static bool holds(const char *path, const char *text) {
	char buf[64] = {0};
	FILE *file = fopen(path, "r");
	CHECK(file != NULL);
	size_t n = fread(buf, 1, sizeof(buf) - 1, file);
	fclose(file);
	return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static void test_refuses(const char *dir) {
	char precious[64], symlinked[64], fifo[64], hard[64], mine[64];
	snprintf(precious, sizeof(precious), "%s/precious", dir);
	snprintf(symlinked, sizeof(symlinked), "%s/link", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	snprintf(hard, sizeof(hard), "%s/hard", dir);
	snprintf(mine, sizeof(mine), "%s/mine", dir);
	write_file(precious, "precious\n");
	CHECK(symlink(precious, symlinked) == 0);
	CHECK(mkfifo(fifo, 0600) == 0);
	CHECK(link(precious, hard) == 0);

	CHECK(capped_file_open(symlinked, 1000) == NULL);
	CHECK(capped_file_open(fifo, 1000) == NULL);
	CHECK(capped_file_open(hard, 1000) == NULL);
	CHECK(capped_file_open(dir, 1000) == NULL);
	CHECK(holds(precious, "precious\n"));
	/* A fifo with a reader: still no regular file. */
	int reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	CHECK(reader >= 0);
	CHECK(capped_file_open(fifo, 1000) == NULL);
	close(reader);
	if (geteuid() == 0) {
		write_file(mine, "theirs\n");
		CHECK(chown(mine, 65534, 65534) == 0);
		CHECK(capped_file_open(mine, 1000) == NULL);
		CHECK(holds(mine, "theirs\n"));
		unlink(mine);
	}
	/* Its own file: truncated, written, 0600 when new. */
	write_file(mine, "an old trace, longer than the new one\n");
	struct capped_file *file = capped_file_open(mine, 1000);
	CHECK(file != NULL);
	capped_file_printf(file, "new\n");
	capped_file_close(file);
	CHECK(holds(mine, "new\n"));
	unlink(mine);
	file = capped_file_open(mine, 1000);
	CHECK(file != NULL);
	capped_file_close(file);
	struct stat st;
	CHECK(stat(mine, &st) == 0);
	CHECK_INT(st.st_mode & 0777, 0600);
	unlink(mine);
	unlink(hard);
	unlink(fifo);
	unlink(symlinked);
	unlink(precious);
}

int main(void) {
	char dir[] = "/tmp/fw-capped-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char path[64], old[64];
	snprintf(path, sizeof(path), "%s/trace", dir);
	snprintf(old, sizeof(old), "%s/trace.1", dir);
	struct capped_file *file = capped_file_open(path, 1000);
	CHECK(file != NULL);
	for (long i = 0; i < 10000; i++) {
		capped_file_printf(file, "record %ld\n", i);
	}
	capped_file_close(file);
	fprintf(stderr, "trace %ld bytes, trace.1 %ld bytes\n", size_of(path),
			size_of(old));
	CHECK(size_of(path) > 0 && size_of(path) <= 1000);
	CHECK(size_of(old) > 900 && size_of(old) <= 1000);
	/* trace.1 ends where trace begins; trace ends with the last record. */
	long last_old = check_lines(old, -1);
	CHECK_INT(check_lines(path, last_old + 1), 9999);
	unlink(path);
	unlink(old);
	test_refuses(dir);
	rmdir(dir);
	return 0;
}
