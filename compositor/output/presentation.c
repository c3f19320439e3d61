#include "compositor/output/presentation.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include "presentation-time-protocol.h"
#include <stdlib.h>
#include <time.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/x11.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_presentation_time.h>

/*
 * Each frame's feedback is taken when the frame is built and matched to
 * present events by the commit sequence number the frame's commit will
 * have. wlroots' own helper (wlr_presentation_surface_textured_on_output,
 * which wlr_scene's pass calls for the surfaces it draws) ties feedback to
 * whatever commit the output makes next, and keeps no handle to it: a frame
 * the paint worker paints is committed later, with other commits possible
 * in between, and a frame the session lock discarded must report its
 * feedback discarded. Taken here first, there is none left for wlr_scene's
 * pass to take.
 *
 * What the feedback says of the frame follows what the backend did: the
 * time and the flags of its present event (VSYNC, HW_CLOCK and
 * HW_COMPLETION from DRM, a parent compositor's own for a nested output,
 * none from headless, whose time is its commit's), with ZERO_COPY only
 * for the surface whose buffer was the output's (a direct scan-out), not
 * for the surfaces painted into a buffer of fairway's. The refresh is the
 * backend's, or the output's mode where the backend gives none (headless,
 * whose frames fairway paces at that period), and 0 while adaptive sync
 * lets it vary.
 */
struct fw_pending_feedback {
	struct wl_list link; /* fw_output.pending_feedback */
	struct wlr_presentation_feedback *feedback;
	uint32_t commit_seq;
	/* Compared by address only, at the commit: the surface's buffer then. */
	const struct wlr_buffer *buffer;
	bool zero_copy; /* that buffer was the output's */
};

/* Past this many periods without a vblank, the next one is not predicted:
 * its clock and the system's drift apart. */
#define VBLANK_STALE_PERIODS 8
/* A predicted vblank is taken this much earlier, for the same drift. */
#define VBLANK_SLOP_NS 100000

struct sample_data {
	struct fw_output *output;
	uint32_t commit_seq;
};

static void sample_surface(struct wlr_surface *surface, void *user_data) {
	struct sample_data *data = user_data;
	struct fw_output *output = data->output;
	struct wlr_presentation_feedback *feedback =
			wlr_presentation_surface_sampled(surface);
	if (feedback == NULL) {
		return;
	}
	struct fw_pending_feedback *pending = calloc(1, sizeof(*pending));
	if (pending == NULL) {
		wlr_presentation_feedback_destroy(feedback);
		return;
	}
	pending->feedback = feedback;
	pending->commit_seq = data->commit_seq;
	pending->buffer = surface->buffer != NULL ? &surface->buffer->base : NULL;
	wl_list_insert(output->pending_feedback.prev, &pending->link);
}

void fw_presentation_sample(struct fw_output *output) {
	if (output->server->presentation == NULL) {
		return;
	}
	struct sample_data data = {
			.output = output,
			.commit_seq = output->wlr_output->commit_seq + 1,
	};
	fw_output_for_each_surface(output, sample_surface, &data);
}

static int64_t timespec_ns(const struct timespec *ts) {
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_output *output =
			wl_container_of(listener, output, present_commit);
	struct wlr_output_event_commit *event = data;
	if (!(event->state->committed & WLR_OUTPUT_STATE_BUFFER)) {
		return;
	}
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	output->commit_ns = timespec_ns(&now);
	output->commit_ns_seq = output->wlr_output->commit_seq;
	struct fw_pending_feedback *pending;
	wl_list_for_each(pending, &output->pending_feedback, link) {
		if (pending->commit_seq == output->wlr_output->commit_seq) {
			pending->zero_copy = pending->buffer != NULL &&
					pending->buffer == event->state->buffer;
		}
	}
}

static int64_t refresh_ns(struct wlr_output *wlr_output,
		const struct wlr_output_event_present *event) {
	if (wlr_output->adaptive_sync_status == WLR_OUTPUT_ADAPTIVE_SYNC_ENABLED) {
		return 0;
	}
	if (event->refresh > 0) {
		return event->refresh;
	}
	/* refresh is in mHz. */
	return wlr_output->refresh > 0
			? INT64_C(1000000000000) / wlr_output->refresh
			: 0;
}

static uint32_t present_flags(struct wlr_output *wlr_output,
		const struct wlr_output_event_present *event) {
	uint32_t flags = event->flags;
	/* wlroots' X11 backend presents at the next MSC, never asynchronously,
	 * and says nothing of it. */
	if (wlr_output_is_x11(wlr_output)) {
		flags |= WLR_OUTPUT_PRESENT_VSYNC;
	}
	return flags;
}

static void handle_present(struct wl_listener *listener, void *data) {
	struct fw_output *output = wl_container_of(listener, output, present);
	struct wlr_output_event_present *event = data;
	struct wlr_output_event_present copy = *event;
	struct timespec when;
	if (copy.presented && wlr_output_is_headless(output->wlr_output) &&
			output->commit_ns_seq == copy.commit_seq &&
			output->commit_ns != 0) {
		/* Headless shows a frame when it is committed; wlroots reports it
		 * later, once the loop is idle (it times the event then), which
		 * under load can be milliseconds: a client that aims at the
		 * refreshes after it would aim that much late. */
		when.tv_sec = output->commit_ns / 1000000000;
		when.tv_nsec = output->commit_ns % 1000000000;
		copy.when = &when;
	}
	if (copy.presented) {
		copy.refresh = (int)refresh_ns(output->wlr_output, &copy);
		copy.flags = present_flags(output->wlr_output, &copy);
		output->present_ns = timespec_ns(copy.when);
		output->present_refresh_ns = copy.refresh;
		output->present_vsync = (copy.flags & WLR_OUTPUT_PRESENT_VSYNC) != 0;
	}
	struct fw_pending_feedback *pending, *tmp;
	wl_list_for_each_safe(pending, tmp, &output->pending_feedback, link) {
		/* Wrap-safe "commit_seq <= event's": older ones showed now too. */
		if ((int32_t)(pending->commit_seq - copy.commit_seq) > 0) {
			continue;
		}
		if (copy.presented) {
			struct wlr_presentation_event presentation_event = {0};
			wlr_presentation_event_from_output(&presentation_event, &copy);
			if (!pending->zero_copy) {
				presentation_event.flags &=
						~WP_PRESENTATION_FEEDBACK_KIND_ZERO_COPY;
			}
			wlr_presentation_feedback_send_presented(
					pending->feedback, &presentation_event);
		}
		/* Destroying an unpresented feedback reports it discarded. */
		wlr_presentation_feedback_destroy(pending->feedback);
		wl_list_remove(&pending->link);
		free(pending);
	}
}

void fw_presentation_discard(struct fw_output *output, uint32_t commit_seq) {
	struct fw_pending_feedback *pending, *tmp;
	wl_list_for_each_safe(pending, tmp, &output->pending_feedback, link) {
		if (pending->commit_seq == commit_seq) {
			/* Destroying an unpresented feedback reports it discarded. */
			wlr_presentation_feedback_destroy(pending->feedback);
			wl_list_remove(&pending->link);
			free(pending);
		}
	}
}

/* The last vblank, where the output reports them and one was recent. */
static bool last_vblank(struct fw_output *output, int64_t now_ns,
		int64_t *vblank_ns, int64_t *period_ns) {
	int64_t period = output->present_refresh_ns;
	if (!output->present_vsync || period <= 0 || output->present_ns == 0 ||
			now_ns - output->present_ns > VBLANK_STALE_PERIODS * period) {
		return false;
	}
	*vblank_ns = output->present_ns;
	*period_ns = period;
	return true;
}

int64_t fw_presentation_next_ns(struct fw_output *output, int64_t now_ns) {
	int64_t vblank, period;
	if (!last_vblank(output, now_ns, &vblank, &period) || now_ns < vblank) {
		return now_ns;
	}
	/* A vblank at now has latched its frame already. */
	int64_t next = vblank + ((now_ns - vblank) / period + 1) * period;
	next -= VBLANK_SLOP_NS;
	return next > now_ns ? next : now_ns;
}

int64_t fw_presentation_wake_ns(struct fw_output *output, int64_t target_ns) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	int64_t vblank, period;
	if (!last_vblank(output, timespec_ns(&ts), &vblank, &period) ||
			target_ns <= vblank) {
		return target_ns;
	}
	/* The first vblank at or after the target, less the slop; the paint
	 * for it begins after the vblank before. */
	int64_t k = (target_ns + VBLANK_SLOP_NS - vblank + period - 1) / period;
	return vblank + (k - 1) * period;
}

int64_t fw_presentation_refresh_ns(struct fw_output *output) {
	return output->present_refresh_ns;
}

void fw_presentation_init(struct fw_output *output) {
	wl_list_init(&output->pending_feedback);
	fw_listener_connect(&output->present, &output->wlr_output->events.present,
			handle_present);
	fw_listener_connect(&output->present_commit,
			&output->wlr_output->events.commit, handle_commit);
}

void fw_presentation_finish(struct fw_output *output) {
	struct fw_pending_feedback *pending, *tmp;
	wl_list_for_each_safe(pending, tmp, &output->pending_feedback, link) {
		wlr_presentation_feedback_destroy(pending->feedback);
		wl_list_remove(&pending->link);
		free(pending);
	}
	wl_list_remove(&output->present.link);
	fw_listener_disconnect(&output->present_commit);
}
