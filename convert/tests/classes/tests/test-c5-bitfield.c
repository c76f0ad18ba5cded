/* test-c5-bitfield.c - the whole life of each object of src/c5-bitfield.c */
#include "c5.h"
#include "check.h"

static void get_tag(void *o)
{
	tag_ref(o);
}

static void put_tag(void *o)
{
	tag_unref(o);
}

static void get_label(void *o)
{
	label_ref(o);
}

static void put_label(void *o)
{
	label_unref(o);
}

int main(void)
{
	return lifecycle("c5-bitfield tag", tag_new(), get_tag, put_tag) ||
	       lifecycle("c5-bitfield label", label_new(), get_label,
			 put_label);
}
