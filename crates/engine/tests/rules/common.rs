//! Helpers for hand-built positions: list the piles that matter, and every
//! other card goes where it can (the foundations, in order, or a named pile).

use patience_engine::*;

pub fn spec(id: &str) -> &'static GameSpec {
    game(id).unwrap_or_else(|| panic!("no game {id}"))
}

pub fn card(text: &str) -> Card {
    Card::parse(text).unwrap()
}

/// A position of `id` with the `listed` piles (name, cards bottom first); the
/// cards not listed are put on the foundations as far as they go up (or down)
/// their sequence, and what is still left goes to the pile `rest` (e.g. the
/// stock). `header` adds lines such as `redeals-used: 2`.
pub fn build_with(id: &str, header: &str, listed: &[(&str, &str)], rest: Option<&str>) -> Position {
    let text = text_with(id, header, listed, rest);
    Position::from_text(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// As [`build_with`], the cards left spread over the unlisted piles where a
/// stock would refill them, else dealt into the unlisted fans by threes.
pub fn build(id: &str, listed: &[(&str, &str)]) -> Position {
    let rest = if spec(id).has_stock { "spread" } else { "fans" };
    build_with(id, "", listed, Some(rest))
}

/// The position text `build_with` reads.
pub fn text_with(id: &str, header: &str, listed: &[(&str, &str)], rest: Option<&str>) -> String {
    let g = spec(id);
    let mut missing: Vec<Card> = g.pack();
    let listed_foundations: Vec<&str> = listed
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| n.starts_with('f'))
        .collect();
    for (_, cards) in listed {
        for w in cards.split_whitespace() {
            let c = card(w);
            let i = missing
                .iter()
                .position(|m| *m == c)
                .unwrap_or_else(|| panic!("{w} listed too often"));
            missing.remove(i);
        }
    }
    // In spread mode every unlisted tableau pile gets one of the highest cards
    // first, so that none is empty beside a stock that would have refilled it.
    let unlisted: Vec<String> = (1..=g.tableau_piles)
        .map(|t| format!("t{t}"))
        .filter(|n| !listed.iter().any(|(l, _)| l == n))
        .collect();
    let reserved: Vec<Card> = if rest == Some("spread") {
        let keep = missing.len().saturating_sub(unlisted.len());
        missing.split_off(keep)
    } else {
        Vec::new()
    };
    let mut text = format!("game: {id}\n{header}\n");
    for (name, cards) in listed {
        text += &format!("{name}: {cards}\n");
    }
    let ranks = g.ranks.ranks();
    for (i, rule) in g.foundations.iter().enumerate() {
        let name = format!("f{}", i + 1);
        if listed_foundations.contains(&name.as_str()) {
            continue;
        }
        let seq: Vec<Rank> = match rule.direction {
            Direction::Up => ranks.clone(),
            Direction::Down => ranks.iter().rev().copied().collect(),
        };
        let mut pile: Vec<Card> = Vec::new();
        for rank in seq.into_iter().take(rule.capacity as usize) {
            let found = missing.iter().position(|c| {
                c.rank() == rank
                    && match (pile.last(), rule.suit) {
                        (None, s) => s.is_none_or(|s| s == c.suit()),
                        (Some(top), _) if rule.alternate_colours => top.colour() != c.colour(),
                        (Some(top), _) => top.suit() == c.suit(),
                    }
            });
            match found {
                Some(j) => pile.push(missing.remove(j)),
                None => break,
            }
        }
        let words: Vec<String> = pile.iter().map(|c| c.to_string()).collect();
        text += &format!("{name}: {}\n", words.join(" "));
    }
    match rest {
        Some("fans") => {
            // Into the unlisted tableau piles, three a pile.
            let mut chunks = missing.chunks(3);
            for t in 1..=g.tableau_piles {
                let name = format!("t{t}");
                if listed.iter().any(|(n, _)| *n == name) {
                    continue;
                }
                let Some(chunk) = chunks.next() else { break };
                let words: Vec<String> = chunk.iter().map(|c| c.to_string()).collect();
                text += &format!("{name}: {}\n", words.join(" "));
            }
            assert!(
                chunks.next().is_none(),
                "not enough fans for the cards left"
            );
        }
        Some("spread") => {
            // Over every unlisted tableau pile, as evenly as they go.
            let per = missing.len().div_ceil(unlisted.len().max(1)).max(1);
            let mut chunks = missing.chunks(per);
            for (i, name) in unlisted.iter().enumerate() {
                let pile = reserved
                    .get(i)
                    .into_iter()
                    .chain(chunks.next().unwrap_or(&[]));
                let words: Vec<String> = pile.map(|c| c.to_string()).collect();
                text += &format!("{name}: {}\n", words.join(" "));
            }
        }
        Some(rest) => {
            let words: Vec<String> = missing.iter().map(|c| c.to_string()).collect();
            text += &format!("{rest}: {}\n", words.join(" "));
        }
        None => {}
    }
    text
}

/// The legal moves as text.
pub fn moves(pos: &Position) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.text(pos.layout()))
        .collect()
}

pub fn mv(pos: &Position, text: &str) -> Move {
    Move::parse(text, pos.layout()).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays a move that must be legal, and checks it is also listed (or is an
/// equivalent of a listed one when `listed` is false).
pub fn play(pos: &mut Position, text: &str) {
    let m = mv(pos, text);
    if let Err(e) = pos.apply(m) {
        panic!("{text} refused: {e}\n{}", pos.to_text());
    }
}

/// A move that must be refused, leaving the position unchanged.
pub fn refused(pos: &Position, text: &str) -> MoveError {
    let mut p = pos.clone();
    let err = p.apply(mv(pos, text)).expect_err(text);
    assert_eq!(&p, pos);
    assert_eq!(p.hash(), pos.hash());
    err
}

pub fn pile(pos: &Position, name: &str) -> String {
    let id = pos.layout().parse(name).unwrap();
    let words: Vec<String> = pos.pile(id).iter().map(|c| c.to_string()).collect();
    words.join(" ")
}

pub fn has(pos: &Position, text: &str) -> bool {
    moves(pos).iter().any(|m| m == text)
}

/// Sizes of the tableau piles.
pub fn fan_sizes(pos: &Position) -> Vec<usize> {
    pos.layout()
        .tableau_ids()
        .map(|t| pos.pile(t).len())
        .collect()
}

/// Checks every card of the pack is somewhere exactly as often as the decks hold it.
pub fn holds_the_pack(pos: &Position) {
    let mut all: Vec<Card> = pos.piles().iter().flatten().copied().collect();
    all.sort();
    assert_eq!(all, pos.spec().pack());
}

// ---- Rule checks shared by several games ----

/// Build down in suit, one card at a time, onto another fan's top card.
pub fn builds_down_in_suit_one_card(id: &str) {
    let p = build(id, &[("t1", "9C 7H 6H"), ("t2", "KS 7S"), ("t3", "QD 8H")]);
    // 6H onto 7S: other suit; 6H onto 8H: not one rank lower.
    assert!(!has(&p, "t1>t2") && !has(&p, "t1>t3"));
    refused(&p, "t1>t2");
    let err = refused(&p, "t1>t3");
    assert!(err.to_string().contains("6H"), "{err}");
    // The run 7H 6H does not move onto 8H as a group.
    let mut p = build(id, &[("t1", "9C 7H"), ("t2", "KS 7S"), ("t3", "QD 8H")]);
    assert!(has(&p, "t1>t3"));
    play(&mut p, "t1>t3");
    assert_eq!(pile(&p, "t3"), "QD 8H 7H");
    assert_eq!(pile(&p, "t1"), "9C");
    // Never up: 8H back onto nothing, 7S onto 8H is not in suit.
    assert!(!has(&p, "t2>t3"));
}

/// Foundations in suit from the ace up; an empty one takes an ace only.
pub fn foundations_up_in_suit_from_ace(id: &str) {
    let g = spec(id);
    let low = g.ranks.ranks()[1].text().to_string();
    // Foundation f1 (spades) empty: its ace goes there, not the 2 of spades.
    let mut p = build(
        id,
        &[("f1", ""), ("t1", &format!("{low}S")), ("t2", "KD AS")],
    );
    assert!(
        !moves(&p).iter().any(|m| m.starts_with("t1>f")),
        "{:?}",
        moves(&p)
    );
    refused(&p, "t1>f1");
    assert!(has(&p, "t2>f1"));
    play(&mut p, "t2>f1");
    assert!(has(&p, "t1>f1"));
    play(&mut p, "t1>f1");
    assert_eq!(pile(&p, "f1"), format!("AS {low}S"));
    // Only its own suit.
    refused(&p, "t2>f1");
}

/// Foundations never give a card back.
pub fn foundations_keep_their_cards(id: &str) {
    let p = build(id, &[("t1", "KD QS"), ("t2", "JS")]);
    assert!(moves(&p).iter().all(|m| !m.starts_with('f')));
    let f = p.layout().foundation(0);
    let t = p.layout().tableau(2);
    let err = p.clone().apply(Move::Step { from: f, to: t }).unwrap_err();
    assert!(
        matches!(err, MoveError::NotPlayable(_) | MoveError::EmptySource(_)),
        "{err}"
    );
}

/// An emptied fan stays empty: nothing may go onto it.
pub fn emptied_fans_stay_empty(id: &str) {
    let mut p = build(id, &[("f1", ""), ("t1", "AS"), ("t2", "KH QS")]);
    play(&mut p, "t1>f1");
    assert_eq!(pile(&p, "t1"), "");
    assert!(!has(&p, "t2>t1"));
    refused(&p, "t2>t1");
}

/// A king can leave its fan only for a foundation.
pub fn king_goes_only_to_a_foundation(id: &str) {
    let p = build(id, &[("t1", "9C KH"), ("t2", "")]);
    let mut ms = moves(&p);
    ms.retain(|m| m.starts_with("t1>"));
    assert!(ms.iter().all(|m| m.starts_with("t1>f")), "{ms:?}");
}

/// `count` redeals, each gathering the table and dealing fans of `size`;
/// foundations stay. Returns the position after the first redeal.
pub fn redeals(id: &str, count: u8, size: usize) -> Position {
    let mut p = Position::deal(spec(id), 5).unwrap();
    let foundations: Vec<Vec<Card>> = p
        .layout()
        .foundation_ids()
        .map(|f| p.pile(f).to_vec())
        .collect();
    let mut first = None;
    for k in 0..count {
        assert_eq!(p.redeals_left(), count - k);
        assert!(has(&p, "redeal"), "{id}: redeal {k}");
        let on_table: usize = p.layout().tableau_ids().map(|t| p.pile(t).len()).sum();
        play(&mut p, "redeal");
        let sizes = fan_sizes(&p);
        let full = on_table / size;
        assert!(sizes[..full].iter().all(|&n| n == size), "{id}: {sizes:?}");
        assert_eq!(
            sizes[full..].iter().sum::<usize>(),
            on_table - full * size,
            "{id}: {sizes:?}"
        );
        let now: Vec<Vec<Card>> = p
            .layout()
            .foundation_ids()
            .map(|f| p.pile(f).to_vec())
            .collect();
        assert_eq!(now, foundations);
        holds_the_pack(&p);
        first.get_or_insert(p.clone());
    }
    assert_eq!(p.redeals_left(), 0);
    assert!(!has(&p, "redeal"));
    assert_eq!(refused(&p, "redeal"), MoveError::NoRedeal);
    first.unwrap_or(p)
}

/// Redeals gather the fans in order (fan 1 bottom to top, then fan 2...) without shuffling.
pub fn redeal_gathers_in_order(id: &str, size: usize) {
    let mut p = Position::deal(spec(id), 9).unwrap();
    let gathered: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    play(&mut p, "redeal");
    let dealt: Vec<Card> = p
        .layout()
        .tableau_ids()
        .flat_map(|t| p.pile(t).to_vec())
        .collect();
    assert_eq!(dealt, gathered, "{id}");
    assert!(fan_sizes(&p)
        .iter()
        .all(|&n| n == size || n == 0 || n < size));
}

/// Shuffled redeals depend on the set of cards left, not on the fans' order.
pub fn redeal_shuffles_the_set_left(id: &str) {
    let a = Position::deal(spec(id), 11).unwrap();
    let mut b = a.clone();
    let mut a2 = a.clone();
    play(&mut a2, "redeal");
    let before: Vec<Card> = a
        .layout()
        .tableau_ids()
        .flat_map(|t| a.pile(t).to_vec())
        .collect();
    let after: Vec<Card> = a2
        .layout()
        .tableau_ids()
        .flat_map(|t| a2.pile(t).to_vec())
        .collect();
    assert_ne!(before, after, "{id}: redeal shuffles");
    // The same cards held in other fans redeal alike.
    let (t1, t2) = (b.layout().tableau(0), b.layout().tableau(1));
    let text = b.to_text();
    let (l1, l2) = (pile(&b, "t1"), pile(&b, "t2"));
    let swapped = text
        .replace(&format!("t1: {l1}\n"), "T1\n")
        .replace(&format!("t2: {l2}\n"), &format!("t2: {l1}\n"))
        .replace("T1\n", &format!("t1: {l2}\n"));
    b = Position::from_text(&swapped, None).unwrap();
    assert_ne!(b.pile(t1), a.pile(t1));
    let _ = t2;
    play(&mut b, "redeal");
    assert_eq!(b.piles(), a2.piles(), "{id}");
}

/// The opening deal: tableau sizes and cards on the foundations.
pub fn opening(id: &str, sizes: &[usize], on_foundations: usize, stock: usize) -> Position {
    let p = Position::deal(spec(id), 1).unwrap();
    let mut got = fan_sizes(&p);
    if got.len() == sizes.len() + 1 {
        got.pop();
    }
    assert_eq!(got, sizes, "{id}");
    assert_eq!(p.foundation_cards(), on_foundations, "{id}");
    let s = p.layout().stock.map_or(0, |s| p.pile(s).len());
    assert_eq!(s, stock, "{id}");
    holds_the_pack(&p);
    p
}

pub fn fans(n: usize, size: usize, last: Option<usize>) -> Vec<usize> {
    let mut v = vec![size; n];
    if let Some(l) = last {
        v.push(l);
    }
    v
}
