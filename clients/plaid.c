/*
 * fairway-plaid: the flooder, after the X11 demo that Packard used to starve
 * the X server. It queues requests as fast as the socket takes them (or at
 * --rate) and never waits for frame callbacks; when the socket is full it
 * blocks like any real client would, reading events meanwhile.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

#include "clients/common/globals.h"
#include "clients/common/json.h"
#include "clients/common/options.h"
#include "clients/common/pump.h"
#include "clients/common/shm.h"
#include "clients/common/stop.h"
#include "clients/common/time.h"
#include "clients/common/window.h"

/* Wire sizes (header included) of the requests plaid sends. */
#define SZ_ATTACH 20
#define SZ_DAMAGE 24
#define SZ_COMMIT 8
#define SZ_REGION_OP 24
#define SZ_CREATE 12
#define SZ_DESTROY 8
#define SZ_CREATE_POOL 16
#define SZ_CREATE_BUFFER 32
#define SZ_SYNC 12

/* Bounds the wl_callback proxies waiting for their done event. */
#define MAX_OUTSTANDING_SYNCS 4096
/* Small objects for the requests and churn modes live in this square. */
#define SCRATCH_SIZE 64

enum plaid_mode {
	MODE_COMMIT,
	MODE_REQUESTS,
	MODE_CHURN,
	MODE_SYNC,
	MODE_DAMAGE,
	MODE_DAMAGE_ONLY,
};

static const char *const mode_names[] = {
		"commit", "requests", "churn", "sync", "damage", "damage-only", NULL};

struct plaid {
	const char *prog;
	enum plaid_mode mode;
	struct fw_size size;
	unsigned rate, batch, rects;
	bool repaint;

	struct fw_globals globals;
	struct fw_sender sender;
	struct fw_window *window;
	struct fw_shm_pool *pool;

	/* requests mode */
	struct wl_surface *scratch_surface;
	struct wl_region *scratch_region;
	/* churn mode: the file every short-lived pool maps */
	int churn_fd;
	/* sync mode */
	uint64_t outstanding_syncs;
	struct wl_list syncs; /* struct plaid_sync.link, awaiting done */

	uint64_t commits;
	uint64_t step; /* advances the pattern of positions and colours */
	uint32_t rng;
};

static uint32_t next_random(struct plaid *p) {
	/* xorshift32: cheap, and runs are reproducible. */
	uint32_t x = p->rng;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	p->rng = x;
	return x;
}

/* A sync in flight, kept so that teardown can free it when none comes. */
struct plaid_sync {
	struct plaid *plaid;
	struct wl_callback *callback;
	struct wl_list link;
};

static void sync_free(struct plaid_sync *sync) {
	sync->plaid->outstanding_syncs--;
	wl_callback_destroy(sync->callback);
	wl_list_remove(&sync->link);
	free(sync);
}

static void handle_sync_done(
		void *data, struct wl_callback *callback, uint32_t serial) {
	sync_free(data);
}

static const struct wl_callback_listener sync_listener = {
		.done = handle_sync_done,
};

/* Waits (reading events) until the compositor releases one of our buffers. */
static struct fw_buffer *wait_for_buffer(struct plaid *p) {
	struct fw_buffer *buffer;
	while ((buffer = fw_shm_pool_acquire(p->pool)) == NULL) {
		if (fw_stop_requested() || fw_now_ns() >= p->sender.deadline_ns) {
			return NULL;
		}
		if (fw_sender_flush(&p->sender) < 0 ||
				fw_pump(p->globals.display,
						fw_ms_until(p->sender.deadline_ns)) < 0) {
			return NULL;
		}
	}
	return buffer;
}

static void fill(struct fw_buffer *buffer, uint32_t color) {
	size_t n = (size_t)buffer->width * (size_t)buffer->height;
	for (size_t i = 0; i < n; i++) {
		buffer->pixels[i] = color;
	}
}

/* Each unit returns 0 when done, 1 when the run is over, -1 on error. */
static int unit_commit(struct plaid *p) {
	struct fw_buffer *buffer = wait_for_buffer(p);
	if (buffer == NULL) {
		return wl_display_get_error(p->globals.display) != 0 ? -1 : 1;
	}
	/*
	 * Like X's plaid, the work is meant for the compositor, not for this
	 * client: each buffer is painted once, in its own colour, so that every
	 * commit still changes every pixel on screen while plaid itself stays
	 * cheap. --repaint paints every pixel before every commit instead.
	 */
	if (p->repaint || !buffer->painted) {
		fill(buffer, 0xff000000u | (uint32_t)(p->step * 0x10204u));
		buffer->painted = true;
	}
	int r;
	if ((r = fw_sender_reserve(&p->sender, SZ_ATTACH, 0)) != 0) {
		return r;
	}
	fw_buffer_attach(buffer, p->window->surface);
	if ((r = fw_sender_reserve(&p->sender, SZ_DAMAGE, 0)) != 0) {
		return r;
	}
	wl_surface_damage_buffer(
			p->window->surface, 0, 0, buffer->width, buffer->height);
	if ((r = fw_sender_reserve(&p->sender, SZ_COMMIT, 0)) != 0) {
		return r;
	}
	wl_surface_commit(p->window->surface);
	p->commits++;
	return 0;
}

static int unit_damage(struct plaid *p) {
	struct fw_buffer *buffer = wait_for_buffer(p);
	if (buffer == NULL) {
		return wl_display_get_error(p->globals.display) != 0 ? -1 : 1;
	}
	int r;
	if ((r = fw_sender_reserve(&p->sender, SZ_ATTACH, 0)) != 0) {
		return r;
	}
	fw_buffer_attach(buffer, p->window->surface);
	uint32_t color = 0xff000000u | (uint32_t)(p->step * 0x30507u);
	for (unsigned i = 0; i < p->rects; i++) {
		int x = (int)(next_random(p) % (uint32_t)buffer->width);
		int y = (int)(next_random(p) % (uint32_t)buffer->height);
		buffer->pixels[(size_t)y * (size_t)buffer->width + (size_t)x] = color;
		if ((r = fw_sender_reserve(&p->sender, SZ_DAMAGE, 0)) != 0) {
			return r;
		}
		wl_surface_damage_buffer(p->window->surface, x, y, 1, 1);
	}
	if ((r = fw_sender_reserve(&p->sender, SZ_COMMIT, 0)) != 0) {
		return r;
	}
	wl_surface_commit(p->window->surface);
	p->commits++;
	return 0;
}

static int unit_request(struct plaid *p) {
	int r;
	if ((r = fw_sender_reserve(&p->sender, SZ_REGION_OP, 0)) != 0) {
		return r;
	}
	int x = (int)(next_random(p) % SCRATCH_SIZE);
	int y = (int)(next_random(p) % SCRATCH_SIZE);
	switch (p->step % 3) {
	case 0:
		wl_surface_damage_buffer(p->scratch_surface, x, y, 4, 4);
		break;
	case 1:
		wl_region_add(p->scratch_region, x, y, 4, 4);
		break;
	default:
		wl_region_subtract(p->scratch_region, x, y, 2, 2);
		break;
	}
	return 0;
}

/* The cheapest request there is, alone: what the gate costs per request. */
static int unit_damage_only(struct plaid *p) {
	int r;
	if ((r = fw_sender_reserve(&p->sender, SZ_DAMAGE, 0)) != 0) {
		return r;
	}
	int x = (int)(next_random(p) % SCRATCH_SIZE);
	int y = (int)(next_random(p) % SCRATCH_SIZE);
	wl_surface_damage(p->scratch_surface, x, y, 4, 4);
	return 0;
}

static int unit_churn(struct plaid *p) {
	int r;
	switch (p->step % 3) {
	case 0: {
		if ((r = fw_sender_reserve(&p->sender, SZ_CREATE, 0)) != 0) {
			return r;
		}
		struct wl_surface *surface =
				wl_compositor_create_surface(p->globals.compositor);
		if ((r = fw_sender_reserve(&p->sender, SZ_DESTROY, 0)) != 0) {
			wl_proxy_destroy((struct wl_proxy *)surface);
			return r;
		}
		wl_surface_destroy(surface);
		return 0;
	}
	case 1: {
		if ((r = fw_sender_reserve(&p->sender, SZ_CREATE, 0)) != 0) {
			return r;
		}
		struct wl_region *region =
				wl_compositor_create_region(p->globals.compositor);
		if ((r = fw_sender_reserve(&p->sender, SZ_REGION_OP, 0)) == 0) {
			wl_region_add(region, 0, 0, SCRATCH_SIZE, SCRATCH_SIZE);
			r = fw_sender_reserve(&p->sender, SZ_DESTROY, 0);
		}
		if (r != 0) {
			/* Not sent: free only the proxy, the flush is what failed. */
			wl_proxy_destroy((struct wl_proxy *)region);
			return r;
		}
		wl_region_destroy(region);
		return 0;
	}
	default: {
		int size = SCRATCH_SIZE * SCRATCH_SIZE * 4;
		if ((r = fw_sender_reserve(&p->sender, SZ_CREATE_POOL, 1)) != 0) {
			return r;
		}
		struct wl_shm_pool *pool =
				wl_shm_create_pool(p->globals.shm, p->churn_fd, size);
		struct wl_buffer *buffer = NULL;
		if ((r = fw_sender_reserve(&p->sender, SZ_CREATE_BUFFER, 0)) == 0) {
			buffer = wl_shm_pool_create_buffer(pool, 0, SCRATCH_SIZE,
					SCRATCH_SIZE, SCRATCH_SIZE * 4, WL_SHM_FORMAT_XRGB8888);
			if ((r = fw_sender_reserve(&p->sender, SZ_DESTROY, 0)) == 0) {
				wl_buffer_destroy(buffer);
				buffer = NULL;
				r = fw_sender_reserve(&p->sender, SZ_DESTROY, 0);
			}
		}
		if (r != 0) {
			if (buffer != NULL) {
				wl_proxy_destroy((struct wl_proxy *)buffer);
			}
			wl_proxy_destroy((struct wl_proxy *)pool);
			return r;
		}
		wl_shm_pool_destroy(pool);
		return 0;
	}
	}
}

static int unit_sync(struct plaid *p) {
	while (p->outstanding_syncs >= MAX_OUTSTANDING_SYNCS) {
		if (fw_stop_requested() || fw_now_ns() >= p->sender.deadline_ns) {
			return 1;
		}
		if (fw_sender_flush(&p->sender) < 0 ||
				fw_pump(p->globals.display,
						fw_ms_until(p->sender.deadline_ns)) < 0) {
			return -1;
		}
	}
	int r;
	if ((r = fw_sender_reserve(&p->sender, SZ_SYNC, 0)) != 0) {
		return r;
	}
	struct plaid_sync *sync = calloc(1, sizeof(*sync));
	if (sync == NULL) {
		return -1;
	}
	sync->plaid = p;
	sync->callback = wl_display_sync(p->globals.display);
	wl_callback_add_listener(sync->callback, &sync_listener, sync);
	wl_list_insert(&p->syncs, &sync->link);
	p->outstanding_syncs++;
	return 0;
}

static int run_unit(struct plaid *p) {
	p->step++;
	switch (p->mode) {
	case MODE_COMMIT:
		return unit_commit(p);
	case MODE_DAMAGE:
		return unit_damage(p);
	case MODE_REQUESTS:
		return unit_request(p);
	case MODE_DAMAGE_ONLY:
		return unit_damage_only(p);
	case MODE_CHURN:
		return unit_churn(p);
	case MODE_SYNC:
		return unit_sync(p);
	}
	return -1;
}

/* What --rate counts: commits in the modes that draw, requests otherwise. */
static uint64_t paced_count(const struct plaid *p) {
	if (p->mode == MODE_COMMIT || p->mode == MODE_DAMAGE) {
		return p->commits;
	}
	return p->sender.requests;
}

static int setup(struct plaid *p) {
	uint32_t needs = FW_NEED_COMPOSITOR;
	if (p->mode == MODE_COMMIT || p->mode == MODE_DAMAGE) {
		needs |= FW_NEED_SHM | FW_NEED_XDG_WM_BASE;
	} else if (p->mode == MODE_CHURN) {
		needs |= FW_NEED_SHM;
	}
	if (fw_globals_require(&p->globals, p->prog, needs) < 0) {
		return -1;
	}
	switch (p->mode) {
	case MODE_COMMIT:
	case MODE_DAMAGE:
		p->window = fw_window_create(&p->globals, "fairway-plaid");
		if (p->window == NULL) {
			return -1;
		}
		p->pool = fw_shm_pool_create(
				p->globals.shm, p->size.width, p->size.height, 3);
		if (p->pool == NULL) {
			fprintf(stderr, "%s: cannot create shm buffers\n", p->prog);
			return -1;
		}
		if (fw_window_wait_configured(p->window) < 0) {
			fprintf(stderr, "%s: the window was never configured\n", p->prog);
			return -1;
		}
		return 0;
	case MODE_DAMAGE_ONLY:
		p->scratch_surface =
				wl_compositor_create_surface(p->globals.compositor);
		return p->scratch_surface != NULL ? 0 : -1;
	case MODE_REQUESTS:
		p->scratch_surface =
				wl_compositor_create_surface(p->globals.compositor);
		p->scratch_region = wl_compositor_create_region(p->globals.compositor);
		return p->scratch_surface != NULL && p->scratch_region != NULL ? 0 : -1;
	case MODE_CHURN:
		p->churn_fd = fw_memfd_create(
				"fairway-plaid-churn", SCRATCH_SIZE * SCRATCH_SIZE * 4);
		if (p->churn_fd < 0) {
			fprintf(stderr, "%s: memfd_create: %m\n", p->prog);
			return -1;
		}
		return 0;
	case MODE_SYNC:
		return 0;
	}
	return -1;
}

static void teardown(struct plaid *p) {
	/*
	 * The compositor answers syncs in order, so one roundtrip brings every
	 * outstanding done; whatever a broken connection left is freed here.
	 */
	if (p->outstanding_syncs > 0 && p->globals.display != NULL &&
			wl_display_get_error(p->globals.display) == 0) {
		wl_display_roundtrip(p->globals.display);
	}
	struct plaid_sync *sync, *tmp;
	wl_list_for_each_safe(sync, tmp, &p->syncs, link) {
		sync_free(sync);
	}
	if (p->scratch_region != NULL) {
		wl_region_destroy(p->scratch_region);
	}
	if (p->scratch_surface != NULL) {
		wl_surface_destroy(p->scratch_surface);
	}
	if (p->churn_fd >= 0) {
		close(p->churn_fd);
	}
	fw_shm_pool_destroy(p->pool);
	fw_window_destroy(p->window);
	fw_globals_finish(&p->globals);
}

int main(int argc, char **argv) {
	double duration = 5;
	const char *mode = "commit";
	struct fw_size size = {0, 0};
	unsigned rate = 0, batch = 0, rects = 2000;
	bool repaint = false;
	const struct fw_option options[] = {
			{"duration", FW_OPTION_DOUBLE, &duration, "SECONDS",
					"how long to flood (default 5)", 0, NULL},
			{"mode", FW_OPTION_STRING, &mode, "MODE",
					"commit|requests|churn|sync|damage|damage-only (default "
					"commit)",
					0, mode_names},
			{"size", FW_OPTION_SIZE, &size, "WxH",
					"buffer size (default 1280x720 for commit, 400x300 damage)",
					0, NULL},
			{"rate", FW_OPTION_UINT, &rate, "N",
					"commits/s (commit, damage) or requests/s; 0: unlimited", 0,
					NULL},
			{"batch", FW_OPTION_UINT, &batch, "N",
					"requests per flush (default 16; 100 in damage-only)", 1,
					NULL},
			{"rects", FW_OPTION_UINT, &rects, "N",
					"damage rects per commit in damage mode (default 2000)", 1,
					NULL},
			{"repaint", FW_OPTION_FLAG, &repaint, NULL,
					"commit mode: paint every pixel before every commit, "
					"making plaid CPU-bound too",
					0, NULL},
	};
	const struct fw_program prog = {
			.name = "fairway-plaid",
			.summary = "Floods the compositor with requests; prints a JSON "
					   "summary.",
			.options = options,
			.option_count = sizeof(options) / sizeof(options[0]),
	};
	fw_options_parse(&prog, argc, argv);
	fw_stop_install();

	struct plaid p;
	memset(&p, 0, sizeof(p));
	p.prog = prog.name;
	for (int i = 0; mode_names[i] != NULL; i++) {
		if (strcmp(mode, mode_names[i]) == 0) {
			p.mode = (enum plaid_mode)i;
		}
	}
	p.size = size;
	if (p.size.width == 0) {
		p.size = p.mode == MODE_COMMIT ? (struct fw_size){1280, 720}
									   : (struct fw_size){400, 300};
	}
	p.rate = rate;
	p.batch = batch != 0 ? batch : p.mode == MODE_DAMAGE_ONLY ? 100 : 16;
	p.rects = rects;
	p.repaint = repaint;
	p.churn_fd = -1;
	wl_list_init(&p.syncs);
	p.rng = 0x2545f491u;

	struct wl_display *display = fw_connect(prog.name);
	if (display == NULL) {
		return 1;
	}
	int ret = 1;
	if (fw_globals_init(&p.globals, display) < 0) {
		fprintf(stderr, "%s: cannot read the compositor's globals\n",
				prog.name);
		goto out;
	}
	if (setup(&p) < 0) {
		goto out;
	}

	uint64_t start = fw_now_ns();
	uint64_t end = start + (uint64_t)(duration * 1e9);
	fw_sender_init(&p.sender, display, end);
	if (p.mode == MODE_DAMAGE_ONLY) {
		/* A whole batch in one flush, as far as libwayland's buffer has
		 * room: the point is many cheap requests per write. */
		size_t bytes = (size_t)p.batch * SZ_DAMAGE;
		p.sender.max_bytes = bytes < FW_SENDER_MAX_BYTES_LIMIT
				? (bytes > p.sender.max_bytes ? bytes : p.sender.max_bytes)
				: FW_SENDER_MAX_BYTES_LIMIT;
	}
	uint64_t flushed_at = 0; /* request count at the last flush */
	int r = 0;
	while (!fw_stop_requested() && fw_now_ns() < end) {
		if (p.rate > 0) {
			uint64_t now = fw_now_ns();
			uint64_t due = start +
					(paced_count(&p) * 1000000000ull + p.rate - 1) / p.rate;
			if (due > now) {
				/* Ahead of the rate: send what we have, then idle. */
				if ((r = fw_sender_flush(&p.sender)) != 0) {
					break;
				}
				uint64_t until = due < end ? due : end;
				if ((r = fw_pump(display, fw_ms_until(until))) < 0) {
					break;
				}
				continue;
			}
		}
		if ((r = run_unit(&p)) != 0) {
			break;
		}
		if (p.sender.requests - flushed_at >= p.batch) {
			flushed_at = p.sender.requests;
			if ((r = fw_sender_flush(&p.sender)) != 0) {
				break;
			}
			/* Keep reading, so that the compositor's events never pile up. */
			if ((r = fw_pump(display, 0)) < 0) {
				break;
			}
		}
	}
	double seconds = (double)(fw_now_ns() - start) / 1e9;
	if (r < 0 || wl_display_get_error(display) != 0) {
		fprintf(stderr, "%s: the connection to the compositor failed: %s\n",
				prog.name, strerror(wl_display_get_error(display)));
		goto out;
	}

	struct fw_json json;
	fw_json_begin(&json, stdout);
	fw_json_string(&json, "client", "plaid");
	fw_json_string(&json, "mode", mode_names[p.mode]);
	fw_json_uint(&json, "requests", p.sender.requests);
	fw_json_uint(&json, "commits", p.commits);
	fw_json_double(&json, "seconds", seconds);
	fw_json_double(&json, "rate", (double)p.sender.requests / seconds);
	fw_json_end(&json);
	ret = 0;

out:
	teardown(&p);
	wl_display_disconnect(display);
	return ret;
}
