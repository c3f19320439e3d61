/* What the server under attack was left holding. */
#include "tests/hostile/hostile.h"
#include <malloc.h>
#include <stdio.h>
#include <sys/resource.h>

/* --- measuring the server --------------------------------------------- */

int count_maps(void) {
	FILE *f = fopen("/proc/self/maps", "r");
	CHECK(f);
	int count = 0, c;
	while ((c = fgetc(f)) != EOF) {
		count += c == '\n';
	}
	fclose(f);
	return count;
}

long rss_kb(void) {
	FILE *f = fopen("/proc/self/status", "r");
	CHECK(f);
	char line[256];
	long kb = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "VmRSS: %ld", &kb) == 1) {
			break;
		}
	}
	fclose(f);
	return kb;
}

/* Heap bytes in use (glibc's allocator; not meaningful under ASan). */
size_t heap_in_use(void) {
	return mallinfo2().uordblks;
}

double cpu_seconds(void) {
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
			(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

void footprint_take(struct footprint *print) {
	print->fds = count_fds();
	print->maps = count_maps();
	print->heap = heap_in_use();
	print->rss_kb = rss_kb();
}

void footprint_check(const struct footprint *before, long rss_slack_kb) {
	struct footprint after;
	footprint_take(&after);
	fprintf(stderr,
			"fds %d -> %d, mappings %d -> %d, heap %zu -> %zu bytes, "
			"rss %ld -> %ld kB\n",
			before->fds, after.fds, before->maps, after.maps, before->heap,
			after.heap, before->rss_kb, after.rss_kb);
	CHECK(after.fds == before->fds);
#ifdef __SANITIZE_ADDRESS__
	/*
	 * ASan's allocator maps memory of its own and holds freed blocks in
	 * quarantine (256 MiB): LeakSanitizer checks the heap at exit instead,
	 * and the plain build checks memory.
	 */
	(void)rss_slack_kb;
#else
	CHECK(after.maps <= before->maps);
	/* libwayland keeps freed client ids' slots, and stdio its buffers. */
	CHECK(after.heap <= before->heap + 64 * 1024);
	CHECK(after.rss_kb <= before->rss_kb + rss_slack_kb);
#endif
}
