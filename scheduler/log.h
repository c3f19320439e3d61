#ifndef FAIRWAY_SCHEDULER_LOG_H
#define FAIRWAY_SCHEDULER_LOG_H

#include <stdarg.h>
#include <stddef.h>

/*
 * The scheduler cannot use wlr_log (it has no wlroots includes), so it logs
 * through a callback that the compositor points at wlr_log.
 */

enum sched_log_importance {
	SCHED_LOG_ERROR = 1,
	SCHED_LOG_INFO = 2,
	SCHED_LOG_DEBUG = 3,
};

typedef void (*sched_log_func_t)(
		enum sched_log_importance importance, const char *fmt, va_list args);

/* NULL restores the default, which prints errors to stderr. */
void sched_log_init(sched_log_func_t callback);

void _sched_log(enum sched_log_importance importance, const char *fmt, ...)
		__attribute__((format(printf, 2, 3)));

/*
 * Copies text a client sent into out for the log: printable ASCII as is,
 * anything else (newlines, escape sequences, bytes past ASCII) as \xNN,
 * a backslash as \\, cut with "..." to fit. A client cannot forge log
 * lines or drive the terminal that shows them.
 */
void sched_log_escape(char *out, size_t size, const char *text);

#define sched_log(importance, fmt, ...) \
	_sched_log(importance, "[%s:%d] " fmt, __FILE__, __LINE__, ##__VA_ARGS__)

#endif
