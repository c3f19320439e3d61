/*
 * fairway-follow: echo-to-screen for a client that draws the way GTK does.
 *
 * fairway-echo draws as soon as a motion arrives when no frame callback is
 * pending. A GTK window never does: its frame clock paints only when the
 * compositor's frame callback comes, after it has handled every event
 * already read, and each paint costs what the widgets take, which varies
 * from frame to frame. So this client:
 *
 * - draws only in answer to a frame callback. A motion with no callback
 *   pending asks for one with an empty commit, as GTK's clock does when it
 *   starts again;
 * - before drawing, handles every event already in its socket (GTK's
 *   flush-events phase);
 * - spends a seeded random CPU time on each frame, uniform between
 *   --cost-ms and --cost-max-ms, measured on its own thread's CPU clock,
 *   so that a frame takes longer when the machine is loaded, like real
 *   drawing;
 * - redraws its whole buffer but damages only where the marker was and
 *   is.
 *
 * Its pointer is moved by a virtual pointer on a connection of its own,
 * from a thread of its own, at --hz, so that the pointer keeps its pace
 * while the window draws, as a person's hand does. Echo-to-screen is from
 * the motion's generation to wp_presentation's presented time of the
 * first frame drawn after the motion arrived; event_ms is the same to the
 * motion's own timestamp (milliseconds, what a toolkit sees).
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
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

#define MARKER 9
#define DRAIN_NS (500ull * 1000000u)
#define SETTLE_NS (300ull * 1000000u)
#define SETUP_NS (10ull * 1000000000u)
/* Motions the driver may generate beyond the measured duration. */
#define EXTRA_MOTION_S 20

/* The virtual pointer, on a connection and a thread of its own. */
struct driver {
	struct fw_globals globals;
	struct fw_drive drive;
	unsigned hz;
	/* What it generates, for the window to match (motion_log.h). */
	struct fw_motion_log *log;
	atomic_bool stop;
	atomic_int error;
	/* Wakes the driver from its wait, so that stopping does not leave the
	 * last motion unread for up to a period. */
	int wake_fd;
	pthread_t thread;
	bool running;
};

struct follow {
	const char *prog;
	struct fw_size size;
	bool drive;
	double cost_min_ms, cost_max_ms;
	uint64_t rng;

	struct fw_globals globals;
	struct fw_window *window;
	struct fw_shm_pool *pool;
	struct fw_present present;
	struct fw_pointer pointer;
	struct driver driver;
	struct fw_motion_log motions;

	bool located;

	struct wl_callback *frame_callback;
	bool frame_ready; /* a frame callback came: draw at the next chance */
	uint64_t frame_ready_ns;
	bool dirty, full_damage;
	int32_t drawn_x, drawn_y; /* where the last frame put the marker */
	uint64_t commit_seq;
	uint32_t configures_drawn;
	uint64_t draws;

	struct fw_stats draw, cost;
};

static uint64_t next_random(struct follow *f) {
	/* xorshift64*: the same costs for the same --seed. */
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return f->rng * UINT64_C(2685821657736338717);
}

static uint64_t thread_cpu_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Spends this frame's CPU time, as a toolkit's layout and paint would. */
static void burn(struct follow *f) {
	double u = (double)(next_random(f) >> 11) / (double)(UINT64_C(1) << 53);
	double ms = f->cost_min_ms + (f->cost_max_ms - f->cost_min_ms) * u;
	uint64_t start = thread_cpu_ns();
	uint64_t until = start + (uint64_t)(ms * 1e6);
	volatile uint64_t sink = f->rng;
	while (thread_cpu_ns() < until) {
		for (int i = 0; i < 2000; i++) {
			sink = sink * 6364136223846793005u + 1442695040888963407u;
		}
	}
	fw_stats_add(&f->cost, fw_ns_to_ms((int64_t)(thread_cpu_ns() - start)));
}

/* --- the window ------------------------------------------------------- */

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct follow *f = data;
	wl_callback_destroy(callback);
	f->frame_callback = NULL;
	f->frame_ready = true;
	f->frame_ready_ns = fw_now_ns();
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

static void request_frame(struct follow *f) {
	f->frame_callback = wl_surface_frame(f->window->surface);
	wl_callback_add_listener(f->frame_callback, &frame_listener, f);
}

/*
 * Something changed: GTK's clock asks for a frame callback if none is
 * pending, committing nothing new, and paints when it comes.
 */
static void invalidate(struct follow *f) {
	f->dirty = true;
	if (f->frame_callback == NULL && !f->frame_ready && f->window != NULL &&
			f->window->configured) {
		request_frame(f);
		wl_surface_commit(f->window->surface);
	}
}

static void fill_box(
		struct fw_buffer *b, int x0, int y0, int size, uint32_t color) {
	for (int y = y0; y < y0 + size; y++) {
		for (int x = x0; x < x0 + size; x++) {
			if (x >= 0 && y >= 0 && x < b->width && y < b->height) {
				b->pixels[(size_t)y * (size_t)b->width + (size_t)x] = color;
			}
		}
	}
}

static void damage_marker(struct wl_surface *surface, int32_t x, int32_t y) {
	wl_surface_damage_buffer(
			surface, x - MARKER / 2, y - MARKER / 2, MARKER, MARKER);
}

/* The frame callback came and the events already read are handled. */
static void draw_frame(struct follow *f) {
	if (!f->dirty) {
		/* Nothing changed: the clock stops until something does. */
		f->frame_ready = false;
		return;
	}
	struct fw_buffer *b = fw_shm_pool_acquire(f->pool);
	if (b == NULL) {
		/* All held: draw when one comes back. */
		return;
	}
	burn(f);
	size_t n = (size_t)b->width * (size_t)b->height;
	for (size_t i = 0; i < n; i++) {
		b->pixels[i] = 0xfff0f0f0u;
	}
	int32_t x = (int32_t)lround(f->pointer.x),
			y = (int32_t)lround(f->pointer.y);
	if (f->pointer.moved) {
		fill_box(b, x - MARKER / 2, y - MARKER / 2, MARKER, 0xff000000u);
	}
	struct wl_surface *surface = f->window->surface;
	fw_buffer_attach(b, surface);
	if (f->full_damage) {
		wl_surface_damage_buffer(surface, 0, 0, b->width, b->height);
		f->full_damage = false;
	} else {
		damage_marker(surface, f->drawn_x, f->drawn_y);
		damage_marker(surface, x, y);
	}
	f->drawn_x = x;
	f->drawn_y = y;
	request_frame(f);
	uint64_t seq = ++f->commit_seq;
	fw_present_request(&f->present, surface, seq);
	wl_surface_commit(surface);
	f->draws++;
	if (f->frame_ready_ns != 0) {
		fw_stats_add(&f->draw,
				fw_ns_to_ms((int64_t)(fw_now_ns() - f->frame_ready_ns)));
	}
	fw_motion_log_drawn(&f->motions, seq);
	f->dirty = false;
	f->frame_ready = false;
	f->frame_ready_ns = 0;
}

static void handle_present(
		void *data, uint64_t seq, bool presented, uint64_t present_ns) {
	struct follow *f = data;
	if (!presented) {
		/* A later presented frame shows these motions too. */
		return;
	}
	fw_motion_log_presented(&f->motions, seq, present_ns);
}

/* --- the pointer we are given ----------------------------------------- */

static void handle_position(void *data, wl_fixed_t sx, wl_fixed_t sy,
		uint32_t time_ms, bool has_time) {
	struct follow *f = data;
	uint64_t now = fw_now_ns();
	int32_t x = (int32_t)lround(f->pointer.x),
			y = (int32_t)lround(f->pointer.y);
	/* wlroots passes the device's CLOCK_MONOTONIC milliseconds through. */
	uint64_t age_ms = (uint32_t)((uint32_t)(now / 1000000u) - time_ms);
	uint64_t event_ns = has_time ? now - age_ms * 1000000u : now;
	if (f->drive && f->located) {
		fw_motion_log_match(&f->motions, x, y, now, event_ns);
	} else if (!f->drive && has_time) {
		fw_motion_log_add_delivered(&f->motions, x, y, now, event_ns);
	}
	invalidate(f);
}

/* --- the driver ------------------------------------------------------- */

/* Sleeps until next on the clock, or until driver_stop wakes it: -1. */
static int wait_until(struct driver *d, uint64_t next) {
	struct pollfd wake = {.fd = d->wake_fd, .events = POLLIN};
	for (;;) {
		uint64_t now = fw_now_ns();
		if (now >= next) {
			return 0;
		}
		struct timespec left = fw_ns_to_timespec(next - now);
		int n = ppoll(&wake, 1, &left, NULL);
		if (n > 0) {
			return -1;
		}
		if (n < 0 && errno != EINTR) {
			return -1;
		}
	}
}

static void *driver_run(void *data) {
	struct driver *d = data;
	/* Stop signals are the main thread's, which polls. */
	sigset_t mask;
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &mask, NULL);

	uint64_t period = 1000000000ull / d->hz;
	uint64_t next = fw_now_ns();
	while (!atomic_load(&d->stop)) {
		if (fw_drive_step(&d->drive, d->log) < 0) {
			break;
		}
		/* Reads what the compositor sends too, so its queue never fills. */
		if (fw_pump(d->globals.display, 0) < 0) {
			atomic_store(&d->error, 1);
			break;
		}
		next += period;
		uint64_t now = fw_now_ns();
		if (next < now) {
			/* Fell behind (we were starved): do not burst. */
			next = now + period;
		}
		if (wait_until(d, next) < 0) {
			break;
		}
	}
	return NULL;
}

static int driver_start(struct follow *f) {
	struct driver *d = &f->driver;
	d->log = &f->motions;
	d->wake_fd = eventfd(0, EFD_CLOEXEC);
	if (d->wake_fd < 0) {
		return -1;
	}
	if (pthread_create(&d->thread, NULL, driver_run, d) != 0) {
		close(d->wake_fd);
		d->wake_fd = -1;
		return -1;
	}
	d->running = true;
	return 0;
}

static void driver_stop(struct driver *d) {
	if (d->running) {
		atomic_store(&d->stop, true);
		uint64_t one = 1;
		if (write(d->wake_fd, &one, sizeof(one)) < 0) {
			/* The driver stops at its next motion instead. */
		}
		pthread_join(d->thread, NULL);
		close(d->wake_fd);
		d->wake_fd = -1;
		d->running = false;
	}
}

static int driver_connect(struct follow *f) {
	struct driver *d = &f->driver;
	struct wl_display *display = fw_connect(f->prog);
	if (display == NULL) {
		return -1;
	}
	if (fw_globals_init(&d->globals, display) < 0 ||
			fw_globals_require(&d->globals, f->prog,
					FW_NEED_SEAT | FW_NEED_VIRTUAL_POINTER | FW_NEED_OUTPUT) <
					0) {
		return -1;
	}
	if (fw_drive_init(&d->drive, &d->globals, f->size) < 0) {
		return -1;
	}
	return wl_display_roundtrip(display) < 0 ? -1 : 0;
}

static void driver_finish(struct driver *d) {
	driver_stop(d);
	fw_drive_finish(&d->drive);
	if (d->globals.display != NULL) {
		struct wl_display *display = d->globals.display;
		fw_globals_finish(&d->globals);
		wl_display_disconnect(display);
	}
}

/* --- setup and run ---------------------------------------------------- */

/* Maps the window with its first frame, drawn at once as GTK does. */
static int map_window(struct follow *f, uint64_t deadline) {
	struct fw_globals *g = &f->globals;
	f->window = fw_window_create(g, "fairway-follow");
	f->pool = f->window != NULL
			? fw_shm_pool_create(g->shm, f->size.width, f->size.height, 3)
			: NULL;
	if (f->pool == NULL) {
		fprintf(stderr, "%s: cannot create a window\n", f->prog);
		return -1;
	}
	f->pointer.surface = f->window->surface;
	if (fw_window_wait_configured(f->window) < 0) {
		fprintf(stderr, "%s: the window was never configured\n", f->prog);
		return -1;
	}
	uint32_t seen = f->window->configures;
	uint64_t quiet_until = fw_now_ns() + SETTLE_NS;
	f->full_damage = f->dirty = true;
	draw_frame(f);
	while (f->frame_callback != NULL || fw_now_ns() < quiet_until) {
		if (f->window->configures != seen) {
			/* A tiling compositor moves or resizes after mapping. */
			seen = f->window->configures;
			quiet_until = fw_now_ns() + SETTLE_NS;
			f->full_damage = f->dirty = true;
		}
		if (f->frame_ready) {
			draw_frame(f);
		}
		if (fw_stop_requested() || fw_now_ns() >= deadline) {
			fprintf(stderr, "%s: our window was never shown\n", f->prog);
			return -1;
		}
		uint64_t wake = quiet_until < deadline ? quiet_until : deadline;
		if (fw_pump(g->display, fw_ms_until(wake)) < 0) {
			return -1;
		}
	}
	f->configures_drawn = f->window->configures;
	return 0;
}

/*
 * The sweep's last motions are still being drawn: the first motion
 * measured would wait behind them. The window draws until it has nothing
 * new and stays so for SETTLE_NS.
 */
static int settle(struct follow *f, uint64_t deadline) {
	uint64_t quiet_until = fw_now_ns() + SETTLE_NS;
	uint64_t now;
	while ((now = fw_now_ns()) < quiet_until) {
		if (f->frame_ready) {
			draw_frame(f);
			quiet_until = fw_now_ns() + SETTLE_NS;
		}
		if (fw_stop_requested() || now >= deadline) {
			fprintf(stderr, "%s: our window never stopped drawing\n", f->prog);
			return -1;
		}
		if (fw_pump(f->globals.display, fw_ms_until(quiet_until)) < 0) {
			return -1;
		}
	}
	return 0;
}

static int setup(struct follow *f) {
	uint64_t deadline = fw_now_ns() + SETUP_NS;
	struct fw_globals *g = &f->globals;
	uint32_t needs = FW_NEED_COMPOSITOR | FW_NEED_SHM | FW_NEED_XDG_WM_BASE |
			FW_NEED_PRESENTATION | FW_NEED_SEAT;
	if (fw_globals_require(g, f->prog, needs) < 0) {
		return -1;
	}
	fw_time_use_clock(g->presentation_clock);
	fw_present_init(&f->present, g->presentation, handle_present, f);
	if (f->drive && driver_connect(f) < 0) {
		return -1;
	}
	f->pointer.position = handle_position;
	f->pointer.data = f;
	if (fw_pointer_init(&f->pointer, g, f->prog, deadline) < 0 ||
			map_window(f, deadline) < 0) {
		return -1;
	}
	/* The pointer's connection is not the window's: both make a round
	 * trip at each step of the sweep. */
	if (f->drive) {
		if (fw_drive_locate(&f->driver.drive, &f->pointer, f->globals.display,
					f->prog) < 0) {
			return -1;
		}
		f->located = true;
	}
	return settle(f, deadline);
}

static int run(struct follow *f, uint64_t end) {
	struct wl_display *display = f->globals.display;
	while (!fw_stop_requested() && fw_now_ns() < end) {
		if (f->window->configures != f->configures_drawn) {
			f->configures_drawn = f->window->configures;
			f->full_damage = true;
			invalidate(f);
		}
		if (f->frame_ready) {
			/* Every event already here first, as GTK's frame clock. */
			if (fw_pump(display, 0) < 0) {
				return -1;
			}
			draw_frame(f);
		}
		if (atomic_load(&f->driver.error)) {
			return -1;
		}
		if (fw_pump(display, f->frame_ready ? 1 : fw_ms_until(end)) < 0) {
			return -1;
		}
	}
	driver_stop(&f->driver);
	/* Let the last motions arrive and the last frames reach the screen. */
	uint64_t drain = fw_now_ns() + DRAIN_NS;
	while (fw_now_ns() < drain && !fw_stop_requested()) {
		if (!fw_motion_log_waiting(&f->motions)) {
			break;
		}
		if (f->frame_ready) {
			draw_frame(f);
		}
		if (fw_pump(display, fw_ms_until(drain)) < 0) {
			return -1;
		}
	}
	return 0;
}

static void report(struct follow *f, size_t first, double seconds) {
	size_t count = fw_motion_log_count(&f->motions);
	struct fw_summary receipt, echo, event, draw, cost;
	fw_stats_summarize(&f->motions.receipt, &receipt);
	fw_stats_summarize(&f->motions.echo, &echo);
	fw_stats_summarize(&f->motions.event, &event);
	fw_stats_summarize(&f->draw, &draw);
	fw_stats_summarize(&f->cost, &cost);
	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "follow");
	fw_json_summary(&json, "receipt_ms", &receipt, false);
	fw_json_summary(&json, "echo_ms", &echo, false);
	fw_json_summary(&json, "event_ms", &event, false);
	fw_json_summary(&json, "draw_ms", &draw, false);
	fw_json_summary(&json, "cost_ms", &cost, false);
	fw_json_uint(&json, "missed", fw_motion_log_missed(&f->motions, first));
	fw_json_uint(&json, "generated", f->drive ? count - first : 0);
	fw_json_uint(&json, "draws", f->draws);
	fw_json_uint(&json, "frames", f->present.presented);
	fw_json_uint(&json, "discarded", f->present.discarded);
	fw_json_double(&json, "seconds", seconds);
	fw_json_string(&json, "clock", fw_clock_name(fw_time_clock()));
	fw_json_end(&json);
}

static void teardown(struct follow *f) {
	driver_finish(&f->driver);
	fw_present_finish(&f->present);
	if (f->frame_callback != NULL) {
		wl_callback_destroy(f->frame_callback);
	}
	fw_shm_pool_destroy(f->pool);
	fw_window_destroy(f->window);
	fw_pointer_finish(&f->pointer);
	fw_globals_finish(&f->globals);
	fw_motion_log_finish(&f->motions);
	fw_stats_finish(&f->draw);
	fw_stats_finish(&f->cost);
}

int main(int argc, char **argv) {
	double duration = 5, cost_min = 0.3, cost_max = 3;
	struct fw_size size = {400, 300};
	unsigned hz = 250, seed = 1;
	bool no_drive = false;
	const char *samples = NULL;
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long to measure (default 5)", 0, NULL},
			{"size", FW_OPTION_SIZE, &size, "WxH",
					"window size (default 400x300)", 0, NULL},
			{"hz", FW_OPTION_UINT, &hz, "N",
					"pointer motions per second (default 250)", 1, NULL},
			{"cost-ms", FW_OPTION_DOUBLE, &cost_min, "MS",
					"least CPU time a frame costs (default 0.3)", -1, NULL},
			{"cost-max-ms", FW_OPTION_DOUBLE, &cost_max, "MS",
					"most CPU time a frame costs (default 3)", -1, NULL},
			{"seed", FW_OPTION_UINT, &seed, "N",
					"seed of the frame costs (default 1)", 1, NULL},
			{"no-drive", FW_OPTION_FLAG, &no_drive, NULL,
					"do not move the pointer; time motions by their timestamp",
					0, NULL},
			{"samples", FW_OPTION_STRING, &samples, "FILE",
					"write every echo-to-screen sample (ms) to FILE", 0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-follow",
			.summary = "Measures echo-to-screen for a window that draws on "
					   "frame callbacks at a variable cost; prints a JSON "
					   "summary.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	if (cost_max < cost_min) {
		fw_options_usage_error(
				&prog, "--cost-max-ms is below --cost-ms", "--cost-max-ms");
	}
	fw_stop_install();

	struct follow *f = calloc(1, sizeof(*f));
	if (f == NULL) {
		return 1;
	}
	f->prog = prog.name;
	f->size = size;
	f->drive = !no_drive;
	f->cost_min_ms = cost_min;
	f->cost_max_ms = cost_max;
	f->rng = UINT64_C(0x9e3779b97f4a7c15) ^ seed;
	f->driver.hz = hz;
	wl_list_init(&f->present.pending);
	int ret = 1;
	/* Undriven, someone else's pointer: room for 1 kHz. */
	if (fw_motion_log_init(&f->motions,
				(size_t)((duration + EXTRA_MOTION_S) *
						(no_drive ? 1000 : hz))) < 0) {
		fw_motion_log_finish(&f->motions);
		free(f);
		return 1;
	}

	struct wl_display *display = fw_connect(prog.name);
	if (display == NULL) {
		goto out_free;
	}
	if (fw_globals_init(&f->globals, display) < 0) {
		fprintf(stderr, "%s: cannot read the compositor's globals\n",
				prog.name);
		goto out;
	}
	if (setup(f) < 0) {
		goto out;
	}
	uint64_t start = fw_now_ns();
	size_t first = fw_motion_log_count(&f->motions);
	if (f->drive && driver_start(f) < 0) {
		fprintf(stderr, "%s: cannot start the pointer\n", prog.name);
		goto out;
	}
	if (run(f, start + (uint64_t)(duration * 1e9)) < 0) {
		fprintf(stderr, "%s: lost the connection to the compositor\n",
				prog.name);
		goto out;
	}
	report(f, first, fw_ns_to_ms((int64_t)(fw_now_ns() - start)) / 1e3);
	if (samples != NULL && fw_stats_write(&f->motions.echo, samples) < 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog.name, samples,
				strerror(errno));
		goto out;
	}
	ret = 0;

out:
	teardown(f);
	wl_display_disconnect(display);
out_free:
	free(f);
	return ret;
}
