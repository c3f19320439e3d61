/*
 * The wlcs integration module: what the suite's runner loads with dlopen
 * to test fairway (wlcs/display_server.h). Each test gets a real fairway
 * server, made through the compositor library on the headless backend
 * with the pixman renderer; its clients are adopted by the dispatch gate
 * like clients that connected to fairway's socket (fw_sched_adopt_client),
 * and its input devices feed fairway's own input path (wlcs_input.c).
 *
 * The runner's arguments after the module are fairway's own options:
 * `--scheduler off` runs the suite with the gate bypassed.
 */
#include "compositor/config/command_line.h"
#include "compositor/sched/client_create.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
#include "scheduler/gate/gate.h"
#include "tests/wlcs/wlcs_module.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-client-core.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/util/log.h>

/* What wlcs gets unless its command line says otherwise. */
static const char *const default_args[] = {
		"--backend",
		"headless",
		"--no-xwayland",
		/* The client is this very process: its threads are not ours to
		 * hint. */
		"--hints",
		"dry-run",
		/* The user's configuration must not change what is tested. */
		"--config",
		"/dev/null",
		/* libwayland's calls cannot reach a shim from a module loaded
		 * with dlopen (scheduler/transport/transport.h). */
		"--gate-transport",
		"socketpair",
};
#define DEFAULT_ARG_COUNT (sizeof(default_args) / sizeof(default_args[0]))

/* A client wlcs holds by its end of the socketpair. */
struct fw_wlcs_client {
	struct wl_list link; /* fw_wlcs.clients */
	int fd; /* wlcs's end, as wl_display_get_fd names it */
	struct wl_client *client;
	struct wl_listener destroy;
};

static struct fw_wlcs *from_base(WlcsDisplayServer *base) {
	return wl_container_of(base, (struct fw_wlcs *)NULL, base);
}

static int handle_call(int fd, uint32_t mask, void *data) {
	struct fw_wlcs *wlcs = data;
	uint64_t count;
	if (read(fd, &count, sizeof(count)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "wlcs: reading the call eventfd");
	}
	pthread_mutex_lock(&wlcs->mutex);
	if (wlcs->call_pending) {
		wlcs->call_func(wlcs, wlcs->call_data);
		wlcs->call_pending = false;
		pthread_cond_broadcast(&wlcs->cond);
	}
	pthread_mutex_unlock(&wlcs->mutex);
	return 0;
}

void fw_wlcs_call(struct fw_wlcs *wlcs,
		void (*func)(struct fw_wlcs *wlcs, void *data), void *data) {
	pthread_mutex_lock(&wlcs->call_lock);
	pthread_mutex_lock(&wlcs->mutex);
	if (!wlcs->running || pthread_equal(pthread_self(), wlcs->thread)) {
		/* Nothing else runs the server now. */
		pthread_mutex_unlock(&wlcs->mutex);
		func(wlcs, data);
		pthread_mutex_unlock(&wlcs->call_lock);
		return;
	}
	wlcs->call_func = func;
	wlcs->call_data = data;
	wlcs->call_pending = true;
	uint64_t one = 1;
	if (write(wlcs->call_fd, &one, sizeof(one)) < 0) {
		wlr_log_errno(WLR_ERROR, "wlcs: waking the server");
	}
	while (wlcs->call_pending) {
		pthread_cond_wait(&wlcs->cond, &wlcs->mutex);
	}
	pthread_mutex_unlock(&wlcs->mutex);
	pthread_mutex_unlock(&wlcs->call_lock);
}

static void *run_server(void *data) {
	struct fw_wlcs *wlcs = data;
	fw_server_run(wlcs->server);
	/* Torn down on its own thread, before stop returns. */
	pthread_mutex_lock(&wlcs->mutex);
	wlcs->running = false;
	pthread_mutex_unlock(&wlcs->mutex);
	fw_wlcs_input_finish(wlcs);
	wl_event_source_remove(wlcs->call_source);
	wlcs->call_source = NULL;
	fw_server_destroy(wlcs->server);
	wlcs->server = NULL;
	return NULL;
}

static void wlcs_start(WlcsDisplayServer *base) {
	struct fw_wlcs *wlcs = from_base(base);
	wlcs->running = true;
	if (pthread_create(&wlcs->thread, NULL, run_server, wlcs) != 0) {
		wlcs->running = false;
		fprintf(stderr, "fairway-wlcs: cannot start the server's thread\n");
		abort();
	}
	wlcs->thread_started = true;
}

static void stop_on_server(struct fw_wlcs *wlcs, void *data) {
	fw_server_terminate(wlcs->server, 0);
}

static void wlcs_stop(WlcsDisplayServer *base) {
	struct fw_wlcs *wlcs = from_base(base);
	if (!wlcs->thread_started) {
		return;
	}
	fw_wlcs_call(wlcs, stop_on_server, NULL);
	pthread_join(wlcs->thread, NULL);
	wlcs->thread_started = false;
}

static void handle_client_destroy(struct wl_listener *listener, void *data) {
	struct fw_wlcs_client *entry = wl_container_of(listener, entry, destroy);
	wl_list_remove(&entry->destroy.link);
	wl_list_remove(&entry->link);
	free(entry);
}

struct adopt_call {
	int server_fd, client_fd;
	bool ok;
};

static void adopt_on_server(struct fw_wlcs *wlcs, void *data) {
	struct adopt_call *call = data;
	struct fw_wlcs_client *entry = calloc(1, sizeof(*entry));
	if (entry == NULL) {
		close(call->server_fd);
		return;
	}
	entry->client = fw_sched_adopt_client(wlcs->server->sched, call->server_fd);
	if (entry->client == NULL) {
		free(entry);
		return;
	}
	struct gate *gate = fw_sched_get_gate(wlcs->server->sched);
	if (gate != NULL && gate_connection_from_client(entry->client) == NULL) {
		/* The suite must exercise the gate, not go around it. */
		wlr_log(WLR_ERROR, "wlcs: a client was not gated");
		abort();
	}
	entry->fd = call->client_fd;
	entry->destroy.notify = handle_client_destroy;
	wl_client_add_destroy_listener(entry->client, &entry->destroy);
	wl_list_insert(&wlcs->clients, &entry->link);
	call->ok = true;
}

static int wlcs_create_client_socket(WlcsDisplayServer *base) {
	struct fw_wlcs *wlcs = from_base(base);
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) {
		return -1;
	}
	struct adopt_call call = {.server_fd = fds[0], .client_fd = fds[1]};
	fw_wlcs_call(wlcs, adopt_on_server, &call);
	if (!call.ok) {
		close(fds[1]);
		errno = ECONNREFUSED;
		return -1;
	}
	return fds[1];
}

struct position_call {
	int fd;
	uint32_t surface_id;
	int x, y;
};

static struct wl_client *client_by_fd(struct fw_wlcs *wlcs, int fd) {
	struct fw_wlcs_client *entry;
	wl_list_for_each(entry, &wlcs->clients, link) {
		if (entry->fd == fd) {
			return entry->client;
		}
	}
	return NULL;
}

static void position_on_server(struct fw_wlcs *wlcs, void *data) {
	struct position_call *call = data;
	struct wl_client *client = client_by_fd(wlcs, call->fd);
	struct wl_resource *resource = client != NULL
			? wl_client_get_object(client, call->surface_id)
			: NULL;
	if (resource == NULL ||
			strcmp(wl_resource_get_class(resource), "wl_surface") != 0) {
		wlr_log(WLR_ERROR, "wlcs: no wl_surface %u to position",
				call->surface_id);
		return;
	}
	struct wlr_surface *surface = wlr_surface_from_resource(resource);
	struct fw_view *view = fw_view_from_surface(wlcs->server, surface);
	if (view == NULL) {
		wlr_log(WLR_ERROR, "wlcs: surface %u is no mapped window",
				call->surface_id);
		return;
	}
	fw_view_move(view, call->x, call->y);
}

static void wlcs_position_window_absolute(WlcsDisplayServer *base,
		struct wl_display *client, struct wl_surface *surface, int x, int y) {
	struct fw_wlcs *wlcs = from_base(base);
	struct position_call call = {
			.fd = wl_display_get_fd(client),
			.surface_id = wl_proxy_get_id((struct wl_proxy *)surface),
			.x = x,
			.y = y,
	};
	fw_wlcs_call(wlcs, position_on_server, &call);
}

static WlcsPointer *wlcs_create_pointer(WlcsDisplayServer *base) {
	return fw_wlcs_create_pointer(from_base(base));
}

static WlcsTouch *wlcs_create_touch(WlcsDisplayServer *base) {
	return fw_wlcs_create_touch(from_base(base));
}

static const WlcsIntegrationDescriptor *wlcs_get_descriptor(
		const WlcsDisplayServer *base) {
	const struct fw_wlcs *wlcs =
			wl_container_of(base, (struct fw_wlcs *)NULL, base);
	return &wlcs->descriptor;
}

/* The registry listing's turn of the loop, before the thread runs it. */
static void pump_server(void *data) {
	struct fw_wlcs *wlcs = data;
	wl_event_loop_dispatch(wlcs->server->loop, 10);
	wl_display_flush_clients(wlcs->server->display);
}

/*
 * What fairway advertises, as a client sees it. The listing client is
 * libwayland's own, not the gate's: the gate serves its clients from
 * fw_sched_run, which is not running yet.
 */
static bool describe(struct fw_wlcs *wlcs) {
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0) {
		return false;
	}
	struct wl_client *client =
			fw_client_create_real(wlcs->server->display, fds[0]);
	if (client == NULL) {
		close(fds[0]);
		close(fds[1]);
		return false;
	}
	bool ok =
			fw_wlcs_list_globals(&wlcs->extensions, fds[1], pump_server, wlcs);
	wl_client_destroy(client);
	wlcs->descriptor = (WlcsIntegrationDescriptor){
			.version = 1,
			.num_extensions = wlcs->extensions.count,
			.supported_extensions = wlcs->extensions.list,
	};
	return ok;
}

static void wlcs_destroy_server(WlcsDisplayServer *base);

static bool parse_args(struct fw_config *config, int argc, const char **argv) {
	size_t count = 1 + DEFAULT_ARG_COUNT + (argc > 1 ? (size_t)argc - 1 : 0);
	char **args = calloc(count + 1, sizeof(*args));
	if (args == NULL) {
		return false;
	}
	size_t n = 0;
	args[n++] = (char *)"fairway-wlcs";
	for (size_t i = 0; i < DEFAULT_ARG_COUNT; i++) {
		args[n++] = (char *)default_args[i];
	}
	for (int i = 1; i < argc; i++) {
		args[n++] = (char *)argv[i];
	}
	int ret = fw_command_line_parse(config, (int)n, args);
	/* config->command would point into args: wlcs starts no command. */
	bool ok = ret == 0 && config->command == NULL;
	if (ok) {
		config->embedded = true;
	} else if (ret == 0) {
		fprintf(stderr, "fairway-wlcs: no COMMAND under wlcs\n");
	}
	free(args);
	return ok;
}

static WlcsDisplayServer *wlcs_create_server(int argc, const char **argv) {
	static bool log_ready;
	struct fw_config config;
	if (!parse_args(&config, argc, argv)) {
		fprintf(stderr, "fairway-wlcs: bad fairway options\n");
		exit(2);
	}
	if (!log_ready) {
		wlr_log_init(config.log_level, NULL);
		fw_sched_log_to_wlr();
		log_ready = true;
	}
	/* wlroots reads its renderer from the environment only. */
	setenv("WLR_RENDERER", "pixman", false);

	struct fw_wlcs *wlcs = calloc(1, sizeof(*wlcs));
	if (wlcs == NULL) {
		return NULL;
	}
	wlcs->base = (WlcsDisplayServer){
			.version = 3,
			.start = wlcs_start,
			.stop = wlcs_stop,
			.create_client_socket = wlcs_create_client_socket,
			.position_window_absolute = wlcs_position_window_absolute,
			.create_pointer = wlcs_create_pointer,
			.create_touch = wlcs_create_touch,
			.get_descriptor = wlcs_get_descriptor,
	};
	wl_list_init(&wlcs->clients);
	wl_list_init(&wlcs->devices);
	pthread_mutex_init(&wlcs->call_lock, NULL);
	pthread_mutex_init(&wlcs->mutex, NULL);
	pthread_cond_init(&wlcs->cond, NULL);
	wlcs->call_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (wlcs->call_fd < 0) {
		goto error;
	}
	wlcs->server = fw_server_create(&config);
	if (wlcs->server == NULL || !fw_server_start(wlcs->server)) {
		goto error;
	}
	struct gate *gate = fw_sched_get_gate(wlcs->server->sched);
	if (gate != NULL && strcmp(gate_transport_name(gate), "socketpair") != 0) {
		wlr_log(WLR_ERROR, "wlcs: the gate chose the %s transport",
				gate_transport_name(gate));
		goto error;
	}
	wlcs->call_source = wl_event_loop_add_fd(wlcs->server->loop, wlcs->call_fd,
			WL_EVENT_READABLE, handle_call, wlcs);
	if (wlcs->call_source == NULL || !describe(wlcs)) {
		goto error;
	}
	/*
	 * A touchscreen from the start, as on a machine that has one: a test
	 * touches right after making its device, and a client learns of the
	 * seat's touch capability only when it reads the event, too late to
	 * have a wl_touch for that first touch.
	 */
	wlcs->touchscreen = fw_wlcs_create_touch(wlcs);
	if (wlcs->touchscreen == NULL) {
		goto error;
	}
	return &wlcs->base;

error:
	fprintf(stderr, "fairway-wlcs: cannot create the server\n");
	wlcs_destroy_server(&wlcs->base);
	abort();
}

static void wlcs_destroy_server(WlcsDisplayServer *base) {
	struct fw_wlcs *wlcs = from_base(base);
	wlcs_stop(base);
	if (wlcs->server != NULL) {
		/* Created, never started. */
		fw_wlcs_input_finish(wlcs);
		if (wlcs->call_source != NULL) {
			wl_event_source_remove(wlcs->call_source);
		}
		fw_server_destroy(wlcs->server);
	}
	if (wlcs->call_fd >= 0) {
		close(wlcs->call_fd);
	}
	if (wlcs->touchscreen != NULL) {
		wlcs->touchscreen->destroy(wlcs->touchscreen);
	}
	fw_wlcs_input_release(wlcs);
	fw_wlcs_extensions_finish(&wlcs->extensions);
	pthread_cond_destroy(&wlcs->cond);
	pthread_mutex_destroy(&wlcs->mutex);
	pthread_mutex_destroy(&wlcs->call_lock);
	free(wlcs);
}

const WlcsServerIntegration wlcs_server_integration = {
		.version = 1,
		.create_server = wlcs_create_server,
		.destroy_server = wlcs_destroy_server,
};
