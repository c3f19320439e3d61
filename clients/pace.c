/*
 * fairway-pace: frames paced by the clock (wp_commit_timing_v1) or by the
 * refresh (wp_fifo_v1), checked with presentation feedback.
 *
 * --mode timing commits each frame with a target time and draws the next
 * once the frame's feedback came. With --targets aligned (the default) the
 * target is on the output's refresh cycle as the feedback shows it: the
 * last presented time plus --ahead refreshes, less --margin of a refresh,
 * as a video player or Vulkan's present timing aims at a refresh it has
 * learned from feedback; the margin keeps a target that lands a little
 * after a refresh (jitter, rounding, a compositor's own margin) from
 * waiting for the next one. With --targets random it is now plus --ahead
 * refreshes plus a random offset within one, which spreads presented
 * minus target over a whole refresh by construction. It prints presented
 * minus target (p50, p99, max, in ms) and how many frames were presented
 * before their target ("negative"), which the protocol forbids.
 *
 * --mode fifo commits frames back to back, each with set_barrier and
 * wait_barrier, as Mesa's Vulkan FIFO present mode does, without waiting
 * for frame callbacks. It prints how many frames were presented, how many
 * were discarded (replaced unseen) and how many were presented at the same
 * time as another ("same_refresh"), which fifo's one per refresh forbids.
 *
 * The refresh is the one the first frame's feedback reports, else
 * --refresh-hz. Both modes print that refresh and every feedback flag
 * seen (wp_presentation_feedback.kind, or'ed).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "clients/common/globals.h"
#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/pump.h"
#include "clients/common/shm.h"
#include "clients/common/stats.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"
#include "clients/common/window.h"
#include "commit-timing-v1-client-protocol.h"
#include "fifo-v1-client-protocol.h"
#include "presentation-time-client-protocol.h"

/* How long a frame's feedback may take before the run gives up on it:
 * long, for a loaded machine. */
#define FEEDBACK_WAIT_NS (10000ull * 1000000u)

enum frame_state { FRAME_PENDING, FRAME_PRESENTED, FRAME_DISCARDED };

struct frame {
	enum frame_state state;
	uint64_t target_ns; /* 0: none */
	uint64_t presented_ns;
};

struct pace {
	const char *prog;
	struct fw_globals globals;
	struct wl_registry *registry;
	struct wp_commit_timing_manager_v1 *timing_manager;
	struct wp_fifo_manager_v1 *fifo_manager;
	struct wp_commit_timer_v1 *timer;
	struct wp_fifo_v1 *fifo;
	struct fw_window *window;
	struct fw_shm_pool *pool;
	uint64_t refresh_ns; /* 0 until known */
	uint64_t last_presented_ns; /* the latest presentation time seen */
	uint64_t feedback_refresh_ns; /* as the first frame's feedback said */
	uint32_t flags; /* every wp_presentation_feedback.kind seen */
	struct frame *frames; /* [count + 1]: the first is the warm-up frame */
	unsigned count;
	unsigned resolved;
	uint64_t rng;
};

struct feedback {
	struct pace *pace;
	struct frame *frame;
};

static uint64_t next_random(struct pace *p) {
	/* xorshift64: reproducible runs for a given --seed. */
	p->rng ^= p->rng << 13;
	p->rng ^= p->rng >> 7;
	p->rng ^= p->rng << 17;
	return p->rng;
}

static void handle_sync_output(void *data,
		struct wp_presentation_feedback *wp_feedback,
		struct wl_output *output) {
}

static void handle_presented(void *data,
		struct wp_presentation_feedback *wp_feedback, uint32_t tv_sec_hi,
		uint32_t tv_sec_lo, uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi,
		uint32_t seq_lo, uint32_t flags) {
	struct feedback *feedback = data;
	struct pace *p = feedback->pace;
	uint64_t sec = (uint64_t)tv_sec_hi << 32 | tv_sec_lo;
	feedback->frame->presented_ns = sec * 1000000000u + tv_nsec;
	feedback->frame->state = FRAME_PRESENTED;
	if (feedback->frame->presented_ns > p->last_presented_ns) {
		p->last_presented_ns = feedback->frame->presented_ns;
	}
	if (feedback->frame == &p->frames[0]) {
		p->feedback_refresh_ns = refresh;
	}
	if (refresh > 0 && p->refresh_ns == 0) {
		p->refresh_ns = refresh;
	}
	p->flags |= flags;
	p->resolved++;
	wp_presentation_feedback_destroy(wp_feedback);
	free(feedback);
}

static void handle_discarded(
		void *data, struct wp_presentation_feedback *wp_feedback) {
	struct feedback *feedback = data;
	feedback->frame->state = FRAME_DISCARDED;
	feedback->pace->resolved++;
	wp_presentation_feedback_destroy(wp_feedback);
	free(feedback);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
		.sync_output = handle_sync_output,
		.presented = handle_presented,
		.discarded = handle_discarded,
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct pace *p = data;
	if (strcmp(interface, wp_commit_timing_manager_v1_interface.name) == 0) {
		p->timing_manager = wl_registry_bind(
				registry, name, &wp_commit_timing_manager_v1_interface, 1);
	} else if (strcmp(interface, wp_fifo_manager_v1_interface.name) == 0) {
		p->fifo_manager = wl_registry_bind(
				registry, name, &wp_fifo_manager_v1_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

/* A free buffer, waiting for a release if all are held; NULL on error. */
static struct fw_buffer *acquire(struct pace *p) {
	uint64_t deadline = fw_now_ns() + FEEDBACK_WAIT_NS;
	struct fw_buffer *buffer;
	while ((buffer = fw_shm_pool_acquire(p->pool)) == NULL) {
		if (fw_stop_requested() || fw_now_ns() >= deadline ||
				fw_pump(p->globals.display, fw_ms_until(deadline)) < 0) {
			return NULL;
		}
	}
	return buffer;
}

/* Attaches a new colour, asks for feedback on frame; the caller commits. */
static bool draw(struct pace *p, struct fw_buffer *buffer, unsigned index) {
	uint32_t color = 0xff000000u | (uint32_t)(next_random(p) & 0xffffffu);
	size_t pixels = (size_t)buffer->stride / 4 * (size_t)buffer->height;
	for (size_t i = 0; i < pixels; i++) {
		buffer->pixels[i] = color;
	}
	struct wl_surface *surface = p->window->surface;
	fw_buffer_attach(buffer, surface);
	wl_surface_damage_buffer(surface, 0, 0, buffer->width, buffer->height);
	struct feedback *feedback = calloc(1, sizeof(*feedback));
	if (feedback == NULL) {
		return false;
	}
	feedback->pace = p;
	feedback->frame = &p->frames[index];
	struct wp_presentation_feedback *wp_feedback =
			wp_presentation_feedback(p->globals.presentation, surface);
	wp_presentation_feedback_add_listener(
			wp_feedback, &feedback_listener, feedback);
	return true;
}

/* Waits until `resolved` frames have their feedback; false on error. */
static bool wait_resolved(struct pace *p, unsigned resolved) {
	uint64_t deadline = fw_now_ns() + FEEDBACK_WAIT_NS;
	while (p->resolved < resolved) {
		if (fw_stop_requested() || fw_now_ns() >= deadline ||
				fw_pump(p->globals.display, fw_ms_until(deadline)) < 0) {
			return false;
		}
	}
	return true;
}

struct targets {
	bool aligned;
	unsigned ahead;
	uint64_t margin_ns;
};

static uint64_t next_target(struct pace *p, const struct targets *targets) {
	uint64_t now = fw_now_ns();
	if (!targets->aligned) {
		return now + targets->ahead * p->refresh_ns +
				next_random(p) % p->refresh_ns;
	}
	/* The first refresh at least --ahead after the last one seen that is
	 * still to come: a frame drawn late aims at the next refresh, not one
	 * past. */
	uint64_t after = targets->ahead * p->refresh_ns - targets->margin_ns;
	uint64_t target = p->last_presented_ns + after;
	if (target <= now) {
		target += ((now - target) / p->refresh_ns + 1) * p->refresh_ns;
	}
	return target;
}

static bool run_timing(struct pace *p, const struct targets *targets) {
	for (unsigned i = 1; i <= p->count && !fw_stop_requested(); i++) {
		struct fw_buffer *buffer = acquire(p);
		if (buffer == NULL || !draw(p, buffer, i)) {
			return false;
		}
		uint64_t target = next_target(p, targets);
		p->frames[i].target_ns = target;
		uint64_t sec = target / 1000000000u;
		wp_commit_timer_v1_set_timestamp(p->timer, (uint32_t)(sec >> 32),
				(uint32_t)sec, (uint32_t)(target % 1000000000u));
		wl_surface_commit(p->window->surface);
		if (!wait_resolved(p, i + 1)) {
			return false;
		}
	}
	return true;
}

static bool run_fifo(struct pace *p) {
	for (unsigned i = 1; i <= p->count && !fw_stop_requested(); i++) {
		struct fw_buffer *buffer = acquire(p);
		if (buffer == NULL || !draw(p, buffer, i)) {
			return false;
		}
		wp_fifo_v1_set_barrier(p->fifo);
		wp_fifo_v1_wait_barrier(p->fifo);
		wl_surface_commit(p->window->surface);
		if (fw_pump(p->globals.display, 0) < 0) {
			return false;
		}
	}
	return wait_resolved(p, p->count + 1);
}

static int compare_u64(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static void report(struct pace *p, const char *mode, const char *targets) {
	struct fw_stats late;
	fw_stats_init(&late);
	uint64_t presented = 0, discarded = 0, negative = 0, same = 0;
	uint64_t *times = calloc(p->count + 1, sizeof(*times));
	for (unsigned i = 1; i <= p->count; i++) {
		struct frame *f = &p->frames[i];
		if (f->state == FRAME_DISCARDED) {
			discarded++;
			continue;
		}
		if (f->state != FRAME_PRESENTED) {
			continue;
		}
		if (times != NULL) {
			times[presented] = f->presented_ns;
		}
		presented++;
		if (f->target_ns != 0) {
			int64_t d = (int64_t)(f->presented_ns - f->target_ns);
			negative += d < 0;
			fw_stats_add(&late, fw_ns_to_ms(d));
		}
	}
	if (times != NULL) {
		qsort(times, presented, sizeof(*times), compare_u64);
		for (uint64_t i = 1; i < presented; i++) {
			same += times[i] == times[i - 1];
		}
		free(times);
	}
	struct fw_summary summary;
	fw_stats_summarize(&late, &summary);
	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "pace");
	fw_json_string(&json, "mode", mode);
	fw_json_uint(&json, "frames", p->count);
	fw_json_uint(&json, "presented", presented);
	fw_json_uint(&json, "discarded", discarded);
	fw_json_double(&json, "refresh_ms", fw_ns_to_ms((int64_t)p->refresh_ns));
	fw_json_double(&json, "feedback_refresh_ms",
			fw_ns_to_ms((int64_t)p->feedback_refresh_ns));
	fw_json_uint(&json, "flags", p->flags);
	if (strcmp(mode, "timing") == 0) {
		fw_json_string(&json, "targets", targets);
		fw_json_uint(&json, "negative", negative);
		fw_json_summary(&json, "presented_minus_target_ms", &summary, false);
	} else {
		fw_json_uint(&json, "same_refresh", same);
	}
	fw_json_string(&json, "clock", fw_clock_name(fw_time_clock()));
	fw_json_end(&json);
	fw_stats_finish(&late);
}

int main(int argc, char **argv) {
	static const char *const modes[] = {"timing", "fifo", NULL};
	static const char *const target_kinds[] = {"aligned", "random", NULL};
	const char *mode = "timing";
	const char *target_kind = "aligned";
	unsigned frames = 300, ahead = 1, seed = 1;
	double refresh_hz = 60, margin = 0.125;
	struct fw_size size = {.width = 200, .height = 150};
	const struct fw_option options[] = {
			{"mode", FW_OPTION_STRING, &mode, "timing|fifo",
					"target times, or one frame per refresh (default "
					"timing)",
					0, modes},
			{"frames", FW_OPTION_UINT, &frames, "N",
					"frames to commit (default 300)", 1, NULL},
			{"targets", FW_OPTION_STRING, &target_kind, "aligned|random",
					"timing: on the refresh cycle the feedback shows, or "
					"at random within a refresh (default aligned)",
					0, target_kinds},
			{"ahead", FW_OPTION_UINT, &ahead, "K",
					"timing: targets K refreshes after the last presented "
					"frame, or K refreshes from now plus a random offset "
					"within one (default 1)",
					0, NULL},
			{"margin", FW_OPTION_DOUBLE, &margin, "F",
					"timing, aligned: targets this fraction of a refresh "
					"before the refresh (default 0.125)",
					-1, NULL},
			{"seed", FW_OPTION_UINT, &seed, "N",
					"seed of the random offsets and colours (default 1)", 1,
					NULL},
			{"refresh-hz", FW_OPTION_DOUBLE, &refresh_hz, "HZ",
					"the refresh where feedback reports none (default 60)", 0,
					NULL},
			{"size", FW_OPTION_SIZE, &size, "WxH",
					"window size (default 200x150)", 0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-pace",
			.summary = "Commits frames with target times or fifo barriers; "
					   "prints a JSON summary of when they were presented.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	if (margin < 0 || margin >= 1) {
		fprintf(stderr, "%s: --margin must be at least 0 and below 1\n",
				prog.name);
		return 1;
	}
	fw_stop_install();

	struct pace p = {.prog = prog.name, .count = frames, .rng = seed};
	p.frames = calloc(frames + 1, sizeof(*p.frames));
	if (p.frames == NULL) {
		return 1;
	}
	int ret = 1;
	struct wl_display *display = fw_connect(prog.name);
	if (display == NULL) {
		goto out_frames;
	}
	if (fw_globals_init(&p.globals, display) < 0 ||
			fw_globals_require(&p.globals, prog.name,
					FW_NEED_COMPOSITOR | FW_NEED_SHM | FW_NEED_XDG_WM_BASE |
							FW_NEED_PRESENTATION) < 0) {
		goto out_globals;
	}
	fw_time_use_clock(p.globals.presentation_clock);
	p.registry = wl_display_get_registry(display);
	wl_registry_add_listener(p.registry, &registry_listener, &p);
	if (wl_display_roundtrip(display) < 0) {
		goto out_registry;
	}
	bool timing = strcmp(mode, "timing") == 0;
	if (timing && p.timing_manager == NULL) {
		fprintf(stderr, "%s: compositor lacks wp_commit_timing_manager_v1\n",
				prog.name);
		goto out_registry;
	}
	if (!timing && p.fifo_manager == NULL) {
		fprintf(stderr, "%s: compositor lacks wp_fifo_manager_v1\n", prog.name);
		goto out_registry;
	}
	p.window = fw_window_create(&p.globals, "fairway-pace");
	p.pool = p.window != NULL ? fw_shm_pool_create(p.globals.shm, size.width,
										size.height, FW_SHM_MAX_BUFFERS)
							  : NULL;
	if (p.pool == NULL || fw_window_wait_configured(p.window) < 0) {
		fprintf(stderr, "%s: cannot show a window\n", prog.name);
		goto out_window;
	}
	if (timing) {
		p.timer = wp_commit_timing_manager_v1_get_timer(
				p.timing_manager, p.window->surface);
	} else {
		p.fifo = wp_fifo_manager_v1_get_fifo(p.fifo_manager, p.window->surface);
	}
	/* A first frame, shown at once: its feedback gives the refresh. */
	struct fw_buffer *buffer = acquire(&p);
	if (buffer == NULL || !draw(&p, buffer, 0)) {
		goto out_objects;
	}
	wl_surface_commit(p.window->surface);
	if (!wait_resolved(&p, 1)) {
		fprintf(stderr, "%s: the first frame was never shown\n", prog.name);
		goto out_objects;
	}
	if (p.refresh_ns == 0) {
		p.refresh_ns = (uint64_t)(1e9 / refresh_hz);
	}
	struct targets targets = {
			.aligned = strcmp(target_kind, "aligned") == 0,
			.ahead = ahead,
			.margin_ns = (uint64_t)(margin * (double)p.refresh_ns),
	};
	bool ok = timing ? run_timing(&p, &targets) : run_fifo(&p);
	if (!ok && !fw_stop_requested()) {
		fprintf(stderr, "%s: feedback stopped coming\n", prog.name);
	}
	report(&p, mode, target_kind);
	ret = ok || fw_stop_requested() ? 0 : 1;

out_objects:
	if (p.timer != NULL) {
		wp_commit_timer_v1_destroy(p.timer);
	}
	if (p.fifo != NULL) {
		wp_fifo_v1_destroy(p.fifo);
	}
out_window:
	fw_shm_pool_destroy(p.pool);
	fw_window_destroy(p.window);
out_registry:
	if (p.timing_manager != NULL) {
		wp_commit_timing_manager_v1_destroy(p.timing_manager);
	}
	if (p.fifo_manager != NULL) {
		wp_fifo_manager_v1_destroy(p.fifo_manager);
	}
	wl_registry_destroy(p.registry);
out_globals:
	fw_globals_finish(&p.globals);
	wl_display_disconnect(display);
out_frames:
	free(p.frames);
	return ret;
}
