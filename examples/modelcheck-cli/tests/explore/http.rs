//! A minimal HTTP/1.1 client over a raw `TcpStream` (lighter to build than an HTTP crate): one
//! request a connection, `Connection: close`, the whole answer read.

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// The longest any answer may take (they take milliseconds; a 100,000-step path, a second).
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(120);

/// An answer: its status and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub body: String,
}

impl Answer {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// The `error` of a JSON error body, checking its status.
    pub fn error(&self, status: u16) -> String {
        assert_eq!(self.status, status, "{}", self.body);
        assert_eq!(self.content_type, "application/json", "{self:?}");
        self.json()["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error field: {}", self.body))
            .to_string()
    }
}

/// Sends `method target` with `body` to `addr`; returns the answer.
pub fn request(addr: SocketAddr, method: &str, target: &str, body: &str) -> Answer {
    let mut stream = TcpStream::connect(addr).expect("the explorer accepts");
    stream.set_read_timeout(Some(ANSWER_TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(ANSWER_TIMEOUT)).unwrap();
    let head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .expect("the whole answer arrives");
    parse(&raw)
}

/// `GET target`.
pub fn get(addr: SocketAddr, target: &str) -> Answer {
    request(addr, "GET", target, "")
}

/// Splits a raw answer into status, content type and body (a `Content-Length` body).
fn parse(raw: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no header end in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {head:?}"));
    let header = |name: &str| {
        head.lines()
            .filter_map(|l| l.split_once(": "))
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_string())
    };
    assert!(
        header("transfer-encoding").is_none(),
        "a chunked answer: {head}"
    );
    if let Some(length) = header("content-length") {
        assert_eq!(length.parse::<usize>().unwrap(), body.len(), "{head}");
    }
    Answer {
        status,
        content_type: header("content-type").unwrap_or_default(),
        body: body.to_string(),
    }
}
