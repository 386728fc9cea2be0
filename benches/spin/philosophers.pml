/* The dining philosophers of `modelcheck philosophers N`, for SPIN: N processes in a ring, each
 * step one d_step of its process, the same steps as the Rust model: take the left fork (fork i,
 * free unless the left neighbour eats), take the right fork and eat (fork i+1, free only while
 * the right neighbour thinks), put both down. Fairness classes: one process per philosopher.
 * spin -DN=5 -a philosophers.pml; property eats0: philosopher 0 eventually eats (Eats(p0)).
 * It fails through the deadlock (everyone holds the left fork): SPIN extends that finite run by
 * stuttering in its last state, an accepting cycle, fair too as no process is enabled in it. */
#ifndef N
#define N 5
#endif

#define THINKING 0
#define HAS_LEFT 1
#define EATING   2

byte phase[N];

active [N] proctype Philosopher() {
  do
  :: d_step { phase[_pid] == THINKING && phase[(_pid + N - 1) % N] != EATING -> phase[_pid] = HAS_LEFT }
  :: d_step { phase[_pid] == HAS_LEFT && phase[(_pid + 1) % N] == THINKING -> phase[_pid] = EATING }
  :: d_step { phase[_pid] == EATING -> phase[_pid] = THINKING }
  od
}

ltl eats0 { <> (phase[0] == EATING) }
