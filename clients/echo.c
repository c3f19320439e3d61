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

#include "clients/common/globals.h"
#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/path.h"
#include "clients/common/present.h"
#include "clients/common/pump.h"
#include "clients/common/shm.h"
#include "clients/common/stats.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"
#include "clients/common/window.h"
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

/* Distance between probe positions when looking for our window. */
#define LOCATE_STEP 40
/* The path the pointer follows stays this far inside the window. */
#define PATH_MARGIN 20
#define PATH_STEP 3
/* How far ahead of the last match a motion may arrive (the compositor may
 * coalesce motions, but positions repeat only after a whole lap). */
#define MATCH_WINDOW 128
#define DRAIN_NS (500ull * 1000000u)
/* The window must keep its place this long before we look for it. */
#define SETTLE_NS (300ull * 1000000u)

enum motion_state {
	MOTION_SENT,
	MOTION_RECEIVED,
	MOTION_ECHOED,
	MOTION_MISSED,
};

struct motion {
	int32_t x, y; /* surface-local */
	uint64_t gen_ns;
	uint64_t commit_seq; /* first commit that drew it; 0: not yet drawn */
	enum motion_state state;
};

struct echo {
	const char *prog;
	struct fw_size size;
	unsigned hz;
	bool drive;

	struct fw_globals globals;
	struct fw_window *window;
	struct fw_shm_pool *pool;
	struct fw_present present;
	struct wl_pointer *pointer;
	struct zwlr_virtual_pointer_v1 *virtual_pointer;

	/* the pointer as we last heard of it, surface-local */
	bool entered, moved;
	double px, py;

	/* output position = surface-local position + offset */
	bool located;
	int32_t off_x, off_y;
	uint64_t path_index;

	struct motion *motions;
	size_t motion_count, motion_cap;
	size_t next_match; /* first motion that may still arrive */
	size_t next_draw; /* first received motion not yet drawn */
	size_t next_echo; /* first drawn motion not yet presented */

	struct wl_callback *frame_callback;
	bool dirty;
	uint64_t commit_seq;
	uint32_t configures_drawn;

	struct fw_stats receipt, echo;
};

static struct motion *add_motion(struct echo *e) {
	if (e->motion_count == e->motion_cap) {
		size_t cap = e->motion_cap == 0 ? 1024 : e->motion_cap * 2;
		struct motion *motions = realloc(e->motions, cap * sizeof(*motions));
		if (motions == NULL) {
			return NULL;
		}
		e->motions = motions;
		e->motion_cap = cap;
	}
	struct motion *m = &e->motions[e->motion_count++];
	memset(m, 0, sizeof(*m));
	return m;
}

static void receive(struct echo *e, struct motion *m, uint64_t now) {
	m->state = MOTION_RECEIVED;
	fw_stats_add(&e->receipt, fw_ns_to_ms((int64_t)(now - m->gen_ns)));
}

/* Matches a delivered position against the motions we generated. */
static void match_driven(struct echo *e, int32_t x, int32_t y, uint64_t now) {
	size_t limit = e->next_match + MATCH_WINDOW;
	if (limit > e->motion_count) {
		limit = e->motion_count;
	}
	for (size_t i = e->next_match; i < limit; i++) {
		struct motion *m = &e->motions[i];
		if (m->x != x || m->y != y) {
			continue;
		}
		/* Motions before it will not come any more. */
		for (size_t j = e->next_match; j < i; j++) {
			e->motions[j].state = MOTION_MISSED;
		}
		receive(e, m, now);
		e->next_match = i + 1;
		return;
	}
}

/*
 * Without driving, the generation time is the event's own timestamp, which
 * wlroots passes through from the device (libinput and virtual pointers
 * use CLOCK_MONOTONIC milliseconds).
 */
static void record_undriven(
		struct echo *e, int32_t x, int32_t y, uint32_t time_ms, uint64_t now) {
	struct motion *m = add_motion(e);
	if (m == NULL) {
		return;
	}
	uint32_t now_ms = (uint32_t)(now / 1000000u);
	uint64_t age_ms = (uint32_t)(now_ms - time_ms);
	m->x = x;
	m->y = y;
	m->gen_ns = now - age_ms * 1000000u;
	receive(e, m, now);
	e->next_match = e->motion_count;
}

static void draw_frame(struct echo *e);

static void handle_position(struct echo *e, wl_fixed_t sx, wl_fixed_t sy,
		uint32_t time_ms, bool has_time) {
	uint64_t now = fw_now_ns();
	e->px = wl_fixed_to_double(sx);
	e->py = wl_fixed_to_double(sy);
	e->moved = true;
	int32_t x = (int32_t)lround(e->px), y = (int32_t)lround(e->py);
	if (e->drive && e->located) {
		match_driven(e, x, y, now);
	} else if (!e->drive && has_time) {
		record_undriven(e, x, y, time_ms, now);
	}
	e->dirty = true;
	draw_frame(e);
}

static void handle_pointer_enter(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface, wl_fixed_t sx,
		wl_fixed_t sy) {
	struct echo *e = data;
	if (surface != e->window->surface) {
		return;
	}
	e->entered = true;
	/* Hide the cursor: only the rubber band should change on screen. */
	wl_pointer_set_cursor(pointer, serial, NULL, 0, 0);
	handle_position(e, sx, sy, 0, false);
}

static void handle_pointer_leave(void *data, struct wl_pointer *pointer,
		uint32_t serial, struct wl_surface *surface) {
	struct echo *e = data;
	e->entered = false;
}

static void handle_pointer_motion(void *data, struct wl_pointer *pointer,
		uint32_t time, wl_fixed_t sx, wl_fixed_t sy) {
	struct echo *e = data;
	if (e->entered) {
		handle_position(e, sx, sy, time, true);
	}
}

static void handle_pointer_button(void *data, struct wl_pointer *pointer,
		uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
	/* Buttons and axes play no part in the test. */
}

static void handle_pointer_axis(void *data, struct wl_pointer *pointer,
		uint32_t time, uint32_t axis, wl_fixed_t value) {
}

static void handle_pointer_frame(void *data, struct wl_pointer *pointer) {
}

static void handle_pointer_axis_source(
		void *data, struct wl_pointer *pointer, uint32_t source) {
}

static void handle_pointer_axis_stop(
		void *data, struct wl_pointer *pointer, uint32_t time, uint32_t axis) {
}

static void handle_pointer_axis_discrete(void *data, struct wl_pointer *pointer,
		uint32_t axis, int32_t discrete) {
}

static const struct wl_pointer_listener pointer_listener = {
		.enter = handle_pointer_enter,
		.leave = handle_pointer_leave,
		.motion = handle_pointer_motion,
		.button = handle_pointer_button,
		.axis = handle_pointer_axis,
		.frame = handle_pointer_frame,
		.axis_source = handle_pointer_axis_source,
		.axis_stop = handle_pointer_axis_stop,
		.axis_discrete = handle_pointer_axis_discrete,
};

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
	for (; e->next_echo < e->next_draw; e->next_echo++) {
		struct motion *m = &e->motions[e->next_echo];
		if (m->state != MOTION_RECEIVED) {
			continue;
		}
		if (m->commit_seq > seq) {
			break;
		}
		m->state = MOTION_ECHOED;
		if (present_ns >= m->gen_ns) {
			fw_stats_add(
					&e->echo, fw_ns_to_ms((int64_t)(present_ns - m->gen_ns)));
		}
	}
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
	if (e->moved) {
		draw_line(b, b->width / 2, b->height / 2, (int)lround(e->px),
				(int)lround(e->py));
	}
	struct wl_surface *surface = e->window->surface;
	fw_buffer_attach(b, surface);
	wl_surface_damage_buffer(surface, 0, 0, b->width, b->height);
	e->frame_callback = wl_surface_frame(surface);
	wl_callback_add_listener(e->frame_callback, &frame_listener, e);
	uint64_t seq = ++e->commit_seq;
	fw_present_request(&e->present, surface, seq);
	wl_surface_commit(surface);
	for (; e->next_draw < e->next_match; e->next_draw++) {
		struct motion *m = &e->motions[e->next_draw];
		if (m->state == MOTION_RECEIVED && m->commit_seq == 0) {
			m->commit_seq = seq;
		}
	}
	e->dirty = false;
}

static void send_motion(struct echo *e, int32_t ox, int32_t oy, uint64_t now) {
	zwlr_virtual_pointer_v1_motion_absolute(e->virtual_pointer,
			(uint32_t)(now / 1000000u), (uint32_t)ox, (uint32_t)oy,
			(uint32_t)e->globals.output_width,
			(uint32_t)e->globals.output_height);
	zwlr_virtual_pointer_v1_frame(e->virtual_pointer);
}

/*
 * The client cannot ask where its window is, so it sweeps the pointer over
 * the output until the window reports a position: the difference between
 * what was sent and what arrived is the window's offset.
 */
static int locate(struct echo *e) {
	struct wl_display *display = e->globals.display;
	for (int attempt = 0; attempt < 3; attempt++) {
		for (int32_t y = LOCATE_STEP / 2; y < e->globals.output_height;
				y += LOCATE_STEP) {
			for (int32_t x = LOCATE_STEP / 2; x < e->globals.output_width;
					x += LOCATE_STEP) {
				if (fw_stop_requested()) {
					return -1;
				}
				e->moved = false;
				send_motion(e, x, y, fw_now_ns());
				if (wl_display_roundtrip(display) < 0) {
					return -1;
				}
				if (e->entered && e->moved) {
					e->off_x = x - (int32_t)lround(e->px);
					e->off_y = y - (int32_t)lround(e->py);
					e->located = true;
					return 0;
				}
			}
		}
	}
	fprintf(stderr, "%s: the virtual pointer never reached our window\n",
			e->prog);
	return -1;
}

static int generate(struct echo *e) {
	struct motion *m = add_motion(e);
	if (m == NULL) {
		return -1;
	}
	fw_path_point(
			e->size, PATH_MARGIN, PATH_STEP, e->path_index++, &m->x, &m->y);
	m->gen_ns = fw_now_ns();
	m->state = MOTION_SENT;
	send_motion(e, m->x + e->off_x, m->y + e->off_y, m->gen_ns);
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
		if (fw_pump(display, fw_ms_until(wake)) < 0) {
			return -1;
		}
	}
	/* Let the last motions arrive and the last frames reach the screen. */
	uint64_t drain = fw_now_ns() + DRAIN_NS;
	while (fw_now_ns() < drain && !fw_stop_requested()) {
		bool waiting = e->next_echo < e->next_match ||
				(e->drive && e->next_match < e->motion_count);
		if (!waiting) {
			break;
		}
		if (fw_pump(display, fw_ms_until(drain)) < 0) {
			return -1;
		}
	}
	return 0;
}

static int wait_for_pointer(struct echo *e, uint64_t end) {
	while (!(e->globals.seat_caps & WL_SEAT_CAPABILITY_POINTER)) {
		if (fw_stop_requested() || fw_now_ns() >= end) {
			return fw_globals_require(&e->globals, e->prog, FW_NEED_POINTER);
		}
		if (fw_pump(e->globals.display, fw_ms_until(end)) < 0) {
			return -1;
		}
	}
	e->pointer = wl_seat_get_pointer(e->globals.seat);
	if (e->pointer == NULL) {
		return -1;
	}
	wl_pointer_add_listener(e->pointer, &pointer_listener, e);
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
	if (e->drive) {
		/* A seat without devices only gets a pointer once this exists. */
		if (g->virtual_pointer_manager_version >= 2) {
			e->virtual_pointer =
					zwlr_virtual_pointer_manager_v1_create_virtual_pointer_with_output(
							g->virtual_pointer_manager, g->seat, g->output);
		} else {
			e->virtual_pointer =
					zwlr_virtual_pointer_manager_v1_create_virtual_pointer(
							g->virtual_pointer_manager, g->seat);
		}
		if (e->virtual_pointer == NULL) {
			return -1;
		}
	}
	if (wait_for_pointer(e, setup_deadline) < 0) {
		return -1;
	}
	e->window = fw_window_create(g, "fairway-echo");
	if (e->window == NULL) {
		fprintf(stderr, "%s: cannot create a window\n", e->prog);
		return -1;
	}
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
	 * Not for "presented": wlroots 0.15's headless backend sends its
	 * present event before the output's commit event, so wlr_presentation
	 * never reports a frame presented there.
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
	if (e->drive && locate(e) < 0) {
		return -1;
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
	if (e->pointer != NULL) {
		wl_pointer_release(e->pointer);
	}
	if (e->virtual_pointer != NULL) {
		zwlr_virtual_pointer_v1_destroy(e->virtual_pointer);
	}
	fw_globals_finish(&e->globals);
	free(e->motions);
	fw_stats_finish(&e->receipt);
	fw_stats_finish(&e->echo);
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
	fw_stats_init(&e->receipt);
	fw_stats_init(&e->echo);
	wl_list_init(&e->present.pending);
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
	size_t first = e->motion_count;
	if (run(e, end) < 0) {
		fprintf(stderr, "%s: lost the connection to the compositor\n",
				prog.name);
		goto out;
	}
	uint64_t missed = 0;
	for (size_t i = first; i < e->motion_count; i++) {
		if (e->motions[i].state == MOTION_SENT ||
				e->motions[i].state == MOTION_MISSED) {
			missed++;
		}
	}

	struct fw_summary receipt, echo_latency;
	fw_stats_summarize(&e->receipt, &receipt);
	fw_stats_summarize(&e->echo, &echo_latency);
	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "echo");
	fw_json_summary(&json, "receipt_ms", &receipt, false);
	fw_json_summary(&json, "echo_ms", &echo_latency, false);
	fw_json_uint(&json, "missed", missed);
	fw_json_uint(&json, "generated", e->drive ? e->motion_count - first : 0);
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
