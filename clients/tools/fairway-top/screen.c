#include "clients/tools/fairway-top/screen.h"
#include "clients/tools/fairway-top/output.h"
#include "fairway-scheduler-unstable-v1-client-protocol.h"
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#define STAT(name) FAIRWAY_SCHEDULER_CLIENT_V1_STAT_##name

bool top_screen_init(struct top_screen *screen) {
	*screen = (struct top_screen){.sort = TOP_SORT_DISPATCH};
	if (initscr() == NULL) {
		return false;
	}
	cbreak();
	noecho();
	nodelay(stdscr, TRUE);
	keypad(stdscr, TRUE);
	curs_set(0);
	return true;
}

void top_screen_finish(struct top_screen *screen) {
	endwin();
	free(screen->lines);
	free(screen->ids);
}

static void take_rows(struct top_screen *screen, struct top_model *model) {
	size_t count;
	struct top_client **rows = top_model_sorted(model, screen->sort, &count);
	if (rows == NULL) {
		return;
	}
	if (count > screen->alloc) {
		char(*lines)[256] = realloc(screen->lines, count * sizeof(*lines));
		uint32_t *ids = lines != NULL
				? realloc(screen->ids, count * sizeof(*ids))
				: NULL;
		if (lines != NULL) {
			screen->lines = lines;
		}
		if (ids == NULL) {
			free(rows);
			return;
		}
		screen->ids = ids;
		screen->alloc = count;
	}
	for (size_t i = 0; i < count; i++) {
		top_format_row(screen->lines[i], sizeof(screen->lines[i]), rows[i]);
		screen->ids[i] = rows[i]->id;
	}
	screen->count = count;
	screen->clients = (unsigned)wl_list_length(&model->clients);
	screen->rounds = model->rounds;
	free(rows);
}

static size_t selected_row(const struct top_screen *screen) {
	for (size_t i = 0; i < screen->count; i++) {
		if (screen->ids[i] == screen->selected) {
			return i;
		}
	}
	return 0;
}

static void draw(struct top_screen *screen, struct top_model *model) {
	erase();
	mvprintw(0, 0, "fairway-top - %u clients, every %u ms, sorted by %s%s",
			screen->clients, model->period_ms, top_sort_name(screen->sort),
			screen->frozen ? " - FROZEN" : "");
	mvprintw(1, 0,
			"keys: +/- priority  1-5 or s: sort (dispatch rate queue class "
			"priority)  f: freeze  q: quit");
	mvprintw(2, 0, "%s", screen->message);
	attron(A_REVERSE);
	mvprintw(3, 0, "%-*s", COLS, top_header());
	attroff(A_REVERSE);
	size_t selected = selected_row(screen);
	for (size_t i = 0; i < screen->count && (int)i + 4 < LINES; i++) {
		if (i == selected) {
			attron(A_BOLD | A_UNDERLINE);
		}
		mvprintw((int)i + 4, 0, "%.*s", COLS, screen->lines[i]);
		if (i == selected) {
			attroff(A_BOLD | A_UNDERLINE);
		}
	}
	refresh();
}

void top_screen_update(struct top_screen *screen, struct top_model *model) {
	if (!screen->frozen) {
		take_rows(screen, model);
	}
	draw(screen, model);
}

static struct top_client *find_client(struct top_model *model, uint32_t id) {
	struct top_client *client;
	wl_list_for_each(client, &model->clients, link) {
		if (client->id == id) {
			return client;
		}
	}
	return NULL;
}

static void change_priority(
		struct top_screen *screen, struct top_model *model, int delta) {
	if (screen->count == 0) {
		return;
	}
	uint32_t id = screen->ids[selected_row(screen)];
	struct top_client *client = find_client(model, id);
	if (client == NULL) {
		snprintf(screen->message, sizeof(screen->message), "client %u is gone",
				id);
		return;
	}
	int value = (int)client->cur[STAT(BASE_PRIORITY)] + delta;
	top_client_set_priority(client, value);
	snprintf(screen->message, sizeof(screen->message),
			"client %u (pid %d, %s): base priority %d", id, (int)client->pid,
			client->comm, (int)client->cur[STAT(BASE_PRIORITY)]);
	if (!screen->frozen) {
		take_rows(screen, model);
	}
}

static void move_selection(struct top_screen *screen, int delta) {
	if (screen->count == 0) {
		return;
	}
	long row = (long)selected_row(screen) + delta;
	if (row < 0) {
		row = 0;
	} else if ((size_t)row >= screen->count) {
		row = (long)screen->count - 1;
	}
	screen->selected = screen->ids[row];
}

bool top_screen_keys(struct top_screen *screen, struct top_model *model) {
	int key;
	bool redraw = false;
	while ((key = getch()) != ERR) {
		redraw = true;
		switch (key) {
		case 'q':
		case 'Q':
			return false;
		case '+':
		case '=':
			change_priority(screen, model, +1);
			break;
		case '-':
		case '_':
			change_priority(screen, model, -1);
			break;
		case 'f':
		case 'F':
		case ' ':
			screen->frozen = !screen->frozen;
			break;
		case 's':
			screen->sort = (screen->sort + 1) % TOP_SORT_COUNT;
			break;
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
			screen->sort = (enum top_sort)(key - '1');
			break;
		case KEY_UP:
		case 'k':
			move_selection(screen, -1);
			break;
		case KEY_DOWN:
		case 'j':
			move_selection(screen, +1);
			break;
		default:
			break;
		}
		if (!screen->frozen && (key == 's' || (key >= '1' && key <= '5'))) {
			take_rows(screen, model);
		}
	}
	if (redraw) {
		draw(screen, model);
	}
	return true;
}
