/*
 * fairway-anim: an animation in the manner of xengine. It draws a frame,
 * sleeps --delay-ms, draws the next, without waiting for frame callbacks,
 * and asks for presentation feedback on every commit.
 *
 * --draw-in child draws each frame in a child process, into the shared
 * buffers, as browsers and games draw elsewhere than in the process that
 * holds the socket; --setsid-child starts a second child that calls
 * setsid() (a job in a session of its own, as a terminal's), and
 * --work-ms spends that much CPU on each frame wherever it is drawn;
 * --children N starts N more children that sleep.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "clients/common/globals.h"
#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/present.h"
#include "clients/common/pump.h"
#include "clients/common/shm.h"
#include "clients/common/stats.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"
#include "clients/common/window.h"

/* Commit times of recent frames, indexed by frame number modulo this. */
#define COMMIT_RING 1024
/* How long to wait at the end for feedback on the last frames. */
#define DRAIN_NS (500ull * 1000000u)

/* A child that draws frames on request: buffer index and frame out,
 * one byte back once drawn. */
struct drawer {
	pid_t pid; /* 0: frames are drawn in this process */
	int request, done;
};

struct anim {
	const char *prog;
	struct fw_size size;
	unsigned delay_ms;
	unsigned work_ms;
	struct drawer drawer;
	pid_t setsid_pid;
	pid_t *sleepers; /* --children */
	unsigned sleeper_count;

	struct fw_globals globals;
	struct fw_window *window;
	struct fw_shm_pool *pool;
	struct fw_present present;

	uint64_t commit_ns[COMMIT_RING];
	uint64_t commits;
	uint64_t frames; /* presented after the warm-up */
	uint64_t counted_from_ns; /* the end of the warm-up */
	uint64_t last_present_ns;
	struct fw_stats interval, draw;
};

static void handle_present(
		void *data, uint64_t seq, bool presented, uint64_t present_ns) {
	struct anim *a = data;
	if (!presented) {
		return;
	}
	if (present_ns < a->counted_from_ns) {
		/* Still warming up: the next interval starts here. */
		a->last_present_ns = present_ns;
		return;
	}
	a->frames++;
	uint64_t committed = a->commit_ns[seq % COMMIT_RING];
	if (present_ns >= committed && a->commits - seq <= COMMIT_RING) {
		fw_stats_add(&a->draw, fw_ns_to_ms((int64_t)(present_ns - committed)));
	}
	if (a->last_present_ns != 0 && present_ns > a->last_present_ns) {
		fw_stats_add(&a->interval,
				fw_ns_to_ms((int64_t)(present_ns - a->last_present_ns)));
	}
	a->last_present_ns = present_ns;
}

/* Burns ms of this thread's CPU time (not wall time: under load it takes
 * longer, as real drawing does). */
static void work(unsigned ms) {
	struct timespec start, now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start);
	int64_t want = (int64_t)ms * 1000000;
	volatile uint64_t spin = 0;
	do {
		for (int i = 0; i < 10000; i++) {
			spin += (uint64_t)i;
		}
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	} while ((now.tv_sec - start.tv_sec) * 1000000000 +
					(now.tv_nsec - start.tv_nsec) <
			want);
}

static void draw(struct fw_buffer *buffer, uint64_t frame) {
	/* A bar sweeping across a slowly changing background. */
	int bar = (int)((frame * 8) % (uint64_t)buffer->width);
	uint32_t bg = 0xff202020u | (uint32_t)((frame & 0x7f) << 16);
	for (int y = 0; y < buffer->height; y++) {
		uint32_t *row = buffer->pixels + (size_t)y * (size_t)buffer->width;
		for (int x = 0; x < buffer->width; x++) {
			row[x] = (x >= bar && x < bar + 16) ? 0xffffffffu : bg;
		}
	}
}

struct draw_request {
	int index;
	uint64_t frame;
};

/* The drawing child's loop: until the parent goes away. */
static void drawer_main(struct anim *a, int request, int done) {
	struct draw_request req;
	while (read(request, &req, sizeof(req)) == sizeof(req)) {
		if (req.index >= 0 && req.index < a->pool->count) {
			draw(&a->pool->buffers[req.index], req.frame);
			work(a->work_ms);
		}
		char c = 1;
		if (write(done, &c, 1) != 1) {
			break;
		}
	}
	_exit(0);
}

/* Forks a child that drains nothing of the parent's: it closes the Wayland
 * socket and dies with the parent. */
static pid_t fork_child(struct anim *a) {
	pid_t pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(wl_display_get_fd(a->globals.display));
	}
	return pid;
}

static int drawer_start(struct anim *a) {
	int request[2], done[2];
	if (pipe(request) != 0) {
		return -1;
	}
	if (pipe(done) != 0) {
		close(request[0]);
		close(request[1]);
		return -1;
	}
	pid_t pid = fork_child(a);
	if (pid == 0) {
		close(request[1]);
		close(done[0]);
		drawer_main(a, request[0], done[1]);
	}
	close(request[0]);
	close(done[1]);
	if (pid < 0) {
		close(request[1]);
		close(done[0]);
		return -1;
	}
	a->drawer =
			(struct drawer){.pid = pid, .request = request[1], .done = done[0]};
	return 0;
}

static void drawer_stop(struct anim *a) {
	if (a->drawer.pid <= 0) {
		return;
	}
	close(a->drawer.request);
	close(a->drawer.done);
	waitpid(a->drawer.pid, NULL, 0);
	a->drawer.pid = 0;
}

/* A child in a session of its own, which sleeps: not of the application. */
static int setsid_child_start(struct anim *a) {
	int ready[2];
	if (pipe(ready) != 0) {
		return -1;
	}
	pid_t pid = fork_child(a);
	if (pid == 0) {
		close(ready[0]);
		char c = setsid() < 0 ? 0 : 1;
		if (write(ready[1], &c, 1) != 1) {
			_exit(1);
		}
		for (;;) {
			pause();
		}
	}
	close(ready[1]);
	char c = 0;
	bool ok = pid > 0 && read(ready[0], &c, 1) == 1 && c == 1;
	close(ready[0]);
	if (!ok) {
		return -1;
	}
	a->setsid_pid = pid;
	return 0;
}

/* Children that sleep: an application of many processes. */
static int sleepers_start(struct anim *a, unsigned count) {
	a->sleepers = calloc(count > 0 ? count : 1, sizeof(*a->sleepers));
	if (a->sleepers == NULL) {
		return -1;
	}
	for (; a->sleeper_count < count; a->sleeper_count++) {
		pid_t pid = fork_child(a);
		if (pid == 0) {
			for (;;) {
				pause();
			}
		}
		if (pid < 0) {
			return -1;
		}
		a->sleepers[a->sleeper_count] = pid;
	}
	return 0;
}

static void sleepers_stop(struct anim *a) {
	for (unsigned i = 0; i < a->sleeper_count; i++) {
		kill(a->sleepers[i], SIGKILL);
		waitpid(a->sleepers[i], NULL, 0);
	}
	free(a->sleepers);
	a->sleepers = NULL;
	a->sleeper_count = 0;
}

static void setsid_child_stop(struct anim *a) {
	if (a->setsid_pid > 0) {
		kill(a->setsid_pid, SIGKILL);
		waitpid(a->setsid_pid, NULL, 0);
		a->setsid_pid = 0;
	}
}

/* Draws frame into buffer, here or in the drawing child. */
static int draw_frame(
		struct anim *a, struct fw_buffer *buffer, uint64_t frame) {
	if (a->drawer.pid == 0) {
		draw(buffer, frame);
		work(a->work_ms);
		return 0;
	}
	struct draw_request req = {
			.index = (int)(buffer - a->pool->buffers), .frame = frame};
	char c;
	ssize_t n;
	if (write(a->drawer.request, &req, sizeof(req)) != sizeof(req)) {
		return -1;
	}
	while ((n = read(a->drawer.done, &c, 1)) < 0 && errno == EINTR) {
	}
	return n == 1 ? 0 : -1;
}

static int wait_until(struct anim *a, uint64_t deadline_ns) {
	while (!fw_stop_requested() && fw_now_ns() < deadline_ns) {
		if (fw_pump(a->globals.display, fw_ms_until(deadline_ns)) < 0) {
			return -1;
		}
	}
	return 0;
}

static int run(struct anim *a, uint64_t end) {
	while (!fw_stop_requested() && fw_now_ns() < end) {
		struct fw_buffer *buffer = fw_shm_pool_acquire(a->pool);
		if (buffer == NULL) {
			/* All three held: a real client waits for a release too. */
			if (fw_pump(a->globals.display, fw_ms_until(end)) < 0) {
				return -1;
			}
			continue;
		}
		uint64_t frame = a->commits;
		if (draw_frame(a, buffer, frame) < 0) {
			fprintf(stderr, "%s: the drawing child is gone\n", a->prog);
			return -1;
		}
		fw_buffer_attach(buffer, a->window->surface);
		wl_surface_damage_buffer(
				a->window->surface, 0, 0, buffer->width, buffer->height);
		if (fw_present_request(&a->present, a->window->surface, frame) < 0) {
			return -1;
		}
		wl_surface_commit(a->window->surface);
		a->commit_ns[frame % COMMIT_RING] = fw_now_ns();
		a->commits++;
		if (fw_flush_blocking(a->globals.display, end) < 0) {
			return -1;
		}
		uint64_t wake = fw_now_ns() + (uint64_t)a->delay_ms * 1000000u;
		if (wait_until(a, wake < end ? wake : end) < 0) {
			return -1;
		}
	}
	/* Frames committed near the end are still on their way to the screen. */
	uint64_t drain = fw_now_ns() + DRAIN_NS;
	while (!wl_list_empty(&a->present.pending) && fw_now_ns() < drain) {
		if (fw_pump(a->globals.display, fw_ms_until(drain)) < 0) {
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv) {
	double duration = 5;
	double warmup = 0;
	struct fw_size size = {400, 300};
	unsigned delay_ms = 15;
	unsigned work_ms = 0;
	const char *draw_in = "process";
	bool setsid_child = false;
	unsigned children = 0;
	static const char *const draw_choices[] = {"process", "child", NULL};
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long to animate (default 5)", 0, NULL},
			{"warmup", FW_OPTION_DOUBLE, &warmup, "SECONDS",
					"animate this long first, uncounted (default 0)", -1, NULL},
			{"size", FW_OPTION_SIZE, &size, "WxH",
					"window size (default 400x300)", 0, NULL},
			{"delay-ms", FW_OPTION_UINT, &delay_ms, "MS",
					"sleep between frames (default 15)", 0, NULL},
			{"work-ms", FW_OPTION_UINT, &work_ms, "MS",
					"CPU time to spend on each frame (default 0)", 0, NULL},
			{"draw-in", FW_OPTION_STRING, &draw_in, "WHERE",
					"process (default) or child: a forked child draws", 0,
					draw_choices},
			{"setsid-child", FW_OPTION_FLAG, &setsid_child, NULL,
					"also start a child in a session of its own", 0, NULL},
			{"children", FW_OPTION_UINT, &children, "N",
					"also start N children that sleep (default 0)", 0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-anim",
			.summary = "Animates a window and measures frame timing; prints a "
					   "JSON summary.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	fw_stop_install();

	struct anim *a = calloc(1, sizeof(*a));
	if (a == NULL) {
		return 1;
	}
	a->prog = prog.name;
	a->size = size;
	a->delay_ms = delay_ms;
	a->work_ms = work_ms;
	fw_stats_init(&a->interval);
	fw_stats_init(&a->draw);
	int ret = 1;

	struct wl_display *display = fw_connect(prog.name);
	if (display == NULL) {
		goto out_free;
	}
	if (fw_globals_init(&a->globals, display) < 0) {
		fprintf(stderr, "%s: cannot read the compositor's globals\n",
				prog.name);
		goto out_display;
	}
	if (fw_globals_require(&a->globals, prog.name,
				FW_NEED_COMPOSITOR | FW_NEED_SHM | FW_NEED_XDG_WM_BASE |
						FW_NEED_PRESENTATION) < 0) {
		goto out_globals;
	}
	fw_time_use_clock(a->globals.presentation_clock);
	fw_present_init(&a->present, a->globals.presentation, handle_present, a);
	a->window = fw_window_create(&a->globals, "fairway-anim");
	if (a->window == NULL) {
		fprintf(stderr, "%s: cannot create a window\n", prog.name);
		goto out_present;
	}
	a->pool = fw_shm_pool_create(a->globals.shm, size.width, size.height, 3);
	if (a->pool == NULL) {
		fprintf(stderr, "%s: cannot create shm buffers\n", prog.name);
		goto out_window;
	}
	if (fw_window_wait_configured(a->window) < 0) {
		fprintf(stderr, "%s: the window was never configured\n", prog.name);
		goto out_pool;
	}
	/* After the pool: the drawing child shares its buffers. */
	if (strcmp(draw_in, "child") == 0 && drawer_start(a) < 0) {
		fprintf(stderr, "%s: cannot start the drawing child\n", prog.name);
		goto out_pool;
	}
	if (setsid_child && setsid_child_start(a) < 0) {
		fprintf(stderr, "%s: cannot start the setsid() child\n", prog.name);
		goto out_children;
	}
	if (children > 0 && sleepers_start(a, children) < 0) {
		fprintf(stderr, "%s: cannot start %u children\n", prog.name, children);
		goto out_children;
	}

	a->counted_from_ns = fw_now_ns() + (uint64_t)(warmup * 1e9);
	uint64_t start = a->counted_from_ns;
	uint64_t end = start + (uint64_t)(duration * 1e9);
	if (run(a, end) < 0) {
		fprintf(stderr, "%s: lost the connection to the compositor\n",
				prog.name);
		goto out_children;
	}
	/* fps over the animation itself, not the drain. */
	double seconds = (double)(end - start) / 1e9;

	struct fw_summary interval, draw_latency;
	fw_stats_summarize(&a->interval, &interval);
	fw_stats_summarize(&a->draw, &draw_latency);
	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "anim");
	fw_json_uint(&json, "frames", a->frames);
	fw_json_double(&json, "fps", (double)a->frames / seconds);
	fw_json_summary(&json, "interval_ms", &interval, true);
	fw_json_summary(&json, "draw_ms", &draw_latency, false);
	fw_json_uint(&json, "commits", a->commits);
	fw_json_uint(&json, "discarded", a->present.discarded);
	fw_json_double(&json, "seconds", seconds);
	fw_json_string(&json, "clock", fw_clock_name(fw_time_clock()));
	fw_json_string(&json, "draw_in", draw_in);
	fw_json_uint(&json, "work_ms", work_ms);
	fw_json_uint(&json, "drawer_pid", (uint64_t)a->drawer.pid);
	fw_json_uint(&json, "setsid_pid", (uint64_t)a->setsid_pid);
	fw_json_end(&json);
	ret = 0;

out_children:
	sleepers_stop(a);
	setsid_child_stop(a);
	drawer_stop(a);
out_pool:
	fw_shm_pool_destroy(a->pool);
out_window:
	fw_window_destroy(a->window);
out_present:
	fw_present_finish(&a->present);
out_globals:
	fw_globals_finish(&a->globals);
out_display:
	wl_display_disconnect(display);
out_free:
	fw_stats_finish(&a->interval);
	fw_stats_finish(&a->draw);
	free(a);
	return ret;
}
