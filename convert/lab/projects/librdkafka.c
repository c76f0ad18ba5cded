/*
 * librdkafka's light-weight topic handle (rd_kafka_lwtopic_t, what its
 * message and error paths use where no full topic object exists), for
 * check-convert, through the library's internal API (the handle is not in
 * rdkafka.h; the static library exports rd_kafka_lwtopic_new() and
 * rd_kafka_lwtopic_destroy(), rdkafka_topic.h has the inline keep):
 * `misuse` takes 2^32 references on one handle (the count wraps back to 1,
 * or saturates), then puts one; `cost N` times N create/get/put/put.
 * Built against the original and the converted library.
 */
#include "rdkafka_int.h"
#include "rdkafka_topic.h"

#include "cost.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "misuse")) {
		rd_kafka_lwtopic_t *t = rd_kafka_lwtopic_new(NULL, "check-convert");

		MISUSE_GETS_2_32(rd_kafka_lwtopic_keep(t));
		rd_kafka_lwtopic_destroy(t); /* the original frees it here */
		printf("one put after 2^32 gets\n");
		return 0;
	}
	COST_LOOP(argc > 2 ? atol(argv[2]) : 1000000, i, {
		rd_kafka_lwtopic_t *t = rd_kafka_lwtopic_new(NULL, "check-convert");

		rd_kafka_lwtopic_keep(t);
		rd_kafka_lwtopic_destroy(t);
		rd_kafka_lwtopic_destroy(t);
	});
	return 0;
}
