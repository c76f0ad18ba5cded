// SPDX-License-Identifier: MIT
/*
 * rcuref-model.c - the model of rcuref-model.h
 *
 * A value of width W falls in one of four zones, by its top bits:
 *   0xx...   valid: (value + 1) references
 *   10x...   saturation zone (fixed point 101000...)
 *   11x...   dead zone from RELEASED (fixed point 111000...), except
 *   11...1   NOREF: the last reference was just put
 * Each operation is decided by the zone its arithmetic lands in.
 */
#include <string.h>

#include "rcuref-model.h"

enum zone { Z_VALID, Z_SATURATED, Z_DEAD, Z_NOREF };

static uint64_t mask(const struct rmodel *m)
{
	return m->bits == 64 ? ~0ULL : (1ULL << m->bits) - 1;
}

/* The top bits, shifted into place. */
static uint64_t top(const struct rmodel *m, uint64_t pattern, int nbits)
{
	return pattern << (m->bits - nbits);
}

uint64_t rmodel_const(const struct rmodel *m, const char *name)
{
	if (!strcmp(name, "MAXREF"))
		return top(m, 1, 1) - 1;
	if (!strcmp(name, "SATURATED"))
		return top(m, 5, 3); /* 101 */
	if (!strcmp(name, "RELEASED"))
		return top(m, 3, 2); /* 11 */
	if (!strcmp(name, "DEAD"))
		return top(m, 7, 3); /* 111 */
	if (!strcmp(name, "NOREF"))
		return mask(m);
	return 0; /* ONEREF */
}

static enum zone zone_of(const struct rmodel *m, uint64_t v)
{
	if (v == mask(m))
		return Z_NOREF;
	switch (v >> (m->bits - 2)) {
	case 0:
	case 1:
		return Z_VALID;
	case 2:
		return Z_SATURATED;
	default:
		return Z_DEAD;
	}
}

static struct rmodel_result res(uint64_t ret, int report)
{
	struct rmodel_result r = { ret, report };

	return r;
}

static struct rmodel_result get(struct rmodel *m)
{
	uint64_t after = (m->v + 1) & mask(m);

	m->v = after;
	if (zone_of(m, after) == Z_VALID) /* NOREF + 1 revives: ONEREF */
		return res(true, RMODEL_NONE);
	if (m->kind == RMODEL_FILE_REF) /* no slow path, no write-back */
		return res(false, RMODEL_NONE);
	if (zone_of(m, after) == Z_SATURATED) {
		m->v = rmodel_const(m, "SATURATED");
		return res(true, RMODEL_ADD_NOT_ZERO_OVF);
	}
	m->v = rmodel_const(m, "DEAD"); /* dead zone or NOREF */
	return res(false, RMODEL_NONE);
}

static struct rmodel_result put(struct rmodel *m)
{
	uint64_t after = (m->v - 1) & mask(m);

	switch (zone_of(m, after)) {
	case Z_VALID:
		m->v = after;
		return res(false, RMODEL_NONE);
	case Z_NOREF: /* the last put; sequentially, it wins the CAS */
		m->v = rmodel_const(m, "DEAD");
		return res(true, RMODEL_NONE);
	case Z_SATURATED: /* silently pinned */
		m->v = rmodel_const(m, "SATURATED");
		return res(false, RMODEL_NONE);
	case Z_DEAD:
	default: /* imbalanced */
		m->v = rmodel_const(m, "DEAD");
		return res(false, RMODEL_SUB_UAF);
	}
}

struct rmodel_result rmodel_step(struct rmodel *m, enum rmodel_op op,
				 uint64_t arg)
{
	uint64_t before = m->v;

	switch (op) {
	case RMODEL_GET:
		return get(m);
	case RMODEL_PUT:
		return put(m);
	case RMODEL_PUT_CLOSE:
		if (before == 0) { /* one reference: straight to DEAD */
			m->v = rmodel_const(m, "DEAD");
			return res(true, RMODEL_NONE);
		}
		return put(m);
	case RMODEL_INC: /* reports when there was no reference before */
		m->v = (before + 1) & mask(m);
		return res(0, zone_of(m, before) == Z_VALID ? RMODEL_NONE :
							      RMODEL_ADD_UAF);
	case RMODEL_READ:
		if (zone_of(m, before) == Z_DEAD ||
		    zone_of(m, before) == Z_NOREF)
			return res(0, RMODEL_NONE);
		return res(before + 1, RMODEL_NONE);
	case RMODEL_INIT:
	default:
		m->v = (arg - 1) & mask(m);
		return res(0, RMODEL_NONE);
	}
}
