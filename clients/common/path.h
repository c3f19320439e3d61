#ifndef FAIRWAY_CLIENTS_COMMON_PATH_H
#define FAIRWAY_CLIENTS_COMMON_PATH_H

#include <stdint.h>

#include "clients/common/options.h"

/*
 * The path a driven pointer follows: laps around a rectangle inset `margin`
 * pixels into a window of `size`, `step` pixels a motion. Neighbouring
 * points always differ, and a point repeats only after a whole lap, so a
 * delivered position names the motion that produced it.
 */
void fw_path_point(struct fw_size size, int32_t margin, int32_t step,
		uint64_t k, int32_t *x, int32_t *y);

#endif
