//! What the lock models (Peterson, ticket, test-and-set, the broken lock) share: their size
//! limit, their invariant, their `sometimes` property and their liveness property.

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

/// The names of [`no_starvation`]'s properties, one per process.
pub const NO_STARVATION: [&str; MAX_LOCK_PROCESSES] = [
    "NoStarvation(p0)",
    "NoStarvation(p1)",
    "NoStarvation(p2)",
    "NoStarvation(p3)",
    "NoStarvation(p4)",
    "NoStarvation(p5)",
    "NoStarvation(p6)",
    "NoStarvation(p7)",
];

/// "Every process that asks for the lock eventually gets it", one `leads_to` per process `i`
/// of `n`: from a state where `asking(pc_i)` to one where `pc_i == critical`.
pub fn no_starvation<S: 'static>(
    n: usize,
    pcs: fn(&S) -> [u8; MAX_LOCK_PROCESSES],
    asking: fn(u8) -> bool,
    critical: u8,
) -> Vec<Property<S>> {
    (0..n)
        .map(|i| {
            Property::leads_to(
                NO_STARVATION[i],
                move |s: &S| asking(pcs(s)[i]),
                move |s: &S| pcs(s)[i] == critical,
            )
        })
        .collect()
}
