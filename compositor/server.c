#include "compositor/server.h"
#include "compositor/config/config_apply.h"
#include "compositor/input/cursor.h"
#include "compositor/input/cursor_scene.h"
#include "compositor/input/pointer_constraints.h"
#include "compositor/input/seat.h"
#include "compositor/input/text_input.h"
#include "compositor/listener.h"
#include "compositor/lock/capture.h"
#include "compositor/lock/global_filter.h"
#include "compositor/lock/idle.h"
#include "compositor/lock/lock.h"
#include "compositor/output/commit_timing.h"
#include "compositor/output/dri.h"
#include "compositor/output/fifo.h"
#include "compositor/output/frame_schedule.h"
#include "compositor/output/nested.h"
#include "compositor/output/output.h"
#include "compositor/output/paint_worker.h"
#include "compositor/output/shm.h"
#include "compositor/protocols.h"
#include "compositor/sched/app_rules.h"
#include "compositor/sched/client.h"
#include "compositor/sched/demo.h"
#include "compositor/sched/ratings.h"
#include "compositor/sched/sched.h"
#include "compositor/sched/scheduler_protocol.h"
#include "compositor/shell/activation.h"
#include "compositor/shell/decoration.h"
#include "compositor/shell/layer_shell.h"
#include "compositor/shell/protocol_checks.h"
#include "compositor/shell/titlebar.h"
#include "compositor/shell/view.h"
#include "compositor/shell/xdg_shell.h"
#include "compositor/shell/xwayland.h"
#include "compositor/spawn.h"
#include "scheduler/stats/stats_file.h"
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/backend.h>
#include <wlr/backend/headless.h>
#include <wlr/backend/multi.h>
#include <wlr/backend/wayland.h>
#include <wlr/backend/x11.h>
#include <wlr/render/allocator.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_linux_dmabuf_v1.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_presentation_time.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_server_decoration.h>
#include <wlr/types/wlr_subcompositor.h>
#include <wlr/types/wlr_xdg_decoration_v1.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>
#include <wlr/xwayland.h>

/* wl_compositor 6 is what wlroots 0.18 implements: buffer scale and
 * transform events that toolkits use to pick their scale. */
#define FW_COMPOSITOR_VERSION 6

/* Exit status for a child that wait() reports as ended. */
static int child_exit_status(int wstatus) {
	if (WIFEXITED(wstatus)) {
		return WEXITSTATUS(wstatus);
	}
	if (WIFSIGNALED(wstatus)) {
		return 128 + WTERMSIG(wstatus);
	}
	return 1;
}

static int handle_signal_terminate(int signal, void *data) {
	struct fw_server *server = data;
	wlr_log(WLR_INFO, "Caught signal %d, shutting down", signal);
	fw_server_terminate(server, 0);
	return 0;
}

static int handle_signal_child(int signal, void *data) {
	struct fw_server *server = data;
	/*
	 * Only COMMAND is ours to reap: spawn.c waits for its own forks, and
	 * wlroots waits for the one it makes to start Xwayland, which a
	 * waitpid(-1) here would take from it.
	 */
	int wstatus;
	if (server->child_pid > 0 &&
			waitpid(server->child_pid, &wstatus, WNOHANG) ==
					server->child_pid) {
		server->child_pid = 0;
		int status = child_exit_status(wstatus);
		wlr_log(WLR_INFO, "Command exited with status %d", status);
		fw_server_terminate(server, status);
	}
	return 0;
}

static const char *backend_env(enum fw_backend_kind kind) {
	switch (kind) {
	case FW_BACKEND_DRM:
		return "drm,libinput";
	case FW_BACKEND_WAYLAND:
		return "wayland";
	case FW_BACKEND_X11:
		return "x11";
	case FW_BACKEND_HEADLESS:
		return "headless";
	case FW_BACKEND_AUTO:
		break;
	}
	return NULL;
}

/*
 * A Linux virtual terminal (/dev/ttyN), not any terminal: a terminal
 * emulator or an ssh session has a pseudo-terminal and no display to take.
 */
static bool on_virtual_terminal(void) {
	const char *name = ttyname(STDIN_FILENO);
	return name != NULL && strncmp(name, "/dev/tty", 8) == 0 &&
			isdigit((unsigned char)name[8]);
}

static enum fw_backend_kind resolve_auto_backend(void) {
	/* An explicit WLR_BACKENDS=headless (as CI sets) is honoured. */
	const char *env = getenv("WLR_BACKENDS");
	if (env != NULL && strcmp(env, "headless") == 0) {
		return FW_BACKEND_HEADLESS;
	}
	if (env != NULL && env[0] != '\0') {
		return FW_BACKEND_AUTO;
	}
	if (getenv("WAYLAND_DISPLAY") != NULL || getenv("WAYLAND_SOCKET") != NULL) {
		return FW_BACKEND_WAYLAND;
	}
	if (getenv("DISPLAY") != NULL) {
		return FW_BACKEND_X11;
	}
	const char *session = getenv("XDG_SESSION_TYPE");
	if (on_virtual_terminal() ||
			(session != NULL && strcmp(session, "tty") == 0)) {
		return FW_BACKEND_DRM;
	}
	return FW_BACKEND_HEADLESS;
}

static struct wlr_backend *create_backend(struct fw_server *server) {
	enum fw_backend_kind kind = server->config.backend;
	if (kind == FW_BACKEND_AUTO) {
		kind = resolve_auto_backend();
		/* Not CI's WLR_BACKENDS=headless: there was nothing else. */
		server->no_display =
				kind == FW_BACKEND_HEADLESS && getenv("WLR_BACKENDS") == NULL;
	}
	if (kind == FW_BACKEND_HEADLESS) {
		struct wlr_backend *backend = wlr_headless_backend_create(server->loop);
		if (backend == NULL) {
			return NULL;
		}
		for (int i = 0; i < server->config.outputs; i++) {
			wlr_headless_add_output(backend, server->config.output_width,
					server->config.output_height);
		}
		return backend;
	}
	/*
	 * wlroots' own failure on a machine without a GPU is a page of libseat
	 * and udev lines; this says the one thing that matters first.
	 */
	if (kind == FW_BACKEND_DRM && !fw_dri_has_node("card")) {
		if (server->config.backend == FW_BACKEND_AUTO) {
			wlr_log(WLR_INFO,
					"No GPU (/dev/dri has no card): running headless");
			server->config.backend = FW_BACKEND_HEADLESS;
			server->no_display = true;
			return create_backend(server);
		}
		wlr_log(WLR_ERROR,
				"--backend drm: /dev/dri has no card (no GPU here, or not "
				"bound into this root); run nested or --backend headless");
		return NULL;
	}
	const char *env = backend_env(kind);
	if (env != NULL) {
		setenv("WLR_BACKENDS", env, true);
	}
	xcb_connection_t *atoms =
			kind == FW_BACKEND_X11 ? fw_nested_x11_atoms_create() : NULL;
	struct wlr_backend *backend =
			wlr_backend_autocreate(server->loop, &server->session);
	fw_nested_x11_atoms_destroy(atoms);
	if (backend == NULL && server->config.backend == FW_BACKEND_AUTO &&
			kind == FW_BACKEND_DRM) {
		/* Better a headless demo than nothing on a machine without DRM. */
		wlr_log(WLR_ERROR, "No DRM session here: running headless instead");
		server->config.backend = FW_BACKEND_HEADLESS;
		server->no_display = true;
		return create_backend(server);
	}
	return backend;
}

/*
 * wlroots looks for a GPU with drmGetDevices2 before it falls back to
 * pixman, and logs its absence as an error; without a render node there
 * is nothing to find, so pixman it is, and no error for a normal start.
 */
static struct wlr_renderer *create_renderer(struct wlr_backend *backend) {
	if (getenv("WLR_RENDERER") == NULL &&
			getenv("WLR_RENDER_DRM_DEVICE") == NULL &&
			wlr_backend_get_drm_fd(backend) < 0 &&
			!fw_dri_has_node("renderD")) {
		wlr_log(WLR_INFO,
				"No GPU render node in /dev/dri: rendering with pixman");
		return wlr_pixman_renderer_create();
	}
	return wlr_renderer_autocreate(backend);
}

static bool create_scene(struct fw_server *server) {
	server->scene = wlr_scene_create();
	if (server->scene == NULL) {
		return false;
	}
	for (int i = 0; i < FW_LAYER_COUNT; i++) {
		server->layers[i] = wlr_scene_tree_create(&server->scene->tree);
		if (server->layers[i] == NULL) {
			return false;
		}
	}
	server->output_layout = wlr_output_layout_create(server->display);
	if (server->output_layout == NULL) {
		return false;
	}
	/* Keeps scene outputs at their layout positions as outputs come and go. */
	server->scene_layout = wlr_scene_attach_output_layout(
			server->scene, server->output_layout);
	if (server->scene_layout == NULL) {
		return false;
	}
	server->presentation =
			wlr_presentation_create(server->display, server->backend);
	if (server->presentation == NULL) {
		return false;
	}
	/* Its feedback follows the outputs' present events (presentation.c). */
	return true;
}

struct fw_server *fw_server_create(const struct fw_config *config) {
	if (getenv("XDG_RUNTIME_DIR") == NULL) {
		fprintf(stderr,
				"fairway: XDG_RUNTIME_DIR is not set; it must name "
				"a private directory for the Wayland socket\n");
		return NULL;
	}

	struct fw_server *server = calloc(1, sizeof(*server));
	if (server == NULL) {
		return NULL;
	}
	server->config = *config;
	wl_list_init(&server->outputs);
	wl_list_init(&server->views);
	wl_list_init(&server->keyboards);
	wl_list_init(&server->pointers);
	wl_list_init(&server->virtual_pointers);

	server->display = wl_display_create();
	if (server->display == NULL) {
		goto error;
	}
	server->loop = wl_display_get_event_loop(server->display);
	/* Before the backend: outputs and input devices read it. */
	if (!fw_config_apply_init(server)) {
		goto error;
	}

	server->sigint_source = wl_event_loop_add_signal(
			server->loop, SIGINT, handle_signal_terminate, server);
	server->sigterm_source = wl_event_loop_add_signal(
			server->loop, SIGTERM, handle_signal_terminate, server);
	server->sigchld_source = wl_event_loop_add_signal(
			server->loop, SIGCHLD, handle_signal_child, server);
	if (server->sigint_source == NULL || server->sigterm_source == NULL ||
			server->sigchld_source == NULL) {
		goto error;
	}
	/* A client that hangs up mid-write must not kill us. */
	signal(SIGPIPE, SIG_IGN);

	server->backend = create_backend(server);
	if (server->backend == NULL) {
		wlr_log(WLR_ERROR, "Cannot create a backend");
		goto error;
	}
	server->renderer = create_renderer(server->backend);
	if (server->renderer == NULL) {
		wlr_log(WLR_ERROR, "Cannot create a renderer");
		goto error;
	}
	if (!fw_shm_create(server->display, server->renderer)) {
		goto error;
	}
	/* As wlr_renderer_init_wl_display, which would make wlroots' wl_shm. */
	if (wlr_renderer_get_texture_formats(
				server->renderer, WLR_BUFFER_CAP_DMABUF) != NULL &&
			wlr_renderer_get_drm_fd(server->renderer) >= 0 &&
			wlr_linux_dmabuf_v1_create_with_renderer(
					server->display, 4, server->renderer) == NULL) {
		goto error;
	}
	server->allocator =
			wlr_allocator_autocreate(server->backend, server->renderer);
	if (server->allocator == NULL) {
		wlr_log(WLR_ERROR, "Cannot create an allocator");
		goto error;
	}
	server->compositor = wlr_compositor_create(
			server->display, FW_COMPOSITOR_VERSION, server->renderer);
	if (server->compositor == NULL ||
			wlr_subcompositor_create(server->display) == NULL) {
		goto error;
	}
	if (!create_scene(server)) {
		wlr_log(WLR_ERROR, "Cannot create the scene graph");
		goto error;
	}
	if (config->frame_schedule) {
		server->frame_schedule = fw_frame_schedule_create(server);
		if (server->frame_schedule == NULL) {
			goto error;
		}
	}

	server->commit_timing = fw_commit_timing_create(server);
	server->fifo = fw_fifo_manager_create(server);
	if (server->commit_timing == NULL || server->fifo == NULL) {
		goto error;
	}

	fw_output_init(server);

	if (!fw_seat_init(server) || !fw_cursor_init(server)) {
		goto error;
	}
	fw_cursor_scene_init(server);
	if (!fw_pointer_constraints_init(server) || !fw_text_input_init(server)) {
		goto error;
	}
	if (!fw_protocols_init(server)) {
		goto error;
	}
	fw_global_filter_init(server);
	if (!fw_lock_create(server) || !fw_idle_create(server)) {
		wlr_log(WLR_ERROR, "Cannot create the session lock or idle globals");
		goto error;
	}
	if (!fw_decoration_init(server)) {
		goto error;
	}

	if (!fw_xdg_shell_init(server) || !fw_layer_shell_init(server)) {
		goto error;
	}
	server->protocol_checks = fw_protocol_checks_create(server);
	if (server->protocol_checks == NULL) {
		goto error;
	}

	return server;

error:
	fw_server_destroy(server);
	return NULL;
}

static void print_ready(struct fw_server *server) {
	const char *x_display =
			server->xwayland != NULL ? server->xwayland->display_name : "";
	printf("WAYLAND_DISPLAY=%s\nDISPLAY=%s\n",
			fw_sched_socket_name(server->sched), x_display);
	fflush(stdout);
}

static void add_outputs_to(struct wlr_backend *backend, void *data) {
	struct fw_server *server = data;
	/* A nested backend opens one window itself; --outputs asks for more. */
	for (int i = 1; i < server->config.outputs; i++) {
		if (wlr_backend_is_wl(backend)) {
			wlr_wl_output_create(backend);
		} else if (wlr_backend_is_x11(backend)) {
			wlr_x11_output_create(backend);
		}
	}
}

static void add_nested_outputs(struct fw_server *server) {
	if (wlr_backend_is_multi(server->backend)) {
		wlr_multi_for_each_backend(server->backend, add_outputs_to, server);
	} else {
		add_outputs_to(server->backend, server);
	}
}

/* --stats: each client's frame figures and class, on its line. */
static int stats_client_fields(
		void *data, struct wl_client *client, char *buf, size_t size) {
	struct fw_server *server = data;
	int len = fw_frame_schedule_client_json(
			server->frame_schedule, client, buf, size);
	if (len < 0 || (size_t)len >= size) {
		return len;
	}
	int more = fw_ratings_client_json(
			server, client, buf + len, size - (size_t)len);
	return more < 0 ? more : len + more;
}

/* --stats: the outputs' frame figures and the ratings' lines. */
static void stats_lines(void *data, struct capped_file *out, double t) {
	struct fw_server *server = data;
	fw_frame_schedule_write_outputs(server->frame_schedule, out, t);
	fw_ratings_write_stats(server, out, t);
}

bool fw_server_start(struct fw_server *server) {
	server->sched = fw_sched_create(server, &server->config.sched);
	if (server->sched == NULL) {
		return false;
	}
	fw_client_list_set_security_context(
			fw_sched_get_clients(server->sched), server->security_context);
	fw_sched_set_stats_extra(server->sched,
			&(struct gate_stats_extra){
					.client_fields = stats_client_fields,
					.write_lines = stats_lines,
					.data = server,
			});
	const char *socket_name = fw_sched_socket_name(server->sched);
	if (!server->config.embedded) {
		setenv("WAYLAND_DISPLAY", socket_name, true);
		/* Clients we start must not talk to a parent compositor by fd. */
		unsetenv("WAYLAND_SOCKET");
		fw_spawn_set_render_defaults();
	}

	/* Before the outputs, which paint on it. */
	if (server->config.paint_thread && server->config.render_direct &&
			wlr_renderer_is_pixman(server->renderer)) {
		server->paint_worker = fw_paint_worker_create(server->display);
		wlr_log(server->paint_worker != NULL ? WLR_INFO : WLR_ERROR,
				"Painting outputs on %s",
				server->paint_worker != NULL ? "a thread of their own"
											 : "the main thread");
	}
	if (!wlr_backend_start(server->backend)) {
		wlr_log(WLR_ERROR, "Cannot start the backend");
		return false;
	}
	add_nested_outputs(server);

	if (server->config.xwayland && !fw_xwayland_init(server)) {
		wlr_log(WLR_ERROR, "XWayland is unavailable, going on without it");
	}
	if (!server->config.embedded && server->xwayland != NULL) {
		setenv("DISPLAY", server->xwayland->display_name, true);
	} else if (!server->config.embedded) {
		unsetenv("DISPLAY");
	}
	server->app_rules = fw_app_rules_create(server);
	if (server->app_rules == NULL ||
			!fw_ratings_create(server, &server->config.hints)) {
		return false;
	}
	fw_app_rules_set(
			server->app_rules, server->config.rules, server->config.rule_count);
	/* The ratings follow outputs from now on; these were there before. */
	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		fw_ratings_add_output(server->ratings, output->wlr_output);
	}
	/* Without it fairway runs on; only fairway-top has nothing to show. */
	server->scheduler_protocol = fw_scheduler_protocol_create(
			server, &server->config.sched, fw_view_app_ids);
	wlr_log(WLR_INFO, "Running on WAYLAND_DISPLAY=%s DISPLAY=%s", socket_name,
			server->xwayland != NULL ? server->xwayland->display_name : "");

	if (server->config.embedded) {
		server->started = true;
		return true;
	}
	fw_config_apply_autostart(server);
	if (server->config.command != NULL) {
		server->child_pid = fw_spawn(server->config.command);
		if (server->child_pid < 0) {
			server->child_pid = 0;
			return false;
		}
	} else {
		print_ready(server);
		if (server->config.demo || server->no_display) {
			server->demo = fw_demo_create(server);
		}
	}
	server->started = true;
	return true;
}

int fw_server_run(struct fw_server *server) {
	fw_sched_run(server->sched);
	return server->exit_status;
}

void fw_server_terminate(struct fw_server *server, int status) {
	if (!server->started) {
		return;
	}
	server->exit_status = status;
	fw_sched_stop(server->sched);
}

void fw_server_destroy(struct fw_server *server) {
	if (server == NULL) {
		return;
	}
	/* Hinted threads get their attributes back while their pids are
	 * still theirs to check. */
	fw_ratings_destroy(server);
	/* Before XWayland and the shells it listens to go. */
	fw_app_rules_destroy(server->app_rules);
	server->app_rules = NULL;
	/* Signal first, then hang up on every client, then reap: a client
	 * that waits for its compositor to go away is not waited on forever. */
	if (server->child_pid > 0) {
		kill(-server->child_pid, SIGTERM);
	}
	fw_demo_terminate(server->demo);
	/*
	 * XWayland first: wlroots frees its window manager only when it is
	 * destroyed while its client is still there.
	 */
	fw_xwayland_finish(server);
	if (server->display != NULL) {
		wl_display_destroy_clients(server->display);
		/* What clients' resources left to free later (keyboard.c). */
		wl_event_loop_dispatch_idle(server->loop);
	}
	fw_global_filter_finish(server);
	fw_scheduler_protocol_destroy(server->scheduler_protocol);
	server->scheduler_protocol = NULL;
	fw_spawn_wait_group(server->child_pid);
	server->child_pid = 0;
	fw_demo_destroy(server->demo);
	server->demo = NULL;
	fw_sched_destroy(server->sched);
	server->sched = NULL;
	fw_xdg_shell_finish(server);
	fw_layer_shell_finish(server);
	fw_listener_disconnect(&server->new_xdg_decoration);
	fw_activation_destroy(server->activation);
	server->activation = NULL;
	/* Before the cursor, layout and outputs they listen to. */
	fw_idle_destroy(server);
	fw_lock_destroy(server);
	fw_capture_destroy(server->capture);
	server->capture = NULL;
	fw_output_finish(server);
	fw_decoration_finish(server);
	fw_protocol_checks_destroy(server->protocol_checks);
	server->protocol_checks = NULL;
	fw_text_input_finish(server);
	fw_pointer_constraints_finish(server);
	fw_cursor_scene_finish(server);
	fw_cursor_finish(server);
	fw_seat_finish(server);
	if (server->backend != NULL) {
		/* Destroys outputs and input devices, which unhook themselves. */
		wlr_backend_destroy(server->backend);
	}
	/* Every client and output is gone; the compositor is not yet. */
	fw_frame_schedule_destroy(server->frame_schedule);
	fw_commit_timing_destroy(server->commit_timing);
	fw_fifo_manager_destroy(server->fifo);
	fw_paint_worker_destroy(server->paint_worker);
	if (server->sigint_source != NULL) {
		wl_event_source_remove(server->sigint_source);
	}
	if (server->sigterm_source != NULL) {
		wl_event_source_remove(server->sigterm_source);
	}
	if (server->sigchld_source != NULL) {
		wl_event_source_remove(server->sigchld_source);
	}
	fw_config_apply_finish(server);
	/*
	 * Before the display: its globals (xdg-output's manager) unhook from
	 * the layout's destroy signal only when they see the layout go.
	 */
	wlr_output_layout_destroy(server->output_layout);
	if (server->display != NULL) {
		/* Destroys every global and removes the socket and its lock. */
		wl_display_destroy(server->display);
	}
	if (server->scene != NULL) {
		wlr_scene_node_destroy(&server->scene->tree.node);
	}
	fw_titlebar_finish_fonts();
	wlr_allocator_destroy(server->allocator);
	wlr_renderer_destroy(server->renderer);
	free(server);
}
