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

/// Reads one frame: header lines up to an empty line (LF or CR LF), then
/// `Content-Length` bytes. `Ok(None)` at the end of the input (also when
/// it ends inside a body).
///
/// # Errors
/// The reader's I/O errors.
pub fn read_frame(r: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut len: Option<usize> = None;
    let mut bad: Option<String> = None;
    let mut seen = false;
    loop {
        let mut line = Vec::new();
        let n = r
            .by_ref()
            .take(MAX_HEADER_LINE)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
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
                    Ok(n) => len = Some(n),
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
    let Some(len) = len else {
        return Ok(Some(Frame::Bad(
            bad.unwrap_or_else(|| "no Content-Length header".into()),
        )));
    };
    if len > MAX_BODY {
        io::copy(&mut r.by_ref().take(len as u64), &mut io::sink())?;
        return Ok(Some(Frame::Bad(format!(
            "message of {len} bytes; maximum is {MAX_BODY}"
        ))));
    }
    let mut body = vec![0; len];
    match r.read_exact(&mut body) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    Ok(Some(bad.map_or(Frame::Body(body), Frame::Bad)))
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
pub fn decode(body: &[u8]) -> Result<Message, Vec<u8>> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| error_frame(Value::Null, PARSE_ERROR, &format!("parse error: {e}")))?;
    let id = match value.get("id") {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    serde_json::from_value::<Message>(value)
        .map_err(|e| error_frame(id, INVALID_REQUEST, &format!("invalid request: {e}")))
}

/// The server's end of a connection over `input` and `output`, and the
/// writer thread to join once the server dropped its end (so every
/// message is written before the caller returns).
///
/// A reader thread reads frames from `input` until its end (or until the
/// `exit` notification), answers malformed ones itself and hands the rest
/// to the server; the writer thread writes what the server sends. Both
/// write whole frames under one lock.
pub fn connect<R, W>(mut input: R, output: W) -> (Connection, JoinHandle<()>)
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (server, client) = Connection::memory();
    let out: Arc<Mutex<W>> = Arc::new(Mutex::new(output));
    let reader_out = Arc::clone(&out);
    let to_server = client.sender;
    std::thread::spawn(move || loop {
        let decoded = match read_frame(&mut input) {
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
        let mut r = io::Cursor::new(input.to_vec());
        let mut out = Vec::new();
        while let Some(f) = read_frame(&mut r).unwrap() {
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
}
