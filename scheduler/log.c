#include "scheduler/log.h"
#include <stdio.h>
#include <string.h>

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

void sched_log_escape(char *out, size_t size, const char *text) {
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	if (size < 4) {
		if (size > 0) {
			out[0] = '\0';
		}
		return;
	}
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		char buf[4];
		size_t len = 0;
		if (*p == '\\') {
			buf[len++] = '\\';
			buf[len++] = '\\';
		} else if (*p >= 0x20 && *p < 0x7f) {
			buf[len++] = (char)*p;
		} else {
			buf[len++] = '\\';
			buf[len++] = 'x';
			buf[len++] = hex[*p >> 4];
			buf[len++] = hex[*p & 0xf];
		}
		if (n + len + 4 > size) {
			memcpy(out + n, "...", 3);
			n += 3;
			break;
		}
		memcpy(out + n, buf, len);
		n += len;
	}
	out[n] = '\0';
}
