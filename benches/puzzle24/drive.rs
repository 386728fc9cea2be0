// The driver of the peer sourcedennis/puzzle24 for benches/puzzle24/compare.sh (this file is
// ours; the peer's source stays outside the project). Builds or loads its two 6-tile databases,
// then solves each board given as an argument (25 numbers). Prints: length nodes seconds ns/node.
use puzzle24::*;
use std::time::Instant;

fn load_or_build(path: &str, p: Pattern6Puzzle) -> Vec<u8> {
    if let Ok(v) = std::fs::read(path) {
        if v.len() == 244_140_625 { return v; }
    }
    let t = Instant::now();
    let v = p.build_pattern_db();
    eprintln!("built {path} in {:.1} s", t.elapsed().as_secs_f64());
    std::fs::write(path, &v).unwrap();
    v
}

fn main() {
    let dir = std::env::var("P24_DB").unwrap_or_else(|_| "/work/peer/db".into());
    std::fs::create_dir_all(&dir).unwrap();
    let t = Instant::now();
    let d0 = load_or_build(&format!("{dir}/p0.bin"), Pattern6Puzzle::DEFAULT_PATTERN0);
    let d1 = load_or_build(&format!("{dir}/p1.bin"), Pattern6Puzzle::DEFAULT_PATTERN1);
    eprintln!("databases ready in {:.1} s", t.elapsed().as_secs_f64());
    let h = DefaultPatternDB::new(d0, d1);
    for arg in std::env::args().skip(1) {
        let cells: Vec<u8> = arg.split(|c: char| c == ' ' || c == ',').filter(|s| !s.is_empty()).map(|s| s.parse().unwrap()).collect();
        let cells: [u8; 25] = cells.try_into().expect("25 numbers");
        let g = PackedGrid24::from(cells);
        let t = Instant::now();
        let (nodes, path) = solve_ita(&h, g);
        let s = t.elapsed().as_secs_f64();
        println!("{} {} {:.3} {:.1}", path.len(), nodes, s, s * 1e9 / nodes as f64);
    }
}
