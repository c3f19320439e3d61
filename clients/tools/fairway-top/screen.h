#ifndef FAIRWAY_TOP_SCREEN_H
#define FAIRWAY_TOP_SCREEN_H

#include "clients/tools/fairway-top/model.h"
#include <stdbool.h>

/* The live view: curses on the terminal, one row per client. */
struct top_screen {
	enum top_sort sort;
	bool frozen; /* the rows shown stay as they were */
	uint32_t selected; /* the selected client's id; 0: the first row */
	char message[128]; /* the status line's last word */
	/* What is shown: the rows as formatted at the last unfrozen round. */
	char (*lines)[256];
	uint32_t *ids;
	size_t count, alloc;
	unsigned clients, rounds;
};

bool top_screen_init(struct top_screen *screen);
void top_screen_finish(struct top_screen *screen);
/* Takes the latest round's rows, unless frozen, and draws. */
void top_screen_update(struct top_screen *screen, struct top_model *model);
/* Handles the keys typed; false once the user quits. */
bool top_screen_keys(struct top_screen *screen, struct top_model *model);

#endif
