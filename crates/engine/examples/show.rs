fn main() {
    let id = std::env::args().nth(1).unwrap_or("la-belle-lucie".into());
    let g = patience_engine::game(&id).unwrap();
    let p = patience_engine::Position::deal(g, 1).unwrap();
    print!("{}", p.to_text());
    let l = *p.layout();
    for m in p.legal_moves() {
        print!("{} ", m.text(&l));
    }
    println!();
    let mut q = p.clone();
    for d in 1..=4 {
        println!("perft {d} = {}", patience_engine::perft(&mut q, d));
    }
}
