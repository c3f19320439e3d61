#ifndef FAIRWAY_SCHEDULER_RATINGS_RATINGS_CLIENT_H
#define FAIRWAY_SCHEDULER_RATINGS_RATINGS_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Output and input ratings per client process (Etsion, Tsafrir and
 * Feitelson, "Process Prioritization Using Output Production", sections 5
 * and 6). Pure: every call is given the
 * time, so the ratings run under a fake clock in tests.
 *
 * Output: for each presented frame, the part of the client's surfaces that
 * changed and is visible, as a fraction of the surfaces' size, at most 1 per
 * frame. Summed per second over the last window (8 s, the paper's life span)
 * and divided by it, this is a frame-rate-like number that a client cannot
 * raise above the refresh rate by committing faster.
 * Input: binary, whether the client got input within the window, and
 * passed on: "the process receiving the most recent user input should get
 * the highest priority" (section 5.1), so a client whose last input is
 * more than handoff_ns older than another client's newest has lost it.
 * Busy: the share of wall time the gate spent serving it, over the window.
 * The knee (section 3 of the same paper: past it, more CPU buys no more
 * output): frames committed against frames presented. A client that
 * commits many more frames than the screen shows is past its knee, and
 * its output earns it no boost (scheduler/hints/hints_config.c has the rule).
 */

#define RATINGS_BUCKETS 8

/* From the weakest claim on the CPU to the strongest. */
enum ratings_class {
	RATINGS_BACKGROUND, /* busy in the gate, no input, no output */
	RATINGS_IDLE, /* none of the others */
	RATINGS_OUTPUT, /* output rating above the threshold */
	RATINGS_INTERACTIVE, /* input within the window */
	RATINGS_CLASS_COUNT,
};

struct ratings_params {
	int64_t window_ns; /* the life span of both ratings, 8 s */
	/*
	 * How long a client keeps its input rating once another client has
	 * input: 1 s. Within it, input to several clients at once (an X client
	 * and Xwayland, a drag from one window to another) rates them all; past
	 * it, a window the pointer crossed on its way elsewhere, or the one
	 * typed into before the user moved on, competes by its output alone.
	 */
	int64_t handoff_ns;
	/*
	 * Presented frames per second (full-surface equivalents, averaged over
	 * the window) above which a client is an output client: 1.0. A blinking
	 * cursor or a clock ticking each second changes a small fraction of
	 * its window and stays far below; a 24 fps video reaches 24.
	 */
	double output_threshold;
	/*
	 * Share of wall time served by the gate above which a client without
	 * input or output is background: 0.05, that is 50 ms of compositor
	 * time a second, far above what an interactive client takes.
	 */
	double busy_threshold;
	/*
	 * The knee (hints/hints_config.c says why these values): commits per
	 * presented frame above knee_surplus put a client past its knee, and
	 * above waste_surplus its output is mostly waste. Neither counts
	 * below knee_min_commit_rate commits a second. The output class
	 * takes knee_surplus or less at any rate.
	 */
	double knee_surplus;
	double waste_surplus;
	double knee_min_commit_rate;
	/*
	 * A client whose frames show video or a game (content-type) has its
	 * output since its first presented frame over the time since, while
	 * that is shorter than the window, and never shorter than this:
	 * 100 ms. A declared client that showed two whole frames and stops is
	 * output for a second at most.
	 */
	int64_t declared_min_span_ns;
};

void ratings_params_default(struct ratings_params *params);

/* Per-second sums over the last RATINGS_BUCKETS seconds. */
struct ratings_window {
	double sum[RATINGS_BUCKETS];
	int64_t second[RATINGS_BUCKETS]; /* which second each slot holds */
};

struct ratings_client {
	pid_t pid;
	struct ratings_window output; /* presented frames */
	struct ratings_window busy; /* ns served */
	struct ratings_window commits; /* surface commits with damage */
	struct ratings_window presented; /* surface frames shown */
	int64_t last_input_ns;
	bool had_input; /* last_input_ns is valid */
	/* Its latest presented frame showed video or a game it declared. */
	bool declared_motion;
	int64_t first_frame_ns; /* its first presented frame; INT64_MIN: none */
	double first_frame; /* what that frame showed */
};

void ratings_client_init(struct ratings_client *client, pid_t pid);

/*
 * One presented frame showed `fraction` of the client's surfaces changed
 * (visible damaged pixels over surface pixels); clamped to [0, 1].
 */
void ratings_client_add_frame(
		struct ratings_client *client, double fraction, int64_t now);
/*
 * Whether the client's latest presented frame showed a surface that says
 * it shows video or a game (wp_content_type_v1). The client chooses it, so
 * it changes only how soon its output counts, never what it is worth: its
 * frames since its first presented one are divided by the time since,
 * instead of all of them by the whole window, for the first window alone
 * (see ratings_client_output_rate); the knee, the waste and the threshold
 * are an undeclared client's, and output is the most it can make it.
 */
void ratings_client_declare_motion(
		struct ratings_client *client, bool declared);

/* One of the client's surfaces committed a frame (with damage). */
void ratings_client_add_commit(struct ratings_client *client, int64_t now);
/* A presented frame showed damage of `surfaces` of the client's surfaces. */
void ratings_client_add_presented(
		struct ratings_client *client, int surfaces, int64_t now);
/* The gate served the client for ns. */
void ratings_client_add_busy(
		struct ratings_client *client, int64_t ns, int64_t now);
/*
 * Input was delivered to the client. Returns true if it had no input
 * rating before: the caller updates its hints at once (section 6.1).
 */
bool ratings_client_note_input(struct ratings_client *client,
		const struct ratings_params *params, int64_t now);

/*
 * Frames per second over the window; for a client that declared motion,
 * over the time since its first presented frame while that is shorter
 * (ratings_client_declare_motion).
 */
double ratings_client_output_rate(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);
/* Share of wall time served over the window, 0 to 1. */
double ratings_client_busy_share(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);
bool ratings_client_has_input(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);
/*
 * Committed frames per presented one over the window: 1 or less for a
 * client that paces itself on frame callbacks. Every commit when nothing
 * was presented; 0 without commits.
 */
double ratings_client_surplus(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);

/* Commits a second over the window (the knee's knee_min_commit_rate). */
double ratings_client_commit_rate(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);

enum ratings_knee {
	RATINGS_BEFORE_KNEE, /* more CPU would show more */
	RATINGS_PAST_KNEE, /* more CPU shows nothing more */
	RATINGS_WASTE, /* most of what it makes is never shown */
};

enum ratings_knee ratings_client_knee(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);

enum ratings_class ratings_client_classify(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now);
/*
 * The same among clients, the newest of whose inputs was at newest_input_ns
 * (INT64_MIN with none): input counts only within handoff_ns of it.
 */
enum ratings_class ratings_client_classify_among(
		const struct ratings_client *client,
		const struct ratings_params *params, int64_t now,
		int64_t newest_input_ns);
/* When the client last had input, or INT64_MIN if never. */
int64_t ratings_client_last_input(const struct ratings_client *client);

/* The stronger of two classes (XWayland takes its X clients' strongest). */
enum ratings_class ratings_class_max(
		enum ratings_class a, enum ratings_class b);
const char *ratings_class_name(enum ratings_class class);

#endif
