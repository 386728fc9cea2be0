//! A liveness counterexample, [`Lasso`], and its replay: every step re-expanded from the
//! model, the monitor recomputed, the cycle closed, fairness and the property checked, before
//! anything is returned.

use super::monitor::Monitor;
use super::path::{bit, disabled};
use crate::fairness::Fairness;
use crate::model::Model;

/// A behaviour that violates a liveness property, replayed: from `initial` through `stem` to
/// the cycle's start, then `cycle` forever. With an empty `cycle` it is finite: the stem ends
/// in a state without successors.
///
/// Guaranteed on return (checked by the replay): every step is a successor of the state before
/// it, at its position in the model's list; the property never holds on it (`eventually`: no
/// state of the stem or cycle satisfies `p`; `leads_to`: every cycle state, or the last state,
/// is after a `p`-state with no `q`-state since); a non-empty cycle ends in its start state;
/// under weak fairness every process takes a step of the cycle or is disabled at one of its
/// states. Not guaranteed: that it is a shortest lasso. The stem is a shortest path to the
/// component the search found (a finite one: a shortest path to any bad state without
/// successors), and each leg of the cycle a shortest path within that component.
pub struct Lasso<M: Model> {
    /// The initial state.
    pub initial: M::State,
    /// The steps to the cycle's start (or, when `cycle` is empty, to the last state).
    pub stem: Vec<(M::Action, M::State)>,
    /// The steps of the cycle; its last state is the cycle's start.
    pub cycle: Vec<(M::Action, M::State)>,
}

impl<M: Model> Lasso<M> {
    /// The state the cycle starts (and ends) in: the stem's last state, or the initial one.
    pub fn cycle_start(&self) -> &M::State {
        self.stem.last().map_or(&self.initial, |(_, s)| s)
    }

    /// Whether the behaviour is finite (it ends in a state without successors).
    pub fn is_finite(&self) -> bool {
        self.cycle.is_empty()
    }
}

/// What to replay: the initial state's position in `initial_states()`, then successor
/// positions of the stem and of the cycle.
pub(crate) struct Positions {
    pub(crate) initial: usize,
    pub(crate) stem: Vec<u16>,
    pub(crate) cycle: Vec<u16>,
}

/// Re-expands `positions` and checks them as [`Lasso`] says.
pub(crate) fn replay<M: Model>(
    model: &M,
    monitor: &Monitor<'_, M::State>,
    fairness: Fairness,
    positions: &Positions,
) -> Result<Lasso<M>, String> {
    let initial = model
        .initial_states()
        .get(positions.initial)
        .cloned()
        .ok_or("lasso replay: no such initial state")?;
    let mut bad = monitor.initial(&initial);
    let eventually = !monitor.explored(false);
    let mut ever_good = !bad;
    let mut current = initial.clone();
    let mut follow = |ordinals: &[u16], bads: &mut Vec<bool>| {
        let mut steps = Vec::new();
        let mut successors = Vec::new();
        for &k in ordinals {
            successors.clear();
            model.successors(&current, &mut successors);
            let (action, next) = successors
                .get(k as usize)
                .cloned()
                .ok_or("lasso replay: a position is not a successor")?;
            bad = monitor.step(bad, &next);
            ever_good |= !bad;
            bads.push(bad);
            current = next.clone();
            steps.push((action, next));
        }
        Ok::<_, String>(steps)
    };
    let mut bads = Vec::new();
    let stem = follow(&positions.stem, &mut bads)?;
    let start_bad = bads.last().copied().unwrap_or(monitor.initial(&initial));
    bads.clear();
    let cycle = follow(&positions.cycle, &mut bads)?;
    if eventually && ever_good {
        return Err("lasso replay: the eventually-property holds on it".into());
    }
    let lasso = Lasso {
        initial,
        stem,
        cycle,
    };
    if lasso.is_finite() {
        check_finite(model, &lasso, start_bad)?;
    } else {
        check_cycle(model, fairness, &lasso, start_bad, &bads)?;
    }
    Ok(lasso)
}

/// A finite counterexample ends bad, in a state without successors.
fn check_finite<M: Model>(model: &M, lasso: &Lasso<M>, last_bad: bool) -> Result<(), String> {
    let mut successors = Vec::new();
    model.successors(lasso.cycle_start(), &mut successors);
    if !successors.is_empty() {
        return Err("lasso replay: the finite behaviour's last state has successors".into());
    }
    if !last_bad {
        return Err("lasso replay: the property holds at the last state".into());
    }
    Ok(())
}

/// A lasso's cycle closes, is bad throughout and is fair.
fn check_cycle<M: Model>(
    model: &M,
    fairness: Fairness,
    lasso: &Lasso<M>,
    start_bad: bool,
    bads: &[bool],
) -> Result<(), String> {
    let start = lasso.cycle_start();
    if lasso.cycle.last().map(|(_, s)| s) != Some(start) || bads.last() != Some(&start_bad) {
        return Err("lasso replay: the cycle does not close".into());
    }
    if !start_bad || bads.contains(&false) {
        return Err("lasso replay: the property is satisfied on the cycle".into());
    }
    let all = fairness.mask(model.processes());
    if all != 0 {
        let k = model.processes();
        let mut served = 0;
        let mut successors = Vec::new();
        let mut state = start;
        for (action, next) in &lasso.cycle {
            successors.clear();
            model.successors(state, &mut successors);
            served |= disabled(model, all, &successors) | bit(model, all, action);
            state = next;
        }
        if served != all {
            let starved = (0..k).find(|p| served >> p & 1 == 0).unwrap_or(0);
            return Err(format!(
                "lasso replay: the cycle is not weakly fair: process {starved} is always enabled and never moves"
            ));
        }
    }
    Ok(())
}
