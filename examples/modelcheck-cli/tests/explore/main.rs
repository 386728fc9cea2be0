//! `modelcheck explore` over loopback: the JSON API on 2PC, the broken lock and the
//! philosophers, its errors (malformed paths, steps not enabled, paths too long), long paths,
//! concurrent clients, and its command line.

mod http;
mod server;

use http::{get, request};
use modelcheck_cli::explore::{MAX_BLOCKING_THREADS, MAX_PATH_LEN};
use modelcheck_cli::{EXIT_ERROR, EXIT_OK, EXIT_USAGE};
use serde_json::Value;
use server::Server;
use std::io::Write;
use std::net::{SocketAddr, TcpStream};

/// `GET /api/state?path=PATH`, which must answer 200.
fn state(addr: SocketAddr, path: &str) -> Value {
    let answer = get(addr, &format!("/api/state?path={path}"));
    assert_eq!(answer.status, 200, "{path}: {}", answer.body);
    answer.json()
}

/// The `p` of the property `name` in a state's answer.
fn property(state: &Value, name: &str) -> bool {
    let found = state["properties"].as_array().unwrap().iter();
    let mut found = found.filter(|p| p["name"] == name);
    found.next().unwrap_or_else(|| panic!("no {name}"))["p"]
        .as_bool()
        .unwrap()
}

fn strings(value: &Value) -> Vec<String> {
    let items = value.as_array().unwrap().iter();
    items.map(|v| v.as_str().unwrap().to_string()).collect()
}

/// The 2PC-3 path of 100,000 indices: TMAbort, rm0 aborts on the message, then rm0's
/// self-loop (it receives `Abort` again) 99,997 times.
fn long_2pc_path(len: usize) -> String {
    let mut path = String::from("0/0/2");
    for _ in 3..len {
        path.push_str("/0");
    }
    path
}

#[test]
fn walks_2pc_states_by_path() {
    let server = Server::start(&["2pc", "3"]);
    let model = get(server.addr, "/api/model").json();
    assert_eq!(model["name"], "2pc(rms=3)");
    assert_eq!(model["initial_states"], 1);
    assert_eq!(model["properties"][0]["name"], "TPConsistent");
    assert_eq!(model["properties"][0]["kind"], "invariant");

    let root = state(server.addr, "");
    assert_eq!(root["state"], Value::Null);
    assert_eq!(root["actions"][0]["action"], "initial state");
    let initial = state(server.addr, "0");
    assert_eq!(
        initial["state"],
        "rm=[working, working, working] tm=init tmPrepared={} msgs={}"
    );
    assert_eq!(initial["actions"].as_array().unwrap().len(), 7);
    assert_eq!(initial["actions"][3]["action"], "RMPrepare(rm1)");

    let view = state(server.addr, "0/3/1");
    assert_eq!(view["path"], serde_json::json!([0, 3, 1]));
    assert_eq!(strings(&view["trail"]), ["RMPrepare(rm1)", "TMAbort"]);
    assert_eq!(
        view["state"],
        "rm=[working, prepared, working] tm=aborted tmPrepared={} msgs={Prepared(rm1), Abort}"
    );
    assert!(property(&view, "TPConsistent"));
    assert_eq!(view["deadlock"], false);
    // Each action's state is the state its path leads to.
    for action in view["actions"].as_array().unwrap() {
        let next = state(server.addr, &format!("0/3/1/{}", action["index"]));
        assert_eq!(next["state"], action["state"]);
    }
    // The same path as a POST body, and with the URL's leading slash.
    let posted = request(server.addr, "POST", "/api/state", "0/3/1\n");
    assert_eq!(posted.json(), view);
    assert_eq!(state(server.addr, "/0/3/1"), view);
}

#[test]
fn serves_the_page_and_its_script() {
    let server = Server::start(&["2pc", "3"]);
    let page = get(server.addr, "/");
    assert_eq!(
        (page.status, page.content_type.as_str()),
        (200, "text/html; charset=utf-8")
    );
    assert!(page.body.contains("<script src=\"/explorer.js\">"));
    let script = get(server.addr, "/explorer.js");
    assert_eq!(script.status, 200);
    assert!(script.content_type.starts_with("text/javascript"));
    assert!(script.body.contains("/api/state"));
    let missing = get(server.addr, "/nowhere").error(404);
    assert!(missing.contains("the API is GET /api/model"), "{missing}");
}

#[test]
fn malformed_paths_are_400_with_a_message() {
    let server = Server::start(&["2pc", "3"]);
    for (path, says) in [
        ("x", "malformed path: index 0 is `x`"),
        ("0//1", "malformed path: index 1 is ``"),
        ("0/1/", "malformed path: index 2 is ``"),
        ("0/-1", "malformed path: index 1 is `-1`"),
        ("0/1.5", "malformed path: index 1 is `1.5`"),
        ("0/%2B1", "malformed path: index 1 is `+1`"),
        (
            "0/99999999999999999999",
            "malformed path: index 1 is `99999999999999999999`",
        ),
        ("%ZZ", "malformed"),
    ] {
        let error = get(server.addr, &format!("/api/state?path={path}")).error(400);
        assert!(error.contains(says), "{path}: {error}");
    }
    let error = request(server.addr, "POST", "/api/state", "0/a").error(400);
    assert!(error.contains("malformed path: index 1 is `a`"), "{error}");
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let invalid = b"POST /api/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n\xff\xfe";
    stream.write_all(invalid).unwrap();
    let mut raw = String::new();
    std::io::Read::read_to_string(&mut stream, &mut raw).unwrap();
    assert!(raw.starts_with("HTTP/1.1 400"), "{raw}");
    assert!(raw.contains("not UTF-8"), "{raw}");
}

#[test]
fn steps_not_enabled_are_404_with_a_message() {
    let server = Server::start(&["2pc", "3"]);
    for (path, says) in [
        ("1", "no initial state #1: the model has 1 (#0 to #0)"),
        (
            "0/7",
            "step 1 of the path (action #7) is not enabled: the state at depth 0 has 7 \
             enabled actions, #0 to #6",
        ),
        (
            "0/3/1/4294967295",
            "step 3 of the path (action #4294967295) is not enabled",
        ),
    ] {
        let error = get(server.addr, &format!("/api/state?path={path}")).error(404);
        assert!(error.contains(says), "{path}: {error}");
    }
    // The server is still up and answering.
    assert_eq!(state(server.addr, "0")["path"], serde_json::json!([0]));
}

#[test]
fn a_deadlock_is_shown_and_no_step_leaves_it() {
    let server = Server::start(&["philosophers", "2"]);
    let check = request(server.addr, "POST", "/api/check", "").json();
    assert_eq!(check["result"], "counterexample");
    assert_eq!(check["message"], "deadlock after 2 steps");
    let trace = &check["traces"][0];
    assert_eq!(trace["property"], "deadlock");
    let path: Vec<String> = trace["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    let path = path.join("/");
    let end = state(server.addr, &path);
    assert_eq!(end["deadlock"], true);
    assert_eq!(end["actions"], serde_json::json!([]));
    let error = get(server.addr, &format!("/api/state?path={path}/0")).error(404);
    assert!(error.contains("has no enabled actions"), "{error}");
}

#[test]
fn the_check_finds_the_broken_locks_counterexample_and_each_step_walks() {
    let server = Server::start(&["buggy", "3"]);
    let check = request(server.addr, "POST", "/api/check", "").json();
    assert_eq!(check["result"], "counterexample", "{check}");
    assert_eq!(
        check["message"],
        "invariant MutualExclusion violated after 4 steps"
    );
    let trace = &check["traces"][0];
    assert_eq!(trace["kind"], "counterexample");
    assert_eq!(trace["property"], "MutualExclusion");
    let path: Vec<u64> = trace["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let actions = strings(&trace["actions"]);
    assert_eq!((path.len(), actions.len()), (5, 4));
    for k in 0..path.len() {
        let prefix: Vec<String> = path[..=k].iter().map(u64::to_string).collect();
        let view = state(server.addr, &prefix.join("/"));
        assert_eq!(strings(&view["trail"]), actions[..k]);
        // The invariant holds until the last state, which violates it.
        assert_eq!(property(&view, "MutualExclusion"), k < 4, "step {k}");
    }
    let end = state(
        server.addr,
        &path
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("/"),
    );
    assert_eq!(
        end["state"].as_str().unwrap().matches("CRITICAL").count(),
        2
    );
    // A second check answers the first one's result.
    assert_eq!(request(server.addr, "POST", "/api/check", "").json(), check);
}

#[test]
fn a_complete_check_has_no_counterexample_and_an_example_per_sometimes_property() {
    let server = Server::start(&["2pc", "3", "--threads", "1"]);
    let check = request(server.addr, "POST", "/api/check", "").json();
    assert_eq!(check["result"], "complete");
    assert_eq!(
        (check["states"].as_u64(), check["transitions"].as_u64()),
        (Some(288), Some(1145))
    );
    let traces = check["traces"].as_array().unwrap();
    let found: Vec<(String, String, usize)> = traces
        .iter()
        .map(|t| {
            let steps = t["actions"].as_array().unwrap().len();
            (t["kind"].to_string(), t["property"].to_string(), steps)
        })
        .collect();
    let example = |name: &str, steps| (r#""example""#.into(), format!("{name:?}"), steps);
    assert_eq!(
        found,
        [example("AllCommitted", 10), example("AllAborted", 3)],
        "shortest examples, in the model's order"
    );
    // Each example's path leads to a state where its property is reached.
    for trace in traces {
        let path: Vec<String> = trace["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(Value::to_string)
            .collect();
        let end = state(server.addr, &path.join("/"));
        let name = trace["property"].as_str().unwrap();
        assert!(
            property(&end, name),
            "{name} not reached at the example's end"
        );
    }
    let wrong_method = get(server.addr, "/api/check");
    assert_eq!(wrong_method.status, 405);
}

#[test]
fn a_path_of_100000_indices_is_walked_and_a_longer_one_refused() {
    let server = Server::start(&["2pc", "3"]);
    let path = long_2pc_path(MAX_PATH_LEN);
    let answer = request(server.addr, "POST", "/api/state", &path);
    assert_eq!(answer.status, 200, "{}", answer.body);
    let view = answer.json();
    assert_eq!(view["path"].as_array().unwrap().len(), MAX_PATH_LEN);
    let trail = strings(&view["trail"]);
    assert_eq!(trail.len(), MAX_PATH_LEN - 1);
    assert_eq!(trail[..2], ["TMAbort", "RMRcvAbortMsg(rm0)"]);
    assert!(trail[2..].iter().all(|a| a == "RMRcvAbortMsg(rm0)"));
    assert_eq!(
        view["state"],
        "rm=[aborted, working, working] tm=aborted tmPrepared={} msgs={Abort}"
    );

    let longer = long_2pc_path(MAX_PATH_LEN + 1);
    let error = request(server.addr, "POST", "/api/state", &longer).error(400);
    assert!(error.contains("more than 100000 indices"), "{error}");
    // Far longer: a URL past the HTTP layer's limit is refused by it (414), a body over 2 MiB
    // by axum's limit (413, with the JSON error).
    let huge = get(
        server.addr,
        &format!("/api/state?path={}", long_2pc_path(MAX_PATH_LEN)),
    );
    assert_eq!(huge.status, 414);
    let huge = request(server.addr, "POST", "/api/state", &long_2pc_path(1_500_000));
    let error = huge.error(413);
    assert!(error.contains("length limit exceeded"), "{error}");
    assert_eq!(state(server.addr, "0/0")["trail"][0], "TMAbort");
}

#[test]
fn concurrent_clients_are_served_while_one_stalls() {
    let server = Server::start(&["2pc", "3"]);
    // A client that sends half a request and waits holds one connection, not the server.
    let mut stalled = TcpStream::connect(server.addr).unwrap();
    stalled
        .write_all(b"GET /api/state?path=0 HTTP/1.1\r\nHo")
        .unwrap();
    let expected = state(server.addr, "0/3/1");
    let addr = server.addr;
    let clients: Vec<_> = (0..8)
        .map(|client| {
            let expected = expected.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    if (client + i) % 5 == 0 {
                        let long = request(addr, "POST", "/api/state", &long_2pc_path(2_000));
                        assert_eq!(long.status, 200);
                    } else {
                        assert_eq!(state(addr, "0/3/1"), expected);
                    }
                }
                // Every client asks for the check at once: one run, one answer.
                request(addr, "POST", "/api/check", "").json()
            })
        })
        .collect();
    let checks: Vec<Value> = clients.into_iter().map(|c| c.join().unwrap()).collect();
    assert!(checks.iter().all(|c| c == &checks[0] && c["states"] == 288));
    drop(stalled);
}

#[test]
fn long_walks_at_once_take_at_most_max_blocking_threads() {
    let server = Server::start(&["2pc", "3"]);
    let idle = server.threads();
    let addr = server.addr;
    let path = std::sync::Arc::new(long_2pc_path(MAX_PATH_LEN));
    let clients: Vec<_> = (0..32)
        .map(|_| {
            let path = std::sync::Arc::clone(&path);
            std::thread::spawn(move || request(addr, "POST", "/api/state", &path).status)
        })
        .collect();
    assert!(clients.into_iter().all(|c| c.join().unwrap() == 200));
    // The blocking pool keeps its threads idle for 10 s after use: all are still there. Walks
    // take turns, and the pool is capped: without either this grew by 25 to 31 here.
    let grown = server.threads() - idle;
    assert!(
        grown <= MAX_BLOCKING_THREADS,
        "{idle} threads, then {grown} more after 32 long walks at once"
    );
}

#[test]
fn sigterm_stops_the_server_with_status_0() {
    let server = Server::start(&["2pc", "3"]);
    assert_eq!(state(server.addr, "0")["path"], serde_json::json!([0]));
    assert_eq!(server.terminate(), EXIT_OK);
}

#[test]
fn listens_on_loopback_unless_bound_elsewhere() {
    let server = Server::start(&["2pc"]);
    assert_eq!(server.addr.ip().to_string(), "127.0.0.1");
    assert_eq!(get(server.addr, "/api/model").json()["name"], "2pc(rms=3)");
    let other = Server::start(&["buggy", "--bind", "127.0.0.2"]);
    assert_eq!(other.addr.ip().to_string(), "127.0.0.2");
    assert_eq!(get(other.addr, "/api/model").json()["name"], "buggy(n=2)");
}

/// Runs `modelcheck ARGS` in this process; returns the status, stdout and stderr.
fn run(args: &[&str]) -> (i32, String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let status = modelcheck_cli::run(args, &mut out, &mut err);
    (
        status,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[test]
fn command_line_errors_are_usage_errors_or_errors() {
    for (args, says) in [
        (&["explore"][..], "required arguments were not provided"),
        (&["explore", "nosuch"], "invalid value 'nosuch'"),
        (
            &["explore", "2pc", "0"],
            "the model size N must be a positive whole number",
        ),
        (
            &["explore", "2pc", "16"],
            "2pc needs 1 to 15 resource managers, got 16",
        ),
        (
            &["explore", "2pc", "--port", "65536"],
            "invalid value '65536' for '--port <P>'",
        ),
        (
            &["explore", "2pc", "--bind", "localhost:80"],
            "invalid value 'localhost:80'",
        ),
        (
            &["explore", "2pc", "--threads", "0"],
            "--threads takes 1 to 1024",
        ),
        (
            &["explore", "2pc", "--frobnicate"],
            "unexpected argument '--frobnicate'",
        ),
    ] {
        let (status, out, err) = run(args);
        assert_eq!(status, EXIT_USAGE, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(err.contains("try '--help'"), "{args:?}: {err}");
        assert!(out.is_empty());
    }
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (status, _, err) = run(&["explore", "2pc", "--port", &port]);
    assert_eq!(status, EXIT_ERROR, "{err}");
    assert!(
        err.contains(&format!("error: cannot listen on 127.0.0.1:{port}")),
        "{err}"
    );
    // An address that is not this machine's (TEST-NET-1): warned of, then refused.
    let (status, _, err) = run(&["explore", "2pc", "--bind", "192.0.2.1"]);
    assert_eq!(status, EXIT_ERROR, "{err}");
    assert!(
        err.contains("warning: listening on 192.0.2.1: any machine"),
        "{err}"
    );
    assert!(err.contains("error: cannot listen on 192.0.2.1:0"), "{err}");
}

#[test]
fn help_names_the_explorer() {
    let (status, out, _) = run(&["explore", "--help"]);
    assert_eq!(status, EXIT_OK);
    assert!(
        out.contains("Usage: modelcheck explore [OPTIONS] <MODEL> [SIZE]"),
        "{out}"
    );
    assert!(out.contains("--bind <ADDR>"), "{out}");
    let (status, out, _) = run(&["--help"]);
    assert_eq!(status, EXIT_OK);
    assert!(
        out.contains("modelcheck explore MODEL [N] [--port P] [--bind ADDR]"),
        "{out}"
    );
}
