/*
 * tests/spin/percpu.pml - percpu_ref's kill and switch protocol on the rseq
 * path (src/percpu_ref.c, include/refcount/arch/x86-percpu.h), for spin
 *
 * Two users, each holding a base reference, take and drop ROUNDS more and
 * then drop their base; one killer switches the ref to atomic mode, back to
 * per-CPU mode, then kills it.  Every get and put is a restartable sequence:
 * it stores its descriptor (in_cs), reads the CPU (either: threads migrate),
 * reads the mode, and either leaves for the atomic count or commits with one
 * add to its CPU's slot.  membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED_RSEQ)
 * aborts every sequence between its start and its commit; an aborted one
 * starts again.  The commit and the abort check are one step: the add is a
 * single instruction, and the IPI lands before it or after it.
 *
 * Checked, for every interleaving:
 *   - release() runs only when no user holds a reference, and once;
 *   - the count never goes negative, and the sum at a switch leaves it > 0;
 *   - at the end release() ran and the count is 0.
 * spin -DMUTANT builds the killer without the membarrier: a sequence that
 * read the old mode then commits into a slot already summed, and some
 * assertion must fail.
 */
#define ROUNDS 1
#define BIAS 20
#define ATOMIC 1
#define DEAD 2

byte mode = 0;
int slot[2];
int count = BIAS + 1; /* the initial reference, biased: per-CPU mode */
bool in_cs[2];
bool aborted[2];
byte held[2];
bool killer_holds = 1;
byte released = 0;

inline membarrier()
{
#ifndef MUTANT
	atomic { aborted[0] = in_cs[0]; aborted[1] = in_cs[1] }
#else
	skip
#endif
}

/* A put on the atomic count: release() at 0. */
inline put_atomic()
{
	atomic {
		count = count - 1;
		assert(count >= 0);
		if
		:: count == 0 ->
			assert(held[0] + held[1] == 0 && !killer_holds);
			released++;
			assert(released == 1)
		:: else -> skip
		fi
	}
}

/* One get (d = 1) or put (d = -1) by user @me, as the fast path does it. */
inline op(me, d)
{
	if
	:: d < 0 -> held[me]--
	:: else -> skip
	fi;
	do
	:: atomic { in_cs[me] = 1; aborted[me] = 0 };
		if
		:: cpu = 0
		:: cpu = 1
		fi;
		m = mode;
		if
		:: (m & ATOMIC) ->
			in_cs[me] = 0;
			if
			:: d > 0 -> atomic { count = count + 1; held[me]++ }
			:: else -> put_atomic()
			fi;
			break
		:: else ->
			atomic {
				if
				:: aborted[me] -> in_cs[me] = 0 /* restart */
				:: else ->
					slot[cpu] = slot[cpu] + d;
					in_cs[me] = 0;
					if
					:: d > 0 -> held[me]++
					:: else -> skip
					fi;
					break
				fi
			}
		fi
	od
}

proctype user(byte me)
{
	byte n = 0;
	byte cpu;
	byte m;

	do
	:: n < ROUNDS -> op(me, 1); op(me, -1); n++
	:: else -> break
	od;
	op(me, -1)
}

/* To atomic: mode bit, membarrier, sum the slots, take the bias out. */
inline to_atomic(bits)
{
	mode = mode | bits;
	membarrier();
	sum = slot[0];
	sum = sum + slot[1];
	atomic { count = count + sum - BIAS; assert(count > 0) }
}

proctype killer()
{
	int sum;

	to_atomic(ATOMIC);
	/* back to per-CPU: the bias, the slots zeroed, then the mode */
	count = count + BIAS;
	slot[0] = 0;
	slot[1] = 0;
	mode = 0;
	/* the kill */
	to_atomic(ATOMIC | DEAD);
	killer_holds = 0;
	put_atomic()
}

init
{
	held[0] = 1;
	held[1] = 1;
	count = count + 2; /* the users' base references, in the count */
	atomic {
		run user(0);
		run user(1);
		run killer()
	}
	(_nr_pr == 1);
	assert(released == 1 && count == 0)
}
