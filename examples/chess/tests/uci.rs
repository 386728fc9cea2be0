//! UCI sessions against the built engine: a realistic GUI session with garbage lines and an
//! illegal FEN, `stop`/`isready` during an infinite search, and `Hash`/`Threads` changes between
//! searches (including a `Hash` the machine cannot give).

use crate::engine;

use cozy_chess::{util::parse_uci_move, Board};
use engine::{best_move, field, is_iteration, last_info, score, Engine};

/// The position after `moves` (UCI notation) from `fen`.
fn board_after(fen: &str, moves: &[&str]) -> Board {
    let mut board: Board = fen.parse().unwrap();
    for m in moves {
        let mv = parse_uci_move(&board, m).unwrap();
        board.play(mv);
    }
    board
}

fn assert_legal(board: &Board, lines: &[String]) {
    let text = best_move(lines);
    let mv = parse_uci_move(board, text).unwrap_or_else(|_| panic!("unparsable bestmove {text}"));
    assert!(board.is_legal(mv), "illegal bestmove {text} in {board}");
}

/// Every `info depth` line carries the fields UCI GUIs read, in well-formed shape.
fn assert_well_formed(lines: &[String]) {
    let infos: Vec<_> = lines.iter().filter(|l| is_iteration(l)).collect();
    assert!(!infos.is_empty(), "no info lines in {lines:#?}");
    for line in infos {
        for key in [
            "depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time",
        ] {
            let value = field(line, key).unwrap_or_else(|| panic!("no {key} in {line}"));
            assert!(
                value.parse::<u64>().is_ok(),
                "{key} is not a number in {line}"
            );
        }
        assert!(
            score(line).is_some_and(|(kind, _)| kind == "cp" || kind == "mate"),
            "{line}"
        );
        assert!(field(line, "pv").is_some(), "no pv in {line}");
    }
}

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn realistic_session_with_garbage() {
    let mut engine = Engine::start();
    engine.send("uci");
    let hello = engine.read_until(|l| l == "uciok");
    assert!(hello.iter().any(|l| l.starts_with("id name ")));
    for option in [
        "Hash",
        "EvalHash",
        "Threads",
        "Clear Hash",
        "TTSlots",
        "TTLayout",
        "TTPrefetch",
        "HugePages",
        "MultiPV",
        "UCI_Chess960",
        "Ponder",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}"
        );
    }
    engine.send("setoption name Hash value 8");
    engine.send("isready");
    engine.read_until(|l| l == "readyok");
    engine.send("ucinewgame");
    assert!(engine.sync().is_empty(), "no answer to ucinewgame");

    // Garbage: each answered with an error, and the engine goes on.
    let garbage: [&str; 12] = [
        "hello engine",
        "position",
        "position fen",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - zero 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen k7/8/8/8/8/8/8/K6R9 w - - 0 1",
        "position startpos moves e2e5",
        "position startpos moves e2e4 zz",
        "setoption name Hash value lots",
        "setoption name NoSuchOption value 1",
        "perft many",
    ];
    for line in garbage {
        engine.send(line);
        let answer = engine.sync();
        assert!(
            answer.len() == 1 && answer[0].starts_with("info string error: "),
            "'{line}' answered {answer:?}"
        );
    }
    engine.send_bytes(b"\xff\xfe garbage \x00 bytes\n");
    engine.send(&"x".repeat(100_000));
    let answer = engine.sync();
    assert_eq!(answer.len(), 2, "{answer:?}");
    assert!(
        answer
            .iter()
            .all(|l| l.starts_with("info string error: ") && l.len() < 200),
        "{answer:?}"
    );

    // The illegal FEN left the previous position (none set yet: the start position) in place.
    engine.send("d");
    assert_eq!(engine.sync(), vec![format!("info string fen {STARTPOS}")]);

    // A game: a few moves of an opening, with clocks, as a GUI sends them.
    let mut moves: Vec<String> = ["e2e4", "c7c5", "g1f3"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for _ in 0..4 {
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let lines = engine.go("wtime 3000 btime 3000 winc 30 binc 30");
        assert_well_formed(&lines);
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let board = board_after(STARTPOS, &refs);
        assert_legal(&board, &lines);
        moves.push(best_move(&lines).to_string());
    }

    // Fixed depth, nodes and movetime.
    engine.send("position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let board: Board = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
        .parse()
        .unwrap();
    let lines = engine.go("depth 6");
    assert_eq!(field(last_info(&lines), "depth"), Some("6"));
    assert_legal(&board, &lines);
    let lines = engine.go("nodes 20000");
    assert_legal(&board, &lines);
    let nodes: u64 = field(last_info(&lines), "nodes").unwrap().parse().unwrap();
    assert!(nodes < 200_000, "nodes limit ignored: {nodes}");
    let lines = engine.go("movetime 100");
    assert_legal(&board, &lines);

    // A malformed go parameter is reported, and the search still answers (`depth x` leaves no
    // limit, so it would think for 5 s: `stop` answers at once).
    engine.send("go depth x");
    let errors = engine.read_until(|l| l.starts_with("info depth"));
    assert!(errors[0].starts_with("info string error: "), "{errors:?}");
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert_legal(&board, &lines);

    assert!(engine.quit(), "quit must exit cleanly");
}

#[test]
fn stop_and_isready_during_infinite_search() {
    let mut engine = Engine::start();
    engine.send("position startpos moves d2d4 d7d5");
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth 3"));
    // isready is answered at once, without a bestmove (infinite: only stop ends it).
    let before = engine.sync();
    assert!(
        before.iter().all(|l| !l.starts_with("bestmove")),
        "{before:?}"
    );
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert_legal(&board_after(STARTPOS, &["d2d4", "d7d5"]), &lines);
    // quit during a search ends it, and the process.
    engine.send("go infinite");
    engine.read_until(|l| l.starts_with("info depth 2"));
    assert!(engine.quit());
}

#[test]
fn hash_and_threads_change_between_searches() {
    let mut engine = Engine::start();
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let board: Board = fen.parse().unwrap();
    engine.send(&format!("position fen {fen}"));
    let settings = [
        ("1", "1", "Bucket", "Wide"),
        ("1", "2", "Bucket", "Dense"),
        ("64", "2", "Bucket", "Wide"),
        ("0", "1", "Bucket", "Dense"),
        ("3", "3", "Single", "Wide"),
        ("3", "1", "Single", "Dense"),
        ("16", "1", "Bucket", "dense"),
        ("1", "2", "Bucket", "Cluster"),
        ("3", "1", "Single", "cluster"),
        ("16", "1", "Bucket", "Wide"),
        ("2", "2", "Half", "Dense"),
        ("2", "1", "half", "Cluster"),
        ("2", "1", "Half", "Wide"),
    ];
    for (hash, threads, slots, layout) in settings {
        engine.send(&format!("setoption name Hash value {hash}"));
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send(&format!("setoption name TTSlots value {slots}"));
        engine.send(&format!("setoption name TTLayout value {layout}"));
        assert!(
            engine.sync().is_empty(),
            "options {hash}/{threads}/{slots}/{layout} answered with errors"
        );
        let lines = engine.go("depth 7");
        assert_well_formed(&lines);
        assert_eq!(field(last_info(&lines), "depth"), Some("7"));
        let hashfull: u64 = field(last_info(&lines), "hashfull")
            .unwrap()
            .parse()
            .unwrap();
        if hash == "0" {
            assert_eq!(hashfull, 0, "no table, nothing stored");
        }
        assert_legal(&board, &lines);
    }
    // A Hash the machine cannot allocate: an error, and the old table goes on working.
    engine.send("setoption name Hash value 33554432");
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].starts_with("info string error: "),
        "{answer:?}"
    );
    engine.send("setoption name TTLayout value Sparse");
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].starts_with("info string error: TTLayout must be"),
        "{answer:?}"
    );
    engine.send("setoption name Threads value 0");
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].starts_with("info string error: "),
        "{answer:?}"
    );
    engine.send("setoption name Clear Hash");
    assert!(engine.sync().is_empty());
    let lines = engine.go("depth 8");
    assert_legal(&board, &lines);
    let hashfull: u64 = field(last_info(&lines), "hashfull")
        .unwrap()
        .parse()
        .unwrap();
    assert!(hashfull > 0, "the 16 MiB table was kept and used");
    assert!(engine.quit());
}

/// `EvalHash` (the evaluation cache) takes sizes from 0 (off) to its maximum between searches;
/// a bad value is one error line and the engine searches on with the cache it had. The cache
/// changes no search: `bench`'s node count is the same with it and without it.
#[test]
fn eval_hash_parses_and_bad_values_are_errors() {
    let mut engine = Engine::start();
    // `bench 5`: its node count, and whether it reported the cache's hit rate.
    let bench = |engine: &mut Engine| -> (u64, bool) {
        engine.send("bench 5");
        let lines = engine.read_until(|l| l.starts_with("Nodes/second    : "));
        let reported = lines
            .iter()
            .any(|l| l.starts_with("info string evalcache probes "));
        let nodes = lines[lines.len() - 2].rsplit(' ').next().unwrap();
        (nodes.parse().unwrap(), reported)
    };
    engine.send("setoption name EvalHash value 0");
    let (without, reported) = bench(&mut engine);
    assert!(!reported, "no cache, no hit rate");
    for mib in ["1", "0", "16"] {
        engine.send(&format!("setoption name EvalHash value {mib}"));
        assert!(engine.sync().is_empty(), "EvalHash {mib}");
        assert_eq!(bench(&mut engine), (without, mib != "0"), "EvalHash {mib}");
    }
    engine.send("setoption name EvalHash value 256");
    assert!(engine.sync().is_empty(), "EvalHash 256, the maximum");
    for bad in ["-1", "257", "abc", "", "99999999999999999999999"] {
        engine.send(&format!("setoption name EvalHash value {bad}"));
        let answer = engine.sync();
        assert!(
            answer.len() == 1 && answer[0].starts_with("info string error: "),
            "EvalHash {bad:?}: {answer:?}"
        );
    }
    engine.send("ucinewgame");
    engine.send("position startpos moves e2e4");
    let lines = engine.go("depth 6");
    assert_well_formed(&lines);
    assert!(engine.quit());

    // A cache the process cannot allocate (256 MiB under a 192 MiB address-space limit): an
    // error, and the old cache goes on working.
    let mut engine = Engine::start_with_address_limit(192 << 10);
    engine.send("setoption name EvalHash value 1");
    assert!(engine.sync().is_empty());
    engine.send("setoption name EvalHash value 256");
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].starts_with("info string error: EvalHash 256"),
        "{answer:?}"
    );
    assert!(answer[0].ends_with("keeping the old cache"), "{answer:?}");
    assert_eq!(
        bench(&mut engine),
        (without, true),
        "the 1 MiB cache is kept"
    );
    assert!(engine.quit());
}

/// `hashfull` counts this search's entries in every layout: a 1 MiB table fills (the dense
/// one holds twice the entries, so both read near 1000 after a deep enough search), and the
/// next search starts from 0 again in the sense that old entries do not count.
#[test]
fn hashfull_is_right_in_every_layout() {
    for layout in ["Wide", "Dense", "Cluster"] {
        let mut engine = Engine::start();
        engine.send("setoption name Hash value 1");
        engine.send(&format!("setoption name TTLayout value {layout}"));
        engine.send("position startpos");
        assert!(engine.sync().is_empty());
        let hashfull = |lines: &[String]| -> u64 {
            field(last_info(lines), "hashfull")
                .unwrap()
                .parse()
                .unwrap()
        };
        let full = hashfull(&engine.go("nodes 1500000"));
        assert!(full > 900 && full <= 1000, "{layout}: hashfull {full}");
        // A search of a few nodes writes a few entries: old ones do not count.
        engine.send("position startpos moves e2e4 e7e5");
        let fresh = hashfull(&engine.go("nodes 300"));
        assert!(fresh < 100, "{layout}: hashfull {fresh} after 300 nodes");
        assert!(engine.quit());
    }
}

#[test]
fn bench_is_deterministic_and_perft_commands_agree() {
    let mut engine = Engine::start();
    let run = |engine: &mut Engine| -> u64 {
        engine.send("bench 5");
        let lines = engine.read_until(|l| l.starts_with("bench "));
        assert!(
            lines
                .iter()
                .filter(|l| l.starts_with("info string bench "))
                .count()
                >= 8
        );
        field(lines.last().unwrap(), "nodes")
            .unwrap()
            .parse()
            .unwrap()
    };
    let first = run(&mut engine);
    assert!(first > 0);
    assert_eq!(
        run(&mut engine),
        first,
        "bench node count must be deterministic"
    );
    engine
        .send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for command in ["perft 3", "perft-tt 3", "perft-tt 4 1"] {
        engine.send(command);
        let lines = engine.read_until(|l| l.starts_with("Nodes searched: "));
        let expected = if command.contains('4') {
            "4085603"
        } else {
            "97862"
        };
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {expected}"),
            "{command}"
        );
    }
    assert!(engine.quit());
}

/// Random lines built from UCI words, numbers, FEN pieces and noise (a seeded generator, so a
/// failure reproduces): the engine must answer each `isready` and stay alive.
#[test]
fn random_lines_never_kill_the_engine() {
    let words = [
        "uci",
        "isready",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "setoption",
        "name",
        "value",
        "Hash",
        "Threads",
        "Clear",
        "TTSlots",
        "Single",
        "TTLayout",
        "Dense",
        "EvalHash",
        "perft",
        "perft-tt",
        "bench",
        "e2e4",
        "e7e5",
        "e1g1",
        "a7a8q",
        "-1",
        "0",
        "1",
        "3",
        "99999999999999999999",
        "w",
        "b",
        "KQkq",
        "-",
        "8/8/8/8/8/8/8/8",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "k7/8/8/8/8/8/8/K7",
        "K7/8/8/8/8/8/8/k7",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR",
        "7k/P7/8/8/8/8/8/K7",
        "r3k2r/8/8/8/8/8/8/R3K2R",
        "e3",
        "a6",
        "h9",
        "ucinewgame",
        "TTPrefetch",
        "true",
        "HugePages",
        "mate",
        "stop",
    ];
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut engine = Engine::start();
    for round in 0..1500 {
        let len = 1 + next(9);
        let mut line: Vec<&str> = (0..len).map(|_| words[next(words.len())]).collect();
        // Keep searches and perfts short: the point is the parser, not the search.
        if matches!(line[0], "go" | "bench" | "perft" | "perft-tt") {
            line.truncate(1);
            line.push(match line[0] {
                "go" => "depth 2",
                "bench" => "1",
                _ => "2",
            });
        }
        if line.first() == Some(&"setoption") && line.contains(&"Hash") {
            continue; // allocating tables of random sizes is slow, not interesting
        }
        let line = line.join(" ");
        engine.send(&line);
        if line.starts_with("go") {
            engine.read_until(|l| l.starts_with("bestmove"));
        }
        if round % 50 == 0 {
            engine.sync();
        }
    }
    engine.sync();
    assert!(engine.quit(), "the engine survives and quits cleanly");
}

/// A `Hash` the process cannot allocate (4 GiB under a 1 GiB address-space limit): an error
/// answer, and the old table keeps its entries and keeps working.
#[cfg(unix)]
#[test]
fn failed_hash_allocation_keeps_the_old_table() {
    let mut engine = Engine::start_with_address_limit(1 << 20);
    engine.send("setoption name Hash value 8");
    assert!(engine.sync().is_empty());
    engine.send("position startpos moves e2e4");
    let first = engine.go("depth 7");
    let hashfull = |lines: &[String]| -> u64 {
        field(last_info(lines), "hashfull")
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(hashfull(&first) > 0);
    engine.send("setoption name Hash value 4096");
    let answer = engine.sync();
    assert!(
        answer.len() == 1 && answer[0].starts_with("info string error: Hash 4096"),
        "{answer:?}"
    );
    // The kept table still holds the first search's entries: the same search is answered from
    // them, with fewer nodes than the first time.
    let again = engine.go("depth 7");
    let nodes =
        |lines: &[String]| -> u64 { field(last_info(lines), "nodes").unwrap().parse().unwrap() };
    assert!(
        nodes(&again) < nodes(&first),
        "{} vs {}",
        nodes(&again),
        nodes(&first)
    );
    assert_legal(&board_after(STARTPOS, &["e2e4"]), &again);
    assert!(engine.quit());
}

/// `go searchmoves` restricts the root to the listed moves: the best move comes from the list
/// even when it is a poor move, illegal entries are reported and dropped, and a list with no
/// legal move falls back to searching every move.
#[test]
fn searchmoves_restricts_the_root() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.read_until(|l| l == "uciok");
    engine.send("position startpos moves e2e4 e7e5");
    let board = board_after(STARTPOS, &["e2e4", "e7e5"]);
    // The king walk and a queen sortie: nothing a free search at this depth would pick first.
    let lines = engine.go("depth 6 searchmoves e1e2 d1h5");
    let best = best_move(&lines);
    assert!(best == "e1e2" || best == "d1h5", "{best} not in the list");
    for line in lines.iter().filter(|l| l.starts_with("info depth")) {
        let pv = field(line, "pv").unwrap();
        assert!(pv == "e1e2" || pv == "d1h5", "a PV leaves the list: {line}");
    }
    // One move: it is the answer at any depth.
    let lines = engine.go("depth 4 searchmoves g1f3");
    assert_eq!(best_move(&lines), "g1f3");
    // An illegal entry is reported and dropped; the legal one is searched.
    let lines = engine.go("depth 3 searchmoves e2e4 b1c3");
    assert!(
        lines.iter().any(|l| l.contains("'e2e4' is not legal")),
        "{lines:#?}"
    );
    assert_eq!(best_move(&lines), "b1c3");
    // No legal move in the list: every move is searched, and the answer is legal.
    let lines = engine.go("depth 3 searchmoves e2e4");
    assert!(
        lines.iter().any(|l| l.contains("searching all moves")),
        "{lines:#?}"
    );
    assert_legal(&board, &lines);
    assert!(engine.quit());
}

/// `go ponder`: no `bestmove` while pondering, whatever the clock says, until `ponderhit` (then
/// the search is on the clock, which has long run out here, so the answer comes at once) or
/// `stop`; the engine offers the `Ponder` option GUIs look for.
#[test]
fn ponder_waits_for_ponderhit_or_stop() {
    let mut engine = Engine::start();
    engine.send("uci");
    let hello = engine.read_until(|l| l == "uciok");
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Ponder type check")));
    engine.send("setoption name Ponder value true");
    engine.send("position startpos");
    // 100 ms on the clock: a normal `go` answers within it.
    engine.send("go ponder wtime 100 btime 100");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let meanwhile = engine.sync();
    assert!(
        !meanwhile.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {meanwhile:#?}"
    );
    engine.send("ponderhit");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert_legal(&board_after(STARTPOS, &[]), &lines);
    // Pondering ended by `stop` answers too.
    engine.send("go ponder wtime 100000 btime 100000");
    std::thread::sleep(std::time::Duration::from_millis(200));
    engine.send("stop");
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    assert_legal(&board_after(STARTPOS, &[]), &lines);
    assert!(engine.quit());
}
