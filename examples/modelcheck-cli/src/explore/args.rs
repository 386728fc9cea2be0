//! `modelcheck explore`'s command line: the model, its size, and where to listen.

use crate::args::{model_names, parse_model_size, parse_threads};
use clap::builder::PossibleValuesParser;
use clap::Parser;
use modelcheck::models::CATALOGUE;
use std::net::{IpAddr, Ipv4Addr};

/// `modelcheck explore MODEL [N] [--port P] [--bind ADDR]`.
#[derive(Parser, Debug, Clone)]
#[command(
    name = "modelcheck explore",
    about = "Serves a page for stepping through a model's states: the current state, its \
             enabled actions (each a link to its successor), the path walked, each property on \
             the state, and a check whose counterexample can be stepped through. A state's path \
             is in the URL (#/0/3/1), so it can be bookmarked. Listens on 127.0.0.1 unless \
             --bind says otherwise; stops on Ctrl-C.",
    max_term_width = 100
)]
pub struct ExploreArgs {
    /// The model to explore (`modelcheck --help` lists them).
    #[arg(value_parser = PossibleValuesParser::new(model_names()), hide_possible_values = true)]
    pub model: String,
    /// The model's size N [default: the model's, as `modelcheck --help` lists it].
    #[arg(value_parser = parse_model_size, allow_negative_numbers = true)]
    pub size: Option<usize>,
    /// The port to listen on; 0 picks a free one [default: 0]. The URL is printed.
    #[arg(long, value_name = "P", default_value_t = 0)]
    pub port: u16,
    /// The address to listen on [default: 127.0.0.1, this machine only]. Another address lets
    /// other machines browse the model and run its check: the explorer has no login.
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<IpAddr>,
    /// The check's worker threads, 1 to 1024 [default: all cores].
    #[arg(long, value_name = "T", value_parser = parse_threads)]
    pub threads: Option<usize>,
}

impl ExploreArgs {
    /// The model's size: the one given, or the catalogue's default.
    pub fn size(&self) -> usize {
        self.size.unwrap_or_else(|| {
            CATALOGUE
                .iter()
                .find(|(name, _, _)| *name == self.model)
                .map_or(0, |(_, n, _)| *n)
        })
    }

    /// The address to listen on: `--bind`, or loopback.
    pub fn ip(&self) -> IpAddr {
        self.bind.unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST))
    }
}
