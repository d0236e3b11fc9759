//! What the table needs from the server beyond moves: interchangeable
//! destinations, moved cards named by place, automatic moves home, finish,
//! restart, the deal's grade, the redeal's refusal and the clock's cap.
//! Each through a real server on loopback over a real SQLite file, or a
//! real PostgreSQL database when the suite runs against PostgreSQL
//! (`PATIENCE_TEST_STORE=postgres`, as `scripts/test` runs it a second time).

mod common;

use common::{moves, temp_store, uid, Player, Server};
use patience_engine::Position;
use reqwest::StatusCode;
use serde_json::{json, Value};

fn legal(state: &Value) -> &Vec<Value> {
    state["legal"].as_array().unwrap()
}

fn pile<'a>(state: &'a Value, name: &str) -> &'a Value {
    state["piles"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap()
}

fn cards(state: &Value, name: &str) -> Vec<String> {
    pile(state, name)["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["card"].as_str().unwrap().to_string())
        .collect()
}

async fn post(p: &mut Player, uid: &str, what: &str, body: Value) -> (StatusCode, Value) {
    p.post(&format!("/api/play/{uid}/{what}"), body).await
}

/// House in the Woods keeps two foundations of each suit (`f1` and `f5`
/// spades, both built from the ace): an ace of spades may go to either
/// while both are empty, the state says so, and a move to the second is
/// accepted and answered with the card that moved, by its place.
#[tokio::test]
async fn an_ace_lists_its_twin_foundation_and_may_go_there() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let mut found = None;
    for deal in 1..60 {
        let s = p.new_game("house-in-the-woods", deal).await;
        if let Some(l) = legal(&s)
            .iter()
            .find(|l| l["card"] == "AS" && l["to"] == "f1")
        {
            found = Some((s.clone(), l.clone()));
            break;
        }
    }
    let (state, l) = found.expect("a deal with an ace of spades on top");
    assert_eq!(l["also"], json!(["f5"]), "{l}");
    // No ace of another suit is offered a spade foundation.
    for other in legal(&state) {
        if other["kind"] == "step" && other["to"].as_str().unwrap().starts_with('f') {
            let also: Vec<&str> = other["also"]
                .as_array()
                .map(|a| a.iter().map(|x| x.as_str().unwrap()).collect())
                .unwrap_or_default();
            let suit = other["card"].as_str().unwrap().chars().last().unwrap();
            let twin = |f: &str| match f {
                "f1" => "f5",
                "f2" => "f6",
                "f3" => "f7",
                "f4" => "f8",
                _ => "",
            };
            assert_eq!(also, [twin(other["to"].as_str().unwrap())], "{other}");
            assert!("SHDC".contains(suit));
        }
    }
    let from = l["from"].as_str().unwrap();
    let before = cards(&state, from);
    let game = uid(&state);
    let mv = format!("{from}>f5");
    let (status, after) = p
        .post(
            &format!("/api/play/{game}/move"),
            json!({ "move": mv, "expect": 0 }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(cards(&after, "f5"), ["AS"]);
    assert!(cards(&after, "f1").is_empty());
    let played = &after["played"][0];
    assert_eq!(played["move"], mv.as_str());
    assert_eq!(played["from"], from);
    assert_eq!(played["from_index"], before.len() - 1);
    assert_eq!(played["to"], "f5");
    assert_eq!(played["to_index"], 0);
    assert_eq!(played["card"], "AS");
    assert_eq!(played["auto"], false);
    server.stop().await;
}

/// An emptied fan in Fan takes a king; every empty fan is listed for it.
#[tokio::test]
async fn every_equivalent_destination_is_accepted() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let mut checked = 0;
    for (game, deal) in [("fan", 4), ("nivernaise", 2), ("house-in-the-woods", 3)] {
        let s = p.new_game(game, deal).await;
        for l in legal(&s) {
            let Some(also) = l["also"].as_array() else {
                continue;
            };
            for to in also {
                // Each one on a fresh game of the same deal, so that each
                // is tried from the same position.
                let fresh = p.new_game(game, deal).await;
                let from = l["from"].as_str().unwrap();
                let mv = match l["index"].as_u64() {
                    Some(i) => format!("{from}@{i}>{}", to.as_str().unwrap()),
                    None => format!("{from}>{}", to.as_str().unwrap()),
                };
                let (status, body) = p.play(&uid(&fresh), &mv, 0).await;
                assert_eq!(status, StatusCode::OK, "{game} {mv}: {body}");
                assert_eq!(body["played"][0]["to"], *to);
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
    server.stop().await;
}

/// Automatic moves: in Fan (no redeals) every ace left on top of a fan after
/// a move goes home with it, each a move of its own in the record; the click
/// counts once, and one undo takes back the click with all it set off. In
/// La Belle Lucie, with redeals to come, no card of a fan goes home by
/// itself (a redeal would gather it: that could lose a win).
#[tokio::test]
async fn automatic_moves_send_aces_home_and_undo_takes_back_the_click() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let mut done = false;
    let plies = |s: &Value| s["plies"].as_u64().unwrap();
    for deal in 1..40 {
        let s = p.new_game("fan", deal).await;
        let aces_on_top = (1..=18)
            .filter(|i| {
                cards(&s, &format!("t{i}"))
                    .last()
                    .is_some_and(|c| c.starts_with('A'))
            })
            .count();
        // A move that is not an ace going home, with an ace on top elsewhere.
        let Some(m) = legal(&s).iter().find(|l| {
            l["kind"] == "step"
                && !l["card"].as_str().unwrap().starts_with('A')
                && l["to"].as_str().unwrap().starts_with('t')
        }) else {
            continue;
        };
        if aces_on_top == 0 {
            continue;
        }
        let game = uid(&s);
        let mv = m["move"].as_str().unwrap();
        let (status, after) = post(
            &mut p,
            &game,
            "move",
            json!({"move": mv, "expect": 0, "auto": true}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{after}");
        let played = after["played"].as_array().unwrap();
        assert_eq!(played[0]["move"], mv);
        assert!(played.len() > aces_on_top, "{played:?}");
        for a in &played[1..] {
            assert_eq!(a["auto"], true);
            assert!(a["to"].as_str().unwrap().starts_with('f'), "{a}");
        }
        for i in 1..=18 {
            let top = cards(&after, &format!("t{i}")).last().cloned();
            assert!(
                !top.is_some_and(|c| c.starts_with('A')),
                "an ace left on t{i}"
            );
        }
        assert_eq!(moves(&after), 1, "one click");
        assert_eq!(plies(&after), played.len() as u64);
        // Undo takes back the click and every automatic move it set off.
        let version = after["version"].as_u64().unwrap();
        let (status, undone) = post(&mut p, &game, "undo", json!({"expect": version})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!((moves(&undone), plies(&undone)), (0, 0));
        assert_eq!(undone["piles"], s["piles"]);
        assert!(undone["played"].as_array().unwrap().is_empty());
        // Redo brings them all back, and so does a reload of the stored game.
        let (status, redone) = post(&mut p, &game, "redo", json!({"expect": version + 1})).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(redone["piles"], after["piles"]);
        assert_eq!((moves(&redone), plies(&redone)), (1, played.len() as u64));
        // Without `auto`, nothing follows a move.
        let s = p.new_game("fan", deal).await;
        let (_, plain) = p.play(&uid(&s), mv, 0).await;
        assert_eq!(plain["played"].as_array().unwrap().len(), 1);
        assert_eq!(moves(&plain), 1);
        done = true;
        break;
    }
    assert!(done, "no deal with an ace on top and another move");
    // La Belle Lucie, first deal: aces on top stay where they are.
    for deal in 1..40 {
        let s = p.new_game("la-belle-lucie", deal).await;
        let Some(m) = legal(&s)
            .iter()
            .find(|l| l["to"].as_str().is_some_and(|t| t.starts_with('t')))
        else {
            continue;
        };
        let (status, after) = post(
            &mut p,
            &uid(&s),
            "move",
            json!({"move": m["move"], "expect": 0, "auto": true}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{after}");
        assert_eq!(after["played"].as_array().unwrap().len(), 1, "deal {deal}");
    }
    server.stop().await;
}

/// A won line played up to the point where every card left can go home
/// with nothing to decide; there `finish` plays the rest, all moves home.
#[tokio::test]
async fn finish_plays_out_a_game_that_only_sends_cards_home() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let spec = patience_engine::game("la-belle-lucie").unwrap();
    let deal = 2;
    let pos = Position::deal(spec, deal).unwrap();
    let report = patience_solver::solve(&pos, &patience_solver::Budget::default());
    let patience_solver::Outcome::Win(line) = report.outcome else {
        panic!("deal {deal} is won by the solver");
    };
    let s = p.new_game("la-belle-lucie", deal).await;
    let game = uid(&s);
    assert_eq!(s["finish"], false);
    let (status, body) = post(&mut p, &game, "finish", json!({"expect": 0})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let mut state = s;
    let mut n = 0;
    for m in &line {
        if state["finish"] == true {
            break;
        }
        let text = m.text(pos.layout());
        let (status, next) = p.play(&game, &text, n).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        state = next;
        n += 1;
    }
    assert_eq!(state["finish"], true, "the end of a won line finishes");
    let (status, done) = post(&mut p, &game, "finish", json!({"expect": n})).await;
    assert_eq!(status, StatusCode::OK, "{done}");
    assert_eq!(done["won"], true);
    assert_eq!(done["finish"], false);
    let played = done["played"].as_array().unwrap();
    assert!(!played.is_empty());
    for m in played {
        assert!(m["to"].as_str().unwrap().starts_with('f'), "{m}");
    }
    assert_eq!(moves(&done), n + 1, "the finish is one click");
    assert_eq!(done["plies"].as_u64().unwrap(), n + played.len() as u64);
    // The record replays to the win.
    let (_, again) = p.get(&format!("/api/play/{game}")).await;
    assert_eq!(again["won"], true);
    // The statistics and the deal's records count the player's moves, as
    // the table does: the finish is one of them.
    let (_, stats) = p.get("/api/stats").await;
    let lucie = stats
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["game"] == "la-belle-lucie")
        .unwrap();
    assert_eq!(lucie["best_moves"], json!(n + 1), "{lucie}");
    let (_, records) = p.get(&format!("/api/records/la-belle-lucie/{deal}")).await;
    assert_eq!(records["best_moves"], json!(n + 1), "{records}");
    server.stop().await;
}

/// Restart: the same deal and level as a fresh game; the old one is kept.
#[tokio::test]
async fn restart_keeps_the_deal_and_the_level_and_the_old_game() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let (status, s) = p
        .post("/api/games/la-belle-lucie/new", json!({"level": "easy"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_eq!(s["level"], "easy");
    assert_eq!(
        s["grade"], "easy",
        "a deal drawn from a level has that grade"
    );
    let old = uid(&s);
    let mv = legal(&s)[0]["move"].as_str().unwrap().to_string();
    let (_, played) = p.play(&old, &mv, 0).await;
    let (status, fresh) = post(&mut p, &old, "restart", json!({})).await;
    assert_eq!(status, StatusCode::CREATED, "{fresh}");
    assert_ne!(uid(&fresh), old);
    assert_eq!(fresh["deal"], s["deal"]);
    assert_eq!(fresh["level"], "easy");
    assert_eq!(fresh["grade"], "easy");
    assert_eq!(moves(&fresh), 0);
    assert_eq!(fresh["piles"], s["piles"]);
    let (_, kept) = p.get(&format!("/api/play/{old}")).await;
    assert_eq!(moves(&kept), 1);
    assert_eq!(kept["piles"], played["piles"]);
    // Another player cannot restart it.
    let mut other = Player::new(&server.url);
    let (status, _) = post(&mut other, &old, "restart", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.stop().await;
}

/// The deal's grade comes from the shipped library; an ungraded deal has none.
#[tokio::test]
async fn the_state_names_the_grade_the_redeal_refusal_and_the_clock_cap() {
    let db = temp_store().await;
    let server = Server::start_with(db.shipped()).await;
    let mut p = Player::new(&server.url);
    let library = include_str!("../../../data/library/la-belle-lucie.tsv");
    let line: Vec<&str> = library.lines().nth(1).unwrap().split('\t').collect();
    let (deal, level) = (line[0], line[1]);
    let s = p.new_game("la-belle-lucie", deal.parse().unwrap()).await;
    assert_eq!(s["grade"], level);
    // The person-like player's wins of its runs, where the library has them.
    if let (Some(wins), Some(runs)) = (line.get(2).filter(|w| !w.is_empty()), line.get(3)) {
        assert_eq!(s["person"]["wins"].to_string(), *wins);
        assert_eq!(s["person"]["runs"].to_string(), *runs);
    }
    assert_eq!(s["redeal_refusal"], Value::Null);
    assert_eq!(s["idle_cap_ms"], 120_000);
    let s = p.new_game("la-belle-lucie", 4_294_967_295).await;
    assert_eq!(s["grade"], Value::Null);
    assert_eq!(s["person"], Value::Null);
    // Nivernaise redeals only once its stock is empty; Fan never.
    let s = p.new_game("nivernaise", 1).await;
    assert_eq!(s["redeal_refusal"], "stock-not-empty");
    let s = p.new_game("fan", 1).await;
    assert_eq!(s["redeal_refusal"], "none-in-game");
    // La Belle Lucie after its two redeals.
    let s = p.new_game("la-belle-lucie", 1).await;
    let game = uid(&s);
    for n in 0..2 {
        let (status, _) = p.play(&game, "redeal", n).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, s) = p.get(&format!("/api/play/{game}")).await;
    assert_eq!(s["redeal_refusal"], "all-used");
    assert!(legal(&s).iter().all(|l| l["kind"] != "redeal"));
    server.stop().await;
}
