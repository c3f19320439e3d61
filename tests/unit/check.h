#ifndef FAIRWAY_TESTS_UNIT_CHECK_H
#define FAIRWAY_TESTS_UNIT_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * Unlike assert(), these stay on in release builds and print both values,
 * so a failure in CI says what went wrong without a debugger.
 */

#define CHECK(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, \
					__LINE__, __func__, #cond); \
			exit(1); \
		} \
	} while (0)

#define CHECK_INT(a, b) \
	do { \
		long long check_a_ = (long long)(a); \
		long long check_b_ = (long long)(b); \
		if (check_a_ != check_b_) { \
			fprintf(stderr, "%s:%d: %s: %s == %s failed: %lld != %lld\n", \
					__FILE__, __LINE__, __func__, #a, #b, check_a_, check_b_); \
			exit(1); \
		} \
	} while (0)

#define CHECK_PTR(a, b) \
	do { \
		const void *check_a_ = (a); \
		const void *check_b_ = (b); \
		if (check_a_ != check_b_) { \
			fprintf(stderr, "%s:%d: %s: %s == %s failed: %p != %p\n", \
					__FILE__, __LINE__, __func__, #a, #b, check_a_, check_b_); \
			exit(1); \
		} \
	} while (0)

#define RUN_TEST(fn) \
	do { \
		fn(); \
		fprintf(stderr, "ok %s\n", #fn); \
	} while (0)

#endif
