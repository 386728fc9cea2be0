/* Peterson's filter lock of `modelcheck peterson N` (N = 2 or 3), for SPIN: each step one
 * d_step of its process, as the Rust model. spin -DN=3 -a peterson.pml; property ns0:
 * process 0, once past `start`, eventually enters. */
#ifndef N
#define N 2
#endif

#define IDLE       0
#define SET_LEVEL  1
#define SET_VICTIM 2
#define WAIT       3
#define CRITICAL   4

byte pc[N];
byte at[N];
byte level[N];
byte victim[N];

/* Another process is at this one's level or above (N <= 3). */
#define ABOVE(k) (_pid != k && k < N && level[k] >= at[_pid])
#define CONTENDED (ABOVE(0) || ABOVE(1) || ABOVE(2))

active [N] proctype P() {
  do
  :: d_step { pc[_pid] == IDLE -> at[_pid] = 1; pc[_pid] = SET_LEVEL }
  :: d_step { pc[_pid] == SET_LEVEL -> level[_pid] = at[_pid]; pc[_pid] = SET_VICTIM }
  :: d_step { pc[_pid] == SET_VICTIM -> victim[at[_pid]] = _pid; pc[_pid] = WAIT }
  :: d_step { pc[_pid] == WAIT && !(CONTENDED && victim[at[_pid]] == _pid) ->
       if
       :: at[_pid] + 1 == N -> pc[_pid] = CRITICAL
       :: else -> at[_pid]++; pc[_pid] = SET_LEVEL
       fi }
  :: d_step { pc[_pid] == CRITICAL -> level[_pid] = 0; at[_pid] = 0; pc[_pid] = IDLE }
  od
}

ltl ns0 { [] ((pc[0] != IDLE && pc[0] != CRITICAL) -> <> (pc[0] == CRITICAL)) }
