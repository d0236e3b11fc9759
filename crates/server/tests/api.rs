//! The API through a real server on loopback and a real SQLite file.

mod common;

use std::collections::HashSet;
use std::io::{Read, Write};

use common::{first_legal, moves, temp_store, uid, version, Player, Server};
use patience_engine::{Move, Position};
use patience_store::{DealGrade, Level, PersonWins};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A move the engine refuses in this state: a step from t1 to each pile in turn
/// until one is not listed as legal.
fn illegal_move(state: &Value) -> String {
    let legal: HashSet<&str> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["move"].as_str().unwrap())
        .collect();
    state["piles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("t1>{}", p["name"].as_str().unwrap()))
        .find(|m| !legal.contains(m.as_str()))
        .expect("some step from t1 is illegal")
}

#[tokio::test]
async fn an_illegal_move_is_refused_with_the_reason_and_nothing_is_stored() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("la-belle-lucie", 17).await;
    let uid = uid(&state);
    let (status, _) = p.play(&uid, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, before) = p.get(&format!("/api/play/{uid}")).await;

    let (status, body) = p.play(&uid, &illegal_move(&before), 1).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let msg = body["error"].as_str().unwrap();
    assert!(msg.contains("illegal move"), "{msg}");

    let (_, after) = p.get(&format!("/api/play/{uid}")).await;
    assert_eq!(after["piles"], before["piles"]);
    assert_eq!(moves(&after), 1);
    server.stop().await;
    let row = db.load_game(&uid).await;
    assert_eq!(row.move_count, 1);
    assert_eq!(row.moves.split_whitespace().count(), 1);
}

#[tokio::test]
async fn bad_requests_get_4xx_with_a_message() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("fan", 3).await;
    let uid = uid(&state);
    let play = format!("/api/play/{uid}/move");

    let cases: Vec<(&str, Vec<u8>, StatusCode, &str)> = vec![
        (
            play.as_str(),
            b"{\"move\": ".to_vec(),
            StatusCode::BAD_REQUEST,
            "malformed_body",
        ),
        (
            play.as_str(),
            b"[1,2,3]".to_vec(),
            StatusCode::BAD_REQUEST,
            "malformed_body",
        ),
        (
            play.as_str(),
            br#"{"move": "t1>f1"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "malformed_body",
        ),
        (
            play.as_str(),
            br#"{"move": "t99>f1", "expect": 0}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_move",
        ),
        (
            play.as_str(),
            br#"{"move": "deal", "expect": 0}"#.to_vec(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_move",
        ),
        (
            play.as_str(),
            format!("{{\"move\": \"{}\", \"expect\": 0}}", "x".repeat(70_000)).into_bytes(),
            StatusCode::PAYLOAD_TOO_LARGE,
            "body_too_large",
        ),
        (
            "/api/games/no-such-game/new",
            b"{}".to_vec(),
            StatusCode::NOT_FOUND,
            "unknown_game",
        ),
        (
            "/api/games/fan/new",
            br#"{"deal": 0}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_deal",
        ),
        (
            "/api/games/fan/new",
            br#"{"deal": 4294967296}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_deal",
        ),
        (
            "/api/games/fan/new",
            br#"{"deal": -3}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "malformed_body",
        ),
        (
            "/api/games/fan/new",
            br#"{"level": "trivial"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            "/api/games/fan/new",
            br#"{"level": "unwinnable"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            "/api/games/fan/new",
            br#"{"level": "unknown"}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_level",
        ),
        (
            "/api/play/00000000000000000000000000000000/move",
            br#"{"move": "deal", "expect": 0}"#.to_vec(),
            StatusCode::NOT_FOUND,
            "no_such_game",
        ),
        (
            "/api/play/..%2F..%2Fetc/undo",
            br#"{"expect": 0}"#.to_vec(),
            StatusCode::NOT_FOUND,
            "no_such_game",
        ),
        (
            "/api/play/%ff%fe/undo",
            br#"{"expect": 0}"#.to_vec(),
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "/api/nothing/here",
            b"{}".to_vec(),
            StatusCode::NOT_FOUND,
            "no_endpoint",
        ),
    ];
    for (path, body, want, code) in cases {
        let (status, answer) = p.post_raw(path, body.clone()).await;
        let shown = String::from_utf8_lossy(&body[..body.len().min(60)]).to_string();
        assert_eq!(status, want, "{path} {shown}");
        assert!(
            answer["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{path}: {answer}"
        );
        assert_eq!(answer["code"], json!(code), "{path} {shown}: {answer}");
    }
    // The router's own refusals are JSON with a code too.
    let res = p
        .http
        .delete(format!("{}/api/games", server.url))
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::METHOD_NOT_ALLOWED);
    let body: Value = res.json().await.unwrap();
    assert_eq!(body["code"], json!("method_not_allowed"), "{body}");
    let (status, _) = p.get("/api/games/no-such-game/rules").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = p.get("/api/nothing-here").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // None of that touched the game.
    let (_, now) = p.get(&format!("/api/play/{uid}")).await;
    assert_eq!(now["piles"], state["piles"]);
    assert_eq!(moves(&now), 0);
    server.stop().await;
}

#[tokio::test]
async fn a_truncated_body_is_refused() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("fan", 3).await;
    let uid = uid(&state);
    let cookie = p.cookie.clone().unwrap();
    let addr = server.url.trim_start_matches("http://").to_string();
    let reply = tokio::task::spawn_blocking(move || {
        let mut s = std::net::TcpStream::connect(addr).unwrap();
        let body = r#"{"move": "t1>f1", "expect": 0}"#;
        let head = format!(
            "POST /api/play/{uid}/move HTTP/1.1\r\nhost: x\r\ncookie: {cookie}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n",
            body.len() + 40
        );
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body.as_bytes()).unwrap();
        s.shutdown(std::net::Shutdown::Write).unwrap();
        let mut out = String::new();
        let _ = s.read_to_string(&mut out);
        out
    })
    .await
    .unwrap();
    let status_line = reply.lines().next().unwrap_or("");
    assert!(status_line.contains(" 400 "), "{reply}");
    let (_, now) = p.get(&format!("/api/play/{}", common::uid(&state))).await;
    assert_eq!(moves(&now), 0);
    server.stop().await;
}

#[tokio::test]
async fn another_players_game_is_not_found() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut alice = Player::new(&server.url);
    let mut bob = Player::new(&server.url);
    let state = alice.new_game("fan", 9).await;
    let uid = uid(&state);
    bob.new_game("fan", 2).await;
    assert!(bob.cookie.is_some() && bob.cookie != alice.cookie);
    let (status, body) = bob.get(&format!("/api/play/{uid}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, _) = bob.play(&uid, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = bob.post(&format!("/api/play/{uid}/hint"), json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // A forged cookie is a new player, not an error.
    let mut mallory = Player::new(&server.url);
    mallory.cookie = Some("patience_player=not-a-token".into());
    let (status, _) = mallory.get(&format!("/api/play/{uid}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Alice still plays it.
    let (status, _) = alice.play(&uid, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::OK);
    let (_, cont) = alice.get("/api/continue").await;
    assert_eq!(cont[0]["uid"], json!(uid));
    let (_, none) = bob.get("/api/continue").await;
    assert_eq!(none, json!([]));
    server.stop().await;
}

#[tokio::test]
async fn a_stale_move_count_gets_409_with_the_current_state() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("la-belle-lucie", 5).await;
    let uid = uid(&state);
    let mv = first_legal(&state);
    let (status, s1) = p.play(&uid, &mv, 0).await;
    assert_eq!(status, StatusCode::OK);
    // A second tab that still believes the game has no moves.
    let (status, body) = p.play(&uid, &first_legal(&state), 0).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["state"]["moves"], json!(1));
    assert_eq!(body["state"]["piles"], s1["piles"]);
    let (status, _) = p
        .post(&format!("/api/play/{uid}/undo"), json!({"expect": 7}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    server.stop().await;
}

#[tokio::test]
async fn undo_and_redo_round_trip_and_survive_a_restart() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let mut state = p.new_game("la-belle-lucie", 11).await;
    let uid = uid(&state);
    let mut seen = vec![state["piles"].clone()];
    for n in 0..4 {
        let (status, next) = p.play(&uid, &first_legal(&state), n).await;
        assert_eq!(status, StatusCode::OK, "{next}");
        state = next;
        seen.push(state["piles"].clone());
    }
    // `expect` is the version, which grows with undo as with moves.
    let mut v = version(&state);
    for n in (2..4).rev() {
        let (status, s) = p
            .post(&format!("/api/play/{uid}/undo"), json!({"expect": v}))
            .await;
        v = version(&s);
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["piles"], seen[n as usize]);
        assert_eq!(s["can_redo"], json!(true));
    }
    // The server goes away mid-game; a new one on the same file resumes it.
    server.stop().await;
    let server = Server::start_with(db.config()).await;
    p.url = server.url.clone();
    let (status, s) = p.get(&format!("/api/play/{uid}")).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(moves(&s), 2);
    assert_eq!(s["piles"], seen[2]);
    assert_eq!(s["can_redo"], json!(true));
    assert_eq!(version(&s), 6);
    for n in 2..4 {
        let (status, s) = p
            .post(&format!("/api/play/{uid}/redo"), json!({"expect": v}))
            .await;
        v = version(&s);
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!(s["piles"], seen[n as usize + 1]);
    }
    let (status, body) = p
        .post(&format!("/api/play/{uid}/redo"), json!({"expect": v}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], json!("nothing_to_redo"));
    let mut undos = 0;
    while undos < 10 {
        let (status, _) = p
            .post(
                &format!("/api/play/{uid}/undo"),
                json!({"expect": v + undos}),
            )
            .await;
        if status != StatusCode::OK {
            assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
            break;
        }
        undos += 1;
    }
    assert_eq!(undos, 4);
    server.stop().await;
}

#[tokio::test]
async fn a_corrupt_row_gives_a_clear_error_and_is_kept() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("fan", 2).await;
    let uid = uid(&state);
    p.play(&uid, &first_legal(&state), 0).await;
    server.stop().await;
    db.execute_raw(&format!(
        "UPDATE game_moves SET word = 'zz>top' WHERE uid = '{uid}'"
    ))
    .await;
    let server = Server::start_with(db.config()).await;
    p.url = server.url.clone();
    for _ in 0..2 {
        let (status, body) = p.get(&format!("/api/play/{uid}")).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
        assert!(
            body["error"].as_str().unwrap().contains("cannot be loaded"),
            "{body}"
        );
        let (status, _) = p.play(&uid, "t1>f1", 7).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    }
    // The server is still up, and the row is untouched.
    let other = p.new_game("fan", 3).await;
    assert_eq!(moves(&other), 0);
    server.stop().await;
    let row = db.load_game(&uid).await;
    assert_eq!(row.moves, "zz>top");
}

/// Depth-first search over the engine's legal moves, for a won game made
/// honestly in the test (the solver is another crate's business).
fn winning_line(
    pos: &mut Position,
    seen: &mut HashSet<u64>,
    path: &mut Vec<Move>,
    budget: &mut u32,
) -> bool {
    if pos.is_won() {
        return true;
    }
    if *budget == 0 || path.len() > 300 || !seen.insert(pos.hash()) {
        return false;
    }
    *budget -= 1;
    for m in pos.legal_moves() {
        let undo = pos.apply(m).unwrap();
        path.push(m);
        if winning_line(pos, seen, path, budget) {
            return true;
        }
        path.pop();
        pos.undo(&undo);
    }
    false
}

#[tokio::test]
async fn a_won_game_counts_in_the_stats() {
    let (game, deal) = ("krug", 5);
    let spec = patience_engine::game(game).unwrap();
    let mut pos = Position::deal(spec, deal).unwrap();
    let mut line = Vec::new();
    assert!(winning_line(
        &mut pos,
        &mut HashSet::new(),
        &mut line,
        &mut 20_000
    ));
    let layout = *pos.layout();

    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    // An abandoned game first: it counts as played and lost.
    let lost = p.new_game(game, 1).await;
    p.play(&uid(&lost), &first_legal(&lost), 0).await;
    let state = p.new_game(game, deal).await;
    let uid = uid(&state);
    let mut last = state;
    for (n, m) in line.iter().enumerate() {
        let (status, s) = p.play(&uid, &m.text(&layout), n as u64).await;
        assert_eq!(status, StatusCode::OK, "{s}");
        last = s;
    }
    assert_eq!(last["won"], json!(true));
    // Undo works after a win: two steps back, the position is no longer won.
    let n = line.len() as u64;
    for k in 1..=2 {
        let (status, s) = p
            .post(
                &format!("/api/play/{uid}/undo"),
                json!({"expect": n + k - 1}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{s}");
        assert_eq!((s["won"].clone(), moves(&s)), (json!(false), n - k));
        assert_eq!(s["can_redo"], json!(true));
    }
    // Won again, once by redo and once by playing the last move anew: the
    // game still counts one win, with its first win's figures.
    let (status, s) = p
        .post(&format!("/api/play/{uid}/redo"), json!({"expect": n + 2}))
        .await;
    assert_eq!((status, s["won"].clone()), (StatusCode::OK, json!(false)));
    let last_move = line.last().unwrap().text(&layout);
    let (status, s) = p.play(&uid, &last_move, n + 3).await;
    assert_eq!(
        (status, s["won"].clone()),
        (StatusCode::OK, json!(true)),
        "{s}"
    );
    assert_eq!(moves(&s), n);
    // A stale count after the win is still refused and changes nothing.
    let (status, _) = p
        .post(&format!("/api/play/{uid}/undo"), json!({"expect": n + 5}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (_, s) = p.get(&format!("/api/play/{uid}")).await;
    assert_eq!((s["won"].clone(), moves(&s)), (json!(true), n));
    // Left one move short of the win: the stats below still count the win,
    // with its n moves rather than the n - 1 on the table now.
    let (status, s) = p
        .post(&format!("/api/play/{uid}/undo"), json!({"expect": n + 4}))
        .await;
    assert_eq!((status, s["won"].clone()), (StatusCode::OK, json!(false)));

    let (_, stats) = p.get("/api/stats").await;
    let krug = stats
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["game"] == json!(game))
        .unwrap();
    assert_eq!(krug["played"], json!(2));
    assert_eq!(krug["won"], json!(1));
    assert_eq!(krug["current_streak"], json!(1));
    assert_eq!(krug["best_streak"], json!(1));
    assert!(krug["best_time_ms"].as_i64().is_some(), "{krug}");
    assert_eq!(krug["best_moves"], json!(line.len()));
    let (_, cont) = p.get("/api/continue").await;
    assert!(cont
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["uid"] != json!(uid)));
    server.stop().await;
}

#[tokio::test]
async fn catalogue_rules_pages_and_levels() {
    let db = temp_store().await;
    {
        // A deal graded here, beyond the test library (which holds no
        // Medium deal): the store keeps it beside the library's deals, and
        // it is the one Medium deal to pick.
        let medium = DealGrade {
            deal: 987_654,
            level: Level::Medium,
            person: PersonWins::new(3, 20),
        };
        // A local grade carries its detail (an empty one marks the library's own).
        db.put_grade("la-belle-lucie", &medium, r#"{"seed":1}"#)
            .await;
    }
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let (status, games) = p.get("/api/games").await;
    assert_eq!(status, StatusCode::OK);
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), patience_engine::games().len());
    let lucie = games
        .iter()
        .find(|g| g["id"] == json!("la-belle-lucie"))
        .unwrap();
    assert_eq!(lucie["levels"], json!(["any", "easy", "medium", "hard"]));
    let (status, s) = p
        .post("/api/games/la-belle-lucie/new", json!({"level": "medium"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    assert_eq!(
        (s["deal"].clone(), s["level"].clone()),
        (json!(987_654), json!("medium"))
    );
    // The grade and the person-like player's record on the deal, as the
    // page shows them ("wins 3 of 20").
    assert_eq!(
        (s["grade"].clone(), s["person"].clone()),
        (json!("medium"), json!({"wins": 3, "runs": 20}))
    );
    // Krug's library holds no Medium deal.
    let (status, body) = p
        .post("/api/games/krug/new", json!({"level": "medium"}))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].as_str().unwrap().contains("medium"));
    let (status, s) = p.post("/api/games/fan/new", json!({})).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(s["level"], json!("any"));
    let (_, cont) = p.get("/api/continue").await;
    assert_eq!(
        cont,
        json!([]),
        "deals opened but not played are not in progress"
    );
    let (status, rules) = p.get("/api/games/la-belle-lucie/rules").await;
    assert_eq!(status, StatusCode::OK);
    assert!(rules["markdown"].as_str().unwrap().contains("## Rules"));
    // Pages are the embedded page; unknown static files are 404.
    for path in ["/", "/play/fan", "/play/fan/12", "/rules/fan"] {
        let res = reqwest::get(format!("{}{path}", server.url)).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
    }
    let res = reqwest::get(format!("{}/static/no-such-file.js", server.url))
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    server.stop().await;
}

#[tokio::test]
async fn a_hint_names_a_legal_move() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("krug", 5).await;
    let uid = uid(&state);
    let (status, hint) = p.post(&format!("/api/play/{uid}/hint"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let kind = hint["kind"].as_str().unwrap();
    assert!(["solution", "heuristic"].contains(&kind), "{hint}");
    let mv = hint["move"].as_str().unwrap();
    assert!(
        state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["move"] == json!(mv)),
        "{hint}"
    );
    let (status, _) = p.play(&uid, mv, 0).await;
    assert_eq!(status, StatusCode::OK);
    server.stop().await;
}

#[tokio::test]
async fn an_acknowledged_move_is_already_committed() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let mut state = p.new_game("la-belle-lucie", 23).await;
    let uid = uid(&state);
    // Another connection to the file sees each move as soon as it is acknowledged,
    // while the server is still running: the commit came before the answer.
    for n in 0..5 {
        let mv = first_legal(&state);
        let (status, next) = p.play(&uid, &mv, n).await;
        assert_eq!(status, StatusCode::OK);
        let row = db.load_game(&uid).await;
        assert_eq!(row.move_count, n + 1);
        assert_eq!(row.moves.split_whitespace().last(), Some(mv.as_str()));
        state = next;
    }
    server.stop().await;
}

#[tokio::test]
async fn two_tabs_sending_at_once_apply_one_move() {
    let db = temp_store().await;
    let server = Server::start_with(db.config()).await;
    let mut p = Player::new(&server.url);
    let state = p.new_game("la-belle-lucie", 31).await;
    let uid = uid(&state);
    let legal: Vec<String> = state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["move"].as_str().unwrap().to_string())
        .collect();
    let sends = (0..8).map(|i| {
        let mut tab = p.clone();
        let (uid, mv) = (uid.clone(), legal[i % legal.len()].clone());
        tokio::spawn(async move { tab.play(&uid, &mv, 0).await.0 })
    });
    let mut statuses = Vec::new();
    for s in sends {
        statuses.push(s.await.unwrap());
    }
    let ok = statuses.iter().filter(|s| **s == StatusCode::OK).count();
    let stale = statuses
        .iter()
        .filter(|s| **s == StatusCode::CONFLICT)
        .count();
    assert_eq!((ok, stale), (1, 7), "{statuses:?}");
    server.stop().await;
    let row = db.load_game(&uid).await;
    assert_eq!(row.move_count, 1);
}
