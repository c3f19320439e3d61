#include "clients/common/path.h"

void fw_path_point(struct fw_size size, int32_t margin, int32_t step,
		uint64_t k, int32_t *x, int32_t *y) {
	int32_t w = size.width - 2 * margin;
	int32_t h = size.height - 2 * margin;
	if (w < 2 || h < 2) {
		w = size.width > 2 ? size.width - 2 : 1;
		h = size.height > 2 ? size.height - 2 : 1;
	}
	int32_t lap = 2 * (w + h);
	int32_t d = (int32_t)((k * (uint64_t)step) % (uint64_t)lap);
	int32_t left = (size.width - w) / 2, top = (size.height - h) / 2;
	if (d < w) {
		*x = left + d;
		*y = top;
	} else if (d < w + h) {
		*x = left + w;
		*y = top + (d - w);
	} else if (d < 2 * w + h) {
		*x = left + w - (d - w - h);
		*y = top + h;
	} else {
		*x = left;
		*y = top + h - (d - 2 * w - h);
	}
}
