#!/bin/sh
# Load benchmark of the site's API: many games at once on loopback, in release
# mode. Prints moves per second, p99 latency and the largest WAL seen, then
# checks that the database holds every acknowledged move. Extra arguments go
# to the benchmark, e.g.
#   bench/load/run.sh --clients 32 --requests 30000
set -eu
cd "$(dirname "$0")/../.."
exec cargo run --release -q -p patience-server --example load -- "$@"
