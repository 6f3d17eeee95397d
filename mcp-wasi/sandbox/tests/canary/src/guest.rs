//! The `wasi:http/incoming-handler` export: read the words, mark them, answer what was read.

// Reading and writing linear memory at fixed addresses is the point of this guest.
#![allow(unsafe_code)]

use core::arch::wasm32::{memory_grow, memory_size};
use std::io::Write;

use wasip2::http::types::{Fields, IncomingRequest, OutgoingBody, OutgoingResponse, ResponseOutparam};

use crate::{ADDRESSES, canary};

const PAGE: usize = 64 << 10;

struct Handler;

wasip2::http::proxy::export!(Handler);

impl wasip2::exports::http::incoming_handler::Guest for Handler {
    fn handle(_request: IncomingRequest, out: ResponseOutparam) {
        let (status, body) = match read_and_mark() {
            Ok(body) => (200, body),
            Err(why) => (500, format!("{{\"error\":\"{why}\"}}")),
        };
        send(out, status, body.as_bytes());
    }
}

/// Checks that no address is owned by the stack, the data or the allocator, grows the memory to
/// cover them all, reads each word, writes its canary, and returns the answer's JSON text.
fn read_and_mark() -> Result<String, String> {
    let pages = memory_size(0);
    // The stack grows down from 1 MiB: a local's address is the stack's depth, give or take a frame.
    let probe = 0u8;
    let stack = core::ptr::from_ref(&probe).addr();
    let initial = ADDRESSES[0] as usize;
    if stack < initial + PAGE {
        return Err(format!("the stack is at {stack}, near the initial memory's address {initial}"));
    }
    let first_grown = ADDRESSES[1] as usize;
    if pages * PAGE > first_grown / PAGE * PAGE {
        return Err(format!("the memory already has {pages} pages at the start, over the address {first_grown}"));
    }
    let wanted = ADDRESSES.iter().map(|&a| a as usize / PAGE + 1).max().unwrap_or(0);
    if memory_grow(0, wanted - pages) == usize::MAX {
        return Err(format!("memory.grow from {pages} to {wanted} pages failed"));
    }
    let mut words = Vec::with_capacity(ADDRESSES.len());
    for (index, &address) in (0u32..).zip(ADDRESSES.iter()) {
        let word = core::ptr::with_exposed_provenance_mut::<u32>(address as usize);
        // SAFETY: the address is inside the memory (grown above), 4-aligned, and owned by no
        // Rust object: below the stack's depth, or in a page this handler grew for itself.
        let read = unsafe {
            let read = word.read_volatile();
            word.write_volatile(canary(index));
            read
        };
        words.push(format!("[{address},{read}]"));
    }
    Ok(format!("{{\"pages\":{pages},\"words\":[{}]}}", words.join(",")))
}

/// Writes a `status` answer with `body` (JSON) to `out`; failures cannot be reported to anyone.
fn send(out: ResponseOutparam, status: u16, body: &[u8]) {
    let entries = [
        ("content-type".to_owned(), b"application/json".to_vec()),
        ("content-length".to_owned(), body.len().to_string().into_bytes()),
    ];
    let Ok(fields) = Fields::from_list(&entries) else {
        return;
    };
    let response = OutgoingResponse::new(fields);
    if response.set_status_code(status).is_err() {
        return;
    }
    let Ok(outgoing) = response.body() else {
        return;
    };
    ResponseOutparam::set(out, Ok(response));
    if let Ok(mut stream) = outgoing.write() {
        let _ = stream.write_all(body);
        let _ = stream.flush();
    }
    let _ = OutgoingBody::finish(outgoing, None);
}
