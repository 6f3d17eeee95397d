//! The server's integration tests, in one test binary (one link instead of eight): raw JSON-RPC
//! lines fed to `Server::handle_line`, HTTP requests fed to `http::handle`, the stdio loop, and
//! the native binary over pipes.

mod common;

mod apps;
mod binary;
mod calendar;
mod classic;
mod golden;
mod http;
mod jsonrpc;
mod modern;
mod repair;
mod save;
mod store_errors;
mod vectors;
