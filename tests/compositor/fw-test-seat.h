#ifndef FAIRWAY_TESTS_COMPOSITOR_FW_TEST_SEAT_H
#define FAIRWAY_TESTS_COMPOSITOR_FW_TEST_SEAT_H

#include <stdint.h>
#include <wayland-client.h>

/*
 * The seat of a test client that reports what input it gets, one line on
 * stdout an event, as the tests read it: keymap FORMAT, keyboard-enter,
 * keyboard-leave, key CODE pressed|released, pointer-enter X Y,
 * pointer-leave, button CODE pressed|released. fw-test-client has a
 * richer one of its own (fw-test-client-input.c), that names surfaces.
 */
struct fw_test_seat {
	struct wl_seat *seat;
	struct wl_pointer *pointer;
	struct wl_keyboard *keyboard;
};

/* Binds the global name as the seat, unless one is bound already: the
 * tests use whatever single seat there is. */
void fw_test_seat_bind(struct fw_test_seat *seat, struct wl_registry *registry,
		uint32_t name, uint32_t version);
void fw_test_seat_finish(struct fw_test_seat *seat);

#endif
