#ifndef FAIRWAY_TESTS_FUZZ_FUZZ_CHECK_H
#define FAIRWAY_TESTS_FUZZ_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* An invariant of a fuzz target: a broken one aborts, which libFuzzer
 * reports with the input that broke it. */
#define FUZZ_CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, \
					__LINE__, #cond); \
			abort(); \
		} \
	} while (0)

#endif
