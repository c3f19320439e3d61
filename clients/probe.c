/*
 * fairway-probe: how long a light client waits for the compositor. Every
 * --interval-ms it times one wl_display.sync round trip, the cheapest
 * request that needs an answer, without a window.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "clients/common/globals.h"
#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/pump.h"
#include "clients/common/stats.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"

/* How long a round trip still in flight at the end may take to finish. */
#define GRACE_NS (10ull * 1000000000u)

static void handle_sync_done(
		void *data, struct wl_callback *callback, uint32_t serial) {
	bool *done = data;
	if (done != NULL) {
		*done = true;
	}
	wl_callback_destroy(callback);
}

static const struct wl_callback_listener sync_listener = {
		.done = handle_sync_done,
};

/* Returns 0 when answered, 1 when not by deadline_ns, -1 on error. */
static int roundtrip(struct wl_display *display, uint64_t deadline_ns,
		uint64_t *elapsed_ns) {
	bool done = false;
	uint64_t start = fw_now_ns();
	struct wl_callback *callback = wl_display_sync(display);
	if (callback == NULL) {
		return -1;
	}
	wl_callback_add_listener(callback, &sync_listener, &done);
	while (!done) {
		if (fw_now_ns() >= deadline_ns) {
			/* The callback stays alive; the display teardown frees it. */
			wl_callback_set_user_data(callback, NULL);
			return 1;
		}
		if (fw_pump(display, fw_ms_until(deadline_ns)) < 0) {
			return -1;
		}
	}
	*elapsed_ns = fw_now_ns() - start;
	return 0;
}

int main(int argc, char **argv) {
	double duration = 5;
	unsigned interval_ms = 10;
	const char *samples = NULL;
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long to probe (default 5)", 0, NULL},
			{"interval-ms", FW_OPTION_UINT, &interval_ms, "MS",
					"time between round trip starts (default 10)", 1, NULL},
			{"samples", FW_OPTION_STRING, &samples, "FILE",
					"write every round trip (ms) to FILE", 0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-probe",
			.summary = "Times wl_display round trips; prints a JSON summary.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	fw_stop_install();

	struct wl_display *display = fw_connect(prog.name);
	if (display == NULL) {
		return 1;
	}
	struct fw_stats stats;
	fw_stats_init(&stats);
	int ret = 1;
	bool unfinished = false;

	uint64_t start = fw_now_ns();
	uint64_t end = start + (uint64_t)(duration * 1e9);
	uint64_t next = start;
	while (!fw_stop_requested() && fw_now_ns() < end) {
		uint64_t elapsed;
		int r = roundtrip(display, end + GRACE_NS, &elapsed);
		if (r < 0) {
			fprintf(stderr, "%s: lost the connection to the compositor\n",
					prog.name);
			goto out;
		}
		if (r > 0) {
			unfinished = true;
			break;
		}
		fw_stats_add(&stats, fw_ns_to_ms((int64_t)elapsed));
		/* Fixed start times: a slow round trip is not made up for. */
		next += (uint64_t)interval_ms * 1000000u;
		uint64_t now = fw_now_ns();
		if (next < now) {
			next = now;
		}
		/* Sleep to the next start, but never past the end of the run. */
		uint64_t wake = next < end ? next : end;
		if (wake > now) {
			fw_sleep_ns(wake - now);
		}
	}
	uint64_t seconds_ns = fw_now_ns() - start;

	struct fw_summary summary;
	fw_stats_summarize(&stats, &summary);
	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "probe");
	fw_json_summary(&json, "roundtrip_ms", &summary, false);
	fw_json_uint(&json, "unfinished", unfinished ? 1 : 0);
	fw_json_double(&json, "seconds", (double)seconds_ns / 1e9);
	fw_json_end(&json);
	if (samples != NULL && fw_stats_write(&stats, samples) < 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog.name, samples,
				strerror(errno));
		goto out;
	}
	ret = 0;

out:
	fw_stats_finish(&stats);
	wl_display_disconnect(display);
	return ret;
}
