//! The files compiled into the binary by `build.rs`: the page (`web/`), the
//! graded library (`data/library/`) and the rules pages (`crates/server/rules/`).

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The embedded file at `path` within a table.
pub fn find(table: &'static [(&'static str, &'static [u8])], path: &str) -> Option<&'static [u8]> {
    table
        .binary_search_by(|(p, _)| (*p).cmp(path))
        .ok()
        .map(|i| table[i].1)
}
