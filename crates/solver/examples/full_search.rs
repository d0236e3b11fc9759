//! The full depth-first search alone, without the passes before it: how
//! many positions a deal's proof takes, apart from what the beam and the
//! probe spend first (a solve's beam widens with its budget).
//! `full_search GAME DEAL[,DEAL...] NODES|SECONDSs [MEMORY_MB [piles-order
//! [stock-order]]]` prints, a deal a line, the answer, the positions
//! searched, the CPU seconds and the table's peak entries; a win is replayed
//! through the engine. `piles-order` asks the piles' order test, and
//! `stock-order` the stock's order test too, as `solve_with`'s last full
//! search does ([`Settings::piles_order`], [`Settings::stock_order`]).

use patience_engine::{game, Position};
use patience_solver::search::{self, End, Settings};
use patience_solver::{replays_to_win, Budget};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!(
            "usage: full_search GAME DEAL[,DEAL...] NODES|SECONDSs [MEMORY_MB [piles-order [stock-order]]]"
        );
        std::process::exit(2);
    }
    let spec = game(&args[1]).expect("a game id");
    // A node budget, or seconds of time ("10s").
    let (nodes, time) = match args[3].strip_suffix('s') {
        Some(secs) => (
            None,
            Some(std::time::Duration::from_secs_f64(
                secs.parse().expect("seconds"),
            )),
        ),
        None => (Some(args[3].parse::<u64>().expect("a node budget")), None),
    };
    let memory_mb: usize = args.get(4).map_or(1024, |m| m.parse().expect("MiB"));
    let piles_order = args.get(5).is_some_and(|a| a == "piles-order");
    let stock_order = piles_order && args.get(6).is_some_and(|a| a == "stock-order");
    for deal in args[2].split(',') {
        let deal: u64 = deal.parse().expect("a deal number");
        let p = Position::deal(spec, deal).expect("a deal");
        let budget = Budget {
            nodes,
            time,
            memory_bytes: memory_mb << 20,
        };
        let settings = Settings {
            piles_order,
            stock_order,
            ..Settings::full(budget, true)
        };
        let found = search::run(&p, &settings);
        let answer = match &found.end {
            End::Won(line) => {
                assert!(replays_to_win(&p, line), "deal {deal}: the win replays");
                "won"
            }
            End::Exhausted => "lost",
            End::Spent(_) => "unknown",
        };
        println!(
            "{} {deal}: {answer} in {} positions, {:.1} s, peak table {} entries",
            args[1],
            found.nodes,
            found.elapsed.as_secs_f64(),
            found.peak_entries
        );
    }
}
