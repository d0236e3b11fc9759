//! The JSON the page receives: a game's state as docs/api.md describes it,
//! drawn from the engine. The stock is face down, so only its count is sent.

use patience_engine::{Game, GameSpec, Move, PileId, PileKind, Position, StockAction, TableLayout};
use std::sync::OnceLock;

use patience_store::{AskedLevel, DealGrade, Level, PersonWins};
use serde::Serialize;

/// A game's state with everything the page draws and every legal move.
#[derive(Serialize, Debug)]
pub struct State {
    pub uid: String,
    pub game: &'static str,
    pub name_en: &'static str,
    pub name_ru: &'static str,
    pub layout: &'static str,
    pub deal: u64,
    /// The level the deal was asked for (`any`, `easy`, `medium`, `hard`).
    pub level: AskedLevel,
    /// The deal's grade in the graded library (`easy`, `medium`, `hard`,
    /// `unwinnable`, `unknown`), or null for a deal not graded.
    pub grade: Option<Level>,
    /// How the person-like player did on the deal when it was graded,
    /// `{"wins": k, "runs": n}`, or null for a deal not graded or graded
    /// without its runs.
    pub person: Option<PersonWins>,
    /// The player's moves: clicks, each counted once with the automatic
    /// moves it set off (`plies` counts every move of the record).
    pub moves: usize,
    pub plies: usize,
    pub can_undo: bool,
    pub can_redo: bool,
    pub redeals_left: u8,
    pub draw_available: bool,
    pub won: bool,
    pub stuck: bool,
    pub elapsed_ms: i64,
    /// The longest gap between two requests that counts towards
    /// `elapsed_ms`: a clock that shows `elapsed_ms` plus the time since
    /// this answer, at most this much, shows what the server will record.
    pub idle_cap_ms: u64,
    /// Why a redeal is not legal now (`none-in-game`, `all-used`,
    /// `stock-not-empty`, `table-empty`), or null when it is.
    pub redeal_refusal: Option<&'static str>,
    /// Every card left can go home with nothing to decide: `finish` plays it out.
    pub finish: bool,
    /// What a click on the stock does, for games with a stock (else null).
    pub stock_click: Option<StockClick>,
    pub piles: Vec<Pile>,
    pub legal: Vec<Legal>,
    /// The moves this answer's request made, in order (the player's own, then
    /// any automatic ones); empty for a plain read, an undo or a redo.
    pub played: Vec<Played>,
}

/// A move as it was played, naming the cards by place so that the page
/// slides the card that moved (a two-deck game has two of each).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Played {
    #[serde(rename = "move")]
    pub text: String,
    pub kind: &'static str,
    /// Played by the server (a card safe to send home), not by the player.
    pub auto: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Where in `from` the lowest card carried lay before the move (0 = bottom).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_index: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Where in `to` that card lies after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to_index: Option<usize>,
    /// How many cards moved from `from` to `to` (0 for a deal or a redeal).
    pub count: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
}

#[derive(Serialize, Debug)]
pub struct Pile {
    pub name: String,
    pub kind: &'static str,
    pub count: usize,
    pub cards: Vec<CardView>,
    /// On a foundation: what opens it, so the page can mark an empty one
    /// without knowing the rules. Absent elsewhere, and in Krug, where the deal
    /// lays a base of any rank on every foundation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<Base>,
}

/// The card that opens an empty foundation, as the engine's spec says.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct Base {
    /// `A`, `6`, `K`...
    pub rank: &'static str,
    /// `S`, `H`, `D`, `C`, or null when any suit opens it.
    pub suit: Option<String>,
}

/// One card as the page sees it: its text (`AS`, `10H`).
#[derive(Serialize, Debug)]
pub struct CardView {
    pub card: &'static str,
}

/// One legal move, with what the page needs to light up drag targets.
#[derive(Serialize, Debug, Clone)]
pub struct Legal {
    #[serde(rename = "move")]
    pub text: String,
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// The card picked up (for a run, its lowest card, the one the player grabs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub card: Option<String>,
    /// Where that card lies in `from` (0 = bottom).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<usize>,
    /// The other destinations the same move may take with the same effect
    /// (an empty foundation alike to `to`, another empty pile), in pile
    /// order; the server accepts the move to any of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// What a click on the stock does now: the move it plays and what that move
/// deals, or why it does nothing.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct StockClick {
    /// The move a click plays (`deal` or `redeal`), or null.
    #[serde(rename = "move")]
    pub mv: Option<&'static str>,
    /// `one-to-waste` (a card onto the waste), `three-to-each-pile` (three
    /// cards onto each line pile), `redeal`, or `none`.
    pub does: &'static str,
    /// With `none`: `refills` (the stock only refills emptied piles by
    /// itself), `empty` (no card left and no redeal to play).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<&'static str>,
}

/// Bookkeeping the engine does not hold.
pub struct Meta<'a> {
    pub uid: &'a str,
    pub level: AskedLevel,
    pub grade: Option<&'a DealGrade>,
    pub elapsed_ms: i64,
    /// The player's moves (clicks); `None` counts every move as one.
    pub clicks: Option<usize>,
}

pub fn layout_name(layout: TableLayout) -> &'static str {
    match layout {
        TableLayout::Rows => "rows",
        TableLayout::House => "house",
        TableLayout::BigFan => "big-fan",
        TableLayout::Birds => "birds",
        TableLayout::Circle => "circle",
        TableLayout::BlondesAndBrunettes => "blondes-and-brunettes",
        TableLayout::Nivernaise => "nivernaise",
    }
}

pub fn kind_name(kind: PileKind) -> &'static str {
    match kind {
        PileKind::Tableau(_) => "tableau",
        PileKind::Foundation(_) => "foundation",
        PileKind::Cell(_) => "cell",
        PileKind::Reserve => "reserve",
        PileKind::Waste => "waste",
        PileKind::Stock => "stock",
    }
}

pub fn state(game: &Game, meta: &Meta) -> State {
    let pos = game.position();
    let spec: &GameSpec = pos.spec();
    let legal_moves = pos.legal_moves();
    State {
        uid: meta.uid.to_string(),
        game: spec.id,
        name_en: spec.name_en,
        name_ru: spec.name_ru,
        layout: layout_name(spec.layout),
        deal: pos.deal_number(),
        level: meta.level,
        grade: meta.grade.map(|g| g.level),
        person: meta.grade.and_then(|g| g.person),
        moves: meta.clicks.unwrap_or(game.moves().len()),
        plies: game.moves().len(),
        can_undo: !game.moves().is_empty(),
        can_redo: !game.redo_moves().is_empty(),
        redeals_left: pos.redeals_left(),
        draw_available: legal_moves.iter().any(|m| matches!(m, Move::Draw { .. })),
        won: pos.is_won(),
        stuck: !pos.is_won() && legal_moves.is_empty(),
        elapsed_ms: meta.elapsed_ms,
        idle_cap_ms: crate::live::IDLE_CAP.as_millis() as u64,
        redeal_refusal: pos.redeal_refusal().map(|r| r.code()),
        finish: !pos.is_won() && pos.finish_line().is_some(),
        stock_click: stock_click(pos, &legal_moves),
        piles: piles(pos),
        legal: legal_moves.iter().map(|&m| legal(pos, m)).collect(),
        played: Vec::new(),
    }
}

/// What a click on the stock does: a deal where one is legal, else a
/// redeal where one is, else nothing, with the reason.
fn stock_click(pos: &Position, legal: &[Move]) -> Option<StockClick> {
    let stock = pos
        .layout()
        .ids()
        .find(|&id| pos.layout().kind(id) == Some(PileKind::Stock))?;
    let (mv, does, why) = if legal.contains(&Move::Deal) {
        let does = match pos.spec().stock_action {
            StockAction::ThreeToEachPile => "three-to-each-pile",
            _ => "one-to-waste",
        };
        (Some("deal"), does, None)
    } else if legal.contains(&Move::Redeal) {
        (Some("redeal"), "redeal", None)
    } else if !pos.pile(stock).is_empty() && pos.spec().stock_action == StockAction::None {
        (None, "none", Some("refills"))
    } else {
        (None, "none", Some("empty"))
    };
    Some(StockClick { mv, does, why })
}

fn piles(pos: &Position) -> Vec<Pile> {
    let layout = pos.layout();
    layout
        .ids()
        .filter_map(|id| {
            let kind = layout.kind(id)?;
            let cards = pos.pile(id);
            let shown = if kind == PileKind::Stock {
                Vec::new()
            } else {
                cards.iter().map(|c| card_view(*c)).collect()
            };
            let base = match kind {
                PileKind::Foundation(i) => {
                    pos.spec()
                        .foundation_opening(i as usize)
                        .map(|(rank, suit)| Base {
                            rank: rank.text(),
                            suit: suit.map(|s| s.letter().to_string()),
                        })
                }
                _ => None,
            };
            Some(Pile {
                name: layout.name(id).to_string(),
                kind: kind_name(kind),
                count: cards.len(),
                cards: shown,
                base,
            })
        })
        .collect()
}

/// A card's text, made once per card: a state holds up to 104 cards and is
/// sent on every move. (The page names cards from its message catalogue.)
fn card_view(c: patience_engine::Card) -> CardView {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    let texts = TEXTS.get_or_init(|| {
        (0..patience_engine::Card::COUNT)
            .map(|i| patience_engine::Card::from_index(i).map_or(String::new(), |c| c.to_string()))
            .collect()
    });
    CardView {
        card: texts.get(c.index()).map_or("?", String::as_str),
    }
}

/// A move as the page sees it.
pub fn legal(pos: &Position, mv: Move) -> Legal {
    let layout = pos.layout();
    let name = |p| Some(layout.name(p).to_string());
    let text = mv.text(layout);
    match mv {
        Move::Step { from, to } => {
            let pile = pos.pile(from);
            let carried = pos.check(mv).unwrap_or(1).max(1);
            let at = pile.len().checked_sub(carried);
            let card = at.and_then(|i| pile.get(i)).map(|c| c.to_string());
            Legal {
                text,
                kind: "step",
                from: name(from),
                index: None,
                to: name(to),
                card,
                at,
                also: others(pos, mv, to),
            }
        }
        Move::Draw { from, index, to } => Legal {
            text,
            kind: "draw",
            from: name(from),
            index: Some(index),
            to: name(to),
            card: pos.pile(from).get(index as usize).map(|c| c.to_string()),
            at: Some(index as usize),
            also: others(pos, mv, to),
        },
        Move::Deal => Legal {
            text,
            kind: "deal",
            from: None,
            index: None,
            to: None,
            card: None,
            at: None,
            also: Vec::new(),
        },
        Move::Redeal => Legal {
            text,
            kind: "redeal",
            from: None,
            index: None,
            to: None,
            card: None,
            at: None,
            also: Vec::new(),
        },
    }
}

/// The destinations alike to `to` that `mv` may take instead, as names.
fn others(pos: &Position, mv: Move, to: PileId) -> Vec<String> {
    pos.equivalent_destinations(mv)
        .into_iter()
        .filter(|&p| p != to)
        .map(|p| pos.layout().name(p).to_string())
        .collect()
}

/// `mv` as it is about to be played in `pos` (a legal move: the count of
/// cards it carries comes from the engine's check).
pub fn played(pos: &Position, mv: Move, auto: bool) -> Played {
    let layout = pos.layout();
    let name = |p: PileId| Some(layout.name(p).to_string());
    let count = pos.check(mv).unwrap_or(0);
    let text = mv.text(layout);
    let (kind, from, from_index, to) = match mv {
        Move::Step { from, to } => (
            "step",
            Some(from),
            pos.pile(from).len().checked_sub(count),
            Some(to),
        ),
        Move::Draw { from, index, to } => ("draw", Some(from), Some(index as usize), Some(to)),
        Move::Deal => ("deal", None, None, None),
        Move::Redeal => ("redeal", None, None, None),
    };
    Played {
        text,
        kind,
        auto,
        from: from.and_then(name),
        from_index,
        to: to.and_then(name),
        to_index: to.map(|t| pos.pile(t).len()),
        count,
        card: from
            .zip(from_index)
            .and_then(|(f, i)| pos.pile(f).get(i))
            .map(|c| c.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: Meta<'static> = Meta {
        uid: "u",
        level: AskedLevel::Any,
        grade: None,
        elapsed_ms: 0,
        clicks: None,
    };

    #[test]
    fn foundations_say_what_opens_them() {
        let game = Game::new(patience_engine::game("nivernaise").unwrap(), 1).unwrap();
        let s = state(&game, &META);
        let base = |name: &str| {
            let p = s.piles.iter().find(|p| p.name == name).unwrap();
            p.base.as_ref().map(|b| (b.rank, b.suit.as_deref()))
        };
        assert_eq!(base("f1"), Some(("A", Some("S"))));
        assert_eq!(base("f8"), Some(("K", Some("C"))));
        assert_eq!(base("t1"), None);
    }

    #[test]
    fn the_stock_is_sent_as_a_count_only() {
        for spec in patience_engine::games() {
            let game = Game::new(spec, 7).unwrap();
            let s = state(&game, &META);
            let total: usize = s.piles.iter().map(|p| p.count).sum();
            assert_eq!(total, spec.card_count(), "{}", spec.id);
            for p in &s.piles {
                if p.kind == "stock" {
                    assert!(p.cards.is_empty(), "{}", spec.id);
                } else {
                    assert_eq!(p.cards.len(), p.count, "{}", spec.id);
                }
            }
            for p in &s.piles {
                let opened = spec.krug_bases;
                assert_eq!(
                    p.base.is_some(),
                    p.kind == "foundation" && !opened,
                    "{} {}",
                    spec.id,
                    p.name
                );
            }
            // Every legal move's text parses back to the move the engine listed.
            let pos = game.position();
            for (l, m) in s.legal.iter().zip(pos.legal_moves()) {
                assert_eq!(Move::parse(&l.text, pos.layout()).unwrap(), m);
            }
        }
    }
}
