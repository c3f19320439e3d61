#ifndef FAIRWAY_TESTS_WLCS_MODULE_H
#define FAIRWAY_TESTS_WLCS_MODULE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-server-core.h>
#include <wlcs/display_server.h>
#include <wlcs/pointer.h>
#include <wlcs/touch.h>

/*
 * fairway under the Wayland conformance suite (wlcs): one real fairway
 * server per test, made through the compositor library on the headless
 * backend, its loop on a thread of its own. wlcs calls in from its test
 * thread; everything that touches the server runs on the server's thread
 * (fw_wlcs_call), never on wlcs's.
 */

struct fw_server;

struct fw_wlcs_extensions {
	WlcsExtensionDescriptor *list;
	size_t count;
};

struct fw_wlcs {
	WlcsDisplayServer base;
	WlcsIntegrationDescriptor descriptor;
	struct fw_wlcs_extensions extensions;

	struct fw_server *server;
	pthread_t thread;
	bool thread_started;

	/* One call at a time crosses to the server's thread (fw_wlcs_call). */
	pthread_mutex_t call_lock;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	void (*call_func)(struct fw_wlcs *wlcs, void *data);
	void *call_data;
	bool call_pending;
	bool running; /* the server's thread serves calls */
	int call_fd; /* eventfd: a call is pending */
	struct wl_event_source *call_source;

	struct wl_list clients; /* fw_wlcs_client.link, newest first */
	struct wl_list devices; /* fw_wlcs_device.link (wlcs_input.c) */
	uint32_t next_touch_id;
	WlcsTouch *touchscreen; /* the seat's own, from the start */
};

/*
 * Runs func on the server's thread and waits for it; on the calling thread
 * itself while the server's thread is not running.
 */
void fw_wlcs_call(struct fw_wlcs *wlcs,
		void (*func)(struct fw_wlcs *wlcs, void *data), void *data);

/* wlcs_input.c: pointer and touch devices on fairway's input path. */
WlcsPointer *fw_wlcs_create_pointer(struct fw_wlcs *wlcs);
WlcsTouch *fw_wlcs_create_touch(struct fw_wlcs *wlcs);
/* On the server's thread, before it goes: devices wlcs still holds lose
 * their wlroots side. */
void fw_wlcs_input_finish(struct fw_wlcs *wlcs);
/* As the module's server goes: devices wlcs still holds only free
 * themselves. */
void fw_wlcs_input_release(struct fw_wlcs *wlcs);

/*
 * wlcs_registry.c: the globals a client of the server sees, as wlcs's
 * extension list. Called while the calling thread is the only one running
 * the server: pump(data) lets it run once. fd is a client socket, closed.
 */
bool fw_wlcs_list_globals(struct fw_wlcs_extensions *extensions, int fd,
		void (*pump)(void *data), void *data);
void fw_wlcs_extensions_finish(struct fw_wlcs_extensions *extensions);

#endif
