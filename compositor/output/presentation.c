#include "compositor/output/presentation.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <time.h>
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
 */
struct fw_pending_feedback {
	struct wl_list link; /* fw_output.pending_feedback */
	struct wlr_presentation_feedback *feedback;
	uint32_t commit_seq;
};

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

static void handle_present(struct wl_listener *listener, void *data) {
	struct fw_output *output = wl_container_of(listener, output, present);
	struct wlr_output_event_present *event = data;
	struct timespec now;
	struct wlr_output_event_present copy = *event;
	if (copy.presented && copy.when == NULL) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		copy.when = &now;
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

void fw_presentation_init(struct fw_output *output) {
	wl_list_init(&output->pending_feedback);
	fw_listener_connect(&output->present, &output->wlr_output->events.present,
			handle_present);
}

void fw_presentation_finish(struct fw_output *output) {
	struct fw_pending_feedback *pending, *tmp;
	wl_list_for_each_safe(pending, tmp, &output->pending_feedback, link) {
		wlr_presentation_feedback_destroy(pending->feedback);
		wl_list_remove(&pending->link);
		free(pending);
	}
	wl_list_remove(&output->present.link);
}
