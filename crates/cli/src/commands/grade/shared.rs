//! `patience grade --db postgres://…`: grading shared through the
//! database. Each process lists the deals of its range that are not graded
//! yet as work (deals already listed stay), then its workers claim them one
//! by one, lowest first, and commit each grade with the deal's removal from
//! the list (see `patience_store::postgres::work`). Any number of processes
//! on any machines may run at once over overlapping ranges: none grades a
//! deal another holds or has graded, and a process killed mid-deal leaves
//! that deal to the next worker that asks. The export is the store's
//! grades, so it is the same file one process would have written.

use std::sync::Mutex;
use std::time::Instant;

use anyhow::Context;
use patience_engine::GameSpec;
use patience_solver::levels::{GradeConfig, Level};
use patience_store::PgStore;
use tokio::runtime::Handle;

use super::{
    enough_in, export, known_verdicts, progress_bar, record, todo_of, Args, Job, Record, Summary,
};

pub(super) fn run(
    a: &Args,
    url: &str,
    range: Option<(u64, u64)>,
    specs: &[&'static GameSpec],
    sought: &[Level],
    cfg: &GradeConfig,
) -> crate::commands::Outcome {
    let workers = a
        .jobs
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    let rt = runtime.handle();
    let store = rt.block_on(PgStore::open(url, workers + 2))?;
    if let Some(dir) = &a.export {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    for &spec in specs {
        if let Some((first, last)) = range {
            let done = rt.block_on(store.graded_deals(spec.id))?;
            let mut ruled_out = Vec::new();
            for &level in sought {
                ruled_out.push(rt.block_on(store.ruled_out_deals(spec.id, level))?);
            }
            let todo = todo_of((first, last), &done, &ruled_out, sought);
            let skipped = (last - first + 1) as usize - todo.len();
            let left = rt.block_on(store.add_work(spec.id, &todo, sought))?;
            eprintln!("{}: {left} deals left to grade on the shared list", spec.id);
            let known = known_verdicts(a, spec)?;
            let job = Job {
                spec,
                cfg,
                known: &known,
                sought,
            };
            let bar = progress_bar(spec, left as usize);
            let summary = Mutex::new(Summary::new());
            let started = Instant::now();
            std::thread::scope(|s| -> anyhow::Result<()> {
                let handles: Vec<_> = (0..workers)
                    .map(|_| s.spawn(|| work(rt, &store, &job, a.enough, &summary, &bar)))
                    .collect();
                for h in handles {
                    h.join()
                        .map_err(|_| anyhow::anyhow!("a grading worker failed"))??;
                }
                Ok(())
            })?;
            bar.finish_and_clear();
            let mut summary = summary.into_inner().unwrap_or_else(|p| p.into_inner());
            summary.wall = started.elapsed();
            summary.print(spec, first, last, skipped);
        }
        if let Some(dir) = &a.export {
            let path = dir.join(format!("{}.tsv", spec.id));
            export(spec, &path, &rt.block_on(store.grades(spec.id))?)?;
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// One worker: claims the next deal, grades it, commits it; until the list
/// of the game is empty (or `--enough` is reached).
fn work(
    rt: &Handle,
    store: &PgStore,
    job: &Job,
    enough: Option<u64>,
    summary: &Mutex<Summary>,
    bar: &indicatif::ProgressBar,
) -> anyhow::Result<()> {
    let id = job.spec.id;
    loop {
        if let Some(n) = enough {
            let counts = rt.block_on(store.level_counts(id))?;
            if enough_in(&counts, job.counted(), n) {
                if let Ok(mut s) = summary.lock() {
                    s.stopped = Some((n, job.counted().to_vec()));
                }
                return Ok(());
            }
        }
        let Some(claim) = rt.block_on(store.claim(id))? else {
            return Ok(());
        };
        let deal = claim.deal;
        let (t, cpu) = (Instant::now(), cpu_time::ThreadTime::try_now().ok());
        let hunted = job.grade(deal);
        let (took, cpu) = (t.elapsed(), cpu.map(|c| c.elapsed()));
        match record(job, deal, hunted, took, cpu)? {
            Record::RuledOut { played, detail } => {
                rt.block_on(claim.ruled_out(job.sought, &detail))?;
                if let Ok(mut s) = summary.lock() {
                    s.rule_out(played, took, cpu);
                }
            }
            Record::Graded {
                grade,
                kept,
                detail,
            } => {
                rt.block_on(claim.graded(&kept, &detail))?;
                if let Ok(mut s) = summary.lock() {
                    s.add(&grade, took, cpu);
                }
            }
        }
        bar.inc(1);
    }
}
