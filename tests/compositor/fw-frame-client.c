/*
 * A window that draws one frame per frame done, as GTK, Qt and foot do,
 * and counts, with presentation feedback, at which tick each frame was
 * shown relative to the frame done it was drawn for.
 *
 * A frame done "comes from" the tick nearest to it: a compositor that sends
 * them right after painting sends them just after a tick, and a frame drawn
 * then is shown one tick later; one that sends them ahead of its deadline
 * sends them just before a tick, and the frame is shown at that tick. So
 * each presented frame's lag is the number of ticks from the one nearest
 * its frame done to the one that showed it, in periods measured from the
 * presented times themselves. Prints one JSON line of counts.
 *
 * --pause-every N: every Nth frame asks for no frame done; once it is
 * presented the client asks for one, with nothing drawn, as a client
 * whose input paused for a frame does. A compositor then has planned its
 * frame already, and the frame drawn on that frame done is shown one
 * tick after the asking if the compositor plans it at once, two if it
 * waits for its next paint: "resumed" counts them by ticks from the ask.
 * --pause-ms MS: the ask comes MS after that presentation instead, on an
 * output that may have had nothing to show since, as a keystroke after a
 * pause does.
 *
 * --empty N: once mapped, asks for N frame dones one after another, each
 * with a commit that changes nothing, as a client that uses frame
 * callbacks as its clock while it has nothing to draw; prints how long
 * they took.
 *
 * --pointer: takes the seat's pointer, so that pointer motion over the
 * window is input to it, as to any real client; what it gets is printed
 * before the JSON line (fw-test-seat.h).
 * --draw-us US: each frame takes US microseconds to draw (a sleep).
 * --late-every N --late-us US: every Nth frame takes US instead, longer
 * than the compositor predicts from the others: "late" counts those
 * frames by ticks from their frame done, as "resumed" does. With
 * --late-step-us STEP each late frame takes STEP longer than the one
 * before, so that a margin widened by the last one does not cover it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>

#include "fw-test-buffer.h"
#include "fw-test-seat.h"
#include "fw-test-window.h"
#include "presentation-time-client-protocol.h"

#define BUFFERS 3

struct frame {
	int64_t done_ns; /* when the frame done it answers arrived */
	int64_t asked_ns; /* when its frame done was asked for after a pause */
	int64_t presented_ns; /* 0: not (yet) presented */
	bool discarded;
};

struct client {
	struct fw_test_globals globals;
	struct wp_presentation *presentation;
	clockid_t clock;

	struct fw_test_window window;
	struct wl_list buffers;
	struct test_buffer *slots[BUFFERS];
	struct wl_callback *frame_callback; /* the one asked for last */
	struct wl_list feedbacks; /* feedback.link, not yet resolved */

	int width, height;
	int wanted; /* frames to draw on frame done */
	int drawn;
	int resolved; /* presented or discarded */
	struct frame *frames;
	bool failed;
	int pause_every; /* 0: never */
	int paused_frame; /* the frame that asked for no frame done; -2: none */
	int64_t asked_ns; /* the ask after it, for the next frame drawn */
	int pause_ms;
	int64_t ask_at_ns; /* a pause's ask is due then; 0: none */
	int empty; /* --empty: frame dones left to ask for */
	int draw_us, late_every, late_us, late_step_us;
	bool want_pointer;
	struct fw_test_seat seat;
};

static int64_t now_ns(clockid_t clock) {
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void handle_clock_id(
		void *data, struct wp_presentation *presentation, uint32_t clock) {
	struct client *c = data;
	c->clock = (clockid_t)clock;
}

static const struct wp_presentation_listener presentation_listener = {
		.clock_id = handle_clock_id,
};

static void bind_global(void *data, struct wl_registry *registry, uint32_t name,
		const char *interface, uint32_t version) {
	struct client *c = data;
	if (c->want_pointer && strcmp(interface, wl_seat_interface.name) == 0) {
		fw_test_seat_bind(&c->seat, registry, name, version);
	}
	if (strcmp(interface, wp_presentation_interface.name) == 0) {
		c->presentation =
				wl_registry_bind(registry, name, &wp_presentation_interface, 1);
		wp_presentation_add_listener(
				c->presentation, &presentation_listener, c);
	}
}

struct feedback {
	struct client *client;
	struct wp_presentation_feedback *wp_feedback;
	int frame; /* index into frames, -1 for the first commit */
	struct wl_list link;
};

static void feedback_destroy(struct feedback *feedback) {
	wp_presentation_feedback_destroy(feedback->wp_feedback);
	wl_list_remove(&feedback->link);
	free(feedback);
}

static void handle_sync_output(void *data,
		struct wp_presentation_feedback *feedback, struct wl_output *output) {
}

static void draw(struct client *c, int frame);
static const struct wl_callback_listener frame_listener;

static void ask(struct client *c);

/* The paused frame is resolved: ask for a frame done, drawing nothing, now
 * or after --pause-ms. */
static void resume(struct client *c, int frame) {
	if (frame < 0 || frame != c->paused_frame || c->drawn >= c->wanted) {
		return;
	}
	c->paused_frame = -2;
	if (c->pause_ms > 0) {
		c->ask_at_ns = now_ns(c->clock) + (int64_t)c->pause_ms * 1000000;
		return;
	}
	ask(c);
}

static void ask(struct client *c) {
	c->ask_at_ns = 0;
	c->frame_callback = wl_surface_frame(c->window.surface);
	wl_callback_add_listener(c->frame_callback, &frame_listener, c);
	c->asked_ns = now_ns(c->clock);
	wl_surface_commit(c->window.surface);
	wl_display_flush(c->globals.display);
}

static void handle_presented(void *data,
		struct wp_presentation_feedback *wp_feedback, uint32_t tv_sec_hi,
		uint32_t tv_sec_lo, uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi,
		uint32_t seq_lo, uint32_t flags) {
	struct feedback *feedback = data;
	struct client *c = feedback->client;
	if (feedback->frame >= 0) {
		c->frames[feedback->frame].presented_ns =
				(int64_t)((((uint64_t)tv_sec_hi << 32) | tv_sec_lo) *
								1000000000ull +
						tv_nsec);
		c->resolved++;
	}
	int frame = feedback->frame;
	feedback_destroy(feedback);
	resume(c, frame);
}

static void handle_discarded(
		void *data, struct wp_presentation_feedback *wp_feedback) {
	struct feedback *feedback = data;
	struct client *c = feedback->client;
	if (feedback->frame >= 0) {
		c->frames[feedback->frame].discarded = true;
		c->resolved++;
	}
	int frame = feedback->frame;
	feedback_destroy(feedback);
	resume(c, frame);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
		.sync_output = handle_sync_output,
		.presented = handle_presented,
		.discarded = handle_discarded,
};

static const struct wl_callback_listener empty_listener;

static void ask_empty(struct client *c) {
	c->frame_callback = wl_surface_frame(c->window.surface);
	wl_callback_add_listener(c->frame_callback, &empty_listener, c);
	wl_surface_commit(c->window.surface);
	wl_display_flush(c->globals.display);
}

static void handle_empty_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct client *c = data;
	wl_callback_destroy(callback);
	c->frame_callback = NULL;
	if (--c->empty > 0) {
		ask_empty(c);
	}
}

static const struct wl_callback_listener empty_listener = {
		.done = handle_empty_done,
};

static bool is_late(const struct client *c, int frame) {
	return c->late_every > 0 && frame % c->late_every == c->late_every - 1;
}

static void handle_frame_done(
		void *data, struct wl_callback *callback, uint32_t time) {
	struct client *c = data;
	wl_callback_destroy(callback);
	c->frame_callback = NULL;
	if (c->empty > 0) {
		/* The first frame is shown: from now on, only empty commits. */
		return;
	}
	if (c->drawn < c->wanted) {
		c->frames[c->drawn].done_ns = now_ns(c->clock);
		c->frames[c->drawn].asked_ns = c->asked_ns;
		c->asked_ns = 0;
		int us = c->draw_us;
		if (is_late(c, c->drawn)) {
			us = c->late_us + c->drawn / c->late_every * c->late_step_us;
		}
		if (us > 0) {
			struct timespec ts = {us / 1000000, (long)(us % 1000000) * 1000};
			nanosleep(&ts, NULL);
		}
		draw(c, c->drawn++);
	}
}

static const struct wl_callback_listener frame_listener = {
		.done = handle_frame_done,
};

static struct test_buffer **free_slot(struct client *c) {
	for (int i = 0; i < BUFFERS; i++) {
		if (c->slots[i] == NULL || !c->slots[i]->busy) {
			return &c->slots[i];
		}
	}
	return NULL;
}

/* Commits a new frame in a new colour, asking for the next frame done. */
static void draw(struct client *c, int frame) {
	static const uint32_t colors[BUFFERS] = {0xc03030, 0x30c030, 0x3030c0};
	struct test_buffer **slot;
	while ((slot = free_slot(c)) == NULL) {
		/* All three held: wait for a release, as a real client must. */
		if (wl_display_dispatch(c->globals.display) < 0) {
			c->failed = true;
			return;
		}
	}
	int index = (int)(slot - c->slots);
	if (!test_buffer_show(c->globals.shm, &c->buffers, c->window.surface, slot,
				c->width, c->height, colors[index], 255)) {
		c->failed = true;
		return;
	}
	if (c->pause_every > 0 && frame >= 0 &&
			frame % c->pause_every == c->pause_every - 1) {
		c->paused_frame = frame;
	} else {
		c->frame_callback = wl_surface_frame(c->window.surface);
		wl_callback_add_listener(c->frame_callback, &frame_listener, c);
	}
	struct feedback *feedback = calloc(1, sizeof(*feedback));
	if (feedback == NULL) {
		c->failed = true;
		return;
	}
	feedback->client = c;
	feedback->frame = frame;
	feedback->wp_feedback =
			wp_presentation_feedback(c->presentation, c->window.surface);
	wl_list_insert(&c->feedbacks, &feedback->link);
	wp_presentation_feedback_add_listener(
			feedback->wp_feedback, &feedback_listener, feedback);
	wl_surface_commit(c->window.surface);
	wl_display_flush(c->globals.display);
}

static int compare_ns(const void *a, const void *b) {
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The tick period: the median interval between distinct presented times. */
static int64_t period_ns(struct client *c) {
	int64_t *times = calloc((size_t)c->wanted, sizeof(*times));
	if (times == NULL) {
		return 0;
	}
	size_t n = 0;
	for (int i = 0; i < c->wanted; i++) {
		if (c->frames[i].presented_ns != 0) {
			times[n++] = c->frames[i].presented_ns;
		}
	}
	qsort(times, n, sizeof(*times), compare_ns);
	size_t m = 0;
	for (size_t i = 1; i < n; i++) {
		if (times[i] > times[i - 1]) {
			times[m++] = times[i] - times[i - 1];
		}
	}
	qsort(times, m, sizeof(*times), compare_ns);
	int64_t period = m > 0 ? times[m / 2] : 0;
	free(times);
	return period;
}

static void report(struct client *c) {
	int64_t period = period_ns(c);
	int presented = 0, discarded = 0, lag[3] = {0}, resumed[3] = {0},
		late[3] = {0};
	for (int i = 0; i < c->wanted; i++) {
		struct frame *f = &c->frames[i];
		if (f->discarded) {
			discarded++;
			continue;
		}
		if (f->presented_ns == 0 || period <= 0) {
			continue;
		}
		presented++;
		long ticks = lround((double)(f->presented_ns - f->done_ns) / period);
		lag[ticks <= 0 ? 0 : ticks == 1 ? 1 : 2]++;
		if (is_late(c, i)) {
			late[ticks <= 0 ? 0 : ticks == 1 ? 1 : 2]++;
		}
		if (f->asked_ns != 0) {
			ticks = lround((double)(f->presented_ns - f->asked_ns) / period);
			resumed[ticks <= 0 ? 0 : ticks == 1 ? 1 : 2]++;
		}
	}
	printf("{\"frames\":%d,\"presented\":%d,\"discarded\":%d,"
		   "\"same_tick\":%d,\"next_tick\":%d,\"later\":%d,"
		   "\"resumed\":[%d,%d,%d],\"late\":[%d,%d,%d],"
		   "\"period_ms\":%.3f}\n",
			c->wanted, presented, discarded, lag[0], lag[1], lag[2], resumed[0],
			resumed[1], resumed[2], late[0], late[1], late[2],
			(double)period / 1e6);
	fflush(stdout);
}

/* Dispatches what comes, until a pause's ask is due: -1 when the
 * compositor is gone. */
static int wait_events(struct client *c) {
	struct wl_display *display = c->globals.display;
	if (c->ask_at_ns == 0) {
		return wl_display_dispatch(display);
	}
	int64_t left = c->ask_at_ns - now_ns(c->clock);
	if (left <= 0) {
		ask(c);
		return 0;
	}
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return -1;
		}
	}
	if (wl_display_flush(display) < 0) {
		wl_display_cancel_read(display);
		return -1;
	}
	struct pollfd pfd = {.fd = wl_display_get_fd(display), .events = POLLIN};
	int n = poll(&pfd, 1, (int)((left + 999999) / 1000000));
	if (n <= 0) {
		wl_display_cancel_read(display);
		return n < 0 && errno != EINTR ? -1 : 0;
	}
	if (wl_display_read_events(display) < 0) {
		return -1;
	}
	return wl_display_dispatch_pending(display);
}

/* --empty: after the first frame's frame done, the empty ones. */
static int run_empty(struct client *c) {
	int count = c->empty;
	while (c->frame_callback != NULL) {
		if (wl_display_dispatch(c->globals.display) < 0) {
			fprintf(stderr, "fw-frame-client: lost the compositor\n");
			return 1;
		}
	}
	int64_t start = now_ns(c->clock);
	ask_empty(c);
	while (c->empty > 0) {
		if (wl_display_dispatch(c->globals.display) < 0) {
			fprintf(stderr, "fw-frame-client: lost the compositor\n");
			return 1;
		}
	}
	printf("{\"empty\":%d,\"elapsed_ms\":%.3f}\n", count,
			(double)(now_ns(c->clock) - start) / 1e6);
	return 0;
}

static void usage(FILE *out) {
	fprintf(out,
			"usage: fw-frame-client [--frames N] [--size WxH] "
			"[--pause-every N [--pause-ms MS]] [--empty N] [--draw-us US] "
			"[--late-every N --late-us US [--late-step-us US]] "
			"[--pointer]\n");
}

int main(int argc, char *argv[]) {
	struct client c = {
			.wanted = 120, .width = 200, .height = 150, .paused_frame = -2};
	c.clock = CLOCK_MONOTONIC;
	static const struct option options[] = {
			{"frames", required_argument, NULL, 'n'},
			{"size", required_argument, NULL, 's'},
			{"pause-every", required_argument, NULL, 'p'},
			{"pause-ms", required_argument, NULL, 'm'},
			{"empty", required_argument, NULL, 'e'},
			{"draw-us", required_argument, NULL, 'd'},
			{"late-every", required_argument, NULL, 'l'},
			{"late-us", required_argument, NULL, 'u'},
			{"late-step-us", required_argument, NULL, 'S'},
			{"pointer", no_argument, NULL, 'P'},
			{"help", no_argument, NULL, 'h'},
			{0},
	};
	int opt;
	while ((opt = getopt_long(argc, argv, "h", options, NULL)) != -1) {
		switch (opt) {
		case 'n':
			c.wanted = atoi(optarg);
			break;
		case 's':
			if (sscanf(optarg, "%dx%d", &c.width, &c.height) != 2) {
				usage(stderr);
				return 2;
			}
			break;
		case 'p':
			c.pause_every = atoi(optarg);
			break;
		case 'm':
			c.pause_ms = atoi(optarg);
			break;
		case 'e':
			c.empty = atoi(optarg);
			break;
		case 'd':
			c.draw_us = atoi(optarg);
			break;
		case 'l':
			c.late_every = atoi(optarg);
			break;
		case 'u':
			c.late_us = atoi(optarg);
			break;
		case 'S':
			c.late_step_us = atoi(optarg);
			break;
		case 'P':
			c.want_pointer = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc || c.wanted < 1 || c.width < 1 || c.height < 1 ||
			c.pause_every < 0 || c.pause_ms < 0 || c.empty < 0 ||
			c.draw_us < 0 || c.late_every < 0 || c.late_us < 0 ||
			c.late_step_us < 0) {
		usage(stderr);
		return 2;
	}
	c.frames = calloc((size_t)c.wanted, sizeof(*c.frames));
	wl_list_init(&c.buffers);
	wl_list_init(&c.feedbacks);
	if (c.frames == NULL) {
		fprintf(stderr, "fw-frame-client: out of memory\n");
		return 1;
	}
	c.globals.bind = bind_global;
	c.globals.data = &c;
	if (!fw_test_window_connect(&c.globals, "fw-frame-client")) {
		return 1;
	}
	wl_display_roundtrip(c.globals.display);
	if (c.globals.compositor == NULL || c.globals.shm == NULL ||
			c.globals.wm_base == NULL || c.presentation == NULL) {
		fprintf(stderr, "fw-frame-client: compositor lacks a global\n");
		return 1;
	}
	if (c.want_pointer && c.seat.seat == NULL) {
		fprintf(stderr, "fw-frame-client: compositor has no seat\n");
		return 1;
	}
	fw_test_window_create(&c.window, &c.globals, "fw-frame-client");
	/* A compositor lost here is said below, as one lost later. */
	fw_test_window_map(&c.window, c.globals.display);
	/* The first frame maps the window; each frame done draws the next. */
	draw(&c, -1);
	int status = 0;
	if (c.empty > 0) {
		status = run_empty(&c);
	} else {
		while (!c.failed && c.resolved < c.wanted && wait_events(&c) >= 0) {
		}
		if (c.failed || c.resolved < c.wanted) {
			fprintf(stderr, "fw-frame-client: lost the compositor\n");
			status = 1;
		} else {
			report(&c);
		}
	}
	struct feedback *feedback, *tmp;
	wl_list_for_each_safe(feedback, tmp, &c.feedbacks, link) {
		feedback_destroy(feedback);
	}
	if (c.frame_callback != NULL) {
		wl_callback_destroy(c.frame_callback);
	}
	struct test_buffer *buffer, *buffer_tmp;
	wl_list_for_each_safe(buffer, buffer_tmp, &c.buffers, link) {
		test_buffer_free(buffer);
	}
	fw_test_window_destroy(&c.window);
	fw_test_seat_finish(&c.seat);
	wp_presentation_destroy(c.presentation);
	fw_test_window_disconnect(&c.globals);
	free(c.frames);
	return status;
}
