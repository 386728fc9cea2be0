/* The test-and-set spinlock of `modelcheck tas N`, for SPIN: N processes, each step one d_step
 * of its process, the same steps as the Rust model (a failed test-and-set is a step).
 * spin -DN=2 -a tas.pml; property ns0: process 0, once spinning, eventually enters. */
#ifndef N
#define N 2
#endif

#define IDLE     0
#define SPINNING 1
#define CRITICAL 2

bool locked;
byte pc[N];

active [N] proctype P() {
  do
  :: d_step { pc[_pid] == IDLE -> pc[_pid] = SPINNING }
  :: d_step { pc[_pid] == SPINNING && locked -> skip }
  :: d_step { pc[_pid] == SPINNING && !locked -> locked = 1; pc[_pid] = CRITICAL }
  :: d_step { pc[_pid] == CRITICAL -> locked = 0; pc[_pid] = IDLE }
  od
}

ltl ns0 { [] ((pc[0] == SPINNING) -> <> (pc[0] == CRITICAL)) }
