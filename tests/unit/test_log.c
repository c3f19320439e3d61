#include "tests/unit/test_log.h"
#include "scheduler/log.h"
#include <stdio.h>
#include <stdlib.h>

static void print_log(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	if (getenv("FW_HINTS_DEBUG") != NULL || importance == SCHED_LOG_ERROR) {
		vfprintf(stderr, fmt, args);
		fputc('\n', stderr);
	}
}

void test_log_init(void) {
	sched_log_init(print_log);
}
