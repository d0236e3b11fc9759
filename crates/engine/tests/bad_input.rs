//! Bad input gives an error that names the problem, and never a panic: unknown
//! cards, a card twice, too many cards, unknown games, empty or truncated
//! texts, a 10 MB line.

use patience_engine::*;

fn err_text(text: &str, game: Option<&str>) -> String {
    let e = Position::from_text(text, game)
        .expect_err(text.get(..60).unwrap_or(text))
        .to_string();
    assert!(e.len() < 400, "short message: {}", e.len());
    e
}

fn assert_mentions(msg: &str, needles: &[&str]) {
    for n in needles {
        assert!(
            msg.to_lowercase().contains(&n.to_lowercase()),
            "{msg:?} should mention {n:?}"
        );
    }
}

#[test]
fn unknown_cards_are_named() {
    assert_mentions(&err_text("game: fan\nt1: AS ZQ", None), &["line 2", "ZQ"]);
    assert_mentions(&err_text("AS 1X\n", Some("fan")), &["1X"]);
    assert_mentions(&Card::parse("11H").unwrap_err().to_string(), &["11H"]);
    assert_mentions(&Card::parse("").unwrap_err().to_string(), &["empty"]);
    // A card the game's deck does not hold.
    assert_mentions(&err_text("game: krug\nt1: 2S", None), &["2S", "deck"]);
}

#[test]
fn a_card_twice_is_named() {
    assert_mentions(
        &err_text("game: fan\nt1: AS\nt2: KD AS", None),
        &["AS", "2 times"],
    );
    assert_mentions(&err_text("KD AS\nAS", Some("fan")), &["AS"]);
}

#[test]
fn too_many_cards_are_refused() {
    // A third copy in a two-deck game.
    assert_mentions(
        &err_text("game: house-in-the-woods\nt1: AS AS AS", None),
        &["AS", "3 times"],
    );
    // More fans than the game has, in the plain form.
    let lines: Vec<String> = (0..19).map(|_| "KD".to_string()).collect();
    let e = err_text(&lines.join("\n"), Some("la-belle-lucie"));
    assert!(e.contains("KD") || e.contains("fans"), "{e}");
    let mut many = String::from("game: fan\nt1:");
    for _ in 0..200 {
        many += " KS";
    }
    assert_mentions(&err_text(&many, None), &["line 2"]);
}

#[test]
fn missing_cards_are_named() {
    assert_mentions(&err_text("game: fan\nt1: AS", None), &["missing"]);
}

#[test]
fn unknown_games_are_named() {
    assert_mentions(
        &err_text("game: solitaire", None),
        &["unknown game", "solitaire"],
    );
    assert_mentions(&err_text("KS", Some("klondike")), &["klondike"]);
    assert_mentions(&err_text("t1: KS", None), &["no game"]);
    assert_mentions(
        &Record::parse("game: nope\ndeal: 1")
            .unwrap_err()
            .to_string(),
        &["nope"],
    );
    let e = err_text("game: fan\nt1: KS", Some("krug"));
    assert_mentions(&e, &["fan", "krug"]);
}

#[test]
fn empty_and_truncated_texts_are_refused() {
    assert_mentions(&err_text("", Some("fan")), &["empty"]);
    assert_mentions(&err_text("  \n\n", None), &["empty"]);
    let full = Position::deal(game("nivernaise").unwrap(), 3)
        .unwrap()
        .to_text();
    let cut = &full[..full.len() / 2];
    assert_mentions(&err_text(cut, None), &["missing"]);
    let line = full.lines().nth(5).unwrap();
    let half = &line[..line.len() - 1];
    let e = err_text(&full.replace(line, half), None);
    assert!(
        e.contains("line 6") || e.contains("missing") || e.contains("unknown card"),
        "{e}"
    );
    assert_mentions(&Record::parse("").unwrap_err().to_string(), &["empty"]);
    assert_mentions(
        &Record::parse("game: fan\n").unwrap_err().to_string(),
        &["deal"],
    );
    assert_mentions(
        &Record::parse("game: fan\ndeal: 1\nmoves: t1>f")
            .unwrap_err()
            .to_string(),
        &["t1>f"],
    );
}

#[test]
fn a_ten_megabyte_line_is_refused_quickly_with_a_short_message() {
    let huge = "KS ".repeat(10 * 1024 * 1024 / 3);
    assert_mentions(&err_text(&huge, Some("fan")), &["bytes"]);
    let rec = format!("game: fan\ndeal: 1\nmoves: {huge}");
    let e = Record::parse(&rec).unwrap_err().to_string();
    assert!(e.contains("bytes") && e.len() < 200, "{e}");
    let e = Card::parse(&huge).unwrap_err().to_string();
    assert!(e.len() < 200, "{e}");
    let layout = Layout::of(game("fan").unwrap());
    let e = Move::parse(&huge, &layout).unwrap_err().to_string();
    assert!(e.len() < 200, "{e}");
}

#[test]
fn bad_numbers_and_moves_are_named() {
    assert_mentions(&err_text("game: fan\ndeal: 99999999999", None), &["deal"]);
    assert_mentions(&err_text("game: fan\nredeals-used: 5", None), &["redeal"]);
    assert_mentions(
        &err_text("game: la-belle-lucie\nredeals-used: x\nt1: KS", None),
        &["line 2", "redeal"],
    );
    assert_mentions(
        &Record::parse("game: fan\ndeal: 0").unwrap_err().to_string(),
        &["0", "range"],
    );
    assert!(Position::deal(game("fan").unwrap(), 0).is_err());
    assert!(Position::deal(game("fan").unwrap(), MAX_DEAL + 1).is_err());
    assert!(Position::deal(game("fan").unwrap(), MAX_DEAL).is_ok());
    let rec = Record::parse("game: fan\ndeal: 1\nmoves: t1>t2 t9>f1").unwrap();
    match rec.replay() {
        Err(RecordError::Illegal { index, text, .. }) => {
            assert_eq!((index, text.as_str()), (0, "t1>t2"))
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn impossible_positions_are_refused() {
    // A foundation out of sequence.
    let fan = Position::deal(game("fan").unwrap(), 1).unwrap().to_text();
    let mut out_of_order: String = fan
        .lines()
        .filter(|l| !l.starts_with("f1:"))
        .map(|l| {
            let words: Vec<&str> = l.split(' ').filter(|w| *w != "AS" && *w != "3S").collect();
            words.join(" ") + "\n"
        })
        .collect();
    out_of_order += "f1: AS 3S\n";
    assert_mentions(&err_text(&out_of_order, None), &["f1", "3S", "sequence"]);
    // A Krug base on another suit's foundation.
    let k = Position::deal(game("krug").unwrap(), 1).unwrap().to_text();
    let base = |f: &str| k.lines().find(|l| l.starts_with(f)).unwrap()[3..].to_string();
    let (b1, b2) = (base("f1:"), base("f2:"));
    let swapped: String = k
        .lines()
        .map(|l| match &l[..3.min(l.len())] {
            "f1:" => format!("f1:{b2}\n"),
            "f2:" => format!("f2:{b1}\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    assert_mentions(&err_text(&swapped, None), &["f1"]);
    // An emptied pile beside the stock that would have refilled it: t1's
    // cards put under the stock.
    let n = Position::deal(game("novomanernaya").unwrap(), 1)
        .unwrap()
        .to_text();
    let t1 = n.lines().find(|l| l.starts_with("t1:")).unwrap()[3..].to_string();
    let moved: String = n
        .lines()
        .map(|l| match &l[..3.min(l.len())] {
            "t1:" => "t1:\n".to_string(),
            "s: " => format!("s:{t1} {}\n", &l[2..]),
            _ => format!("{l}\n"),
        })
        .collect();
    assert_mentions(&err_text(&moved, None), &["t1", "stock"]);
    // Two cards in one flank cell.
    let v = Position::deal(game("nivernaise").unwrap(), 1)
        .unwrap()
        .to_text();
    let c2 = v.lines().find(|l| l.starts_with("c2:")).unwrap()[3..].to_string();
    let moved: String = v
        .lines()
        .map(|l| match &l[..3.min(l.len())] {
            "c2:" => "c2:\n".to_string(),
            "c1:" => format!("{l}{c2}\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    assert_mentions(&err_text(&moved, None), &["c1"]);
}
