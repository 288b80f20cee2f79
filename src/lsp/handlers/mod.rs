//! The request handlers, one file per method: each adds its answer to
//! [`crate::lsp::Server`] (the dispatch is `Server::request`).

mod code_action;
mod completion;
mod definition;
mod hover;
pub(crate) mod initialize;
