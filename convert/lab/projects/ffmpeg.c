/*
 * ffmpeg's AVBuffer through libavutil's public API, for check-convert:
 * `misuse` puts a pool buffer's count once too often through a forged
 * second reference (a copy of the AVBufferRef, not av_buffer_ref()); the
 * pool keeps the buffer's memory, so the count itself tells before from
 * after; `cost N` times N create/get/put/free.  Built against the
 * original and the converted libavutil.
 */
#include <libavutil/buffer.h>
#include <libavutil/mem.h>
#include <string.h>

#include "cost.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		AVBufferPool *pool = av_buffer_pool_init(64, NULL);
		AVBufferRef *a = av_buffer_pool_get(pool);
		AVBufferRef *forged = av_memdup(a, sizeof(*a));
		AVBufferRef *peek = av_memdup(a, sizeof(*a));

		av_buffer_unref(&a);      /* the last real reference: back to the pool */
		av_buffer_unref(&forged); /* once too often */
		printf("count %d after the extra put\n", av_buffer_get_ref_count(peek));
		return 0;
	}
	COST_LOOP(argc > 2 ? atol(argv[2]) : 1000000, i, {
		AVBufferRef *r = av_buffer_alloc(64);
		AVBufferRef *s = av_buffer_ref(r);
		av_buffer_unref(&s);
		av_buffer_unref(&r);
	});
	return 0;
}
