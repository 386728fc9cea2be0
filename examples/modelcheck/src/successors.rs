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
/// and the spare's capacity fits; with no spare left it clones. A kept state that owns memory
/// moves into the search's next level; one that needs no drop is cloned there (for such a
/// state a clone is the copy a move would be).
pub struct Successors<A, S> {
    list: Vec<(A, S)>,
    /// States of earlier expansions, to be overwritten (none for states that own no memory).
    spares: Vec<S>,
}

impl<A, S> Default for Successors<A, S> {
    fn default() -> Self {
        Successors {
            list: Vec::new(),
            spares: Vec::new(),
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
        self.list.push((action, state));
        let last = self.list.len() - 1;
        &mut self.list[last].1
    }

    /// Appends `state`, reached by `action`.
    #[inline]
    pub fn push(&mut self, action: A, state: S) {
        self.list.push((action, state));
    }

    /// How many successors the list holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The successors, in order: each an action and the state it leads to.
    #[inline]
    pub fn as_slice(&self) -> &[(A, S)] {
        &self.list
    }

    /// Moves every successor out, in order, and empties the list (it keeps its spares).
    pub fn drain(&mut self) -> impl Iterator<Item = (A, S)> + '_ {
        self.list.drain(..)
    }

    /// Empties the list; its states become spares, up to as many as the list held (states
    /// that own no memory are dropped: a spare of theirs saves nothing).
    #[inline]
    pub fn clear(&mut self) {
        self.move_out(&[], &mut Vec::new());
    }

    /// How many spares the list keeps (each a state of an earlier expansion).
    pub fn spares(&self) -> usize {
        self.spares.len()
    }

    /// The list itself, for [`Model::successors`](crate::Model::successors) to append to.
    #[inline]
    pub(crate) fn as_vec(&mut self) -> &mut Vec<(A, S)> {
        &mut self.list
    }

    /// Moves the states at `kept` (ascending positions) to the end of `into`, in order, and
    /// empties the list: the other states become spares, as with [`clear`](Self::clear). So
    /// the spares are at most the longest list, also for a model that never uses them.
    #[inline]
    pub(crate) fn move_out(&mut self, kept: &[usize], into: &mut Vec<S>) {
        if !std::mem::needs_drop::<S>() {
            // A copy is a move for such states; the others are dropped, not spared.
            into.extend(kept.iter().map(|&k| self.list[k].1.clone()));
            self.list.clear();
            return;
        }
        let most = self.list.len();
        let mut kept = kept.iter().copied().peekable();
        for (k, (_, state)) in self.list.drain(..).enumerate() {
            if kept.next_if_eq(&k).is_some() {
                into.push(state);
            } else if self.spares.len() < most {
                self.spares.push(state);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Successors;

    #[test]
    fn a_copy_over_a_spare_holds_the_source_and_reuses_its_buffer() {
        let mut out: Successors<u8, Vec<u32>> = Successors::new();
        out.push_copy(0, &vec![1; 100]).push(7);
        assert_eq!(out.as_slice(), [(0, [vec![1; 100], vec![7]].concat())]);
        out.clear();
        assert_eq!((out.len(), out.spares()), (0, 1));
        let next = out.push_copy(1, &vec![2, 3]);
        assert_eq!(*next, vec![2, 3], "no trace of the spare's old contents");
        assert!(next.capacity() >= 101, "the spare's buffer, not a new one");
        assert_eq!(out.as_slice(), [(1, vec![2, 3])]);
        assert_eq!(out.spares(), 0);
    }

    #[test]
    fn moving_out_keeps_the_order_and_spares_the_rest() {
        let mut out: Successors<u8, Box<u32>> = Successors::new();
        for k in 0..5 {
            out.push(k, Box::new(u32::from(k) * 10));
        }
        let mut kept = vec![Box::new(99)];
        out.move_out(&[1, 3, 4], &mut kept);
        assert_eq!(kept, [99, 10, 30, 40].map(Box::new));
        assert!(out.is_empty());
        assert_eq!(out.spares(), 2);
        out.push(7, Box::new(70));
        out.push_copy(8, &Box::new(80));
        assert_eq!(out.spares(), 1);
        let drained: Vec<(u8, Box<u32>)> = out.drain().collect();
        assert_eq!(drained, [(7, Box::new(70)), (8, Box::new(80))]);
        assert!(out.is_empty());
    }

    #[test]
    fn spares_are_at_most_the_longest_list() {
        let mut out: Successors<u8, Vec<u8>> = Successors::new();
        for _ in 0..10 {
            // A model that never writes over spares: three new states each time.
            for k in 0..3 {
                out.push(k, vec![k]);
            }
            out.clear();
        }
        assert_eq!(out.spares(), 3);
        for k in 0..5 {
            out.push(k, vec![k]);
        }
        out.move_out(&[0], &mut Vec::new());
        assert_eq!(out.spares(), 5);
    }

    #[test]
    fn states_that_own_nothing_keep_no_spares() {
        let mut out: Successors<u8, u32> = Successors::new();
        out.push(0, 1);
        out.push_copy(1, &2);
        out.clear();
        assert_eq!(out.spares(), 0);
        out.push(0, 1);
        let mut kept = Vec::new();
        out.move_out(&[], &mut kept);
        assert_eq!((out.spares(), kept.len()), (0, 0));
    }
}
