//! A state's path, as the explorer's URLs and API write it: the initial state's index, then the
//! index of each step among the enabled actions, separated by `/` (`0/3/1`). The empty path is
//! the choice of an initial state.

use std::fmt;

/// The most indices a path may hold (the initial state's and 99,999 steps). A path is walked
/// step by step, each step one call of the model's `successors`, so a longer one would only
/// cost time; 100,000 covers any counterexample the checker prints with room to spare.
pub const MAX_PATH_LEN: usize = 100_000;

/// A parsed path: at most [`MAX_PATH_LEN`] indices.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatePath(Vec<usize>);

impl StatePath {
    /// Parses `0/3/1` (one leading `/` is allowed, as in the URL's `#/0/3/1`; the empty text
    /// is the empty path). Errors: a message that names the first bad index and its position,
    /// or the length when it is over [`MAX_PATH_LEN`]. Linear in the text's length; it stops
    /// at the first index past the cap.
    pub fn parse(text: &str) -> Result<StatePath, String> {
        let text = text.strip_prefix('/').unwrap_or(text);
        if text.is_empty() {
            return Ok(StatePath::default());
        }
        let mut indices = Vec::new();
        for (position, part) in text.split('/').enumerate() {
            if position == MAX_PATH_LEN {
                return Err(format!(
                    "the path has more than {MAX_PATH_LEN} indices (the initial state and \
                     {} steps); the explorer walks at most that many",
                    MAX_PATH_LEN - 1
                ));
            }
            indices.push(parse_index(part).ok_or_else(|| {
                format!(
                    "malformed path: index {position} is `{}`, not a whole number from 0 to \
                     {}; a path is the initial state's index, then each step's index among \
                     the enabled actions, separated by `/` (e.g. 0/3/1)",
                    shorten(part),
                    u32::MAX
                )
            })?);
        }
        Ok(StatePath(indices))
    }

    /// The indices: the initial state's, then each step's.
    pub fn indices(&self) -> &[usize] {
        &self.0
    }

    /// The path of `indices` (not checked against [`MAX_PATH_LEN`]: the checker's traces).
    pub fn from_indices(indices: Vec<usize>) -> StatePath {
        StatePath(indices)
    }
}

/// A decimal index, digits only, at most `u32::MAX` (no model has more actions).
fn parse_index(part: &str) -> Option<usize> {
    if part.is_empty() || part.len() > 10 || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    part.parse::<u32>().ok().map(|i| i as usize)
}

/// `part`, cut to 20 characters for an error message.
fn shorten(part: &str) -> String {
    match part.char_indices().nth(20) {
        Some((cut, _)) => format!("{}...", &part[..cut]),
        None => part.to_string(),
    }
}

impl fmt::Display for StatePath {
    /// `0/3/1`, as [`StatePath::parse`] reads it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, index) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            write!(f, "{index}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_paths() {
        for (text, indices) in [
            ("", vec![]),
            ("/", vec![]),
            ("0", vec![0]),
            ("/0/3/1", vec![0, 3, 1]),
            ("0/4294967295", vec![0, u32::MAX as usize]),
        ] {
            let path = StatePath::parse(text).unwrap();
            assert_eq!(path.indices(), &indices[..], "{text}");
            assert_eq!(StatePath::parse(&path.to_string()).unwrap(), path);
        }
    }

    #[test]
    fn rejects_malformed_paths() {
        for (text, position) in [
            ("x", 0),
            ("0//1", 1),
            ("0/1/", 2),
            ("0/-1", 1),
            ("0/+1", 1),
            ("0/ 1", 1),
            ("0/1.5", 1),
            ("0/4294967296", 1),
            ("0/99999999999999999999999", 1),
            ("0/٣", 1),
        ] {
            let e = StatePath::parse(text).unwrap_err();
            assert!(
                e.starts_with(&format!("malformed path: index {position} ")),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn caps_the_length() {
        let at_cap = vec!["0"; MAX_PATH_LEN].join("/");
        assert_eq!(
            StatePath::parse(&at_cap).unwrap().indices().len(),
            MAX_PATH_LEN
        );
        let over = vec!["0"; MAX_PATH_LEN + 1].join("/");
        assert!(StatePath::parse(&over)
            .unwrap_err()
            .contains("more than 100000 indices"));
    }

    #[test]
    fn shortens_long_parts_in_errors() {
        let e = StatePath::parse(&"y".repeat(1000)).unwrap_err();
        assert!(e.contains(&format!("`{}...`", "y".repeat(20))), "{e}");
        assert!(e.len() < 300, "{e}");
    }
}
