//! `patience serve`: not yet built.

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_a: Args) -> super::Outcome {
    anyhow::bail!("`patience serve` is not built yet")
}
