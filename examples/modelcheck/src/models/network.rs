//! The network of the actor models (Paxos, ABD): an unordered, non-duplicating, lossless
//! multiset of in-flight messages.
//!
//! Any message in flight may be delivered next, whatever order it was sent in; delivery removes
//! one copy of it, so a message is handled at most once per send (no duplication); nothing is
//! dropped except by delivery (no loss). The messages are kept as a sorted `Vec` (equal
//! messages side by side), so two states with the same messages in flight are equal and hash
//! alike, whatever order they were sent in.

use serde::{Deserialize, Serialize};

/// A multiset of messages, sorted.
#[derive(PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Network<M> {
    messages: Vec<M>,
}

/// `clone_from` reuses the messages' buffer (the derived one would allocate a new one).
impl<M: Clone> Clone for Network<M> {
    fn clone(&self) -> Self {
        Network {
            messages: self.messages.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.messages.clone_from(&source.messages);
    }
}

impl<M: Ord + Clone> Network<M> {
    /// No message in flight.
    pub fn new() -> Self {
        Network {
            messages: Vec::new(),
        }
    }

    /// Puts one more copy of `message` in flight.
    pub fn send(&mut self, message: M) {
        let at = self.messages.partition_point(|m| *m <= message);
        self.messages.insert(at, message);
    }

    /// Removes one copy of `message`; false when none was in flight.
    pub fn take(&mut self, message: &M) -> bool {
        match self.messages.binary_search(message) {
            Ok(at) => {
                self.messages.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    /// The distinct messages in flight, in order: each is one delivery the network allows.
    pub fn deliverable(&self) -> impl Iterator<Item = &M> {
        let previous = std::iter::once(None).chain(self.messages.iter().map(Some));
        self.messages
            .iter()
            .zip(previous)
            .filter(|(m, p)| *p != Some(*m))
            .map(|(m, _)| m)
    }

    /// Every message in flight, copies included, in order.
    pub fn iter(&self) -> impl Iterator<Item = &M> {
        self.messages.iter()
    }

    /// How many messages are in flight, copies included.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// Whether no message is in flight.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

impl<M: Ord + Clone> Default for Network<M> {
    fn default() -> Self {
        Network::new()
    }
}

#[cfg(test)]
mod tests {
    use super::Network;

    #[test]
    fn order_of_sends_does_not_matter_and_copies_are_kept() {
        let mut a = Network::new();
        let mut b = Network::new();
        for m in [3, 1, 2, 1] {
            a.send(m);
        }
        for m in [1, 1, 2, 3] {
            b.send(m);
        }
        assert_eq!(a, b);
        assert_eq!(a.deliverable().copied().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!(a.len(), 4);
        assert!(a.take(&1));
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), [1, 2, 3]);
        assert!(a.take(&1));
        assert!(!a.take(&1));
        assert_eq!(a.len(), 2);
    }
}
