/* The ordered dining philosophers of `modelcheck ordered-philosophers N`, for SPIN: as
 * philosophers.pml, but the last philosopher takes its right fork (fork 0) first, so no cycle of
 * waiting forks forms and nobody deadlocks. Phases as there: 1 means "holds its first fork".
 * Fork f lies between philosophers f-1 (its right fork) and f (its left fork).
 * spin -DN=4 -a ordered_philosophers.pml; property eats0: philosopher 0 eventually eats.
 * It fails under weak fairness through starvation: philosopher 0 is enabled only while its
 * neighbour has just put the shared fork down, and the neighbour may always take it first. */
#ifndef N
#define N 4
#endif

#define THINKING  0
#define HAS_FIRST 1
#define EATING    2

#define RIGHT_FIRST(i) ((i) == N - 1)
#define HOLDS_LEFT(i)  (phase[i] == EATING || (phase[i] == HAS_FIRST && !RIGHT_FIRST(i)))
#define HOLDS_RIGHT(i) (phase[i] == EATING || (phase[i] == HAS_FIRST && RIGHT_FIRST(i)))
#define FREE(f)        (!HOLDS_LEFT(f) && !HOLDS_RIGHT(((f) + N - 1) % N))
#define FIRST(i)       (RIGHT_FIRST(i) -> ((i) + 1) % N : (i))
#define SECOND(i)      (RIGHT_FIRST(i) -> (i) : ((i) + 1) % N)

byte phase[N];

active [N] proctype Philosopher() {
  do
  :: d_step { phase[_pid] == THINKING && FREE(FIRST(_pid)) -> phase[_pid] = HAS_FIRST }
  :: d_step { phase[_pid] == HAS_FIRST && FREE(SECOND(_pid)) -> phase[_pid] = EATING }
  :: d_step { phase[_pid] == EATING -> phase[_pid] = THINKING }
  od
}

ltl eats0 { <> (phase[0] == EATING) }
