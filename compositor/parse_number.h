#ifndef FAIRWAY_COMPOSITOR_PARSE_NUMBER_H
#define FAIRWAY_COMPOSITOR_PARSE_NUMBER_H

#include <stdbool.h>

/*
 * Numbers as the command line and the configuration file take them: the
 * whole text, in decimal, within [min, max]. False, *out untouched,
 * otherwise.
 */
bool fw_parse_int(const char *text, long min, long max, int *out);
/* Finite numbers only. */
bool fw_parse_double(const char *text, double min, double max, double *out);

#endif
