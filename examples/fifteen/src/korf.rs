//! Korf's 100 random 15-puzzle instances (Korf 1985), embedded with their optimal lengths and
//! node counts, and the id lists that pick some of them.

use crate::board::Board;
use crate::config::HeuristicKind;
use crate::instance::Instance;

/// Korf's 100 instances with their reference counts (see the file's header for the convention).
pub const KORF100: &str = include_str!("korf100.tsv");

/// One of Korf's instances.
#[derive(Clone, Debug)]
pub struct KorfInstance {
    /// 1..=100.
    pub id: usize,
    /// Optimal solution length.
    pub len: u32,
    /// Nodes of plain IDA* with Manhattan distance (the header's convention).
    pub md_nodes: u64,
    /// The same with Manhattan distance + linear conflict.
    pub mdlc_nodes: u64,
    /// The start.
    pub board: Board,
}

/// The embedded table, parsed.
pub fn korf100() -> Vec<KorfInstance> {
    KORF100
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("id"))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let tiles: Vec<u32> = f
                .get(5)?
                .split_whitespace()
                .filter_map(|t| t.parse().ok())
                .collect();
            Some(KorfInstance {
                id: f.first()?.parse().ok()?,
                len: f.get(1)?.parse().ok()?,
                md_nodes: f.get(3)?.parse().ok()?,
                mdlc_nodes: f.get(4)?.parse().ok()?,
                board: Board::from_tiles(&tiles).ok()?,
            })
        })
        .collect()
}

/// Korf's instances `ids` (1..=100, as [`parse_ids`] checks them) as instances to solve, with
/// their known lengths, and Korf's node counts when `heuristic` is the one he counted with.
pub fn korf_instances(ids: &[usize], heuristic: Option<HeuristicKind>) -> Vec<Instance> {
    let all = korf100();
    ids.iter()
        .filter_map(|&id| all.get(id.checked_sub(1)?))
        .map(|k| {
            let known_nodes = match heuristic {
                Some(HeuristicKind::Md) => Some(k.md_nodes),
                Some(HeuristicKind::Lc) => Some(k.mdlc_nodes),
                _ => None,
            };
            Instance {
                label: k.id.to_string(),
                board: k.board.into(),
                known_len: Some(k.len),
                known_nodes,
            }
        })
        .collect()
}

/// Korf and Taylor's ten 24-puzzle instances (Korf & Taylor 1996) with their optimal lengths,
/// as `korf24.tsv` lists them (id, optimal, Manhattan distance, board).
pub const KORF24: &str = include_str!("korf24.tsv");

/// Korf and Taylor's 24-puzzle instances `ids` (1..=10) as instances to solve, labelled
/// `24-ID`, with their optimal lengths.
pub fn korf24_instances(ids: &[usize]) -> Vec<Instance> {
    let all = crate::instance::parse_instances(KORF24, "korf24").unwrap_or_default();
    ids.iter()
        .filter_map(|&id| all.get(id.checked_sub(1)?))
        .map(|i| Instance {
            label: i.label.replace("korf24:", "24-"),
            ..i.clone()
        })
        .collect()
}

/// Korf ids: comma-separated ids and ranges, each in 1..=100, in the order given.
pub fn parse_ids(spec: &str) -> Result<Vec<usize>, String> {
    parse_ids_upto(spec, 100, "--korf")
}

/// Ids of a list of `last` instances: comma-separated ids and ranges, each in 1..=`last`, in
/// the order given; `flag` names the option in errors.
pub fn parse_ids_upto(spec: &str, last: usize, flag: &str) -> Result<Vec<usize>, String> {
    let mut ids = Vec::new();
    for part in spec.split(',').map(str::trim) {
        let id = |s: &str| -> Result<usize, String> {
            match s.trim().parse::<usize>() {
                Ok(n) if (1..=last).contains(&n) => Ok(n),
                _ => Err(format!("{flag}: '{s}' is not an instance id 1..={last}")),
            }
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (id(a)?, id(b)?);
                if a > b {
                    return Err(format!("{flag}: range '{part}' runs backwards"));
                }
                ids.extend(a..=b);
            }
            None => ids.push(id(part)?),
        }
    }
    Ok(ids)
}
