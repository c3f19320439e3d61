/*
 * fairway-echo: Packard's interactive test. A window draws a rubber-band
 * line from its centre to the pointer. The client moves the pointer itself
 * with zwlr_virtual_pointer_v1, stamping each motion with the time it was
 * generated, and measures how long the compositor takes to deliver it
 * (receipt) and to put the line that shows it on screen (echo).
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "clients/common/drive.h"
#include "clients/common/globals.h"
#include "clients/common/json.h"
#include "clients/common/motion_log.h"
#include "clients/common/options.h"
#include "clients/common/pointer.h"
#include "clients/common/present.h"
#include "clients/common/pump.h"
#include "clients/common/shm.h"
#include "clients/common/stats.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"
#include "clients/common/window.h"

#define DRAIN_NS (500ull * 1000000u)
/* Motions room is made for beyond the measured duration (setup, drain). */
#define MOTION_EXTRA_S 20
/* The window must keep its place this long before we look for it. */
#define SETTLE_NS (300ull * 1000000u)

struct echo {
	const char *prog;
	struct fw_size size;
	unsigned hz;
	bool drive;

	struct fw_globals globals;
	struct fw_window *window;
	struct fw_shm_pool *pool;
	struct fw_present present;
	struct fw_pointer pointer; /* as the window sees it */
	struct fw_drive driver; /* the virtual pointer we move */
	bool located;

	struct fw_motion_log motions;

	struct wl_callback *frame_callback;
	bool dirty;
	uint64_t commit_seq;
	uint32_t configures_drawn;
};

static void draw_frame(struct echo *e);

/*
 * Without driving, the generation time is the event's own timestamp, which
 * wlroots passes through from the device (libinput and virtual pointers
 * use CLOCK_MONOTONIC milliseconds).
 */
static void handle_position(void *data, wl_fixed_t sx, wl_fixed_t sy,
		uint32_t time_ms, bool has_time) {
	struct echo *e = data;
	uint64_t now = fw_now_ns();
	int32_t x = (int32_t)lround(e->pointer.x),
			y = (int32_t)lround(e->pointer.y);
	uint64_t age_ms = (uint32_t)((uint32_t)(now / 1000000u) - time_ms);
	uint64_t event_ns = now - age_ms * 1000000u;
	if (e->drive && e->located) {
		fw_motion_log_match(&e->motions, x, y, now, event_ns);
	} else if (!e->drive && has_time) {
		fw_motion_log_add_delivered(&e->motions, x, y, now, event_ns);
	}
	e->dirty = true;
	draw_frame(e);
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct echo *e = data;
	wl_callback_destroy(callback);
	e->frame_callback = NULL;
	draw_frame(e);
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

static void handle_present(
		void *data, uint64_t seq, bool presented, uint64_t present_ns) {
	struct echo *e = data;
	if (!presented) {
		/* A later presented frame shows these motions too. */
		return;
	}
	fw_motion_log_presented(&e->motions, seq, present_ns);
}

static void put_pixel(struct fw_buffer *b, int x, int y, uint32_t color) {
	if (x >= 0 && y >= 0 && x < b->width && y < b->height) {
		b->pixels[(size_t)y * (size_t)b->width + (size_t)x] = color;
	}
}

static void draw_line(struct fw_buffer *b, int x0, int y0, int x1, int y1) {
	int dx = abs(x1 - x0), sx = x0 < x1 ? 1 : -1;
	int dy = -abs(y1 - y0), sy = y0 < y1 ? 1 : -1;
	int err = dx + dy;
	while (true) {
		put_pixel(b, x0, y0, 0xff000000u);
		if (x0 == x1 && y0 == y1) {
			break;
		}
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

/* Draws when something changed and the compositor asked for a frame. */
static void draw_frame(struct echo *e) {
	if (!e->dirty || e->frame_callback != NULL) {
		return;
	}
	struct fw_buffer *b = fw_shm_pool_acquire(e->pool);
	if (b == NULL) {
		return;
	}
	size_t n = (size_t)b->width * (size_t)b->height;
	for (size_t i = 0; i < n; i++) {
		b->pixels[i] = 0xffffffffu;
	}
	if (e->pointer.moved) {
		draw_line(b, b->width / 2, b->height / 2, (int)lround(e->pointer.x),
				(int)lround(e->pointer.y));
	}
	struct wl_surface *surface = e->window->surface;
	fw_buffer_attach(b, surface);
	wl_surface_damage_buffer(surface, 0, 0, b->width, b->height);
	e->frame_callback = wl_surface_frame(surface);
	wl_callback_add_listener(e->frame_callback, &frame_listener, e);
	uint64_t seq = ++e->commit_seq;
	fw_present_request(&e->present, surface, seq);
	wl_surface_commit(surface);
	fw_motion_log_drawn(&e->motions, seq);
	e->dirty = false;
}

static int generate(struct echo *e) {
	if (fw_drive_step(&e->driver, &e->motions) < 0) {
		return -1;
	}
	return fw_flush_blocking(e->globals.display, 0) < 0 ? -1 : 0;
}

static int run(struct echo *e, uint64_t end) {
	struct wl_display *display = e->globals.display;
	uint64_t period = 1000000000ull / e->hz;
	uint64_t next = fw_now_ns();
	while (!fw_stop_requested() && fw_now_ns() < end) {
		uint64_t now = fw_now_ns();
		if (e->drive && now >= next) {
			if (generate(e) < 0) {
				return -1;
			}
			next += period;
			if (next < now) {
				/* Fell behind (we were starved): do not burst. */
				next = now + period;
			}
			continue;
		}
		if (e->window->configures != e->configures_drawn) {
			e->configures_drawn = e->window->configures;
			e->dirty = true;
			draw_frame(e);
		}
		uint64_t wake = e->drive && next < end ? next : end;
		if (fw_pump_until(display, wake) < 0) {
			return -1;
		}
	}
	/* Let the last motions arrive and the last frames reach the screen. */
	uint64_t drain = fw_now_ns() + DRAIN_NS;
	while (fw_now_ns() < drain && !fw_stop_requested()) {
		if (!fw_motion_log_waiting(&e->motions)) {
			break;
		}
		if (fw_pump(display, fw_ms_until(drain)) < 0) {
			return -1;
		}
	}
	return 0;
}

static int setup(struct echo *e, uint64_t setup_deadline) {
	struct fw_globals *g = &e->globals;
	uint32_t needs = FW_NEED_COMPOSITOR | FW_NEED_SHM | FW_NEED_XDG_WM_BASE |
			FW_NEED_PRESENTATION | FW_NEED_SEAT;
	if (e->drive) {
		needs |= FW_NEED_VIRTUAL_POINTER | FW_NEED_OUTPUT;
	}
	if (fw_globals_require(g, e->prog, needs) < 0) {
		return -1;
	}
	fw_time_use_clock(g->presentation_clock);
	fw_present_init(&e->present, g->presentation, handle_present, e);
	if (e->drive && fw_drive_init(&e->driver, g, e->size) < 0) {
		return -1;
	}
	e->pointer.position = handle_position;
	e->pointer.data = e;
	if (fw_pointer_init(&e->pointer, g, e->prog, setup_deadline) < 0) {
		return -1;
	}
	e->window = fw_window_create(g, "fairway-echo");
	if (e->window == NULL) {
		fprintf(stderr, "%s: cannot create a window\n", e->prog);
		return -1;
	}
	e->pointer.surface = e->window->surface;
	e->pool = fw_shm_pool_create(g->shm, e->size.width, e->size.height, 3);
	if (e->pool == NULL) {
		fprintf(stderr, "%s: cannot create shm buffers\n", e->prog);
		return -1;
	}
	if (fw_window_wait_configured(e->window) < 0) {
		fprintf(stderr, "%s: the window was never configured\n", e->prog);
		return -1;
	}
	/*
	 * Map the window and wait for its first frame callback before sweeping.
	 * Not for "presented": some compositors never report one (sway 1.7 on
	 * wlroots 0.15's headless backend), and receipt is measured there too.
	 */
	e->dirty = true;
	draw_frame(e);
	uint32_t seen = e->window->configures;
	uint64_t quiet_until = fw_now_ns() + SETTLE_NS;
	while (e->frame_callback != NULL || fw_now_ns() < quiet_until) {
		if (e->window->configures != seen) {
			/*
			 * A tiling compositor resizes or moves the window after
			 * mapping it (sway waits for our commit to apply that), so
			 * commit again and wait for things to settle.
			 */
			seen = e->window->configures;
			quiet_until = fw_now_ns() + SETTLE_NS;
			e->dirty = true;
			draw_frame(e);
		}
		if (fw_stop_requested() || fw_now_ns() >= setup_deadline) {
			fprintf(stderr, "%s: our window was never presented\n", e->prog);
			return -1;
		}
		uint64_t wake =
				quiet_until < setup_deadline ? quiet_until : setup_deadline;
		if (fw_pump(g->display, fw_ms_until(wake)) < 0) {
			return -1;
		}
	}
	if (e->drive) {
		if (fw_drive_locate(&e->driver, &e->pointer, g->display, e->prog) < 0) {
			return -1;
		}
		e->located = true;
	}
	e->configures_drawn = e->window->configures;
	return 0;
}

static void teardown(struct echo *e) {
	fw_present_finish(&e->present);
	if (e->frame_callback != NULL) {
		wl_callback_destroy(e->frame_callback);
	}
	fw_shm_pool_destroy(e->pool);
	fw_window_destroy(e->window);
	fw_pointer_finish(&e->pointer);
	fw_drive_finish(&e->driver);
	fw_globals_finish(&e->globals);
	fw_motion_log_finish(&e->motions);
}

int main(int argc, char **argv) {
	double duration = 5;
	struct fw_size size = {400, 300};
	unsigned hz = 100;
	bool no_drive = false;
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long to measure (default 5)", 0, NULL},
			{"size", FW_OPTION_SIZE, &size, "WxH",
					"window size (default 400x300)", 0, NULL},
			{"hz", FW_OPTION_UINT, &hz, "N",
					"pointer motions per second (default 100)", 1, NULL},
			{"no-drive", FW_OPTION_FLAG, &no_drive, NULL,
					"do not move the pointer; time motions by their timestamp",
					0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-echo",
			.summary =
					"Measures pointer receipt and echo latency; prints a JSON "
					"summary.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	fw_stop_install();

	struct echo *e = calloc(1, sizeof(*e));
	if (e == NULL) {
		return 1;
	}
	e->prog = prog.name;
	e->size = size;
	e->hz = hz;
	e->drive = !no_drive;
	wl_list_init(&e->present.pending);
	/* Undriven, someone else's pointer: room for 1 kHz. */
	if (fw_motion_log_init(&e->motions,
				(size_t)((duration + MOTION_EXTRA_S) *
						(no_drive ? 1000 : hz))) < 0) {
		fw_motion_log_finish(&e->motions);
		free(e);
		return 1;
	}
	int ret = 1;

	struct wl_display *display = fw_connect(prog.name);
	if (display == NULL) {
		goto out_free;
	}
	if (fw_globals_init(&e->globals, display) < 0) {
		fprintf(stderr, "%s: cannot read the compositor's globals\n",
				prog.name);
		goto out;
	}
	/* Setup gets its own budget: mapping and locating are not measured. */
	if (setup(e, fw_now_ns() + 10ull * 1000000000u) < 0) {
		goto out;
	}

	uint64_t start = fw_now_ns();
	uint64_t end = start + (uint64_t)(duration * 1e9);
	size_t first = fw_motion_log_count(&e->motions);
	if (run(e, end) < 0) {
		fprintf(stderr, "%s: lost the connection to the compositor\n",
				prog.name);
		goto out;
	}
	uint64_t missed = fw_motion_log_missed(&e->motions, first);
	struct fw_summary receipt, echo_latency;
	fw_stats_summarize(&e->motions.receipt, &receipt);
	fw_stats_summarize(&e->motions.echo, &echo_latency);
	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "echo");
	fw_json_summary(&json, "receipt_ms", &receipt, false);
	fw_json_summary(&json, "echo_ms", &echo_latency, false);
	fw_json_uint(&json, "missed", missed);
	fw_json_uint(&json, "generated",
			e->drive ? fw_motion_log_count(&e->motions) - first : 0);
	fw_json_uint(&json, "frames", e->present.presented);
	fw_json_string(&json, "clock", fw_clock_name(fw_time_clock()));
	fw_json_end(&json);
	ret = 0;

out:
	teardown(e);
	wl_display_disconnect(display);
out_free:
	free(e);
	return ret;
}
