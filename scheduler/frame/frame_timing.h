#ifndef FAIRWAY_SCHEDULER_FRAME_FRAME_TIMING_H
#define FAIRWAY_SCHEDULER_FRAME_FRAME_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Deadline-driven frames, as numbers only: how long an output takes to
 * paint, when its next tick comes, how long each client takes from a frame
 * done to its next commit, and from those, when a frame is painted and when
 * each client's frame done goes out. No I/O and no clock reads: every call
 * is given the time, so all of it runs under a fake clock in tests.
 *
 * A tick is the moment an output shows a new frame: the vblank on a screen,
 * the backend's frame event where presentation happens at the commit
 * (wlroots' headless backend). A frame's deadline is when the commits it
 * shows must have reached the compositor: the tick less the predicted paint
 * time where the frame is shown at the tick whenever it was painted, and
 * the tick itself where the paint is the presentation, since painting
 * before the tick there would show the frame before its time.
 *
 * A client's frame done is sent ahead of the deadline by the time that
 * client takes to draw, a high percentile of its recent frames with a
 * margin, so that what it draws is as fresh as it can be and is still
 * shown in that frame. A client with no history gets it as soon as the
 * previous frame is painted, as a compositor without deadlines sends it.
 */

/* Recent durations kept per predictor. */
#define FRAME_SAMPLES 32
/* Samples a predictor needs before it is trusted. */
#define FRAME_MIN_SAMPLES 4
/*
 * Draws, for a client: every frame a new client waits for its frame done
 * is a frame of lag, and the margin grows with every one it misses.
 */
#define FRAME_MIN_DRAWS 2

struct frame_samples {
	int64_t ns[FRAME_SAMPLES]; /* in the order they came, a ring */
	int64_t sorted[FRAME_SAMPLES]; /* the same, sorted */
	uint64_t added; /* all ever added; the last FRAME_SAMPLES are held */
};

void frame_samples_add(struct frame_samples *samples, int64_t ns);
/* How many are held, at most FRAME_SAMPLES. */
size_t frame_samples_count(const struct frame_samples *samples);
/* Nearest-rank percentile (1-100) of the samples held; -1 with none. */
int64_t frame_samples_percentile(
		const struct frame_samples *samples, int percent);

/*
 * Lateness, for --stats: how many, the largest, and how many fell in each
 * bucket, whose upper bounds are 0.25, 0.5, 1, 2, 4, 8 and 16 ms (the
 * last bucket has none).
 */
#define FRAME_LATE_BUCKETS 8
struct frame_late {
	uint64_t count;
	int64_t max_ns;
	uint64_t buckets[FRAME_LATE_BUCKETS];
};

void frame_late_add(struct frame_late *late, int64_t ns);

struct frame_output_timing {
	/* The mode's refresh period; the tick period until ticks are seen. */
	int64_t nominal_ns;
	/*
	 * The output shows a frame at its tick whenever it was painted (a
	 * screen's vblank), so painting may start before the tick. False where
	 * presentation is the paint's own commit (headless).
	 */
	bool vsync;
	int64_t last_tick_ns; /* 0: none yet */
	struct frame_samples intervals; /* tick to tick */
	struct frame_samples paints; /* how long painting took */
	uint64_t ticks;
	/* Frame events that came while a paint was already planned. */
	uint64_t skipped;
	/* Paints put off for frame dones that fairway sent late. */
	uint64_t caught_up;
	/* The frame being prepared: its tick and its deadline; 0 when none. */
	int64_t next_tick_ns, deadline_ns;
	/* How late frame done events went out, recent and all. */
	struct frame_samples sends;
	struct frame_late send_late;
	/* How long after its tick (or its planned time) each paint began. */
	struct frame_late paint_late;
};

void frame_output_init(struct frame_output_timing *output, int64_t nominal_ns);
/* A mode change; 0 keeps the old period. */
void frame_output_set_nominal(
		struct frame_output_timing *output, int64_t nominal_ns);
/*
 * Its ticks are vblanks from now on: the output reported a frame shown at
 * one. Frame events were its ticks until then; they come a little after
 * the vblanks and no longer count.
 */
void frame_output_use_vblanks(struct frame_output_timing *output);
/* The output ticked at tick_ns. */
void frame_output_tick(struct frame_output_timing *output, int64_t tick_ns);
/*
 * The output ticked at tick_ns after a tick that showed nothing: where
 * ticks follow commits (headless), none was coming, so the time since the
 * last tick says nothing of the period.
 */
void frame_output_tick_after_idle(
		struct frame_output_timing *output, int64_t tick_ns);
/* A paint took ns. */
void frame_output_add_paint(struct frame_output_timing *output, int64_t ns);
/* A paint began late_ns after its tick, or after it was planned. */
void frame_output_paint_started(
		struct frame_output_timing *output, int64_t late_ns);
/* A frame done went out late_ns after it was planned. */
void frame_output_add_send(struct frame_output_timing *output, int64_t late_ns);
/* How late frame done events are predicted to go out: they are planned
 * this much earlier. */
int64_t frame_output_send_pred(const struct frame_output_timing *output);

/* The predicted tick period: on the low side, as a tick later than
 * predicted costs clients only slack, an earlier one a missed frame. */
int64_t frame_output_period(const struct frame_output_timing *output);
/* How long the next paint is predicted to take, with a margin. */
int64_t frame_output_paint_pred(const struct frame_output_timing *output);
/* The first predicted tick strictly after after_ns (after_ns + period
 * before any tick was seen). */
int64_t frame_output_next_tick(
		const struct frame_output_timing *output, int64_t after_ns);
/* When the commits shown at tick_ns must be in, and painting starts. */
int64_t frame_output_deadline(
		const struct frame_output_timing *output, int64_t tick_ns);
/* Plans the frame shown at the first tick after after_ns; returns its
 * deadline. */
int64_t frame_output_plan(struct frame_output_timing *output, int64_t after_ns);
/*
 * Plans the frame of an output whose ticks follow commits and that has
 * none coming (its last tick showed nothing): it can be shown as soon as
 * it is drawn, so it is due now_ns. Returns its deadline, now_ns.
 */
int64_t frame_output_plan_ready(
		struct frame_output_timing *output, int64_t now_ns);

/* Input within this long gives a client the first claim on the time
 * before a deadline. */
#define FRAME_INPUT_RECENT_NS (1000 * INT64_C(1000000))

/* Why a frame was missed: the first of these that applies. */
enum frame_late_cause {
	/* fairway sent its frame done later than planned by at least as
	 * much as the commit was late: its timer, or a busy loop. */
	FRAME_LATE_DONE,
	/* The commit came while its frame was being painted. */
	FRAME_LATE_PAINT,
	/* The client drew for longer than fairway gave it. */
	FRAME_LATE_DRAW,
	FRAME_LATE_CAUSES,
};

/* Draws kept per client: about two seconds at 60 Hz. */
#define FRAME_DRAW_SAMPLES 128

/* What a client that was sent a frame done has drawn; allocated then. */
struct frame_client_history {
	/* From each frame done as it went out to the commit that answered. */
	int64_t ns[FRAME_DRAW_SAMPLES]; /* a ring */
	int64_t sorted[FRAME_DRAW_SAMPLES];
	uint64_t added;
	/* How late each missed frame's commit was (commit - paint start). */
	struct frame_late late[FRAME_LATE_CAUSES];
};

struct frame_client_timing {
	/* NULL until its first frame done (an idle client never has one). */
	struct frame_client_history *history;
	/* Added to the prediction; widened by missed frames. */
	int64_t margin_ns;
	/* The margin does not shrink before then. */
	int64_t hold_until_ns;
	int64_t last_input_ns;
	bool had_input;
	uint64_t callbacks; /* frame done events sent */
	uint64_t early; /* of those, sent ahead of a deadline */
	/* Frame done events answered before the paint of their frame, or not. */
	uint64_t met, missed;
};

void frame_client_init(struct frame_client_timing *client);
/* Frees what frame_client_sent allocated. */
void frame_client_finish(struct frame_client_timing *client);
void frame_client_note_input(struct frame_client_timing *client, int64_t now);
bool frame_client_input_recent(
		const struct frame_client_timing *client, int64_t now);
/* The user is waiting on it: input within FRAME_INPUT_RECENT_NS, and it
 * answered its last frame done (answers), so it is drawing every frame. */
bool frame_client_waited_on(
		const struct frame_client_timing *client, int64_t now, bool answers);
/*
 * The predicted time from a frame done going out to the client's commit,
 * with a margin; -1 while it has too little history to be sent one early.
 */
int64_t frame_client_draw_pred(const struct frame_client_timing *client);
/*
 * The same, for a frame whose paint waits for the client's late commit
 * (frame_client_owed_until): a lower percentile, as a draw over it costs
 * only its overrun. The wait is still twice frame_client_draw_pred.
 */
int64_t frame_client_waited_pred(const struct frame_client_timing *client);
/* A draw percentile (1-100) of the history; -1 with none. */
int64_t frame_client_draw_percentile(
		const struct frame_client_timing *client, int percent);
/*
 * A frame done went out; early: ahead of a deadline, on the prediction.
 * False when the history could not be allocated (it then gets no early
 * frame done, as a new client).
 */
bool frame_client_sent(struct frame_client_timing *client, bool early);

/* A commit that answers a frame done, and what became of its frame. */
struct frame_answer {
	/* When the frame done was due, with the lateness in sending that its
	 * plan allowed for. */
	int64_t planned_ns;
	int64_t sent_ns; /* when it went out */
	int64_t commit_ns;
	int64_t period_ns; /* of the output it came from */
	/* The paint of the frame it was for: 0 while that had not started
	 * (the commit is in time); end 0 while it is still going on. */
	int64_t paint_start_ns, paint_end_ns;
};

/*
 * The client committed. A commit more than two periods after its frame
 * done answers something else (input after an idle spell): it is neither
 * a draw time nor a missed frame. Returns whether it counted as a draw.
 * A missed frame gets its cause and lateness; one the client caused
 * (FRAME_LATE_PAINT, FRAME_LATE_DRAW) widens its margin.
 */
bool frame_client_committed(
		struct frame_client_timing *client, const struct frame_answer *answer);
/* A frame the client had asked for was painted before its frame done
 * went out, late_ns after it was due: fairway's lateness, not the
 * client's. */
void frame_client_missed(struct frame_client_timing *client, int64_t late_ns);

/*
 * Catching up, where the paint is the presentation (no vsync). A tick at
 * now_ns stalled: it came later than planned by more than fairway allows
 * itself in sending (frame_output_send_pred), so fairway, and maybe its
 * clients, were held up.
 */
bool frame_output_stalled(
		const struct frame_output_timing *output, int64_t now_ns);
/*
 * Until when the paint of a tick at now_ns waits for a client still
 * drawing whose frame done was due at due_ns (with the lateness its plan
 * allowed) and went out at sent_ns: twice its predicted draw from now.
 * Owed where fairway sent late or the tick stalled, since a draw right
 * after a stall runs slower than those its prediction was made of; and
 * where the user waits on the client: it had input within
 * FRAME_INPUT_RECENT_NS and answers every frame done (answers: it
 * answered the one before), so it is drawing this frame and a wait of a
 * fraction of a millisecond saves its input a period. -1: it is owed
 * nothing (no prediction, or sent in time without a stall to a client
 * the user is not waiting on).
 */
int64_t frame_client_owed_until(const struct frame_client_timing *client,
		int64_t now_ns, bool stalled, int64_t due_ns, int64_t sent_ns,
		bool answers);

/*
 * When to send a frame done for the frame due at deadline_ns: draw_ns
 * (frame_client_draw_pred) before it, less reserve_ns that clients with
 * the first claim keep for themselves, and never before earliest_ns (the
 * previous frame painted). With no prediction (-1), at earliest_ns.
 */
int64_t frame_callback_time(int64_t earliest_ns, int64_t deadline_ns,
		int64_t draw_ns, int64_t reserve_ns);

/* JSON for --stats: an output's line, and the fields a client's line gets
 * (",\"frame\":{...}"). Return what snprintf returns. */
int frame_output_json(const struct frame_output_timing *output,
		const char *name, double t, char *buf, size_t size);
int frame_client_json(const struct frame_client_timing *client, int64_t now,
		char *buf, size_t size);
/* A lateness as JSON ({"n":..,"max_ms":..,"hist":[..]}); what snprintf
 * returns. */
int frame_late_json(const struct frame_late *late, char *buf, size_t size);

#endif
