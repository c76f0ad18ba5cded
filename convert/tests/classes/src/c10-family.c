/* c10-family.c - two object types counted by the PRJ_REFCNT_* family */
#include <assert.h>
#include <stdlib.h>

#include "c10-refcnt.h"
#include "c10.h"
#include "track.h"

struct mixer {
	PRJ_REFCNT_DECLARE;
	int channels;
};

struct sink {
	int volume;
	PRJ_REFCNT_DECLARE;
	struct mixer *mixer;
};

static void mixer_free(struct mixer *m)
{
	track_gone(m);
	free(m);
}

struct mixer *mixer_new(void)
{
	struct mixer *m = malloc(sizeof(*m));

	if (!m)
		return NULL;
	PRJ_REFCNT_INIT(m);
	m->channels = 2;
	track_born(m);
	return m;
}

struct mixer *mixer_ref(struct mixer *m)
{
	assert(PRJ_REFCNT_VALUE(m) >= 1);
	PRJ_REFCNT_INC(m);
	return m;
}

void mixer_unref(struct mixer *m)
{
	if (PRJ_REFCNT_DEC(m) > 0)
		return;
	mixer_free(m);
}

static void sink_free(struct sink *s)
{
	mixer_unref(s->mixer);
	track_gone(s);
	free(s);
}

struct sink *sink_new(void)
{
	struct sink *s = malloc(sizeof(*s));

	if (!s)
		return NULL;
	PRJ_REFCNT_INIT(s);
	s->volume = 100;
	s->mixer = mixer_new();
	track_born(s);
	return s;
}

struct sink *sink_ref(struct sink *s)
{
	PRJ_REFCNT_INC(s);
	return s;
}

void sink_unref(struct sink *s)
{
	if (PRJ_REFCNT_DEC(s) <= 0)
		sink_free(s);
}
