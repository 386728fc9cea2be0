//! `Encoded<M>` (`--encoded-states`) checks the same model as `M`: for every built-in model,
//! the same states, transitions, depth and verdict, the same counterexample shown step by step,
//! the same `sometimes` and liveness verdicts; and each state is one block of its postcard
//! bytes behind a 16-byte handle.

use modelcheck::models::{self, WithModel, CATALOGUE};
use modelcheck::{
    check, check_liveness, Encoded, EncodedState, LivenessVerdict, Mode, Model, Options, Report,
    SometimesVerdict, Verdict,
};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Everything a run says that the encoding must not change, as text.
fn summary<M: Model>(model: &M, report: &Report<M>) -> String {
    let s = &report.stats;
    let verdict = match &report.verdict {
        Verdict::Complete => "complete".to_string(),
        Verdict::DepthLimit => "depth limit".to_string(),
        Verdict::Counterexample(trace) => {
            let mut text = format!("{:?}: {}", trace.failure, model.show(&trace.initial));
            for (action, state) in &trace.steps {
                text.push_str(&format!("\n  {action} {}", model.show(state)));
            }
            text
        }
        Verdict::Full(_) => "full".to_string(),
        Verdict::Interrupted => "interrupted".to_string(),
        Verdict::Error(e) => format!("error: {e}"),
    };
    let sometimes: Vec<String> = report
        .sometimes
        .iter()
        .map(|r| {
            let verdict = match &r.verdict {
                SometimesVerdict::Example(example) => {
                    format!("example, {} steps", example.steps.len())
                }
                SometimesVerdict::Vacuous => "vacuous".to_string(),
                SometimesVerdict::NotFound => "not found".to_string(),
                SometimesVerdict::Error(e) => format!("error: {e}"),
            };
            format!("{}: {verdict}", r.name)
        })
        .collect();
    format!(
        "{} states, {} transitions, depth {}; {verdict}; sometimes {sometimes:?}",
        s.states, s.transitions, s.depth
    )
}

/// The liveness verdicts, by name.
fn liveness<M: Model>(model: &M, options: &Options) -> Vec<String> {
    let report = check_liveness(model, options).expect("liveness runs");
    let verdicts = report.properties.iter().map(|p| {
        let verdict = match &p.verdict {
            LivenessVerdict::Holds => "holds".to_string(),
            LivenessVerdict::Violated(lasso) => {
                format!(
                    "violated, {} + {} steps",
                    lasso.stem.len(),
                    lasso.cycle.len()
                )
            }
            _ => "no verdict".to_string(),
        };
        format!("{}: {verdict}", p.name)
    });
    verdicts.collect()
}

/// Runs a model plain and encoded, in `mode`, and compares.
struct Compare(Mode);

impl WithModel for Compare {
    type Output = String;
    fn visit<M: Model>(self, model: M) -> String
    where
        M::State: Serialize + DeserializeOwned,
    {
        let options = Options {
            threads: 2,
            mode: self.0,
            memory_bytes: 64 << 20,
            max_depth: Some(12),
            ..Options::default()
        };
        let plain = summary(&model, &check(&model, &options));
        let plain_liveness = liveness(&model, &options);
        let encoded_model = Encoded::new(model);
        let encoded = summary(&encoded_model, &check(&encoded_model, &options));
        assert_eq!(encoded, plain, "{}", encoded_model.name());
        let encoded_liveness = liveness(&encoded_model, &options);
        assert_eq!(encoded_liveness, plain_liveness, "{}", encoded_model.name());
        plain
    }
}

#[test]
fn every_model_checks_the_same_encoded_in_both_exact_and_fp64_modes() {
    for mode in [Mode::Exact, Mode::Fp64] {
        for &(name, size, _) in CATALOGUE {
            let summary = models::with_model(name, size, Compare(mode)).expect("a model");
            assert!(!summary.starts_with("0 states"), "{name}: {summary}");
        }
    }
}

#[test]
fn the_actor_models_count_the_same_to_depth_12_and_a_deadlock_trace_is_the_same() {
    // Paxos and ABD with 2 clients (states that own heap memory); philosophers' deadlock
    // gives a counterexample whose states are shown through the decode.
    for (name, n) in [("paxos", 2), ("abd", 2), ("philosophers", 4)] {
        let summary = models::with_model(name, n, Compare(Mode::Exact)).expect("a model");
        assert!(summary.contains("states"), "{name}: {summary}");
        if name == "philosophers" {
            assert!(summary.contains("Deadlock"), "{summary}");
        }
    }
}

/// The encoding of the first few states of a model, against postcard's own.
struct Sizes;

impl WithModel for Sizes {
    type Output = ();
    fn visit<M: Model>(self, model: M)
    where
        M::State: Serialize + DeserializeOwned,
    {
        let encoded = Encoded::new(model);
        let mut out = Vec::new();
        for state in encoded.initial_states() {
            let decoded = encoded.decode(&state);
            let bytes = postcard::to_allocvec(&decoded).unwrap();
            assert_eq!(state.len(), bytes.len());
            assert_eq!(encoded.encode(&decoded), state);
            encoded.successors(&state, &mut out);
            for (_, next) in out.drain(..) {
                let bytes = postcard::to_allocvec(&encoded.decode(&next)).unwrap();
                assert_eq!(next.len(), bytes.len());
            }
        }
    }
}

#[test]
fn a_state_is_its_postcard_bytes_behind_a_16_byte_handle() {
    assert_eq!(size_of::<EncodedState>(), 16);
    for &(name, size, _) in CATALOGUE {
        models::with_model(name, size, Sizes).expect("a model");
    }
}

#[test]
#[should_panic(expected = "does not decode")]
fn bytes_no_state_encoded_to_do_not_decode() {
    // Three bytes whose first says the servers' list holds more entries than follow.
    let bytes = postcard::to_allocvec(&vec![0xffu8; 3]).unwrap();
    let foreign: EncodedState = postcard::from_bytes(&bytes).unwrap();
    let model = Encoded::new(models::paxos::Paxos::new(2).unwrap());
    let _ = model.decode(&foreign);
}
