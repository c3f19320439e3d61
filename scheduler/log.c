#include "scheduler/log.h"
#include <stdio.h>

__attribute__((format(printf, 2, 0))) static void log_stderr(
		enum sched_log_importance importance, const char *fmt, va_list args) {
	if (importance > SCHED_LOG_ERROR) {
		return;
	}
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

static sched_log_func_t log_callback = log_stderr;

void sched_log_init(sched_log_func_t callback) {
	log_callback = callback ? callback : log_stderr;
}

void _sched_log(enum sched_log_importance importance, const char *fmt, ...) {
	va_list args;
	va_start(args, fmt);
	log_callback(importance, fmt, args);
	va_end(args);
}
