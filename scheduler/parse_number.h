#ifndef FAIRWAY_SCHEDULER_PARSE_NUMBER_H
#define FAIRWAY_SCHEDULER_PARSE_NUMBER_H

#include <stdbool.h>

/*
 * Numbers as the command line, the configuration file and the hint map
 * take them: the whole text, in decimal, within [min, max]. False, *out
 * untouched, otherwise.
 */
bool sched_parse_long(const char *text, long min, long max, long *out);
/* The same, for a range that fits an int. */
bool sched_parse_int(const char *text, long min, long max, int *out);
/* Finite numbers only. */
bool sched_parse_double(const char *text, double min, double max, double *out);

#endif
