#ifndef FAIRWAY_TOP_OUTPUT_H
#define FAIRWAY_TOP_OUTPUT_H

#include "clients/tools/fairway-top/model.h"
#include <stdio.h>

/* --batch: one refresh as a table, or as one JSON array on one line. */
void top_print_table(
		FILE *out, struct top_client **rows, size_t count, unsigned refresh);
void top_print_json(FILE *out, struct top_client **rows, size_t count);

/* What a row shows in a column, shared by the table and the screen. */
void top_format_row(char *buf, size_t size, const struct top_client *client);
/* The header that goes with it. */
const char *top_header(void);

#endif
