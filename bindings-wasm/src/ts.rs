//! The TypeScript types of the package, built at compile time from the core's registries.
//!
//! The string unions (`IssueCode`, `CheckName`, `CategoryId`, `Weekday`) are written from
//! [`IssueCode::ALL`], [`Check::ALL`], [`CATEGORIES`] and [`WEEKDAYS`] by `const fn`s, so a code
//! added to the core appears in the `.d.ts` with the next build and can never go stale. The
//! interfaces' member names are checked against the core's serialized verdict and contract by this
//! crate's unit tests (`tests::interfaces_match_the_core`).

use momentum_plan::{
    Applicability, CATEGORIES, CONTRACT_VERSION, Check, FORMAT, IssueCode, SchemaVariant, Stop, WEEKDAYS,
};

/// One piece of the generated text.
enum Part {
    /// Literal text.
    Text(&'static str),
    /// A union of string literal types: `"a" | "b" | "c"`.
    Union(&'static [&'static str]),
    /// A decimal number.
    Number(u32),
}

const ISSUE_CODE_COUNT: usize = IssueCode::ALL.len();

/// Every issue code string, in registry order.
const ISSUE_CODES: [&str; ISSUE_CODE_COUNT] = {
    let mut out = [""; ISSUE_CODE_COUNT];
    let mut i = 0;
    while i < ISSUE_CODE_COUNT {
        out[i] = IssueCode::ALL[i].as_str();
        i += 1;
    }
    out
};

/// Every check name, in the order the checks run.
const CHECK_NAMES: [&str; Check::ALL.len()] = {
    let mut out = [""; Check::ALL.len()];
    let mut i = 0;
    while i < Check::ALL.len() {
        out[i] = Check::ALL[i].as_str();
        i += 1;
    }
    out
};

/// The nine category ids, in contract order.
const CATEGORY_IDS: [&str; CATEGORIES.len()] = {
    let mut out = [""; CATEGORIES.len()];
    let mut i = 0;
    while i < CATEGORIES.len() {
        out[i] = CATEGORIES[i].id;
        i += 1;
    }
    out
};

const FORMAT_UNION: [&str; 1] = [FORMAT];

/// Every fix applicability, in the core's order (`Applicability::ALL`).
const APPLICABILITIES: [&str; Applicability::ALL.len()] = {
    let mut out = [""; Applicability::ALL.len()];
    let mut i = 0;
    while i < Applicability::ALL.len() {
        out[i] = Applicability::ALL[i].as_str();
        i += 1;
    }
    out
};

/// Every reason the repair loop stops (`Stop::ALL`).
const STOPS: [&str; Stop::ALL.len()] = {
    let mut out = [""; Stop::ALL.len()];
    let mut i = 0;
    while i < Stop::ALL.len() {
        out[i] = Stop::ALL[i].as_str();
        i += 1;
    }
    out
};

/// The schema variant names (`SchemaVariant::ALL`).
const SCHEMA_VARIANTS: [&str; SchemaVariant::ALL.len()] = {
    let mut out = [""; SchemaVariant::ALL.len()];
    let mut i = 0;
    while i < SchemaVariant::ALL.len() {
        out[i] = SchemaVariant::ALL[i].as_str();
        i += 1;
    }
    out
};

/// The whole custom section, in order.
const PARTS: &[Part] = &[
    Part::Text(
        "\
/** One of the issue codes of the core's closed registry (validator.md §5–§6). */
export type IssueCode = ",
    ),
    Part::Union(&ISSUE_CODES),
    Part::Text(
        ";

/** The name of one of the eight checks, in the order they run (validator.md §4–§5). */
export type CheckName = ",
    ),
    Part::Union(&CHECK_NAMES),
    Part::Text(
        ";

/** A category id of the contract (validator.md §2). */
export type CategoryId = ",
    ),
    Part::Union(&CATEGORY_IDS),
    Part::Text(
        ";

/** A weekday id of the contract, `mon` first (validator.md §2). */
export type Weekday = ",
    ),
    Part::Union(&WEEKDAYS),
    Part::Text(
        ";

/** One error or warning (validator.md §4). */
export interface Issue {
  /** The stable issue code. */
  code: IssueCode;
  /** Where: a JSONPath from the plan's root `$`, e.g. `$.routine.blocks[2].start`. */
  path: string;
  /** What is wrong and what to change, in English; never empty. */
  message: string;
}

/** The verdict on a plan (validator.md §4): exactly the core's verdict JSON, keys in this order. */
export interface Verdict {
  /** True exactly when `errors` is empty. */
  valid: boolean;
  /** The errors, in the order of validator.md §5. */
  errors: Issue[];
  /** The warnings (`overnight`), apart from the errors. */
  warnings: Issue[];
  /** The checks that ran: all eight for a plan that is a JSON object, else only `json`. */
  checks: CheckName[];
}

/** One of the nine categories (validator.md §2). */
export interface Category {
  /** The id written in plans. */
  id: CategoryId;
  /** What the category covers. */
  means: string;
}

/** The declared limits (validator.md §2): counts are items, lengths Unicode scalar values,
 * sizes UTF-8 bytes, times minutes. */
export interface Limits {
  payloadBytes: number;
  planDays: number;
  blocksPerDay: number;
  activitiesPerDay: number;
  distinctActivities: number;
  minutesPerActivity: number;
  minutesPerDay: number;
  name: number;
  tagline: number;
  description: number;
  activity: number;
  guidance: number;
}

/** The plan contract (validator.md §2): what `get_plan_contract` returns. */
export interface Contract {
  format: ",
    ),
    Part::Union(&FORMAT_UNION),
    Part::Text(
        ";
  contractVersion: ",
    ),
    Part::Number(CONTRACT_VERSION),
    Part::Text(
        ";
  categories: Category[];
  weekdays: Weekday[];
  limits: Limits;
  /** The eight rules a model must follow, in contract order. */
  rules: string[];
}

/** How sure a fix is (validator.md §9): `safe` is applied by default, `unsafe` only when asked,
 * `placeholder` never (it needs a value from the person or the model). */
export type Applicability = ",
    ),
    Part::Union(&APPLICABILITIES),
    Part::Text(
        ";

/** Why the repair loop ended. */
export type RepairStop = ",
    ),
    Part::Union(&STOPS),
    Part::Text(
        ";

/** A plan schema variant (validator.md §9): `validation` accepts every plan the validator
 * accepts; `strict` keeps to the providers' structured-output subset. */
export type SchemaVariant = ",
    ),
    Part::Union(&SCHEMA_VARIANTS),
    Part::Text(
        ";

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [member: string]: JsonValue };

/** One RFC 6902 operation of a repair's patch; paths are JSON Pointers. */
export type PatchOperation =
  | { op: \"test\"; path: string; value: JsonValue }
  | { op: \"replace\"; path: string; value: JsonValue }
  | { op: \"add\"; path: string; value: JsonValue }
  | { op: \"remove\"; path: string }
  | { op: \"move\"; from: string; path: string };

/** One fix for one issue (validator.md §9); keys in this order. */
export interface Fix {
  /** The code of the issue the fix answers. */
  code: IssueCode;
  /** The JSONPath of that issue. */
  path: string;
  applicability: Applicability;
  /** What the fix does, written for the model, e.g. `Write start as \"07:00\".` */
  description: string;
}

/** The result of `repairPlan` (validator.md §9): the core's Repair JSON, keys in this order. */
export interface Repair {
  /** The repaired plan as JSON text (the input itself when nothing was applied). */
  plan: string;
  /** The RFC 6902 patch from the input to `plan`; each replaced or removed value is guarded by a `test`. */
  patch: PatchOperation[];
  /** The fixes applied, in order. */
  applied: Fix[];
  /** The fixes offered but not applied (unsafe ones when not asked for, placeholders). */
  offered: Fix[];
  /** The verdict on `plan`. */
  verdict: Verdict;
  /** Rounds of fixes applied. */
  rounds: number;
  stopped: RepairStop;
  /** Errors that only became checkable after a fix (they are in `verdict` too unless fixed later). */
  revealed: Issue[];
  /** Why no plan can satisfy the request (empty when none): the request must change, not the plan. */
  requestAtFault: string[];
}

/** The options of `repairPlan`. */
export interface RepairOptions {
  /** Apply unsafe fixes too (they change meaning); default false. */
  unsafe?: boolean;
}

/** A plan schema: JSON Schema 2020-12, as `planSchema` returns it. */
export interface PlanSchema {
  $schema: \"https://json-schema.org/draft/2020-12/schema\";
  title: string;
  description: string;
  type: \"object\";
  [member: string]: JsonValue;
}
",
    ),
];

const fn digits(mut n: u32) -> usize {
    let mut len = 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

/// The length in bytes of the rendered `parts`.
const fn rendered_len(parts: &[Part]) -> usize {
    let mut len = 0;
    let mut p = 0;
    while p < parts.len() {
        len += match &parts[p] {
            Part::Text(t) => t.len(),
            Part::Union(items) => {
                let mut l = 0;
                let mut i = 0;
                while i < items.len() {
                    l += items[i].len() + 2 + if i > 0 { 3 } else { 0 };
                    i += 1;
                }
                l
            }
            Part::Number(n) => digits(*n),
        };
        p += 1;
    }
    len
}

const LEN: usize = rendered_len(PARTS);

const fn copy(out: &mut [u8; LEN], mut at: usize, s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        out[at] = b[i];
        at += 1;
        i += 1;
    }
    at
}

const fn render(parts: &[Part]) -> [u8; LEN] {
    let mut out = [0u8; LEN];
    let mut at = 0;
    let mut p = 0;
    while p < parts.len() {
        match &parts[p] {
            Part::Text(t) => at = copy(&mut out, at, t),
            Part::Union(items) => {
                let mut i = 0;
                while i < items.len() {
                    if i > 0 {
                        at = copy(&mut out, at, " | ");
                    }
                    at = copy(&mut out, at, "\"");
                    at = copy(&mut out, at, items[i]);
                    at = copy(&mut out, at, "\"");
                    i += 1;
                }
            }
            Part::Number(n) => {
                let d = digits(*n);
                let mut v = *n;
                let mut k = d;
                while k > 0 {
                    k -= 1;
                    out[at + k] = b'0' + (v % 10) as u8;
                    v /= 10;
                }
                at += d;
            }
        }
        p += 1;
    }
    out
}

const BYTES: [u8; LEN] = render(PARTS);

/// The TypeScript declarations of the verdict and contract types, as written into the `.d.ts`.
pub(crate) const TYPES: &str = match core::str::from_utf8(&BYTES) {
    Ok(s) => s,
    Err(_) => panic!("the generated TypeScript is not UTF-8"),
};
