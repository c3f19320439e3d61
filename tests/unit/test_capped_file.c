#include "scheduler/capped_file.h"
#include "tests/unit/check.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * --trace and --stats files: never past their cap; the full one is kept
 * as FILE.1, every record whole, the latest always in FILE.
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
	rmdir(dir);
	return 0;
}
