//! What the lock models (Peterson, ticket, the broken lock) share: their size limit, their
//! invariant and their `sometimes` property.

use crate::model::Invariant;
use crate::property::Property;

/// The most processes of the lock models: their states are fixed-size arrays, so a state costs
/// no allocation (and the state spaces explode long before 8 processes anyway).
pub const MAX_LOCK_PROCESSES: usize = 8;

/// "At most one process is in its critical section", for models whose program counters
/// `pcs(state)` mark that section with `critical` (processes that do not exist stay idle).
pub fn mutual_exclusion<S: 'static>(
    pcs: fn(&S) -> [u8; MAX_LOCK_PROCESSES],
    critical: u8,
) -> Invariant<S> {
    Invariant::new("MutualExclusion", move |s: &S| {
        pcs(s).iter().filter(|&&pc| pc == critical).count() <= 1
    })
}

/// "Some process can enter its critical section" (`sometimes`), for models whose program
/// counters `pcs(state)` mark that section with `critical`: a lock that nobody can ever take
/// satisfies mutual exclusion vacuously.
pub fn critical_reachable<S: 'static>(
    pcs: fn(&S) -> [u8; MAX_LOCK_PROCESSES],
    critical: u8,
) -> Property<S> {
    Property::sometimes("CriticalReachable", move |s: &S| pcs(s).contains(&critical))
}
