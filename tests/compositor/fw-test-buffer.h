#ifndef FW_TEST_BUFFER_H
#define FW_TEST_BUFFER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

struct test_buffer {
	struct wl_list link; // a list of the owner's, see test_buffer_create
	struct wl_buffer *wl_buffer;
	void *data;
	size_t size;
	int fd; // kept for --truncate-after-map
	int width, height;
	bool busy;
	// Replaced while the compositor still read it: free on release.
	bool obsolete;
};

// A width x height buffer of one colour, linked into buffers. alpha below
// 255 makes it translucent ARGB, premultiplied as wl_shm's formats are.
struct test_buffer *test_buffer_create(struct wl_shm *shm,
		struct wl_list *buffers, int width, int height, uint32_t color,
		uint32_t alpha);
void test_buffer_free(struct test_buffer *buffer);
// Drops the buffer now if the compositor is done with it, else on release.
void test_buffer_retire(struct test_buffer *buffer);
// Attaches and damages the slot's buffer, replacing it first by a new one
// in buffers if it is missing or of another size.
bool test_buffer_show(struct wl_shm *shm, struct wl_list *buffers,
		struct wl_surface *surface, struct test_buffer **slot, int width,
		int height, uint32_t color, uint32_t alpha);

#endif
