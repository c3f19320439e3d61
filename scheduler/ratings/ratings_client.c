#include "scheduler/ratings/ratings_client.h"
#include <string.h>

#define NS_PER_S INT64_C(1000000000)

void ratings_params_default(struct ratings_params *params) {
	*params = (struct ratings_params){
			.window_ns = RATINGS_BUCKETS * NS_PER_S,
			.handoff_ns = NS_PER_S,
			.output_threshold = 1.0,
			.busy_threshold = 0.05,
			.knee_surplus = 1.5,
			.waste_surplus = 4.0,
			.knee_min_commit_rate = 10.0,
			.declared_min_span_ns = NS_PER_S / 10,
	};
}

static int64_t second_of(int64_t now) {
	/* Times are monotonic and positive; floor anyway for fake clocks. */
	return now >= 0 ? now / NS_PER_S : (now - NS_PER_S + 1) / NS_PER_S;
}

static void window_init(struct ratings_window *window) {
	for (int i = 0; i < RATINGS_BUCKETS; i++) {
		window->sum[i] = 0;
		window->second[i] = INT64_MIN;
	}
}

static void window_add(
		struct ratings_window *window, double value, int64_t now) {
	int64_t second = second_of(now);
	int slot = (int)(((second % RATINGS_BUCKETS) + RATINGS_BUCKETS) %
			RATINGS_BUCKETS);
	if (window->second[slot] != second) {
		window->second[slot] = second;
		window->sum[slot] = 0;
	}
	window->sum[slot] += value;
}

/* Sum over the seconds of the window that ends with the current one. */
static double window_sum(
		const struct ratings_window *window, int64_t window_ns, int64_t now) {
	int64_t second = second_of(now);
	int64_t seconds = window_ns / NS_PER_S;
	if (seconds < 1) {
		seconds = 1;
	} else if (seconds > RATINGS_BUCKETS) {
		seconds = RATINGS_BUCKETS;
	}
	double total = 0;
	for (int i = 0; i < RATINGS_BUCKETS; i++) {
		if (window->second[i] != INT64_MIN &&
				window->second[i] > second - seconds &&
				window->second[i] <= second) {
			total += window->sum[i];
		}
	}
	return total;
}

static double window_seconds(const struct ratings_params *params) {
	double seconds = (double)params->window_ns / (double)NS_PER_S;
	if (seconds < 1) {
		return 1;
	}
	return seconds > RATINGS_BUCKETS ? RATINGS_BUCKETS : seconds;
}

void ratings_client_init(struct ratings_client *client, pid_t pid) {
	memset(client, 0, sizeof(*client));
	client->pid = pid;
	client->first_frame_ns = INT64_MIN;
	window_init(&client->output);
	window_init(&client->busy);
	window_init(&client->commits);
	window_init(&client->presented);
}

void ratings_client_add_commit(struct ratings_client *client, int64_t now) {
	window_add(&client->commits, 1, now);
}

void ratings_client_add_presented(
		struct ratings_client *client, int surfaces, int64_t now) {
	if (surfaces > 0) {
		window_add(&client->presented, surfaces, now);
	}
}

double ratings_client_surplus(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	double commits = window_sum(&client->commits, params->window_ns, now);
	double presented = window_sum(&client->presented, params->window_ns, now);
	return commits / (presented > 1 ? presented : 1);
}

double ratings_client_commit_rate(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	return window_sum(&client->commits, params->window_ns, now) /
			window_seconds(params);
}

enum ratings_knee ratings_client_knee(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	if (ratings_client_commit_rate(client, params, now) <
			params->knee_min_commit_rate) {
		return RATINGS_BEFORE_KNEE;
	}
	double surplus = ratings_client_surplus(client, params, now);
	if (surplus > params->waste_surplus) {
		return RATINGS_WASTE;
	}
	return surplus > params->knee_surplus ? RATINGS_PAST_KNEE
										  : RATINGS_BEFORE_KNEE;
}

void ratings_client_add_frame(
		struct ratings_client *client, double fraction, int64_t now) {
	if (!(fraction > 0)) {
		return;
	}
	fraction = fraction > 1 ? 1 : fraction;
	if (client->first_frame_ns == INT64_MIN) {
		client->first_frame_ns = now;
		client->first_frame = fraction;
	}
	window_add(&client->output, fraction, now);
}

void ratings_client_declare_motion(
		struct ratings_client *client, bool declared) {
	client->declared_motion = declared;
}

void ratings_client_add_busy(
		struct ratings_client *client, int64_t ns, int64_t now) {
	if (ns > 0) {
		window_add(&client->busy, (double)ns, now);
	}
}

bool ratings_client_has_input(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	return client->had_input && now - client->last_input_ns < params->window_ns;
}

bool ratings_client_note_input(struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	bool had = ratings_client_has_input(client, params, now);
	client->had_input = true;
	client->last_input_ns = now;
	return !had;
}

double ratings_client_output_rate(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	double sum = window_sum(&client->output, params->window_ns, now);
	double seconds = window_seconds(params);
	/*
	 * Every frame it ever showed is in the window still: the frames since
	 * its first over the time since then. For frames at any steady pace
	 * that is never more than the pace, which an undeclared client
	 * showing them is rated at once a window of them has passed.
	 */
	if (client->declared_motion && client->first_frame_ns != INT64_MIN) {
		int64_t span = now - client->first_frame_ns;
		if (span < params->declared_min_span_ns) {
			span = params->declared_min_span_ns;
		}
		double span_s = (double)span / (double)NS_PER_S;
		if (span_s < seconds) {
			return (sum - client->first_frame) / span_s;
		}
	}
	return sum / seconds;
}

double ratings_client_busy_share(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	double share = window_sum(&client->busy, params->window_ns, now) /
			(window_seconds(params) * (double)NS_PER_S);
	return share > 1 ? 1 : share;
}

int64_t ratings_client_last_input(const struct ratings_client *client) {
	return client->had_input ? client->last_input_ns : INT64_MIN;
}

enum ratings_class ratings_client_classify(const struct ratings_client *client,
		const struct ratings_params *params, int64_t now) {
	return ratings_client_classify_among(
			client, params, now, ratings_client_last_input(client));
}

enum ratings_class ratings_client_classify_among(
		const struct ratings_client *client,
		const struct ratings_params *params, int64_t now,
		int64_t newest_input_ns) {
	if (ratings_client_has_input(client, params, now) &&
			newest_input_ns - client->last_input_ns <= params->handoff_ns) {
		return RATINGS_INTERACTIVE;
	}
	/* Past its knee its output earns no boost; mostly waste, none at all. */
	enum ratings_knee knee = ratings_client_knee(client, params, now);
	if (knee == RATINGS_WASTE) {
		return RATINGS_BACKGROUND;
	}
	/*
	 * Its output earns a boost only if about as many frames are shown as
	 * it commits, however few a second: a flooder whose first half second
	 * has shown 8 frames has not yet made the knee's 80 commits in the
	 * window, but shows its surplus already.
	 */
	if (ratings_client_surplus(client, params, now) <= params->knee_surplus &&
			ratings_client_output_rate(client, params, now) >
					params->output_threshold) {
		return RATINGS_OUTPUT;
	}
	if (ratings_client_busy_share(client, params, now) >
			params->busy_threshold) {
		return RATINGS_BACKGROUND;
	}
	return RATINGS_IDLE;
}

enum ratings_class ratings_class_max(
		enum ratings_class a, enum ratings_class b) {
	return a > b ? a : b;
}

const char *ratings_class_name(enum ratings_class which) {
	static const char *const names[RATINGS_CLASS_COUNT] = {
			[RATINGS_BACKGROUND] = "background",
			[RATINGS_IDLE] = "idle",
			[RATINGS_OUTPUT] = "output",
			[RATINGS_INTERACTIVE] = "interactive",
	};
	return (size_t)which < RATINGS_CLASS_COUNT ? names[which] : "?";
}
