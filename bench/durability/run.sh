#!/bin/sh
# Durability check of `patience serve`: kill -9 under load loses no
# acknowledged move and applies none twice; two tabs sending the same change
# at once apply it once. Builds the server and the check in release mode.
# Extra arguments go to the check, e.g.
#   bench/durability/run.sh --clients 16 --rounds 5 --pairs 500
set -eu
cd "$(dirname "$0")/../.."
cargo build --release -q -p patience-cli
exec cargo run --release -q -p patience-server --example durability -- --bin target/release/patience "$@"
