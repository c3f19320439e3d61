/*
 * Answers questions about a binary PPM (P6, as `grim -t ppm` writes it) so
 * shell tests can find where a window landed on screen by its colour.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct image {
	int width, height;
	uint8_t *rgb;
};

static bool read_header_number(FILE *f, int *out) {
	int c = fgetc(f);
	while (c != EOF && (isspace(c) || c == '#')) {
		if (c == '#') {
			while (c != EOF && c != '\n') {
				c = fgetc(f);
			}
		}
		c = fgetc(f);
	}
	if (c == EOF || !isdigit(c)) {
		return false;
	}
	long value = 0;
	while (c != EOF && isdigit(c)) {
		value = value * 10 + (c - '0');
		if (value > 1 << 20) {
			return false;
		}
		c = fgetc(f);
	}
	// The single whitespace after the last number ends the header.
	if (c == EOF || !isspace(c)) {
		return false;
	}
	*out = value;
	return true;
}

static bool image_load(struct image *image, const char *path) {
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "ppm-probe: cannot open %s\n", path);
		return false;
	}
	char magic[2];
	int maxval;
	if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' || magic[1] != '6' ||
			!read_header_number(f, &image->width) ||
			!read_header_number(f, &image->height) ||
			!read_header_number(f, &maxval) || maxval != 255 ||
			image->width <= 0 || image->height <= 0) {
		fprintf(stderr, "ppm-probe: %s is not an 8-bit P6 PPM\n", path);
		fclose(f);
		return false;
	}
	size_t size = (size_t)image->width * image->height * 3;
	image->rgb = malloc(size);
	if (image->rgb == NULL || fread(image->rgb, 1, size, f) != size) {
		fprintf(stderr, "ppm-probe: %s is truncated\n", path);
		free(image->rgb);
		fclose(f);
		return false;
	}
	fclose(f);
	return true;
}

static bool parse_color(const char *arg, uint8_t rgb[3]) {
	if (arg[0] == '#') {
		arg++;
	}
	char *end;
	unsigned long value = strtoul(arg, &end, 16);
	if (strlen(arg) != 6 || *end != '\0') {
		return false;
	}
	rgb[0] = value >> 16;
	rgb[1] = value >> 8;
	rgb[2] = value;
	return true;
}

static bool near(const uint8_t *pixel, const uint8_t rgb[3], int tolerance) {
	for (int i = 0; i < 3; i++) {
		if (abs((int)pixel[i] - (int)rgb[i]) > tolerance) {
			return false;
		}
	}
	return true;
}

struct match {
	long count;
	int x1, y1, x2, y2;
};

struct region {
	int x, y, width, height;
};

static struct match find_color(const struct image *image,
		const struct region *region, const uint8_t rgb[3], int tolerance) {
	struct match m = {
			.x1 = image->width, .y1 = image->height, .x2 = -1, .y2 = -1};
	int x0 = region->x < 0 ? 0 : region->x;
	int y0 = region->y < 0 ? 0 : region->y;
	int x_end = region->x + region->width;
	int y_end = region->y + region->height;
	x_end = x_end > image->width ? image->width : x_end;
	y_end = y_end > image->height ? image->height : y_end;
	for (int y = y0; y < y_end; y++) {
		const uint8_t *row = image->rgb + (size_t)y * image->width * 3;
		for (int x = x0; x < x_end; x++) {
			if (!near(row + x * 3, rgb, tolerance)) {
				continue;
			}
			m.count++;
			m.x1 = x < m.x1 ? x : m.x1;
			m.x2 = x > m.x2 ? x : m.x2;
			m.y1 = y < m.y1 ? y : m.y1;
			m.y2 = y > m.y2 ? y : m.y2;
		}
	}
	return m;
}

/*
 * Whether every pixel of the region is pure black or pure white, unlike its
 * right and lower neighbours: a checkerboard of period 2, unblurred. Prints
 * "ok" or the first pixel that is not.
 */
static bool is_checker(const struct image *image, const struct region *region) {
	static const uint8_t black[3] = {0, 0, 0}, white[3] = {255, 255, 255};
	if (region->x < 0 || region->y < 0 || region->width < 2 ||
			region->height < 2 || region->x + region->width > image->width ||
			region->y + region->height > image->height) {
		printf("region %d,%d %dx%d is not inside %dx%d\n", region->x, region->y,
				region->width, region->height, image->width, image->height);
		return false;
	}
	for (int y = region->y; y < region->y + region->height; y++) {
		for (int x = region->x; x < region->x + region->width; x++) {
			const uint8_t *p = image->rgb + ((size_t)y * image->width + x) * 3;
			const char *why = NULL;
			if (!near(p, black, 0) && !near(p, white, 0)) {
				why = "neither black nor white";
			} else if (x + 1 < region->x + region->width && p[0] == p[3]) {
				why = "the same as its right neighbour";
			} else if (y + 1 < region->y + region->height &&
					p[0] == p[(size_t)image->width * 3]) {
				why = "the same as its lower neighbour";
			}
			if (why != NULL) {
				printf("%d %d %02x%02x%02x %s\n", x, y, p[0], p[1], p[2], why);
				return false;
			}
		}
	}
	printf("ok\n");
	return true;
}

static const char usage[] =
		"usage: ppm-probe FILE size\n"
		"       ppm-probe FILE pixel X Y              prints RRGGBB\n"
		"       ppm-probe FILE bbox RRGGBB [TOL]      prints X Y W H COUNT\n"
		"       ppm-probe FILE count RRGGBB [TOL]     prints COUNT\n"
		"       ppm-probe FILE bbox-in X Y W H RRGGBB [TOL]\n"
		"       ppm-probe FILE count-in X Y W H RRGGBB [TOL]\n"
		"                                   the same, inside a rectangle\n"
		"       ppm-probe FILE expect X Y RRGGBB [TOL]\n"
		"       ppm-probe FILE checker X Y W H   a black and white\n"
		"                                   checkerboard of period 2\n"
		"bbox fails (exit 1, prints 'none') when no pixel has the colour;\n"
		"expect fails when the pixel differs by more than TOL per channel.\n";

int main(int argc, char *argv[]) {
	if (argc < 3) {
		fputs(usage, stderr);
		return 2;
	}
	const char *command = argv[2];
	struct image image = {0};
	int status = 2;
	if (!image_load(&image, argv[1])) {
		return 1;
	}

	if (strcmp(command, "size") == 0 && argc == 3) {
		printf("%d %d\n", image.width, image.height);
		status = 0;
	} else if ((strcmp(command, "pixel") == 0 && argc == 5) ||
			(strcmp(command, "expect") == 0 && (argc == 6 || argc == 7))) {
		int x = atoi(argv[3]), y = atoi(argv[4]);
		if (x < 0 || y < 0 || x >= image.width || y >= image.height) {
			fprintf(stderr, "ppm-probe: %d,%d is outside %dx%d\n", x, y,
					image.width, image.height);
			status = 1;
			goto out;
		}
		const uint8_t *p = image.rgb + ((size_t)y * image.width + x) * 3;
		printf("%02x%02x%02x\n", p[0], p[1], p[2]);
		status = 0;
		if (argc >= 6) {
			uint8_t rgb[3];
			if (!parse_color(argv[5], rgb)) {
				fputs(usage, stderr);
				status = 2;
				goto out;
			}
			int tolerance = argc == 7 ? atoi(argv[6]) : 0;
			status = near(p, rgb, tolerance) ? 0 : 1;
		}
	} else if (((strcmp(command, "bbox") == 0 ||
						strcmp(command, "count") == 0) &&
					   (argc == 4 || argc == 5)) ||
			((strcmp(command, "bbox-in") == 0 ||
					 strcmp(command, "count-in") == 0) &&
					(argc == 8 || argc == 9))) {
		struct region region = {0, 0, image.width, image.height};
		int arg = 3;
		if (strchr(command, '-') != NULL) {
			region = (struct region){
					atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6])};
			arg = 7;
		}
		uint8_t rgb[3];
		if (!parse_color(argv[arg], rgb)) {
			fputs(usage, stderr);
			goto out;
		}
		int tolerance = argc == arg + 2 ? atoi(argv[arg + 1]) : 0;
		struct match m = find_color(&image, &region, rgb, tolerance);
		if (strncmp(command, "count", 5) == 0) {
			printf("%ld\n", m.count);
			status = 0;
		} else if (m.count == 0) {
			printf("none\n");
			status = 1;
		} else {
			printf("%d %d %d %d %ld\n", m.x1, m.y1, m.x2 - m.x1 + 1,
					m.y2 - m.y1 + 1, m.count);
			status = 0;
		}
	} else if (strcmp(command, "checker") == 0 && argc == 7) {
		struct region region = {
				atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6])};
		status = is_checker(&image, &region) ? 0 : 1;
	} else {
		fputs(usage, stderr);
	}

out:
	free(image.rgb);
	return status;
}
