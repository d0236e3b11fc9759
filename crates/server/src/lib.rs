//! The Patience site: an HTTP API over the engine, the solver behind hints,
//! SQLite storage, and the embedded web page.
//!
//! - `store`: the SQLite file (games, graded deals, schema versions).
pub mod store;
