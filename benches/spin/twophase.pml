/* Two-phase commit, the TLA+ TwoPhase spec (Lamport, Gray), for SPIN: one process whose loop
 * offers every action instance as one d_step, so a SPIN state is exactly a TLA+ state.
 * N resource managers (1..10): spin -DN=8 -a twophase.pml.
 * TPConsistent is asserted after every step (SPIN has no per-state invariant check). */
#ifndef N
#define N 8
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

#define C(i) (i < N && rm[i] == COMMITTED)
#define A(i) (i < N && rm[i] == ABORTED)
#define ANY_COMMITTED (C(0)||C(1)||C(2)||C(3)||C(4)||C(5)||C(6)||C(7)||C(8)||C(9))
#define ANY_ABORTED   (A(0)||A(1)||A(2)||A(3)||A(4)||A(5)||A(6)||A(7)||A(8)||A(9))
#define CHECK assert(!(ANY_COMMITTED && ANY_ABORTED))

#define RM_ACTIONS(i) \
  :: d_step { (i < N && tm == TM_INIT && msgPrepared[i]) -> \
       if :: !tmPrepared[i] -> tmPrepared[i] = 1; nPrepared++ :: else -> skip fi; CHECK } \
  :: d_step { (i < N && rm[i] == WORKING) -> rm[i] = PREPARED; msgPrepared[i] = 1; CHECK } \
  :: d_step { (i < N && rm[i] == WORKING) -> rm[i] = ABORTED; CHECK } \
  :: d_step { (i < N && msgCommit) -> rm[i] = COMMITTED; CHECK } \
  :: d_step { (i < N && msgAbort) -> rm[i] = ABORTED; CHECK }

active proctype TwoPhase() {
  do
  :: d_step { (tm == TM_INIT && nPrepared == N) -> tm = TM_COMMITTED; msgCommit = 1; CHECK }
  :: d_step { (tm == TM_INIT) -> tm = TM_ABORTED; msgAbort = 1; CHECK }
  RM_ACTIONS(0) RM_ACTIONS(1) RM_ACTIONS(2) RM_ACTIONS(3) RM_ACTIONS(4)
  RM_ACTIONS(5) RM_ACTIONS(6) RM_ACTIONS(7) RM_ACTIONS(8) RM_ACTIONS(9)
  od
}
