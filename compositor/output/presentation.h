#ifndef FAIRWAY_COMPOSITOR_OUTPUT_PRESENTATION_H
#define FAIRWAY_COMPOSITOR_OUTPUT_PRESENTATION_H

#include <stdint.h>

struct fw_output;

void fw_presentation_init(struct fw_output *output);
void fw_presentation_finish(struct fw_output *output);
/* Takes the feedback of the surfaces about to be shown by the next commit. */
void fw_presentation_sample(struct fw_output *output);
/* The frame that commit_seq would have been was dropped unseen: its
 * feedback is discarded. */
void fw_presentation_discard(struct fw_output *output, uint32_t commit_seq);

#endif
