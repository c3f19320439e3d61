/*
 * Deadline-driven frames: when each output paints, and when each surface's
 * frame done goes out (frame_schedule.h; the arithmetic is in
 * scheduler/frame/frame_timing.c).
 *
 * Without this, fairway paints on the output's frame event and sends every
 * frame done right after: a client that draws on its frame done commits
 * just after a frame was painted and waits a whole period for the next.
 * Here each surface's frame done waits until the deadline of the next
 * frame less its client's predicted draw time, so the client draws with
 * what it knows then and is shown at that frame.
 *
 * Ticks. Where the output reports presentation at a vblank
 * (WLR_OUTPUT_PRESENT_VSYNC: DRM/KMS, and nested outputs whose parent says
 * so), the ticks are those vblanks, and the output is painted that tick
 * less the predicted paint time, from a timer. Elsewhere the frame event
 * is the tick and the output is painted on it: wlroots' headless backend
 * reports a frame presented when it is committed, so painting before the
 * frame event would show it before its tick.
 *
 * The headless backend has no vblank: it ticks a period after each commit,
 * and at once when a frame is asked for after a tick that committed
 * nothing. So there a frame is shown when it is ready, at most one a
 * period, and a tick with nothing new to show commits nothing: committing
 * an unchanged frame, as wlroots does for a surface that asked for a frame
 * callback, would hold the frame that surface then draws for a whole
 * period. Its frame dones go out at once instead, no more often than a
 * period apart.
 *
 * A client that misses a deadline has its late frame shown at the next
 * tick (on headless, the one its commit brings), unless it draws a newer
 * one by then: it gets its next frame done
 * at that next frame's time, as if it had not missed, so that a miss costs
 * what it drew late and not also the frame after.
 *
 * A frame done goes out at the end of the event loop's turn that decided
 * it (frame_dones.h).
 */
#include "compositor/output/frame_schedule.h"
#include "compositor/listener.h"
#include "compositor/lock/capture.h"
#include "compositor/output/frame_dones.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include "scheduler/capped_file.h"
#include "scheduler/frame/frame_timing.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <wlr/backend/headless.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

struct fw_frame_schedule {
	struct fw_server *server;
	struct wl_list clients; /* fw_frame_client.link */
	struct wl_list surfaces; /* fw_frame_surface.link */
	struct wl_list outputs; /* fw_frame_output.link */
	struct fw_frame_dones *dones;
	struct wl_listener new_surface;
};

struct fw_frame_client {
	struct fw_frame_schedule *schedule;
	struct wl_client *client;
	struct frame_client_timing timing;
	struct wl_listener destroy;
	struct wl_list link;
};

struct fw_frame_surface {
	struct wlr_surface *surface;
	struct fw_frame_client *client; /* NULL once its client is going */
	/* The last frame done, until the commit that answers it: when it was
	 * due and when it went out; sent_ns 0: none. */
	int64_t due_ns, sent_ns;
	int64_t period_ns; /* of the output it came from */
	/* That frame done's frame is still to be painted. */
	bool awaited;
	/* Its frame's paint, once begun: start, and end once over (0: not). */
	int64_t paint_start_ns, paint_end_ns;
	/* A frame done is planned for the frame being prepared, then. */
	bool planned;
	int64_t planned_ns;
	/* The output whose paint waits for this surface's commit (catch_up). */
	struct fw_frame_output *owed_by;
	/* When its last frame done went out, kept after the answer. */
	int64_t last_sent_ns;
	/* A commit answered its last frame done before the next went out: it
	 * draws every frame (frame_client_owed_until). */
	bool answers;
	struct fw_frame_dones_surface dones; /* answered, not yet sent */
	struct wl_listener commit;
	struct wl_listener applied;
	struct wl_listener destroy;
	struct wl_list link;
};

struct fw_frame_output {
	struct fw_frame_schedule *schedule;
	struct fw_output *output;
	struct frame_output_timing timing;
	/* The backend's ticks follow commits (headless: a timer set at each
	 * one): a frame is shown when it is ready, and an unchanged one is
	 * not committed. */
	bool paced;
	/* The last paint committed nothing: the backend has no tick coming. */
	bool idle;
	int timer_fd;
	struct wl_event_source *timer;
	int64_t armed_ns; /* what the timer is set to; 0: disarmed */
	int64_t paint_at_ns; /* a planned paint; 0: none */
	int64_t paint_tick_ns; /* the tick that paint is for */
	/* The planned paint was put off (catch_up) for owed surfaces: how
	 * many have yet to commit. */
	bool put_off;
	int owed;
	int64_t paint_start_ns; /* when the last paint began */
	int64_t painted_ns; /* when the last paint ended */
	int64_t callbacks_at_ns; /* the next frame done due; 0: none */
	/*
	 * What the clients with recent input need before the deadline, as the
	 * last paint found it: the others are asked to draw before that.
	 */
	int64_t reserve_ns;
	struct wl_listener present;
	struct wl_list link;
};

static void client_free(struct fw_frame_client *client) {
	wl_list_remove(&client->destroy.link);
	wl_list_remove(&client->link);
	frame_client_finish(&client->timing);
	free(client);
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_frame_client *client = wl_container_of(listener, client, destroy);
	/* libwayland destroys the client's resources after this signal. */
	struct fw_frame_surface *surface;
	wl_list_for_each(surface, &client->schedule->surfaces, link) {
		if (surface->client == client) {
			surface->client = NULL;
		}
	}
	client_free(client);
}

static struct fw_frame_client *client_get(struct fw_frame_schedule *schedule,
		struct wl_client *wl_client, bool create) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(wl_client, handle_client_destroy);
	if (listener != NULL) {
		struct fw_frame_client *client =
				wl_container_of(listener, client, destroy);
		return client;
	}
	if (!create) {
		return NULL;
	}
	struct fw_frame_client *client = calloc(1, sizeof(*client));
	if (client == NULL) {
		return NULL;
	}
	client->schedule = schedule;
	client->client = wl_client;
	frame_client_init(&client->timing);
	client->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
	wl_list_insert(&schedule->clients, &client->link);
	return client;
}

static void arm(struct fw_frame_output *frames);

/* An owed surface committed: the paint waits for the others only. */
static void settle(struct fw_frame_surface *surface) {
	struct fw_frame_output *frames = surface->owed_by;
	surface->owed_by = NULL;
	if (frames != NULL && --frames->owed == 0 && frames->put_off) {
		/* At once, but after this commit is applied. */
		frames->paint_at_ns = sched_clock_now_ns();
		arm(frames);
	}
}

static void handle_surface_commit(struct wl_listener *listener, void *data) {
	struct fw_frame_surface *surface =
			wl_container_of(listener, surface, commit);
	if (surface->sent_ns != 0) {
		surface->answers = true;
		if (surface->client != NULL) {
			struct frame_answer answer = {
					.planned_ns = surface->due_ns,
					.sent_ns = surface->sent_ns,
					.commit_ns = sched_clock_now_ns(),
					.period_ns = surface->period_ns,
					.paint_start_ns =
							surface->awaited ? 0 : surface->paint_start_ns,
					.paint_end_ns = surface->paint_end_ns,
			};
			frame_client_committed(&surface->client->timing, &answer);
		}
	}
	surface->sent_ns = 0;
	surface->awaited = false;
	surface->paint_start_ns = surface->paint_end_ns = 0;
	settle(surface);
}

static void walk_output(
		struct fw_frame_output *frames, int64_t now, bool painted);

static struct fw_frame_output *output_of(
		struct fw_frame_schedule *schedule, struct wlr_output *wlr_output) {
	struct fw_frame_output *frames;
	wl_list_for_each(frames, &schedule->outputs, link) {
		if (frames->output->wlr_output == wlr_output) {
			return frames;
		}
	}
	return NULL;
}

/*
 * A frame callback that came after the walk which planned the frame being
 * prepared would wait for the walk after that frame's paint, and so a
 * whole period: a client that asked for no frame at the last paint (its
 * input paused for a frame) or whose answer missed it. Its output walks at
 * once instead, so that it draws for the next tick. Not while painting
 * (the walk after the paint finds it), and not for a surface whose frame
 * done for that tick already went out, which would draw the tick twice.
 */
static void handle_surface_applied(struct wl_listener *listener, void *data) {
	struct fw_frame_surface *surface =
			wl_container_of(listener, surface, applied);
	struct wlr_surface *wlr_surface = surface->surface;
	if (surface->client == NULL || surface->planned || surface->awaited ||
			wl_list_empty(&wlr_surface->current.frame_callback_list)) {
		return;
	}
	struct wlr_surface_output *on;
	wl_list_for_each(on, &wlr_surface->current_outputs, link) {
		struct fw_frame_output *frames =
				output_of(surface->client->schedule, on->output);
		if (frames == NULL || frames->idle ||
				fw_output_painting(frames->output) ||
				surface->last_sent_ns >= frames->paint_start_ns) {
			continue;
		}
		walk_output(frames, sched_clock_now_ns(), false);
		arm(frames);
	}
}

static void surface_destroy(struct fw_frame_surface *surface) {
	settle(surface);
	fw_frame_dones_surface_finish(&surface->dones);
	fw_listener_disconnect(&surface->commit);
	fw_listener_disconnect(&surface->applied);
	fw_listener_disconnect(&surface->destroy);
	wl_list_remove(&surface->link);
	free(surface);
}

static void handle_surface_destroy(struct wl_listener *listener, void *data) {
	struct fw_frame_surface *surface =
			wl_container_of(listener, surface, destroy);
	surface_destroy(surface);
}

static struct fw_frame_surface *surface_from_wlr(
		struct wlr_surface *wlr_surface) {
	struct wl_listener *listener =
			wl_signal_get(&wlr_surface->events.destroy, handle_surface_destroy);
	if (listener == NULL) {
		return NULL;
	}
	struct fw_frame_surface *surface =
			wl_container_of(listener, surface, destroy);
	return surface;
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_frame_schedule *schedule =
			wl_container_of(listener, schedule, new_surface);
	struct wlr_surface *wlr_surface = data;
	struct fw_frame_client *client = client_get(
			schedule, wl_resource_get_client(wlr_surface->resource), true);
	struct fw_frame_surface *surface =
			client != NULL ? calloc(1, sizeof(*surface)) : NULL;
	if (surface == NULL) {
		/* Untracked, it gets its frame done right after each paint. */
		return;
	}
	surface->surface = wlr_surface;
	surface->client = client;
	fw_frame_dones_surface_init(&surface->dones);
	/* The client's commit answers the frame done, when it comes: one held
	 * for a target time or a fifo barrier (commit_timing.c, fifo.c) is
	 * applied later, by fairway, and was drawn in time. */
	fw_listener_connect(&surface->commit, &wlr_surface->events.client_commit,
			handle_surface_commit);
	fw_listener_connect(&surface->applied, &wlr_surface->events.commit,
			handle_surface_applied);
	fw_listener_connect(&surface->destroy, &wlr_surface->events.destroy,
			handle_surface_destroy);
	wl_list_insert(&schedule->surfaces, &surface->link);
}

static void arm(struct fw_frame_output *frames) {
	int64_t at = frames->paint_at_ns;
	if (frames->callbacks_at_ns != 0 &&
			(at == 0 || frames->callbacks_at_ns < at)) {
		at = frames->callbacks_at_ns;
	}
	if (at == frames->armed_ns) {
		return;
	}
	/* Absolute, to the nanosecond: a millisecond timer would round the
	 * margins away. A time already past fires at once; 0 disarms. */
	struct itimerspec spec = {0};
	spec.it_value.tv_sec = at / 1000000000;
	spec.it_value.tv_nsec = at % 1000000000;
	if (timerfd_settime(frames->timer_fd, TFD_TIMER_ABSTIME, &spec, NULL) !=
			0) {
		wlr_log_errno(WLR_ERROR, "Cannot set the frame timer");
		return;
	}
	frames->armed_ns = at;
}

struct walk {
	struct fw_frame_output *frames;
	int64_t now;
	bool painted; /* right after a paint */
	int64_t reserve; /* for the next paint's reserve_ns */
	int64_t next_ns; /* the first frame done still to come; 0: none */
};

static bool wants_frame_done(
		struct wlr_surface *wlr_surface, struct fw_frame_surface *surface) {
	return surface->client != NULL &&
			!wl_list_empty(&wlr_surface->current.frame_callback_list);
}

/*
 * A paint begins: what is committed now is what it shows. A surface whose
 * frame done is out and unanswered has missed this frame if its commit
 * comes from now on; one whose frame done was due and not yet sent missed
 * it already, by fairway's lateness: its timer and the tick came due
 * together. The client then waits for the next frame's time, when it
 * draws with fresher input for the same tick as it would now. A stall
 * longer than a period is the machine's, not something a margin could
 * cover.
 */
static void begin_surface(struct wlr_surface *wlr_surface, void *data) {
	struct walk *walk = data;
	struct fw_frame_surface *surface = surface_from_wlr(wlr_surface);
	if (surface == NULL) {
		return;
	}
	if (surface->awaited) {
		surface->awaited = false;
		surface->paint_start_ns = walk->now;
		surface->paint_end_ns = 0;
	}
	if (surface->planned && surface->client != NULL &&
			walk->now - surface->planned_ns <
					frame_output_period(&walk->frames->timing)) {
		frame_client_missed(
				&surface->client->timing, walk->now - surface->planned_ns);
	}
	surface->planned = false;
}

static void end_surface(struct wlr_surface *wlr_surface, void *data) {
	struct walk *walk = data;
	struct fw_frame_surface *surface = surface_from_wlr(wlr_surface);
	if (surface != NULL && surface->sent_ns != 0 &&
			surface->paint_start_ns != 0 && surface->paint_end_ns == 0) {
		surface->paint_end_ns = walk->now;
	}
}

static void send_frame_done(struct walk *walk, struct fw_frame_surface *surface,
		int64_t due_ns, bool early) {
	fw_frame_dones_take(walk->frames->schedule->dones, &surface->dones,
			surface->surface, walk->now);
	if (surface->sent_ns != 0) {
		/* The last one went unanswered: it does not draw every frame. */
		surface->answers = false;
	}
	/* Its plan allowed for fairway's usual lateness in sending. */
	surface->due_ns = due_ns + frame_output_send_pred(&walk->frames->timing);
	surface->sent_ns = walk->now;
	surface->last_sent_ns = walk->now;
	surface->awaited = true;
	surface->paint_start_ns = surface->paint_end_ns = 0;
	surface->planned = false;
	surface->period_ns = frame_output_period(&walk->frames->timing);
	frame_client_sent(&surface->client->timing, early);
}

/* The frame done of every surface whose time has come; the time of the
 * next one. */
static void walk_surface(struct wlr_surface *wlr_surface, void *data) {
	struct walk *walk = data;
	struct fw_frame_surface *surface = surface_from_wlr(wlr_surface);
	if (surface == NULL) {
		/* Not tracked (out of memory when it was made): as before. */
		if (walk->painted) {
			struct timespec when = {
					.tv_sec = walk->now / 1000000000,
					.tv_nsec = walk->now % 1000000000,
			};
			wlr_surface_send_frame_done(wlr_surface, &when);
		}
		return;
	}
	if (!wants_frame_done(wlr_surface, surface)) {
		return;
	}
	struct fw_frame_output *frames = walk->frames;
	const struct frame_client_timing *timing = &surface->client->timing;
	bool input = frame_client_input_recent(timing, walk->now);
	/* Where the paint will wait for its late commit (catch_up), the lead
	 * need not cover its slowest draws. */
	int64_t draw = !frames->timing.vsync &&
					frame_client_waited_on(timing, walk->now, surface->answers)
			? frame_client_waited_pred(timing)
			: frame_client_draw_pred(timing);
	if (draw >= 0) {
		draw += frame_output_send_pred(&frames->timing);
	}
	if (input && draw > walk->reserve) {
		walk->reserve = draw;
	}
	int64_t at = frame_callback_time(frames->painted_ns,
			frames->timing.deadline_ns, draw, input ? 0 : frames->reserve_ns);
	if (at <= walk->now) {
		if (surface->planned && !walk->painted) {
			/* Its timer: how late fairway is sending, for the next plans.
			 * Only when due: a walk for another surface is no timer of
			 * this one's. */
			frame_output_add_send(
					&frames->timing, walk->now - surface->planned_ns);
		}
		send_frame_done(walk, surface, at, at > frames->painted_ns);
	} else {
		surface->planned = true;
		surface->planned_ns = at;
		if (walk->next_ns == 0 || at < walk->next_ns) {
			walk->next_ns = at;
		}
	}
}

static void walk_output(
		struct fw_frame_output *frames, int64_t now, bool painted) {
	struct walk walk = {
			.frames = frames,
			.now = now,
			.painted = painted,
	};
	fw_output_for_each_surface(frames->output, walk_surface, &walk);
	frames->callbacks_at_ns = walk.next_ns;
	if (painted) {
		frames->reserve_ns = walk.reserve;
	}
}

/* late_ns: how long after its tick, or after it was planned, it began. */
static void paint(
		struct fw_frame_output *frames, int64_t tick, int64_t late_ns) {
	frames->paint_at_ns = 0;
	if (fw_output_painting(frames->output)) {
		/* The last frame is still being painted: this tick is missed. */
		frames->timing.skipped++;
		return;
	}
	frames->paint_start_ns = sched_clock_now_ns();
	frames->paint_tick_ns = tick;
	frame_output_paint_started(&frames->timing, late_ns);
	struct walk walk = {.frames = frames, .now = frames->paint_start_ns};
	fw_output_for_each_surface(frames->output, begin_surface, &walk);
	/* fw_frame_schedule_output_painted follows, now or once the worker painted.
	 * A screenshot waits for a commit, changed or not. */
	struct wlr_output *wlr_output = frames->output->wlr_output;
	fw_output_paint(frames->output,
			!frames->paced ||
					fw_capture_output_waiting(
							frames->schedule->server->capture, wlr_output));
}

void fw_frame_schedule_output_painted(
		struct fw_frame_output *frames, bool committed) {
	int64_t end = sched_clock_now_ns();
	if (committed) {
		frame_output_add_paint(&frames->timing, end - frames->paint_start_ns);
	}
	frames->idle = !committed;
	if (frames->output->scene_output == NULL) {
		return;
	}
	struct walk walk = {.frames = frames, .now = end};
	fw_output_for_each_surface(frames->output, end_surface, &walk);
	if (frames->paced && !committed) {
		/* No tick is coming: the next frame is shown once drawn. */
		frame_output_plan_ready(&frames->timing, end);
	} else {
		frame_output_plan(&frames->timing, frames->paint_tick_ns);
	}
	frames->painted_ns = end;
	walk_output(frames, end, true);
	arm(frames);
}

static int64_t nominal_ns(struct wlr_output *wlr_output) {
	/* refresh is in mHz; 0 for outputs without one. */
	return wlr_output->refresh > 0
			? INT64_C(1000000000000) / wlr_output->refresh
			: 0;
}

struct owed {
	struct fw_frame_output *frames;
	int64_t now;
	bool stalled; /* the tick itself came late */
	int64_t until; /* when the last owed draw is done; 0: none owed */
};

/* A surface still drawing that fairway made late waits with the paint
 * (frame_client_owed_until). */
static void owe_surface(struct wlr_surface *wlr_surface, void *data) {
	struct owed *owed = data;
	struct fw_frame_surface *surface = surface_from_wlr(wlr_surface);
	if (surface == NULL || surface->client == NULL || !surface->awaited ||
			surface->owed_by != NULL) {
		return;
	}
	int64_t until = frame_client_owed_until(&surface->client->timing, owed->now,
			owed->stalled, surface->due_ns, surface->sent_ns, surface->answers);
	if (until < 0) {
		return;
	}
	surface->owed_by = owed->frames;
	owed->frames->owed++;
	if (until > owed->until) {
		owed->until = until;
	}
}

/* The paint is on: no surface holds it any longer. */
static void forgive(struct fw_frame_output *frames) {
	struct fw_frame_surface *surface;
	wl_list_for_each(surface, &frames->schedule->surfaces, link) {
		if (surface->owed_by == frames) {
			surface->owed_by = NULL;
		}
	}
	frames->owed = 0;
}

/*
 * A tick came late, or when fairway had sent a frame done later than
 * planned or not at all: fairway woke late (a busy loop, or a virtual
 * machine whose host left its CPUs halted for milliseconds). Frame dones
 * still due go out first. Where the paint is the presentation, nothing
 * fixes the tick's time, so the paint then waits for the clients fairway
 * made late, and for those the user is waiting on that are still drawing
 * (frame_client_owed_until), until each has committed or has had twice
 * the draw time it was promised, a quarter of a period at most: their
 * frames are shown a little late rather than a whole period late. Where a
 * vblank fixes the tick, the paint keeps its time. Returns whether the
 * paint was put off.
 */
static bool catch_up(struct fw_frame_output *frames, int64_t now) {
	if (frames->callbacks_at_ns != 0 && frames->callbacks_at_ns <= now) {
		walk_output(frames, now, false);
	}
	struct frame_output_timing *timing = &frames->timing;
	if (timing->vsync) {
		return false;
	}
	struct owed owed = {
			.frames = frames,
			.now = now,
			/* An output with no tick coming cannot have come late. */
			.stalled = !(frames->paced && frames->idle) &&
					frame_output_stalled(timing, now),
	};
	fw_output_for_each_surface(frames->output, owe_surface, &owed);
	if (frames->owed == 0) {
		return false;
	}
	int64_t most = now + frame_output_period(timing) / 4;
	timing->caught_up++;
	frames->put_off = true;
	/* Without vsync the paint's tick is when it happens (paint_tick). */
	frames->paint_at_ns = owed.until < most ? owed.until : most;
	arm(frames);
	return true;
}

/* Where presentation is the commit, the tick is now, and so is the paint. */
static void paint_tick(
		struct fw_frame_output *frames, int64_t now, int64_t late_ns) {
	struct frame_output_timing *timing = &frames->timing;
	frame_output_set_nominal(timing, nominal_ns(frames->output->wlr_output));
	if (frames->idle) {
		frame_output_tick_after_idle(timing, now);
	} else {
		frame_output_tick(timing, now);
	}
	paint(frames, now, late_ns);
}

static int handle_timer(int fd, uint32_t mask, void *data) {
	struct fw_frame_output *frames = data;
	uint64_t expirations;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "Cannot read the frame timer");
	}
	frames->armed_ns = 0;
	int64_t now = sched_clock_now_ns();
	if (frames->paint_at_ns != 0 && now >= frames->paint_at_ns) {
		int64_t late = now - frames->paint_at_ns;
		if (frames->put_off) {
			/* The paint catch_up put off: it waited enough. */
			frames->put_off = false;
			forgive(frames);
		} else if (catch_up(frames, now)) {
			return 0;
		}
		if (frames->timing.vsync) {
			paint(frames, frames->paint_tick_ns, late);
		} else {
			paint_tick(frames, now, late);
		}
		return 0;
	}
	walk_output(frames, now, false);
	arm(frames);
	return 0;
}

static int64_t timespec_ns(const struct timespec *ts) {
	return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static void handle_present(struct wl_listener *listener, void *data) {
	struct fw_frame_output *frames = wl_container_of(listener, frames, present);
	struct wlr_output_event_present *event = data;
	/* Present times are on CLOCK_MONOTONIC, fairway's clock, so vblanks
	 * can be ticks. */
	if (!event->presented || event->when == NULL ||
			!(event->flags & WLR_OUTPUT_PRESENT_VSYNC)) {
		return;
	}
	struct frame_output_timing *timing = &frames->timing;
	if (!timing->vsync) {
		frame_output_use_vblanks(timing);
	}
	frame_output_set_nominal(timing,
			event->refresh > 0 ? event->refresh
							   : nominal_ns(frames->output->wlr_output));
	frame_output_tick(timing, timespec_ns(event->when));
}

void fw_frame_schedule_output_frame(struct fw_frame_output *frames) {
	struct frame_output_timing *timing = &frames->timing;
	int64_t now = sched_clock_now_ns();
	/* The backend had no tick coming: what changed is shown at once. */
	bool show = frames->paced && frames->idle && !frames->put_off &&
			fw_output_damaged(frames->output);
	if (frames->paint_at_ns != 0 && !show) {
		/* Asked for between ticks; the planned paint will show it. */
		timing->skipped++;
		return;
	}
	if (!timing->vsync) {
		if (frames->paced && frames->idle && !show) {
			/* Only frame dones are asked for: at most one tick a period,
			 * or a client that asks for them without drawing would spin. */
			int64_t at = timing->last_tick_ns + frame_output_period(timing);
			if (now < at) {
				frames->paint_at_ns = at;
				frames->paint_tick_ns = at;
				arm(frames);
				return;
			}
		}
		if (catch_up(frames, now)) {
			return;
		}
		/* The frame event is the tick: late when after the one planned.
		 * An idle output had no tick coming, so its first is not late. */
		paint_tick(frames, now,
				timing->next_tick_ns != 0 && !frames->idle
						? now - timing->next_tick_ns
						: 0);
		return;
	}
	int64_t tick = frame_output_next_tick(timing, now);
	int64_t at = frame_output_deadline(timing, tick);
	if (at <= now) {
		paint(frames, tick, 0);
		return;
	}
	frames->paint_at_ns = at;
	frames->paint_tick_ns = tick;
	arm(frames);
}

struct fw_frame_output *fw_frame_schedule_output_create(
		struct fw_frame_schedule *schedule, struct fw_output *output) {
	struct fw_frame_output *frames = calloc(1, sizeof(*frames));
	if (frames == NULL) {
		return NULL;
	}
	frames->schedule = schedule;
	frames->output = output;
	struct wlr_output *wlr_output = output->wlr_output;
	frame_output_init(&frames->timing, nominal_ns(wlr_output));
	frames->paced = wlr_output_is_headless(wlr_output);
	frames->timer_fd =
			timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (frames->timer_fd < 0) {
		goto error_alloc;
	}
	frames->timer = wl_event_loop_add_fd(schedule->server->loop,
			frames->timer_fd, WL_EVENT_READABLE, handle_timer, frames);
	if (frames->timer == NULL) {
		goto error_fd;
	}
	fw_listener_connect(
			&frames->present, &wlr_output->events.present, handle_present);
	wl_list_insert(&schedule->outputs, &frames->link);
	return frames;

error_fd:
	close(frames->timer_fd);
error_alloc:
	free(frames);
	return NULL;
}

void fw_frame_schedule_output_destroy(struct fw_frame_output *frames) {
	if (frames == NULL) {
		return;
	}
	forgive(frames);
	wl_list_remove(&frames->link);
	fw_listener_disconnect(&frames->present);
	wl_event_source_remove(frames->timer);
	close(frames->timer_fd);
	free(frames);
}

struct fw_frame_schedule *fw_frame_schedule_create(struct fw_server *server) {
	struct fw_frame_schedule *schedule = calloc(1, sizeof(*schedule));
	if (schedule == NULL) {
		return NULL;
	}
	schedule->dones = fw_frame_dones_create(server->loop);
	if (schedule->dones == NULL) {
		free(schedule);
		return NULL;
	}
	schedule->server = server;
	wl_list_init(&schedule->clients);
	wl_list_init(&schedule->surfaces);
	wl_list_init(&schedule->outputs);
	fw_listener_connect(&schedule->new_surface,
			&server->compositor->events.new_surface, handle_new_surface);
	return schedule;
}

void fw_frame_schedule_destroy(struct fw_frame_schedule *schedule) {
	if (schedule == NULL) {
		return;
	}
	struct fw_frame_surface *surface, *surface_tmp;
	wl_list_for_each_safe(surface, surface_tmp, &schedule->surfaces, link) {
		surface_destroy(surface);
	}
	struct fw_frame_client *client, *client_tmp;
	wl_list_for_each_safe(client, client_tmp, &schedule->clients, link) {
		client_free(client);
	}
	fw_listener_disconnect(&schedule->new_surface);
	fw_frame_dones_destroy(schedule->dones);
	free(schedule);
}

void fw_frame_schedule_note_input(
		struct fw_frame_schedule *schedule, struct wl_client *wl_client) {
	if (schedule == NULL || wl_client == NULL) {
		return;
	}
	struct fw_frame_client *client = client_get(schedule, wl_client, true);
	if (client != NULL) {
		frame_client_note_input(&client->timing, sched_clock_now_ns());
	}
}

int fw_frame_schedule_client_json(struct fw_frame_schedule *schedule,
		struct wl_client *wl_client, char *buf, size_t size) {
	struct fw_frame_client *client =
			schedule != NULL ? client_get(schedule, wl_client, false) : NULL;
	if (client == NULL) {
		if (size > 0) {
			buf[0] = '\0';
		}
		return 0;
	}
	return frame_client_json(&client->timing, sched_clock_now_ns(), buf, size);
}

void fw_frame_schedule_write_outputs(
		struct fw_frame_schedule *schedule, struct capped_file *out, double t) {
	if (schedule == NULL) {
		return;
	}
	struct fw_frame_output *frames;
	wl_list_for_each_reverse(frames, &schedule->outputs, link) {
		char line[1024];
		frame_output_json(&frames->timing, frames->output->wlr_output->name, t,
				line, sizeof(line));
		capped_file_printf(out, "%s\n", line);
	}
}
