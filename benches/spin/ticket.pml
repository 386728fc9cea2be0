/* The ticket lock of `modelcheck ticket N`, for SPIN: counters modulo N + 1, each step one
 * d_step of its process, as the Rust model. spin -DN=3 -a ticket.pml; property ns0: process 0,
 * once waiting, eventually enters. */
#ifndef N
#define N 3
#endif

#define IDLE     0
#define WAITING  1
#define CRITICAL 2

byte next;
byte serving;
byte my[N];
byte pc[N];

active [N] proctype P() {
  do
  :: d_step { pc[_pid] == IDLE -> my[_pid] = next; next = (next + 1) % (N + 1); pc[_pid] = WAITING }
  :: d_step { pc[_pid] == WAITING && serving == my[_pid] -> pc[_pid] = CRITICAL }
  :: d_step { pc[_pid] == CRITICAL -> serving = (serving + 1) % (N + 1); my[_pid] = 0; pc[_pid] = IDLE }
  od
}

ltl ns0 { [] ((pc[0] == WAITING) -> <> (pc[0] == CRITICAL)) }
