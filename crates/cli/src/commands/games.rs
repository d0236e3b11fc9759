//! `patience games`: ids and names.

use std::process::ExitCode;

pub fn run() -> super::Outcome {
    for g in patience_engine::games() {
        println!("{:<28} {} / {}", g.id, g.name_en, g.name_ru);
    }
    Ok(ExitCode::SUCCESS)
}
