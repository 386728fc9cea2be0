//! A state's successors in storage reused from one expansion to the next
//! ([`crate::Model::successors_reusing`]): the states of the previous expansion that the search
//! did not keep are spares, and a model writes a successor over a spare with `clone_from`, so a
//! state whose heap parts (`Vec`s, maps) fit the spare's capacity costs no allocation.

/// The successors of one state, in order: each an action and the state it leads to.
///
/// What it guarantees: [`push_copy`](Self::push_copy) and [`push`](Self::push) append in call
/// order, and the list holds exactly what was pushed since the last [`clear`](Self::clear)
/// (a spare's old contents never show: `push_copy` overwrites it with `clone_from`). What it
/// does not: that a push allocates nothing. `clone_from` reuses a spare's allocations only
/// where the state's `Clone` implements it so (`#[derive(Clone)]` does not: it clones afresh)
/// and the spare's capacity fits; with no spare left it clones.
pub struct Successors<A, S> {
    actions: Vec<A>,
    states: Vec<S>,
    /// States of earlier expansions, to be overwritten.
    spares: Vec<S>,
    /// The list [`Model::successors`](crate::Model::successors) fills, for models that do not
    /// write into spares (kept, so its buffer is not allocated per state).
    scratch: Vec<(A, S)>,
}

impl<A, S> Default for Successors<A, S> {
    fn default() -> Self {
        Successors {
            actions: Vec::new(),
            states: Vec::new(),
            spares: Vec::new(),
            scratch: Vec::new(),
        }
    }
}

impl<A, S: Clone> Successors<A, S> {
    /// An empty list without spares.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a successor reached by `action`: a copy of `from`, written over a spare when one
    /// is kept, returned for the model to change into the successor.
    #[inline]
    pub fn push_copy(&mut self, action: A, from: &S) -> &mut S {
        let state = match self.spares.pop() {
            Some(mut spare) => {
                spare.clone_from(from);
                spare
            }
            None => from.clone(),
        };
        self.push(action, state);
        let last = self.states.len() - 1;
        &mut self.states[last]
    }

    /// Appends `state`, reached by `action`.
    #[inline]
    pub fn push(&mut self, action: A, state: S) {
        self.actions.push(action);
        self.states.push(state);
    }

    /// How many successors the list holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The successor states, in order.
    #[inline]
    pub fn states(&self) -> &[S] {
        &self.states
    }

    /// The actions, in order: `actions()[k]` leads to `states()[k]`.
    #[inline]
    pub fn actions(&self) -> &[A] {
        &self.actions
    }

    /// Moves every successor out, in order, and empties the list (it keeps its spares).
    pub fn drain(&mut self) -> impl Iterator<Item = (A, S)> + '_ {
        self.actions.drain(..).zip(self.states.drain(..))
    }

    /// Empties the list; its states become spares.
    #[inline]
    pub fn clear(&mut self) {
        self.spares.append(&mut self.states);
        self.actions.clear();
    }

    /// How many spares the list keeps (each a state of an earlier expansion).
    pub fn spares(&self) -> usize {
        self.spares.len()
    }

    /// The reused list for [`Model::successors`](crate::Model::successors), empty.
    pub(crate) fn take_scratch(&mut self) -> Vec<(A, S)> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch
    }

    /// Appends every successor of `scratch` (emptied) and keeps its buffer for the next call.
    pub(crate) fn append_scratch(&mut self, mut scratch: Vec<(A, S)>) {
        for (action, state) in scratch.drain(..) {
            self.push(action, state);
        }
        self.scratch = scratch;
    }

    /// Moves the states at `kept` (ascending positions) to the end of `into`, in order, and
    /// empties the list: the other states become spares.
    pub(crate) fn move_out(&mut self, kept: &[usize], into: &mut Vec<S>) {
        let mut kept = kept.iter().copied().peekable();
        for (k, state) in self.states.drain(..).enumerate() {
            if kept.next_if_eq(&k).is_some() {
                into.push(state);
            } else {
                self.spares.push(state);
            }
        }
        self.actions.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Successors;

    #[test]
    fn a_copy_over_a_spare_holds_the_source_and_reuses_its_buffer() {
        let mut out: Successors<u8, Vec<u32>> = Successors::new();
        out.push_copy(0, &vec![1; 100]).push(7);
        assert_eq!(out.states(), [[vec![1; 100], vec![7]].concat()]);
        out.clear();
        assert_eq!((out.len(), out.spares()), (0, 1));
        let next = out.push_copy(1, &vec![2, 3]);
        assert_eq!(*next, vec![2, 3], "no trace of the spare's old contents");
        assert!(next.capacity() >= 101, "the spare's buffer, not a new one");
        assert_eq!(out.actions(), [1]);
        assert_eq!(out.spares(), 0);
    }

    #[test]
    fn moving_out_keeps_the_order_and_spares_the_rest() {
        let mut out: Successors<u8, u32> = Successors::new();
        for k in 0..5 {
            out.push(k, u32::from(k) * 10);
        }
        let mut kept = vec![99];
        out.move_out(&[1, 3, 4], &mut kept);
        assert_eq!(kept, [99, 10, 30, 40]);
        assert!(out.is_empty() && out.actions().is_empty());
        assert_eq!(out.spares(), 2);
        out.push(7, 70);
        out.push_copy(8, &80);
        assert_eq!(out.drain().collect::<Vec<_>>(), [(7, 70), (8, 80)]);
        assert!(out.is_empty() && out.actions().is_empty());
    }
}
