//! `patience grade`: not yet built.

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> super::Outcome {
    anyhow::bail!("`patience grade` is not built yet")
}
