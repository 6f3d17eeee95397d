//! Every rule message, in one place (issue 14): one function per issue message of validator.md
//! §5–§6, then, in [`fixes`], one per fix description of §9. The reasons a text is not JSON are
//! not here: the parser's grammar reasons are in `tree.rs`, the others in `json/error.rs`
//! ([`JsonError`]'s constructors); [`not_json`] puts either in the `json` message.
//!
//! Each function takes the typed facts its message states (a value found in the plan as a
//! [`Node`], or `None` when it is absent; times as minutes after midnight; counts; the limit the
//! rule enforces) and returns the message in English. Values are quoted as JSON (`quote.rs`), cut
//! to about 60 characters (§7 "Messages"). The rules in `validate/` decide *whether* an issue is
//! raised and call exactly one of these for its words; a wording change is a change here and a
//! diff in `core/tests/golden/`.

use crate::contract::{CATEGORIES, FORMAT, WEEKDAYS};
use crate::json::{JsonError, hhmm};
use crate::quote::{quote, quote_opt};
use crate::tree::Node;

/// A JSON type as a message names it (`a string`, `an array`, ...).
fn type_name(v: &Node<'_>) -> &'static str {
    match v {
        Node::Null => "null",
        Node::Bool(_) => "a boolean",
        Node::Number(_) => "a number",
        Node::String(_) => "a string",
        Node::Array(_) => "an array",
        Node::Object(_) => "an object",
    }
}

/// A value of the wrong type, as messages describe it: its type and the value quoted, e.g.
/// `a string ("x")`.
fn describe(v: &Node<'_>) -> String {
    format!("{} ({})", type_name(v), quote(v))
}

/// A time of day in minutes after midnight as `HH:MM` (past 24:00 as `25:30`).
fn time(minutes: u32) -> String {
    hhmm(i64::from(minutes))
}

// ---------------------------------------------------------------------------------------------
// §5.1 json

/// `json` at `$` (§5.1, D12): the plan cannot be read as JSON; `error` says why and where.
pub(crate) fn not_json(error: &JsonError) -> String {
    format!(
        "The plan is not valid JSON: {error}. Send exactly one JSON object of the daily-momentum-ai-plan shape, with \
         no text around it."
    )
}

/// `type` at `$` (§5.1): the plan is JSON but not an object.
pub(crate) fn plan_not_object(plan: &Node<'_>) -> String {
    format!(
        "The plan is {}, not a JSON object. Send one JSON object with format, contractVersion, requestId, kind, name, \
         tagline, description, the routine or goal, and request.",
        describe(plan)
    )
}

// ---------------------------------------------------------------------------------------------
// §5.2 size

/// `size` at `$` (§5.2, D3): the plan is `bytes` UTF-8 bytes, over `limit`.
pub(crate) fn size(bytes: usize, limit: u32) -> String {
    format!(
        "The plan is {bytes} bytes of UTF-8 JSON, over the limit of {limit} bytes. Shorten descriptions, guidance and \
         activity lists."
    )
}

// ---------------------------------------------------------------------------------------------
// §5.3 envelope

/// `format` at `$.format` (§5.3): `found` is not the format constant.
pub(crate) fn format(found: Option<&Node<'_>>) -> String {
    format!("format is {}; it must be the string \"{FORMAT}\".", quote_opt(found))
}

/// `contractVersion` at `$.contractVersion` (§5.3, D2): `found` is not numerically 1.
pub(crate) fn contract_version(found: Option<&Node<'_>>) -> String {
    format!("contractVersion is {}; it must be the number 1 (this contract's version).", quote_opt(found))
}

/// `kind` at `$.kind` (§5.3): `found` is neither `routine` nor `goal`.
pub(crate) fn kind(found: Option<&Node<'_>>) -> String {
    format!(
        "kind is {}; it must be \"routine\" (a repeating day) or \"goal\" (a plan of numbered days).",
        quote_opt(found)
    )
}

/// `required` at `$.<field>` (§5.3): the envelope text `field` (`name`, `tagline`,
/// `description`) is missing, blank or not a string (`found`); its limit is `limit` characters.
pub(crate) fn text_required(field: &str, found: Option<&Node<'_>>, limit: u32) -> String {
    let found = match found {
        None => "missing".to_owned(),
        Some(Node::String(_)) => "blank".to_owned(),
        Some(v) => describe(v),
    };
    format!("{field} is {found}; write a non-blank string of at most {limit} characters.")
}

/// `length` at `$.<field>` (§5.3): the envelope text `field` is `chars` Unicode scalar values
/// long, over `limit`.
pub(crate) fn text_length(field: &str, chars: usize, limit: u32) -> String {
    format!("{field} is {chars} characters long; shorten it to at most {limit} characters.")
}

// ---------------------------------------------------------------------------------------------
// §5.4 request, D1, §7

/// `requestInvalid` at `$.request` (D1): the request is not an object (it is read as `{}`).
pub(crate) fn request_not_object(request: &Node<'_>) -> String {
    format!(
        "The request is {}, not a JSON object; it is read as {{}}. Draft against the request object you were given.",
        describe(request)
    )
}

/// `requestInvalid` at `$.request.commitments` (D1): a non-empty-ish `commitments` that is not a
/// list.
pub(crate) fn commitments_not_list(found: &Node<'_>) -> String {
    format!("The request's commitments is {}, not a list; no commitment is checked.", describe(found))
}

/// `requestInvalid` at `$.request.commitments[i]` (D1): commitment `index` is not an object.
pub(crate) fn commitment_not_object(index: usize, found: &Node<'_>) -> String {
    format!("Commitment {index} of the request is {}, not an object; it is skipped.", describe(found))
}

/// `requestInvalid` at `$.request.commitments[i].days` (D1, D9): not `null` and not a list of
/// weekday ids.
pub(crate) fn commitment_days(found: &Node<'_>) -> String {
    format!(
        "The commitment's days is {}; it must be a list of weekday ids ({}); the commitment is skipped.",
        quote(found),
        WEEKDAYS.join(", ")
    )
}

/// `requestInvalid` at `$.request.commitments[i].start` (D1): not `00:00`..`23:59` (`None`:
/// missing).
pub(crate) fn commitment_start(found: Option<&Node<'_>>) -> String {
    format!(
        "The commitment's start is {}; it must be a time from \"00:00\" to \"23:59\"; the commitment is skipped.",
        quote_opt(found)
    )
}

/// `requestInvalid` at `$.request.commitments[i].end` (D1): not `00:00`..`24:00` (`None`:
/// missing).
pub(crate) fn commitment_end(found: Option<&Node<'_>>) -> String {
    format!(
        "The commitment's end is {}; it must be a time from \"00:00\" to \"24:00\"; the commitment is skipped.",
        quote_opt(found)
    )
}

/// `requestInvalid` at `$.request.days` (D1): present, not `null` and not an integer ≥ 1.
pub(crate) fn request_days(found: &Node<'_>) -> String {
    format!("The request's days is {}; it must be a whole number of at least 1.", quote(found))
}

/// `requestId` at `$.requestId` (§5.4): `found` differs from the request's `expected` id.
pub(crate) fn request_id(found: Option<&Node<'_>>, expected: Option<&Node<'_>>) -> String {
    format!("requestId is {}; copy the request's requestId exactly: {}.", quote_opt(found), quote_opt(expected))
}

/// `request` at `$.request` (§5.4): the plan has no echo of the request.
pub(crate) fn request_missing() -> String {
    "request is missing; copy the whole request object, unchanged, under \"request\".".to_owned()
}

/// `request` at `$.request` (§5.4): the echo is not deeply equal to the request.
pub(crate) fn request_differs() -> String {
    "request differs from the request you were given; copy the whole request object, unchanged (same keys, values \
     and list order), under \"request\"."
        .to_owned()
}

/// `kind` at `$.kind` (§5.4): the plan's `found` kind is not the request's `asked` kind.
pub(crate) fn kind_not_asked(found: &Node<'_>, asked: Option<&Node<'_>>) -> String {
    format!(
        "kind is {}, but the request asks for {}; draft the kind of plan the request asks for.",
        quote(found),
        quote_opt(asked)
    )
}

// ---------------------------------------------------------------------------------------------
// §5.5–5.7 routine

/// `type` at a container (D1, §7): the member `name` (`routine`, `weekdays`, `goal`) is `found`,
/// not an object.
pub(crate) fn not_an_object(name: &str, found: &Node<'_>) -> String {
    format!("{name} is {}; it must be an object.", describe(found))
}

/// `weekday` at `$.routine.weekdays.<key>` (§5.5b): `key` is not a weekday id.
pub(crate) fn weekday(key: &str) -> String {
    format!(
        "{} is not a weekday id; use one of {} (lower-case). This list is not checked.",
        quote(&Node::String(key)),
        WEEKDAYS.join(", ")
    )
}

/// `required` at a day (§5.5): its block list is missing, empty or not an array (`found`).
pub(crate) fn blocks_required(found: Option<&Node<'_>>) -> String {
    let found = match found {
        None => "missing".to_owned(),
        Some(Node::Array(_)) => "an empty list".to_owned(),
        Some(v) => describe(v),
    };
    format!(
        "This day's blocks are {found}; give a non-empty list of blocks {{start, durationMin, activity, category, \
         essential}}."
    )
}

/// `limit` at a day (§5.5): `count` blocks, over `limit`.
pub(crate) fn blocks_limit(count: usize, limit: u32) -> String {
    format!("This day has {count} blocks, over the limit of {limit}; merge or drop blocks.")
}

/// `type` at a block (§5.5, D1): block `index` of its list is `found`, not an object.
pub(crate) fn block_not_object(index: usize, found: &Node<'_>) -> String {
    format!(
        "Block {index} is {}; each block must be an object {{start, durationMin, activity, category, essential}}.",
        describe(found)
    )
}

/// `time` at a block's `.start` (§5.5, D11): `found` is not `HH:MM` in `00:00`..`23:59`.
pub(crate) fn start_time(found: Option<&Node<'_>>) -> String {
    format!(
        "start is {}; write the start as 24-hour \"HH:MM\" from \"00:00\" to \"23:59\" (two digits, a colon, two \
         digits).",
        quote_opt(found)
    )
}

/// `duration` at a block's `.durationMin` (§5.5, D2): `found` is not an integer in `1..=max`.
pub(crate) fn duration_min(found: Option<&Node<'_>>, max: u32) -> String {
    format!("durationMin is {}; it must be a whole number of minutes from 1 to {max}.", quote_opt(found))
}

/// `category` at a block's or a goal activity's `.category` (§5.5, §5.8): `found` is not one of
/// the nine.
pub(crate) fn category(found: Option<&Node<'_>>) -> String {
    let ids: Vec<&str> = CATEGORIES.iter().map(|c| c.id).collect();
    format!("category is {}; use exactly one of: {}.", quote_opt(found), ids.join(", "))
}

/// `activity` at a block's `.activity` (§5.5, D10): `found` is missing, not a string, blank, or
/// longer than `limit` characters.
pub(crate) fn activity(found: Option<&Node<'_>>, limit: u32) -> String {
    let found = match found {
        None => "missing".to_owned(),
        Some(Node::String(s)) if crate::json::is_blank(s) => "blank".to_owned(),
        Some(Node::String(s)) => format!("{} characters long", crate::json::char_len(s)),
        Some(v) => describe(v),
    };
    format!("activity is {found}; name the activity with a non-blank string of at most {limit} characters.")
}

/// `essential` at a block's `.essential` (§5.5): `found` is not a boolean.
pub(crate) fn essential(found: Option<&Node<'_>>) -> String {
    format!("essential is {}; it must be true or false.", quote_opt(found))
}

/// `overlap` at a block (§5.5): the block `activity` starts at `start`, before `previous_end`,
/// the end of the previous block that passed the time and duration checks.
pub(crate) fn overlap(activity: Option<&Node<'_>>, start: u32, previous_end: u32) -> String {
    format!(
        "Block {} starts at {}, before the previous block ends at {}; start it at {} or later, or shorten the previous \
         block.",
        quote_opt(activity),
        time(start),
        time(previous_end),
        time(previous_end)
    )
}

/// `overnight` warning at a block (§5.5): the list's last block, a `rest` block, runs past
/// midnight until `until` (minutes after the next midnight).
pub(crate) fn overnight(activity: Option<&Node<'_>>, until: u32) -> String {
    format!(
        "Block {} runs past midnight, until {} the next day; that is allowed for the last block when it is rest.",
        quote_opt(activity),
        time(until)
    )
}

/// `overlap` at an overnight block (D8): its part after midnight, until `until`, runs into the
/// list's first block `first_activity`, which starts at `first_start`.
pub(crate) fn overnight_overlap(
    activity: Option<&Node<'_>>,
    until: u32,
    first_activity: Option<&Node<'_>>,
    first_start: u32,
) -> String {
    format!(
        "Block {} runs until {} the next morning, into the day's first block {} at {}; end it by {} or start the first \
         block later.",
        quote_opt(activity),
        time(until),
        quote_opt(first_activity),
        time(first_start),
        time(first_start)
    )
}

/// `midnight` at a block (§5.5): the block starts at `start` and runs `minutes`, until `until`
/// the next day, and is not the list's last `rest` block.
pub(crate) fn midnight(activity: Option<&Node<'_>>, start: u32, minutes: u32, until: u32) -> String {
    format!(
        "Block {} starts at {} and runs {minutes} minutes, past midnight (until {} the next day); only the day's last \
         block, when its category is \"rest\", may run past midnight. End it by 24:00.",
        quote_opt(activity),
        time(start),
        time(until)
    )
}

/// A commitment of the request as a message shows it (D4, D9): minutes after midnight (`end`
/// before `start` for a night shift) and its days (bit 0 = mon … bit 6 = sun; all seven is
/// "every day").
#[derive(Debug, Clone, Copy)]
pub(crate) struct CommitmentTimes {
    /// Its `start`, 0..=1439.
    pub(crate) start: u32,
    /// Its `end`, 0..=1440.
    pub(crate) end: u32,
    /// The days it is listed for.
    pub(crate) days: u8,
}

/// `commitment` at a block (§5.7, D4, D5, D9): the block `activity`, over `from`..`to` (of the
/// next day when `after_midnight`), overlaps the commitment `label` at `times`.
pub(crate) fn commitment(
    activity: Option<&Node<'_>>,
    (from, to): (u32, u32),
    after_midnight: bool,
    label: Option<&Node<'_>>,
    times: CommitmentTimes,
) -> String {
    let on = match times.days {
        0x7f => "every day".to_owned(),
        m => {
            let names: Vec<&str> =
                WEEKDAYS.iter().enumerate().filter(|(i, _)| m & (1 << i) != 0).map(|(_, w)| *w).collect();
            format!("on {}", names.join(", "))
        }
    };
    format!(
        "Block {} ({}–{}{}) overlaps the commitment {} ({}–{} {on}); move the block outside that time, or name it {} \
         if it is that commitment.",
        quote_opt(activity),
        time(from),
        time(to),
        if after_midnight { " after midnight" } else { "" },
        quote_opt(label),
        time(times.start),
        time(times.end),
        quote_opt(label)
    )
}

/// `limit` at `$.routine` or `$.goal` (D6): the `what` (`blocks`, `goal days`) use `names`
/// distinct activity names, over `limit`.
pub(crate) fn distinct_limit(what: &str, names: usize, limit: u32) -> String {
    format!(
        "The {what} use {names} distinct activity names, over the limit of {limit}; reuse one name for the same kind of \
         thing."
    )
}

// ---------------------------------------------------------------------------------------------
// §5.8 goal feasibility, D6

/// `required` at `$.goal.days` (§5.8): `found` is missing or not a non-empty list.
pub(crate) fn goal_days_required(found: Option<&Node<'_>>) -> String {
    let found = found.map_or_else(|| "missing".to_owned(), quote);
    format!("goal.days is {found}; give a non-empty list of days, each {{activities: [...]}}.")
}

/// `days` at `$.goal.days` (§5.8): the plan has `count` days, the request asks for `asked`.
pub(crate) fn days(count: usize, asked: &Node<'_>) -> String {
    format!("The plan has {count} days but the request asks for {}; give exactly {} days.", quote(asked), quote(asked))
}

/// `limit` at `$.goal.days` (D6): `count` days, over `limit`.
pub(crate) fn days_limit(count: usize, limit: u32) -> String {
    format!("The plan has {count} days, over the limit of {limit} days.")
}

/// `type` at `$.goal.days[d]` (D1): day `index` is `found`, not an object.
pub(crate) fn goal_day_not_object(index: usize, found: &Node<'_>) -> String {
    format!("Day {index} is {}; each day must be an object {{activities: [...]}}.", describe(found))
}

/// `type` at `$.goal.days[d].activities` (D1): `found` is not a list.
pub(crate) fn activities_not_list(found: &Node<'_>) -> String {
    format!("activities is {}; it must be a list of activities.", describe(found))
}

/// `limit` at `$.goal.days[d].activities` (§5.8): `count` activities, over `limit`.
pub(crate) fn activities_limit(count: usize, limit: u32) -> String {
    format!("This day has {count} activities, over the limit of {limit}; merge or drop some.")
}

/// `type` at `$.goal.days[d].activities[j]` (D1): activity `index` is `found`, not an object.
pub(crate) fn activity_not_object(index: usize, found: &Node<'_>) -> String {
    format!(
        "Activity {index} is {}; each activity must be an object {{title, activity, category, minutes, guidance, \
         doneWhen}}.",
        describe(found)
    )
}

/// `duration` at a goal activity's `.minutes` (§5.8, D2): `found` is not an integer in
/// `1..=max`.
pub(crate) fn minutes(found: Option<&Node<'_>>, max: u32) -> String {
    format!("minutes is {}; it must be a whole number from 1 to {max}.", quote_opt(found))
}

/// `required` at a goal activity's `title`, `activity`, `guidance` or `doneWhen` (§5.8): `found`
/// is missing, not a string or blank.
pub(crate) fn activity_text_required(field: &str, found: Option<&Node<'_>>) -> String {
    format!("{field} is {}; write a non-blank string.", quote_opt(found))
}

/// `length` at a goal activity's `activity` or `guidance` (D6): `chars` long, over `limit`.
pub(crate) fn activity_text_length(field: &str, chars: usize, limit: u32) -> String {
    format!("{field} is {chars} characters long; shorten it to at most {limit}.")
}

/// `feasibility` at `$.goal.days[d]` (§5.8): the day's valid minutes add up to `total`, over
/// `limit`.
pub(crate) fn feasibility(total: u64, limit: u32) -> String {
    format!(
        "This day's activities add up to {total} minutes, more than the {limit} minutes in a day; shorten or move \
         activities."
    )
}

/// The descriptions of the fixes the rules propose (validator.md §9), one function per
/// description: what the fix does, written for the model. Applicability is the rule's to decide.
pub(crate) mod fixes {
    use crate::contract::FORMAT;
    use crate::json::hhmm;
    use crate::quote::{quote, quote_opt};
    use crate::tree::Node;

    /// `format`, safe: the format constant.
    pub(crate) fn format() -> String {
        format!("Set format to \"{FORMAT}\".")
    }

    /// `contractVersion`, safe.
    pub(crate) fn contract_version() -> String {
        "Set contractVersion to 1.".to_owned()
    }

    /// `kind`: the kind the request asks for (`routine` or `goal`).
    pub(crate) fn kind(asked: &str) -> String {
        format!("Set kind to \"{asked}\", the kind the request asks for.")
    }

    /// `requestId`, safe: copy the request's `id`.
    pub(crate) fn copy_request_id(id: &Node<'_>) -> String {
        format!("Copy the request's requestId: {}.", quote(id))
    }

    /// `requestId`, safe: the request has none, so the plan must have none.
    pub(crate) fn remove_request_id() -> String {
        "Remove requestId: the request has none.".to_owned()
    }

    /// `request`, safe: copy the request as the echo.
    pub(crate) fn copy_request() -> String {
        "Copy the whole request object, unchanged, under \"request\".".to_owned()
    }

    /// `weekday`: rename the list to the weekday id `to`.
    pub(crate) fn weekday(to: &str) -> String {
        format!("Name this list \"{to}\".")
    }

    /// `time`, safe: the start written as `HH:MM`.
    pub(crate) fn start_time(time: &str) -> String {
        format!("Write start as \"{time}\".")
    }

    /// `duration`, placeholder: no number to read; `max` is the most minutes of an activity.
    pub(crate) fn minutes_placeholder(max: u32) -> String {
        format!("Write the duration in whole minutes, 1 to {max}.")
    }

    /// `duration`, safe: the same whole number `n`, written as an integer.
    pub(crate) fn minutes_whole(n: i64) -> String {
        format!("Write the duration as the whole number {n}.")
    }

    /// `duration`, unsafe: a fraction rounded to `n`.
    pub(crate) fn minutes_rounded(n: i64) -> String {
        format!("Round the duration to {n} minutes.")
    }

    /// `category`, safe: the category `id` in its exact case, without surrounding white space.
    pub(crate) fn category_written(id: &str) -> String {
        format!("Write the category as \"{id}\".")
    }

    /// `category`, unsafe: `word` is a word of the category `id`'s contract description.
    pub(crate) fn category_synonym(id: &str, word: &str) -> String {
        format!("Use the category \"{id}\", which covers {}.", quote(&Node::String(word)))
    }

    /// `essential`, safe: the boolean `b`, written as a boolean.
    pub(crate) fn essential_written(b: bool) -> String {
        format!("Write essential as the boolean {b}.")
    }

    /// `essential`, unsafe: `found` seems to mean `b`.
    pub(crate) fn essential_guess(b: bool, found: Option<&Node<'_>>) -> String {
        format!("Set essential to {b}, as {} seems to mean.", quote_opt(found))
    }

    /// `essential`, placeholder.
    pub(crate) fn essential_placeholder() -> String {
        "Say whether the block is essential: true or false.".to_owned()
    }

    /// `overlap` or `midnight`, safe: the list sorted by start, `removed` exact repeats dropped.
    pub(crate) fn order(removed: usize) -> String {
        if removed > 0 {
            format!("Remove the {removed} repeated block(s) and put the blocks in start order.")
        } else {
            "Put the blocks in start order.".to_owned()
        }
    }

    /// `overlap`, `midnight` or `commitment`, unsafe: the block `activity` given new times
    /// (minutes after midnight; validator.md §9 "moving or shortening a block"): `old` and `new`
    /// are `(start, durationMin)`. Moved when the start changes, shortened when the duration
    /// falls, both at once said together.
    pub(crate) fn block_times(activity: Option<&Node<'_>>, old: (i64, i64), new: (i64, i64)) -> String {
        let name = quote_opt(activity);
        let span = |(s, m): (i64, i64)| format!("{}-{}", hhmm(s), hhmm(s + m));
        match (old.0 == new.0, old.1 == new.1) {
            (false, true) => format!("Move block {name} to {} (it keeps its {} minutes).", span(new), new.1),
            (true, _) => format!("Shorten block {name} to {} minutes, {}.", new.1, span(new)),
            (false, false) => {
                format!("Move block {name} to {} and shorten it from {} to {} minutes.", span(new), old.1, new.1)
            }
        }
    }

    /// `required` or `length` of a text, safe: trimming surrounding white space is enough.
    pub(crate) fn trim_text() -> String {
        "Remove the white space around the text.".to_owned()
    }

    /// `required` (or `length`, `activity`) of a text, placeholder: write `field`, at most
    /// `limit` characters when it has a limit.
    pub(crate) fn write_text(field: &str, limit: Option<u32>) -> String {
        let most = limit.map_or_else(String::new, |l| format!(" of at most {l} characters"));
        format!("Write {field}: a non-blank string{most}.")
    }
}
