//! The background solver: what the server knows of each game's position,
//! worked out while the player thinks.
//!
//! When the page asks (`GET /api/play/{uid}/analysis`), the game's position
//! is solved on a pool of its own: a fixed number of threads for the whole
//! server ([`Analysis::new`]), one job at a time per player, and one job
//! waiting per player, always the newest: a player's new position replaces
//! the one still waiting. A running job is abandoned at its next step once
//! the game has moved on; its steps are searches of growing budgets
//! ([`SLICES`]) and, where every one runs out, a few person-like games
//! ([`played_line`]), so a job holds a thread only briefly past that moment.
//!
//! What a job finds is kept per game: the verdict of each position solved
//! (by position hash), and the winning line found last, which answers at once
//! for every position along it, the hint included. A position whose earlier
//! position in the game is proved lost is lost (a lost game stays lost along
//! its line). Where the position has no win, the job then bisects the game's
//! history, click by click, for the last position from which a win existed
//! ([`Lost`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use patience_engine::{GameSpec, Move, Position, Record};
use patience_solver::hint::played_line;
use patience_solver::{solve, Budget, Outcome, Plan};
use serde::Serialize;

use crate::autoplay;
use crate::player::Player;

/// The budgets a position's search escalates through, the game checked
/// between each: most positions are decided in the first.
pub const SLICES: [Duration; 3] = [
    Duration::from_millis(300),
    Duration::from_millis(1500),
    Duration::from_secs(5),
];

/// How long person-like games may try a position every slice left
/// undecided ([`played_line`]).
const PLAYED: Duration = Duration::from_secs(2);

/// The budgets of one position of the history's bisection.
const PROBES: [Duration; 2] = [Duration::from_millis(400), Duration::from_secs(2)];

/// Memory of one search's transposition table.
const MEMORY: usize = 256 << 20;

/// Games whose analysis is kept (the least recently asked are forgotten).
const GAMES_KEPT: usize = 10_000;

/// Positions whose verdict a game keeps.
const VERDICTS_KEPT: usize = 2_000;

/// Players with a job waiting, at most; past it the oldest waiting job is dropped.
const WAITING: usize = 1_000;

/// What the solver knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Not decided yet: a search is waiting or running.
    Thinking,
    /// A win exists (the solver found one and replayed it).
    Win,
    /// No win exists: the search was exhausted.
    NoWin,
    /// Every budget ran out undecided.
    Unknown,
}

/// Where the win was lost: the player's move `at` (counted from 1, as the
/// move counter counts) led from a position with a win to one without; going
/// back to `back_to` moves returns to the last position with a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Lost {
    pub at: usize,
    pub back_to: usize,
}

/// The analysis of one version of a game, as answered.
#[derive(Clone, Debug, Serialize)]
pub struct Answer {
    pub version: u64,
    pub status: Status,
    /// Where a win was lost, once found (with `no-win` only).
    pub lost: Option<Lost>,
    /// Nothing more will be found for this version.
    pub done: bool,
    /// Grows with every change of this game's analysis: `seen` in a request
    /// waits for the next.
    pub seq: u64,
}

/// A game's position to analyse, with its history by clicks.
pub struct Job {
    pub uid: String,
    pub player: Player,
    pub version: u64,
    pub spec: &'static GameSpec,
    pub deal: u64,
    pub moves: Vec<Move>,
    /// Where each click began in `moves`, and the count after the last.
    pub click_starts: Vec<usize>,
    /// The winning line kept is rewritten for automatic moves home.
    pub auto: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Win,
    NoWin,
}

struct Entry {
    player: Player,
    version: u64,
    status: Status,
    lost: Option<Lost>,
    done: bool,
    plan: Plan,
    known: HashMap<u64, Verdict>,
    /// Positions every budget left undecided, with the spent search's best
    /// lead (empty when it reached no more cards home than the position has).
    undecided: HashMap<u64, Vec<Move>>,
    seq: tokio::sync::watch::Sender<u64>,
    asked: u64,
}

impl Entry {
    fn new(player: Player) -> Entry {
        Entry {
            player,
            version: u64::MAX,
            status: Status::Thinking,
            lost: None,
            done: false,
            plan: Plan::default(),
            known: HashMap::new(),
            undecided: HashMap::new(),
            seq: tokio::sync::watch::channel(0).0,
            asked: 0,
        }
    }

    fn answer(&self) -> Answer {
        Answer {
            version: self.version,
            status: self.status,
            lost: self.lost,
            done: self.done,
            seq: *self.seq.borrow(),
        }
    }

    fn changed(&self) {
        self.seq.send_modify(|s| *s += 1);
    }

    fn learn(&mut self, hash: u64, v: Verdict) {
        if self.known.len() >= VERDICTS_KEPT {
            self.known.clear();
        }
        self.known.insert(hash, v);
    }
}

#[derive(Default)]
struct Shared {
    games: HashMap<String, Entry>,
    /// Players with a job waiting, oldest first; `jobs` holds each one's newest.
    waiting: VecDeque<Player>,
    jobs: HashMap<Player, Job>,
    running: HashSet<Player>,
    clock: u64,
    stopping: bool,
}

struct Inner {
    shared: Mutex<Shared>,
    wake: Condvar,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether `job`'s version is still the one its game was last asked about.
    fn current(&self, job: &Job) -> bool {
        let s = self.lock();
        !s.stopping
            && s.games
                .get(&job.uid)
                .is_some_and(|e| e.version == job.version)
    }
}

/// The background solver's pool and what it has found.
pub struct Analysis {
    inner: Arc<Inner>,
}

impl Drop for Analysis {
    fn drop(&mut self) {
        self.inner.lock().stopping = true;
        self.inner.wake.notify_all();
    }
}

impl Analysis {
    /// A pool of `threads` searching threads (at least one).
    pub fn new(threads: usize) -> Analysis {
        let inner = Arc::new(Inner {
            shared: Mutex::new(Shared::default()),
            wake: Condvar::new(),
        });
        for i in 0..threads.max(1) {
            let inner = inner.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("analysis-{i}"))
                .spawn(move || work(&inner));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start an analysis thread");
            }
        }
        Analysis { inner }
    }

    /// The analysis of `job`'s version, starting a search for it when none
    /// is known or under way; with it, a receiver of the game's changes.
    pub fn ask(&self, job: Job) -> (Answer, tokio::sync::watch::Receiver<u64>) {
        let mut s = self.inner.lock();
        s.clock += 1;
        let clock = s.clock;
        if !s.games.contains_key(&job.uid) && s.games.len() >= GAMES_KEPT {
            forget_oldest(&mut s);
        }
        let entry = s
            .games
            .entry(job.uid.clone())
            .or_insert_with(|| Entry::new(job.player.clone()));
        entry.asked = clock;
        if entry.player != job.player {
            // Uids are unguessable and checked by the caller; never mix players.
            *entry = Entry::new(job.player.clone());
        }
        let fresh = entry.version != job.version;
        if fresh {
            entry.version = job.version;
            entry.status = Status::Thinking;
            entry.lost = None;
            entry.done = false;
            entry.changed();
        }
        let answer = entry.answer();
        let rx = entry.seq.subscribe();
        if fresh {
            let player = job.player.clone();
            if s.jobs.insert(player.clone(), job).is_none() {
                s.waiting.push_back(player);
                if s.waiting.len() > WAITING {
                    if let Some(old) = s.waiting.pop_front() {
                        s.jobs.remove(&old);
                    }
                }
            }
            drop(s);
            self.inner.wake.notify_one();
        }
        (answer, rx)
    }

    /// The game's analysis as it stands.
    pub fn answer(&self, uid: &str) -> Option<Answer> {
        self.inner.lock().games.get(uid).map(Entry::answer)
    }

    /// The kept line's move from `pos`, when `pos` lies on it and it still
    /// replays to a win.
    pub fn planned(&self, uid: &str, pos: &Position) -> Option<Move> {
        let plan = self.inner.lock().games.get(uid).map(|e| e.plan.clone())?;
        plan.next(pos)
    }

    /// Whether the game's position `pos` is known to have no win.
    pub fn known_lost(&self, uid: &str, pos: &Position) -> bool {
        self.inner
            .lock()
            .games
            .get(uid)
            .is_some_and(|e| e.known.get(&pos.hash()) == Some(&Verdict::NoWin))
    }

    /// Where every budget left the game's position `pos` undecided: the
    /// spent search's best lead (possibly empty), for the heuristic hint.
    pub fn undecided(&self, uid: &str, pos: &Position) -> Option<Vec<Move>> {
        self.inner
            .lock()
            .games
            .get(uid)
            .and_then(|e| e.undecided.get(&pos.hash()).cloned())
    }

    /// The kept line of a game (empty when none), to extend by a hint's search.
    pub fn plan(&self, uid: &str) -> Plan {
        self.inner
            .lock()
            .games
            .get(uid)
            .map(|e| e.plan.clone())
            .unwrap_or_default()
    }

    /// Keeps `plan`, a winning line a hint found from `pos`, rewritten for
    /// automatic moves when `auto`.
    pub fn keep_plan(&self, uid: &str, player: &Player, pos: &Position, plan: Plan, auto: bool) {
        let plan = table_plan(plan, pos, auto);
        let mut s = self.inner.lock();
        if let Some(e) = s.games.get_mut(uid) {
            if e.player == *player {
                e.plan = plan;
            }
        } else {
            let mut e = Entry::new(player.clone());
            e.plan = plan;
            s.games.insert(uid.to_string(), e);
        }
    }
}

/// `plan`'s line from `pos`, rewritten as the table plays it when `auto`.
fn table_plan(plan: Plan, pos: &Position, auto: bool) -> Plan {
    if !auto {
        return plan;
    }
    let Some(rest) = plan.rest(pos) else {
        return plan;
    };
    match autoplay::table_line(pos, &rest) {
        Some(steps) => {
            let mut p = Plan::default();
            let moves: Vec<Move> = steps.iter().map(|s| s.mv).collect();
            p.remember(pos, &moves);
            p
        }
        None => plan,
    }
}

fn forget_oldest(s: &mut Shared) {
    let busy: HashSet<&String> = s.jobs.values().map(|j| &j.uid).collect();
    if let Some(uid) = s
        .games
        .iter()
        .filter(|(k, _)| !busy.contains(k))
        .min_by_key(|(_, e)| e.asked)
        .map(|(k, _)| k.clone())
    {
        s.games.remove(&uid);
    }
}

/// A searching thread: takes the oldest waiting player's newest job, one
/// job per player at a time.
fn work(inner: &Inner) {
    loop {
        let job = {
            let mut s = inner.lock();
            loop {
                if s.stopping {
                    return;
                }
                let free = s.waiting.iter().position(|p| !s.running.contains(p));
                if let Some(i) = free {
                    let Some(player) = s.waiting.remove(i) else {
                        continue;
                    };
                    if let Some(job) = s.jobs.remove(&player) {
                        s.running.insert(player);
                        break job;
                    }
                    continue;
                }
                s = inner.wake.wait(s).unwrap_or_else(|p| p.into_inner());
            }
        };
        let player = job.player.clone();
        run(inner, &job);
        inner.lock().running.remove(&player);
        inner.wake.notify_all();
    }
}

/// The position after the first `plies` moves of `job`.
fn position_at(job: &Job, plies: usize) -> Option<Position> {
    let record = Record {
        game: job.spec,
        deal: job.deal,
        moves: job.moves[..plies.min(job.moves.len())].to_vec(),
    };
    record.replay().ok().map(|g| g.position().clone())
}

/// Solves `pos` within `slices`, the game checked between each; `None`
/// when the job was abandoned.
fn search(
    inner: &Inner,
    job: &Job,
    pos: &Position,
    slices: &[Duration],
) -> Option<patience_solver::Report> {
    let mut report = None;
    for &t in slices {
        if !inner.current(job) {
            return None;
        }
        let budget = Budget {
            time: Some(t),
            memory_bytes: MEMORY,
            ..Default::default()
        };
        let r = solve(pos, &budget);
        let decided = !matches!(r.outcome, Outcome::Unknown(_));
        report = Some(r);
        if decided {
            break;
        }
    }
    // Every slice ran out: a person-like game may still win, as for the hint.
    if let Some(r) = report.as_mut() {
        if matches!(r.outcome, Outcome::Unknown(_)) {
            if !inner.current(job) {
                return None;
            }
            if let Some(line) = played_line::find(pos, Some(Instant::now() + PLAYED)) {
                r.outcome = Outcome::Win(line);
            }
        }
    }
    report
}

/// What is known of `pos` without a search. For the game's own position
/// (`current`) a win counts only with a kept line through it, which the
/// hint then serves.
fn known(inner: &Inner, job: &Job, pos: &Position, current: bool) -> Option<Verdict> {
    if pos.is_won() {
        return Some(Verdict::Win);
    }
    let s = inner.lock();
    let e = s.games.get(&job.uid)?;
    match e.known.get(&pos.hash()) {
        Some(&Verdict::NoWin) => return Some(Verdict::NoWin),
        Some(&Verdict::Win) if !current => return Some(Verdict::Win),
        _ => {}
    }
    e.plan.next(pos).map(|_| Verdict::Win)
}

/// Applies `f` to the job's entry while the job is current; false otherwise.
fn update(inner: &Inner, job: &Job, f: impl FnOnce(&mut Entry)) -> bool {
    let mut s = inner.lock();
    match s.games.get_mut(&job.uid) {
        Some(e) if e.version == job.version => {
            f(e);
            e.changed();
            true
        }
        _ => false,
    }
}

fn learn(inner: &Inner, job: &Job, hash: u64, v: Verdict) {
    if let Some(e) = inner.lock().games.get_mut(&job.uid) {
        e.learn(hash, v);
    }
}

/// The verdict of `pos`, from what is known or by a search within `slices`;
/// `Ok(None)` when undecided, `Err` when abandoned. A win found for the
/// game's own position (`current`) becomes the kept line; a probe of the
/// history keeps only its verdict.
fn verdict(
    inner: &Inner,
    job: &Job,
    pos: &Position,
    slices: &[Duration],
    current: bool,
) -> Result<Option<Verdict>, ()> {
    if let Some(v) = known(inner, job, pos, current) {
        return Ok(Some(v));
    }
    let report = search(inner, job, pos, slices).ok_or(())?;
    match report.outcome {
        Outcome::Win(line) => {
            let plan = current.then(|| {
                let mut plan = Plan::default();
                plan.remember(pos, &line);
                table_plan(plan, pos, job.auto)
            });
            if let Some(e) = inner.lock().games.get_mut(&job.uid) {
                if let Some(plan) = plan {
                    e.plan = plan;
                }
                e.learn(pos.hash(), Verdict::Win);
            }
            Ok(Some(Verdict::Win))
        }
        Outcome::NoWin => {
            learn(inner, job, pos.hash(), Verdict::NoWin);
            Ok(Some(Verdict::NoWin))
        }
        Outcome::Unknown(_) => {
            // The hint's fallback reads the search's best lead, as a hint's own search would.
            let lead = if report.best_cards > pos.foundation_cards() {
                report.best_line
            } else {
                Vec::new()
            };
            if let Some(e) = inner.lock().games.get_mut(&job.uid) {
                if e.undecided.len() >= VERDICTS_KEPT {
                    e.undecided.clear();
                }
                e.undecided.insert(pos.hash(), lead);
            }
            Ok(None)
        }
    }
}

fn run(inner: &Inner, job: &Job) {
    let Some(pos) = position_at(job, job.moves.len()) else {
        update(inner, job, |e| {
            e.status = Status::Unknown;
            e.done = true;
        });
        return;
    };
    let clicks = job.click_starts.len().saturating_sub(1);
    // Any earlier position of the game proved lost: this one is lost too.
    let mut lost_before = None;
    {
        let s = inner.lock();
        if let Some(e) = s.games.get(&job.uid) {
            for (i, &ply) in job.click_starts[..clicks].iter().enumerate().rev() {
                if let Some(p) = position_at(job, ply) {
                    if e.known.get(&p.hash()) == Some(&Verdict::NoWin) {
                        lost_before = Some(i);
                        break;
                    }
                }
            }
        }
    }
    let v = if lost_before.is_some() {
        learn(inner, job, pos.hash(), Verdict::NoWin);
        Some(Verdict::NoWin)
    } else {
        match verdict(inner, job, &pos, &SLICES, true) {
            Ok(v) => v,
            Err(()) => return,
        }
    };
    let status = match v {
        Some(Verdict::Win) => Status::Win,
        Some(Verdict::NoWin) => Status::NoWin,
        None => Status::Unknown,
    };
    if !update(inner, job, |e| {
        e.status = status;
        e.done = status != Status::NoWin;
    }) {
        return;
    }
    if status == Status::NoWin {
        let lost = find_lost(inner, job, clicks).unwrap_or(None);
        update(inner, job, |e| {
            e.lost = lost;
            e.done = true;
        });
    }
}

/// Bisects the game's clicks for the last position with a win, the position
/// after all `clicks` being lost. `Ok(None)` when it cannot be told (the deal
/// has no win, or a position stayed undecided); `Err` when abandoned.
fn find_lost(inner: &Inner, job: &Job, clicks: usize) -> Result<Option<Lost>, ()> {
    let at = |i: usize| position_at(job, job.click_starts[i]).ok_or(());
    // The latest position known to have a win is the bisection's start.
    let mut lo = None;
    for i in (0..clicks).rev() {
        if known(inner, job, &at(i)?, false) == Some(Verdict::Win) {
            lo = Some(i);
            break;
        }
    }
    let mut lo = match lo {
        Some(i) => i,
        None => match verdict(inner, job, &at(0)?, &PROBES, false)? {
            Some(Verdict::Win) => 0,
            _ => return Ok(None),
        },
    };
    let mut hi = clicks;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        match verdict(inner, job, &at(mid)?, &PROBES, false)? {
            Some(Verdict::Win) => lo = mid,
            Some(Verdict::NoWin) => hi = mid,
            None => return Ok(None),
        }
    }
    Ok(Some(Lost {
        at: hi,
        back_to: lo,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(uid: &str, player: &Player, version: u64, moves: Vec<Move>) -> Job {
        job_of("fan", 1, uid, player, version, moves)
    }

    fn job_of(
        game: &str,
        deal: u64,
        uid: &str,
        player: &Player,
        version: u64,
        moves: Vec<Move>,
    ) -> Job {
        let spec = patience_engine::game(game).unwrap();
        let n = moves.len();
        Job {
            uid: uid.into(),
            player: player.clone(),
            version,
            spec,
            deal,
            moves,
            click_starts: (0..=n).collect(),
            auto: false,
        }
    }

    async fn settle(a: &Analysis, j: Job) -> Answer {
        let uid = j.uid.clone();
        let (mut answer, mut rx) = a.ask(j);
        while !answer.done {
            tokio::time::timeout(Duration::from_secs(60), rx.changed())
                .await
                .expect("the analysis answers")
                .unwrap();
            answer = a.answer(&uid).unwrap();
        }
        answer
    }

    /// The opening of a won deal is a win; a position the solver shows lost
    /// is lost, and the bisection names the move that lost it, whose
    /// position before is proved winnable by an independent search.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_lost_game_says_which_move_lost_it() {
        let spec = patience_engine::game("fan").unwrap();
        let a = Analysis::new(1);
        let alice = Player::new();
        let start = settle(&a, job("g1", &alice, 0, vec![])).await;
        assert_eq!(start.status, Status::Win);
        // Play the first legal move that loses every win, after a few that keep it.
        let mut pos = Position::deal(spec, 1).unwrap();
        let mut moves = Vec::new();
        let budget = Budget::of_nodes(2_000_000);
        'outer: for _ in 0..40 {
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.apply(m).unwrap();
                if solve(&next, &budget).outcome == Outcome::NoWin {
                    moves.push(m);
                    break 'outer;
                }
            }
            let Outcome::Win(line) = solve(&pos, &budget).outcome else {
                panic!("the line lost its win")
            };
            pos.apply(line[0]).unwrap();
            moves.push(line[0]);
        }
        let n = moves.len();
        let lost = settle(&a, job("g1", &alice, 1, moves.clone())).await;
        assert_eq!(lost.status, Status::NoWin);
        assert_eq!(
            lost.lost,
            Some(Lost {
                at: n,
                back_to: n - 1
            })
        );
    }

    /// House in the Woods deal 132 is left undecided by every slice of
    /// search, and a person-like game wins it: the status is a win, and the
    /// kept line, followed move by move, wins the deal.
    #[tokio::test(flavor = "multi_thread")]
    async fn a_win_played_by_a_person_like_game_is_kept() {
        let spec = patience_engine::game("house-in-the-woods").unwrap();
        let a = Analysis::new(1);
        let alice = Player::new();
        let answer = settle(
            &a,
            job_of("house-in-the-woods", 132, "g1", &alice, 0, vec![]),
        )
        .await;
        assert_eq!(answer.status, Status::Win);
        let mut pos = Position::deal(spec, 132).unwrap();
        let mut moves = 0;
        while let Some(m) = a.planned("g1", &pos) {
            pos.apply(m).expect("the kept line's move is legal");
            moves += 1;
            assert!(moves <= 2_000, "the kept line ends");
        }
        assert!(pos.is_won(), "the kept line wins");
    }
}
