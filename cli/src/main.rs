//! `momentum-plan`: check, repair and get the schema of `daily-momentum-ai-plan` files from the
//! command line, on the core validator (`shared/spec/validator.md`).
//!
//! ```text
//! momentum-plan check PLAN... [--request FILE] [--stdin-filename NAME] [--format text|json|github] [--color auto|always|never]
//! momentum-plan check --stream - [--request FILE] [--stdin-filename NAME] [--format text|json|github]
//! momentum-plan repair PLAN [--request FILE] [--unsafe] [--write | -o OUT | --json]
//! momentum-plan schema --request FILE [--variant validation|strict]
//! momentum-plan calendar PLAN REQUEST [--dtstamp YYYYMMDDTHHMMSSZ] > plan.ics
//! momentum-plan commitments CALENDAR.ics --start YYYY-MM-DD --timezone Area/City
//! ```
//!
//! `PLAN` named `x.plan.json` is checked against `x.request.json` beside it unless `--request`
//! names the request. `PLAN` `-` is standard input (with `--request`, or `--stdin-filename` to
//! name it and find its request). Exit codes: 0 every plan valid, 1 some plan invalid (for `schema`: the
//! request is at fault), 2 a usage or I/O error (a file that cannot be read, a request that is
//! not JSON, a plan whose request cannot be found). `check --stream -` reads standard input as it
//! arrives and prints each issue as soon as no continuation of the text can remove it
//! (validator.md §10), so a model's output can be piped through it. `calendar` and `commitments`
//! are the calendar crate's export and import (issue 32; `calendar/README.md`): `calendar` exits
//! as `check` does for the plan (1 with the verdict on stderr when it is invalid) and 2 for a
//! request it cannot place (no `startDate`); `commitments` exits 2 for a file it cannot read.
// The core's clippy.toml forbids I/O and printing; this crate is the I/O around the core.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

mod calendar;
mod check;
mod files;
mod stream;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Check, repair and describe daily-momentum-ai-plan files.
#[derive(Debug, Parser)]
#[command(name = "momentum-plan", version, about, propagate_version = true)]
struct Cli {
    /// When to colour the output: `auto` colours only on a terminal (and honours NO_COLOR).
    // This doc comment is clap's `--help` text, word for word: no backticks around the variable.
    #[allow(clippy::doc_markdown)]
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate plans against their requests and show each issue where it is in the plan's text.
    Check {
        /// Plan files; `x.plan.json` is paired with `x.request.json` beside it; `-` reads standard
        /// input.
        #[arg(required = true, value_name = "PLAN")]
        plans: Vec<PathBuf>,
        /// The request every plan answers (instead of each plan's `x.request.json`).
        #[arg(long, value_name = "FILE")]
        request: Option<PathBuf>,
        /// The name standard input (`-`) is shown under; without --request, its request is the
        /// `x.request.json` beside that name.
        #[arg(long, value_name = "NAME")]
        stdin_filename: Option<PathBuf>,
        /// `text`: code frames; `json`: one line per plan, {"file": NAME, then the core's verdict
        /// members} (or {"file", "error"} for a plan not read); `github`: workflow annotations.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Read the plan (`-`) as it arrives and print each issue as soon as it is settled (no
        /// continuation of the text can remove it), then what the verdict at the end adds; for
        /// piping a model's output through (validator.md §10).
        #[arg(long)]
        stream: bool,
    },
    /// Apply the validator's fixes (validator.md §9) and print or write the repaired plan.
    Repair {
        /// The plan file; `-` reads standard input (then --write is refused).
        #[arg(value_name = "PLAN")]
        plan: PathBuf,
        /// The request the plan answers (default: the plan's `x.request.json`).
        #[arg(long, value_name = "FILE")]
        request: Option<PathBuf>,
        /// Also apply unsafe fixes (they change meaning).
        #[arg(long = "unsafe")]
        unsafe_fixes: bool,
        /// Replace PLAN with the repaired plan (atomically).
        #[arg(long, conflicts_with_all = ["output", "json"])]
        write: bool,
        /// Write the repaired plan to OUT (atomically) instead of printing it.
        #[arg(short, long, value_name = "OUT", conflicts_with = "json")]
        output: Option<PathBuf>,
        /// Print the whole repair result as JSON (the core's `Repair::to_json`).
        #[arg(long)]
        json: bool,
    },
    /// Print the JSON Schema of the plan a request asks for (validator.md §9).
    Schema {
        /// The request file.
        #[arg(long, value_name = "FILE", required = true)]
        request: PathBuf,
        /// `validation` accepts every valid plan; `strict` keeps to the structured-output subset.
        #[arg(long, value_enum, default_value_t = Variant::Validation)]
        variant: Variant,
    },
    /// Write a valid plan as an iCalendar file (RFC 5545) to stdout: a routine's blocks as weekly
    /// events from the request's startDate in its timezone, a goal plan's activities as to-dos.
    /// Daylight-saving warnings go to stderr; an invalid plan gets its verdict (as `check` draws
    /// it) on stderr and exit 1.
    Calendar {
        /// The plan file; `-` reads standard input.
        #[arg(value_name = "PLAN")]
        plan: PathBuf,
        /// The request the plan answers (it needs a startDate; a timezone, or the times float).
        #[arg(value_name = "REQUEST")]
        request: PathBuf,
        /// The DTSTAMP of every event, UTC (e.g. 20261207T120000Z); default: the current time,
        /// so pass it for the same bytes on every run.
        #[arg(long, value_name = "YYYYMMDDTHHMMSSZ")]
        dtstamp: Option<String>,
    },
    /// Read a calendar file (.ics) and print the events of one week as a request's commitments
    /// (JSON, to paste into the request); the events left out (all-day, free, ...) go to stderr.
    Commitments {
        /// The calendar file; `-` reads standard input.
        #[arg(value_name = "CALENDAR")]
        calendar: PathBuf,
        /// The week's first day, the request's startDate.
        #[arg(long, value_name = "YYYY-MM-DD")]
        start: String,
        /// The request's timezone: the events' times are converted to it.
        #[arg(long, value_name = "AREA/CITY")]
        timezone: String,
    },
}

/// The output form of `check`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Variant {
    Validation,
    Strict,
}

/// How a run ended, worst last: the exit code is the worst outcome of all files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Valid = 0,
    Invalid = 1,
    Failed = 2,
}

impl From<Outcome> for ExitCode {
    fn from(o: Outcome) -> ExitCode {
        ExitCode::from(o as u8)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.color {
        Color::Auto => {}
        Color::Always => anstream::ColorChoice::Always.write_global(),
        Color::Never => anstream::ColorChoice::Never.write_global(),
    }
    let outcome = match cli.command {
        Command::Check { plans, request, stdin_filename, format, stream: false } => {
            check::run(&plans, request.as_deref(), stdin_filename.as_deref(), format)
        }
        Command::Check { plans, request, stdin_filename, format, stream: true } => {
            stream::run(&plans, request.as_deref(), stdin_filename.as_deref(), format)
        }
        Command::Repair { plan, write: true, .. } if files::is_stdin(&plan) => {
            fail("--write needs a plan file: standard input (-) cannot be replaced; use -o OUT")
        }
        Command::Repair { plan, request, unsafe_fixes, write, output, json } => {
            let target = if write { Some(plan.clone()) } else { output };
            files::repair(&plan, request.as_deref(), unsafe_fixes, target.as_deref(), json)
        }
        Command::Schema { request, variant } => files::schema(
            &request,
            match variant {
                Variant::Validation => momentum_plan::SchemaVariant::Validation,
                Variant::Strict => momentum_plan::SchemaVariant::Strict,
            },
        ),
        Command::Calendar { plan, request, dtstamp } => {
            let dtstamp = dtstamp.unwrap_or_else(calendar::now_dtstamp);
            calendar::export(&plan, &request, &dtstamp)
        }
        Command::Commitments { calendar, start, timezone } => calendar::import(&calendar, &start, &timezone),
    };
    outcome.into()
}

/// Prints `momentum-plan: <message>` on stderr and gives [`Outcome::Failed`].
fn fail(message: impl std::fmt::Display) -> Outcome {
    anstream::eprintln!("momentum-plan: {message}");
    Outcome::Failed
}
