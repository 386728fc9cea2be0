/* Two-phase commit of `modelcheck 2pc N` with its fairness classes, for SPIN's liveness check:
 * one process per class, as the Rust model's `process_of` says: the TM's decision (TMCommit,
 * TMAbort), the TM's receiving Prepared, and one process per resource manager (_pid - 2 is its
 * index). Each step is one d_step, so a SPIN state is a TLA+ state (twophase.pml has the same
 * spec as one process, for the safety comparison). N resource managers (1..10):
 * spin -DN=3 -a twophase_fair.pml; property decided: every run ends with all RMs committed or
 * all aborted (Decided), <> of it, as no RM leaves a decided state once all are in it. */
#ifndef N
#define N 3
#endif

#define WORKING   0
#define PREPARED  1
#define COMMITTED 2
#define ABORTED   3
#define TM_INIT      0
#define TM_COMMITTED 1
#define TM_ABORTED   2

byte rm[N];
byte tm;
bool tmPrepared[N];
bool msgPrepared[N];
bool msgCommit;
bool msgAbort;
byte nPrepared;  /* |tmPrepared|: a function of tmPrepared, adds no states */

/* Receiving Prepared(rm) again is a step too (a self-loop), as in TLA+ and the Rust model. */
#define RCV_PREPARED(i) \
  :: d_step { (i < N && tm == TM_INIT && msgPrepared[i]) -> \
       if :: !tmPrepared[i] -> tmPrepared[i] = 1; nPrepared++ :: else -> skip fi }

active proctype TMDecide() {
  do
  :: d_step { tm == TM_INIT && nPrepared == N -> tm = TM_COMMITTED; msgCommit = 1 }
  :: d_step { tm == TM_INIT -> tm = TM_ABORTED; msgAbort = 1 }
  od
}

active proctype TMReceive() {
  do
  RCV_PREPARED(0) RCV_PREPARED(1) RCV_PREPARED(2) RCV_PREPARED(3) RCV_PREPARED(4)
  RCV_PREPARED(5) RCV_PREPARED(6) RCV_PREPARED(7) RCV_PREPARED(8) RCV_PREPARED(9)
  od
}

active [N] proctype RM() {
  do
  :: d_step { rm[_pid - 2] == WORKING -> rm[_pid - 2] = PREPARED; msgPrepared[_pid - 2] = 1 }
  :: d_step { rm[_pid - 2] == WORKING -> rm[_pid - 2] = ABORTED }
  :: d_step { msgCommit -> rm[_pid - 2] = COMMITTED }
  :: d_step { msgAbort -> rm[_pid - 2] = ABORTED }
  od
}

#define ALL(v) ((0 >= N || rm[0] == v) && (1 >= N || rm[1] == v) && (2 >= N || rm[2] == v) && \
  (3 >= N || rm[3] == v) && (4 >= N || rm[4] == v) && (5 >= N || rm[5] == v) && \
  (6 >= N || rm[6] == v) && (7 >= N || rm[7] == v) && (8 >= N || rm[8] == v) && \
  (9 >= N || rm[9] == v))

ltl decided { <> (ALL(COMMITTED) || ALL(ABORTED)) }
