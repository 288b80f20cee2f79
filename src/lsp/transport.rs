//! The byte stream under the protocol: `Content-Length` framing (LSP 3.17
//! "Base Protocol") over any reader and writer, feeding an
//! [`lsp_server::Connection`].
//!
//! Hand-rolled on purpose (a note, as the guide asks): `lsp-server`'s own
//! stdio transport ends its reader thread on the first malformed frame
//! (invalid JSON, a header without `Content-Length`), which closes the
//! connection and stops the server. Here a malformed frame is answered
//! with a JSON-RPC error (`-32700` parse error, `-32600` invalid request;
//! `id` null when the frame has none) and reading goes on with the next
//! frame. Well-formed messages go through `lsp-server`'s
//! [`lsp_server::Message`] (its serde model and its writer), so the server
//! loop is the crate's `Connection` API.

use std::io::{self, BufRead, Read, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use lsp_server::{Connection, ErrorCode, Message};
use serde_json::Value;

/// Largest message body read (bytes): an editor buffer is capped by the
/// largest file a package may hold ([`crate::limits::PAYLOAD_BYTES`]) plus
/// the JSON escaping of the notification around it. A larger body is read
/// and discarded, and answered with a parse error.
pub const MAX_BODY: usize = 2 * crate::limits::PAYLOAD_BYTES as usize;

/// Longest header line kept (bytes); the rest of a longer line is a
/// malformed header.
const MAX_HEADER_LINE: u64 = 8 * 1024;

/// JSON-RPC 2.0 "Parse error".
const PARSE_ERROR: i32 = ErrorCode::ParseError as i32;
/// JSON-RPC 2.0 "Invalid Request".
const INVALID_REQUEST: i32 = ErrorCode::InvalidRequest as i32;

/// One frame of the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A body of exactly `Content-Length` bytes.
    Body(Vec<u8>),
    /// A frame that cannot be read as one message: why.
    Bad(String),
}

/// Reads frames from a byte stream: header lines up to an empty line (LF
/// or CR LF), then `Content-Length` bytes.
///
/// A header block with two `Content-Length` headers of different values
/// leaves the body's end unknown (whichever one wins, the other would be
/// right for some sender, and the wrong one swallows the next message):
/// the frame is refused and reading resynchronises on the next line that
/// starts with `Content-Length:`, which begins the next frame. Two equal
/// values are refused too, after skipping the body they agree on.
pub struct FrameReader<R> {
    input: R,
    /// A header line read while resynchronising: the first line of the
    /// next frame.
    pending: Option<Vec<u8>>,
}

impl<R: BufRead> FrameReader<R> {
    /// A reader of the frames of `input`.
    pub fn new(input: R) -> Self {
        Self {
            input,
            pending: None,
        }
    }

    /// One header line (with its line end), at most [`MAX_HEADER_LINE`]
    /// bytes; empty at the end of the input.
    fn line(&mut self) -> io::Result<Vec<u8>> {
        if let Some(line) = self.pending.take() {
            return Ok(line);
        }
        let mut line = Vec::new();
        self.input
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        Ok(line)
    }

    /// Reads the next frame. `Ok(None)` at the end of the input (also when
    /// it ends inside a body).
    ///
    /// # Errors
    /// The reader's I/O errors.
    pub fn next_frame(&mut self) -> io::Result<Option<Frame>> {
        let mut lengths: Vec<usize> = Vec::new();
        let mut bad: Option<String> = None;
        let mut seen = false;
        loop {
            let line = self.line()?;
            if line.is_empty() {
                return Ok(seen.then(|| Frame::Bad("input ended inside a header".into())));
            }
            seen = true;
            if !line.ends_with(b"\n") {
                bad.get_or_insert_with(|| "header line too long or unterminated".into());
                continue;
            }
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            if text.is_empty() {
                break;
            }
            match text.split_once(':') {
                Some((name, value)) if name.trim().eq_ignore_ascii_case("content-length") => {
                    match value.trim().parse::<usize>() {
                        Ok(n) => lengths.push(n),
                        Err(_) => {
                            bad.get_or_insert_with(|| "Content-Length is not a number".into());
                        }
                    }
                }
                Some(_) => {}
                None => {
                    bad.get_or_insert_with(|| "malformed header line".into());
                }
            }
        }
        let len = match lengths.as_slice() {
            [] => {
                return Ok(Some(Frame::Bad(
                    bad.unwrap_or_else(|| "no Content-Length header".into()),
                )))
            }
            [len] => *len,
            [first, rest @ ..] if rest.iter().all(|n| n == first) => {
                bad = Some(format!("{} Content-Length headers", lengths.len()));
                *first
            }
            _ => {
                self.resynchronise()?;
                let values = lengths
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ");
                return Ok(Some(Frame::Bad(format!(
                    "{} Content-Length headers ({values}): the message was skipped up to the next header",
                    lengths.len()
                ))));
            }
        };
        if len > MAX_BODY {
            io::copy(&mut self.input.by_ref().take(len as u64), &mut io::sink())?;
            return Ok(Some(Frame::Bad(format!(
                "message of {len} bytes; maximum is {MAX_BODY}"
            ))));
        }
        let mut body = vec![0; len];
        match self.input.read_exact(&mut body) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
            Err(e) => return Err(e),
        }
        Ok(Some(bad.map_or(Frame::Body(body), Frame::Bad)))
    }

    /// Skips input up to the next `Content-Length:` (any case), kept as the
    /// next frame's first header line, or to the end. Frames follow each
    /// other with no line end between a body and the next header, so the
    /// name is looked for anywhere, not only at a line start.
    fn resynchronise(&mut self) -> io::Result<()> {
        const NAME: &[u8] = b"content-length:";
        // Read in pieces of at most MAX_HEADER_LINE bytes (a body may hold
        // no line end at all); the tail of a piece cut inside a line is
        // carried over, so a name cut in two is still found.
        let mut carry: Vec<u8> = Vec::new();
        loop {
            let mut piece = std::mem::take(&mut carry);
            let n = self
                .input
                .by_ref()
                .take(MAX_HEADER_LINE)
                .read_until(b'\n', &mut piece)?;
            if n == 0 {
                return Ok(());
            }
            if let Some(at) = piece
                .windows(NAME.len())
                .position(|w| w.eq_ignore_ascii_case(NAME))
            {
                self.pending = Some(piece.split_off(at));
                return Ok(());
            }
            if !piece.ends_with(b"\n") {
                let keep = piece.len().saturating_sub(NAME.len() - 1);
                carry = piece.split_off(keep);
            }
        }
    }
}

/// Writes `body` as one frame and flushes.
fn write_frame(w: &mut dyn Write, body: &[u8]) -> io::Result<()> {
    write!(w, "Content-Length: {}\r\n\r\n", body.len())?;
    w.write_all(body)?;
    w.flush()
}

/// A JSON-RPC error response with `id` (null when the frame had none).
fn error_frame(id: Value, code: i32, message: &str) -> Vec<u8> {
    let v = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": { "code": code, "message": message },
    });
    v.to_string().into_bytes()
}

/// What one body is: a message for the server, or the error response it
/// gets instead (see the module docs).
///
/// Before `lsp-server`'s model reads it, the body's shape is checked so
/// that every request gets an answer in words a person reads: an `id` the
/// model cannot hold (an object, an array, a boolean, a number that is
/// not a 32-bit integer such as `3.5` or a 30-digit one) would otherwise
/// make the message read as a notification and get no reply at all; it is
/// an Invalid Request, answered with a null id (the id cannot be echoed as
/// the client wrote it). A message with neither a method nor a result or
/// error is an Invalid Request that says "a request needs a method", never
/// serde's internals.
pub fn decode(body: &[u8]) -> Result<Message, Vec<u8>> {
    let mut value: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return super::surrogates::decode_text_sync(body)
                .ok_or_else(|| error_frame(Value::Null, PARSE_ERROR, &format!("parse error: {e}")))
        }
    };
    super::surrogates::strip(&mut value);
    let invalid =
        |id: Value, why: &str| error_frame(id, INVALID_REQUEST, &format!("invalid request: {why}"));
    let Value::Object(fields) = &value else {
        return Err(invalid(
            Value::Null,
            "a JSON-RPC message is a JSON object (a batch, an array of messages, is not part of LSP)",
        ));
    };
    let id = match fields.get("id") {
        Some(id @ Value::String(_)) => id.clone(),
        Some(id @ Value::Number(n)) if n.as_i64().is_some_and(|i| i32::try_from(i).is_ok()) => {
            id.clone()
        }
        // JSON-RPC 2.0 §4: an id is a string, a number or null. Any other
        // (an object, an array, a boolean), or a number the server cannot
        // echo exactly (LSP's `integer` is 32 bits), makes the message an
        // Invalid Request, answered with a null id; it would otherwise read
        // as a notification and get no reply.
        Some(other @ (Value::Object(_) | Value::Array(_) | Value::Bool(_) | Value::Number(_))) => {
            let kind = match other {
                Value::Object(_) => "an object",
                Value::Array(_) => "an array",
                Value::Bool(_) => "a boolean",
                _ => "a number that is not an integer from -2147483648 to 2147483647",
            };
            return Err(invalid(
                Value::Null,
                &format!("its id is {kind}; an id is a string or an integer of LSP's 32 bits"),
            ));
        }
        Some(Value::Null) | None => Value::Null,
    };
    let is_response = fields.contains_key("result") || fields.contains_key("error");
    match fields.get("method") {
        Some(Value::String(_)) => {}
        Some(_) => return Err(invalid(id, "its method is not a string")),
        None if is_response => {}
        None if id.is_null() => {
            return Err(invalid(
                id,
                "a message needs a method (a request or a notification), or a result or an error (a response)",
            ))
        }
        None => return Err(invalid(id, "a request needs a method")),
    }
    serde_json::from_value::<Message>(value)
        .map_err(|_| invalid(id, "not a JSON-RPC 2.0 request, notification or response"))
}

/// The server's end of a connection over `input` and `output`, and the
/// writer thread to join once the server dropped its end (so every
/// message is written before the caller returns).
///
/// A reader thread reads frames from `input` until its end (or until the
/// `exit` notification), answers malformed ones itself and hands the rest
/// to the server; the writer thread writes what the server sends. Both
/// write whole frames under one lock.
pub fn connect<R, W>(input: R, output: W) -> (Connection, JoinHandle<()>)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (server, client) = Connection::memory();
    let out: Arc<Mutex<W>> = Arc::new(Mutex::new(output));
    let reader_out = Arc::clone(&out);
    let to_server = client.sender;
    let mut frames = FrameReader::new(input);
    std::thread::spawn(move || loop {
        let decoded = match frames.next_frame() {
            Ok(Some(Frame::Body(b))) => decode(&b),
            Ok(Some(Frame::Bad(why))) => Err(error_frame(Value::Null, PARSE_ERROR, &why)),
            Ok(None) | Err(_) => break,
        };
        match decoded {
            Ok(msg) => {
                let exit = matches!(&msg, Message::Notification(n) if n.method == "exit");
                if to_server.send(msg).is_err() || exit {
                    break;
                }
            }
            Err(reply) => {
                let Ok(mut w) = reader_out.lock() else { break };
                if write_frame(&mut *w, &reply).is_err() {
                    break;
                }
            }
        }
    });
    let from_server = client.receiver;
    let writer = std::thread::spawn(move || {
        for msg in from_server {
            let Ok(mut w) = out.lock() else { break };
            if msg.write(&mut *w).is_err() {
                break;
            }
        }
    });
    (server, writer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = FrameReader::new(io::Cursor::new(input.to_vec()));
        let mut out = Vec::new();
        while let Some(f) = r.next_frame().unwrap() {
            out.push(f);
        }
        out
    }

    #[test]
    fn frames_are_read_and_bad_headers_do_not_stop_reading() {
        let got = frames(
            b"Content-Length: 2\r\n\r\n{}X-Other: 1\r\n\r\ncontent-length:3\nContent-Type: x\n\n[1]Content-Length: zz\r\n\r\n",
        );
        assert_eq!(
            got,
            [
                Frame::Body(b"{}".to_vec()),
                Frame::Bad("no Content-Length header".into()),
                Frame::Body(b"[1]".to_vec()),
                Frame::Bad("Content-Length is not a number".into()),
            ]
        );
        // A near miss: a body cut short is the end of the input, not a frame.
        assert!(frames(b"Content-Length: 9\r\n\r\n{}").is_empty());
    }

    #[test]
    fn bodies_decode_to_messages_or_to_their_error_reply() {
        assert!(decode(br#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#).is_ok());
        let e: Value = serde_json::from_slice(&decode(b"{nope").unwrap_err()).unwrap();
        assert_eq!(e["error"]["code"], PARSE_ERROR);
        assert_eq!(e["id"], Value::Null);
        let e: Value =
            serde_json::from_slice(&decode(br#"{"jsonrpc":"2.0","id":7,"method":3}"#).unwrap_err())
                .unwrap();
        assert_eq!(e["error"]["code"], INVALID_REQUEST);
        assert_eq!(e["id"], 7);
    }

    /// Breaker F8: an id the model cannot hold is an Invalid Request with
    /// a null id, a message with no method says so; near misses: the ids
    /// -1 and "x", a response, a notification.
    #[test]
    fn ids_the_server_cannot_hold_and_missing_methods_are_invalid_requests() {
        let reply = |body: &str| -> Value {
            serde_json::from_slice(&decode(body.as_bytes()).unwrap_err()).unwrap()
        };
        for id in [
            "3.5",
            "123456789012345678901234567890",
            "-2147483649",
            "1.0",
        ] {
            let e = reply(&format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"m"}}"#));
            assert_eq!(e["error"]["code"], INVALID_REQUEST, "{id}: {e}");
            assert_eq!(e["id"], Value::Null, "{id}: {e}");
        }
        let e = reply(r#"{"jsonrpc":"2.0","id":7}"#);
        assert_eq!(e["id"], 7);
        assert_eq!(
            e["error"]["message"],
            "invalid request: a request needs a method"
        );
        let e = reply(r#"{"jsonrpc":"2.0"}"#);
        assert_eq!(e["id"], Value::Null);
        assert!(e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("needs a method"));
        let e = reply("[1]");
        assert_eq!(e["error"]["code"], INVALID_REQUEST);
        for body in [
            r#"{"jsonrpc":"2.0","id":-1,"method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":"x","method":"m"}"#,
            r#"{"jsonrpc":"2.0","id":-2147483648,"method":"m"}"#,
        ] {
            assert!(
                matches!(decode(body.as_bytes()), Ok(Message::Request(_))),
                "{body}"
            );
        }
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":3,"result":null}"#),
            Ok(Message::Response(_))
        ));
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"n"}"#),
            Ok(Message::Notification(_))
        ));
    }

    #[test]
    fn two_content_lengths_are_refused_and_reading_resynchronises() {
        // The second header (50) would swallow the next message whole.
        let got = frames(
            b"Content-Length: 2\r\nContent-Length: 50\r\n\r\n{}Content-Length: 3\r\n\r\n[1]Content-Length: 2\r\n\r\n{}",
        );
        assert_eq!(
            got,
            [
                Frame::Bad("2 Content-Length headers (2, 50): the message was skipped up to the next header".into()),
                Frame::Body(b"[1]".to_vec()),
                Frame::Body(b"{}".to_vec()),
            ]
        );
        // Equal values: the body they agree on is skipped, the next read.
        let got =
            frames(b"Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]");
        assert_eq!(
            got,
            [
                Frame::Bad("2 Content-Length headers".into()),
                Frame::Body(b"[1]".to_vec()),
            ]
        );
        // Near miss: one header and another named like it are one length.
        let got = frames(b"Content-Length: 2\r\nContent-Length-X: 9\r\n\r\n{}");
        assert_eq!(got, [Frame::Body(b"{}".to_vec())]);
    }

    #[test]
    fn an_id_that_is_not_a_string_or_number_is_an_invalid_request() {
        for body in [
            &br#"{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}"#[..],
            br#"{"jsonrpc":"2.0","id":[1],"method":"shutdown"}"#,
            br#"{"jsonrpc":"2.0","id":true,"method":"shutdown"}"#,
        ] {
            let e: Value = serde_json::from_slice(&decode(body).unwrap_err()).unwrap();
            assert_eq!(e["error"]["code"], INVALID_REQUEST, "{e}");
            assert_eq!(e["id"], Value::Null);
        }
        // Near miss: a string id is a request.
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#),
            Ok(Message::Request(_))
        ));
    }
}
