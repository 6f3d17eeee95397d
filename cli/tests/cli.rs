//! The `momentum-plan` binary on the bundled examples and on broken inputs: exit codes, code
//! frames at the right lines and columns, the JSON and GitHub formats, repair and schema output.
//! Every expected value comes from the core library run on the same files, or from the plan's
//! text read independently (`serde_json`), never copied by hand.
#![allow(clippy::disallowed_methods, clippy::disallowed_macros)]

use assert_cmd::Command;
use momentum_plan::{Input, RepairOptions, SchemaVariant, Value, plan_schema, repair, validate_bytes};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("cli/ has a parent").to_path_buf()
}

fn example(name: &str) -> PathBuf {
    root().join("examples").join(name)
}

const BROKEN: &str = "calm-weekday-broken.plan.json";

/// The binary, run in the workspace root (so paths print as `examples/...`).
fn cli() -> Command {
    let mut c = Command::cargo_bin("momentum-plan").expect("the binary is built");
    c.current_dir(root()).env_remove("CLICOLOR_FORCE").env_remove("NO_COLOR");
    c
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = cli().args(args).output().expect("the binary runs");
    Run {
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// `run` with `stdin` as the binary's standard input.
fn run_with_stdin(args: &[&str], stdin: Vec<u8>) -> Run {
    let out = cli().args(args).write_stdin(stdin).output().expect("the binary runs");
    Run {
        code: out.status.code().expect("an exit code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// A `--format json` line split into its `file` member and the rest, re-joined as the verdict
/// JSON text it must be (the record is `{"file": …,` followed by the verdict's own members).
fn json_record(line: &str) -> (String, String) {
    let record: Value = serde_json::from_str(line).expect("each line is JSON");
    let file = record["file"].as_str().expect("a file member").to_owned();
    let prefix = format!("{{\"file\":{},", serde_json::Value::String(file.clone()));
    let rest = line.strip_prefix(&prefix).unwrap_or_else(|| panic!("the record starts with its file: {line}"));
    (file, format!("{{{rest}"))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).expect("example readable")
}

fn request_of(plan: &str) -> Value {
    let name = plan.replace(".plan.json", ".request.json");
    momentum_plan::parse_json_bytes(&read(&example(&name))).expect("request is JSON")
}

/// The value written at 1-based `line` and character `column` of `text`, read by `serde_json` from
/// there (one value, the rest ignored).
fn value_written_at(text: &str, line: usize, column: usize) -> Value {
    let line_text = text.split('\n').nth(line - 1).expect("the line exists");
    let line_start = line_text.as_ptr() as usize - text.as_ptr() as usize;
    let byte = line_start + line_text.char_indices().nth(column - 1).map_or(line_text.len(), |(i, _)| i);
    let mut values = serde_json::Deserializer::from_str(&text[byte..]).into_iter::<Value>();
    values.next().expect("a value starts there").expect("a JSON value starts there")
}

/// The JSON Pointer of a simple JSONPath (`.name` and `[i]` steps only, as the examples have).
fn pointer(path: &str) -> String {
    let mut out = String::new();
    for part in path.trim_start_matches('$').split_inclusive(['.', '[']) {
        let step = part.trim_end_matches(['.', '[']).trim_end_matches(']');
        if !step.is_empty() {
            out.push('/');
            out.push_str(step);
        }
    }
    out
}

#[test]
fn the_broken_example_shows_each_error_at_its_value_and_exits_1() {
    let r = run(&["check", &format!("examples/{BROKEN}")]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let text = String::from_utf8(read(&example(BROKEN))).expect("UTF-8");
    let plan: Value = serde_json::from_str(&text).expect("JSON");
    let verdict = validate_bytes(text.as_bytes(), &request_of(BROKEN));
    assert_eq!(verdict.errors.len(), 3);
    assert!(!r.stdout.contains('\x1b'), "no colour when stdout is not a terminal");
    let frames: Vec<&str> = r.stdout.split("\n\n").filter(|f| f.starts_with("error[")).collect();
    assert_eq!(frames.len(), 3, "{}", r.stdout);
    for (frame, issue) in frames.iter().zip(&verdict.errors) {
        let head = format!("error[{}]: {}\n", issue.code.as_str(), issue.message);
        assert!(frame.starts_with(&head), "{frame}");
        // `--> examples/x.plan.json:L:C`: the value at the issue's path is written at L:C.
        let at = frame.lines().find_map(|l| l.trim_start().strip_prefix("--> ")).expect("a location line");
        let at = at.strip_prefix(&format!("examples/{BROKEN}:")).expect("the file name");
        let (line, column) = at.split_once(':').expect("line:column");
        let (line, column): (usize, usize) = (line.parse().unwrap(), column.parse().unwrap());
        let want = plan.pointer(&pointer(&issue.path)).expect("the path names a value");
        assert_eq!(&value_written_at(&text, line, column), want, "{}", issue.path);
        // The source line is shown with its number, and the marker carries the path.
        let source = text.split('\n').nth(line - 1).unwrap();
        assert!(
            frame.contains(&format!("{line} | {source}")) || frame.contains(&format!("{line} | / {source}")),
            "{frame}"
        );
        assert!(frame.contains(&format!("^ {}", issue.path)), "{frame}");
    }
    assert!(r.stdout.ends_with("1 plan checked: 0 valid, 1 invalid; 3 errors, 1 warning\n"), "{}", r.stdout);
}

#[test]
fn colour_is_forced_by_the_flag_only() {
    let r = run(&["check", "--color", "always", &format!("examples/{BROKEN}")]);
    assert!(r.stdout.contains("\x1b["), "{}", r.stdout);
    let r = run(&["check", "--color", "never", &format!("examples/{BROKEN}")]);
    assert!(!r.stdout.contains('\x1b'));
}

#[test]
fn format_json_is_the_file_then_the_cores_verdict_one_line_per_plan() {
    let names = ["calm-weekday.plan.json", BROKEN, "first-5k.plan.json", "week-with-choir.plan.json"];
    let paths: Vec<String> = names.iter().map(|n| format!("examples/{n}")).collect();
    let mut args = vec!["check", "--format", "json"];
    args.extend(paths.iter().map(String::as_str));
    let r = run(&args);
    assert_eq!(r.code, 1);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), names.len(), "{}", r.stdout);
    for ((line, name), path) in lines.iter().zip(names).zip(&paths) {
        let (file, verdict) = json_record(line);
        assert_eq!(&file, path);
        assert_eq!(verdict, validate_bytes(&read(&example(name)), &request_of(name)).to_json());
    }
    let r = run(&["check", "--format", "json", "examples/calm-weekday.plan.json"]);
    assert_eq!(r.code, 0);
}

#[test]
fn a_plan_not_read_is_reported_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("gone.plan.json").to_string_lossy().into_owned();
    let json = run(&["check", "--format", "json", "examples/calm-weekday.plan.json", &missing]);
    assert_eq!(json.code, 2);
    let lines: Vec<&str> = json.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", json.stdout);
    assert_eq!(json_record(lines[0]).0, "examples/calm-weekday.plan.json");
    let record: Value = serde_json::from_str(lines[1]).unwrap();
    let keys: Vec<&String> = record.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["file", "error"]);
    assert_eq!(record["file"], missing.as_str());
    let error = record["error"].as_str().unwrap();
    assert!(error.starts_with(&format!("cannot read the plan {missing}: ")), "{error}");
    assert!(json.stderr.contains(error), "{}", json.stderr);

    let github = run(&["check", "--format", "github", &missing]);
    assert_eq!(github.code, 2);
    let line = github.stdout.trim_end();
    let rest = line.strip_prefix("::error ").expect(line);
    let (props, message) = rest.split_once("::").expect(line);
    assert_eq!(props, format!("file={},title=momentum-plan", missing.replace(':', "%3A").replace(',', "%2C")));
    assert!(message.starts_with(&format!("cannot read the plan {missing}: ")), "{message}");
}

#[test]
fn a_dash_reads_the_plan_from_standard_input() {
    let broken = read(&example(BROKEN));
    let request_file = format!("examples/{}", BROKEN.replace(".plan.json", ".request.json"));
    let want = validate_bytes(&broken, &request_of(BROKEN)).to_json();

    let json = run_with_stdin(&["check", "--format", "json", "--request", &request_file, "-"], broken.clone());
    assert_eq!(json.code, 1, "{}", json.stderr);
    assert_eq!(json_record(json.stdout.trim_end()), ("-".to_owned(), want.clone()));

    // Code frames name standard input as `-`, at the same lines and columns as the file's.
    let from_file = run(&["check", &format!("examples/{BROKEN}")]);
    let from_stdin = run_with_stdin(&["check", "--request", &request_file, "-"], broken.clone());
    assert_eq!(from_stdin.code, 1);
    assert_eq!(from_stdin.stdout, from_file.stdout.replace(&format!("examples/{BROKEN}"), "-"));

    // --stdin-filename names it and finds the request beside that name.
    let named = format!("examples/{BROKEN}");
    let r = run_with_stdin(&["check", "--format", "json", "--stdin-filename", &named, "-"], broken.clone());
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(json_record(r.stdout.trim_end()), (named, want));

    let unpaired = run_with_stdin(&["check", "-"], broken.clone());
    assert_eq!(unpaired.code, 2);
    assert!(unpaired.stderr.contains("cannot tell which request standard input (-) answers"), "{}", unpaired.stderr);
    let twice = run_with_stdin(&["check", "--request", &request_file, "-", "-"], broken.clone());
    assert_eq!(twice.code, 2);
    assert!(twice.stderr.contains("standard input (-) can be named once"), "{}", twice.stderr);

    // repair: the repaired plan on stdout, as for the file; --write cannot replace stdin.
    let from_file = run(&["repair", &format!("examples/{BROKEN}")]);
    let from_stdin = run_with_stdin(&["repair", "--request", &request_file, "-"], broken.clone());
    assert_eq!((from_stdin.code, &from_stdin.stdout), (from_file.code, &from_file.stdout));
    let write = run_with_stdin(&["repair", "--request", &request_file, "--write", "-"], broken);
    assert_eq!(write.code, 2);
    assert!(write.stderr.contains("standard input (-) cannot be replaced"), "{}", write.stderr);
}

#[test]
fn format_github_gives_one_workflow_command_per_issue() {
    let r = run(&["check", "--format", "github", &format!("examples/{BROKEN}")]);
    assert_eq!(r.code, 1);
    let text = String::from_utf8(read(&example(BROKEN))).unwrap();
    let plan: Value = serde_json::from_str(&text).unwrap();
    let verdict = validate_bytes(text.as_bytes(), &request_of(BROKEN));
    let issues: Vec<(&str, _)> =
        verdict.errors.iter().map(|i| ("error", i)).chain(verdict.warnings.iter().map(|i| ("warning", i))).collect();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), issues.len(), "{}", r.stdout);
    for (line, (command, issue)) in lines.iter().zip(issues) {
        // ::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::MESSAGE
        let rest = line.strip_prefix(&format!("::{command} ")).expect(line);
        let (props, message) = rest.split_once("::").expect(line);
        assert_eq!(message, format!("{} ({})", issue.message, issue.path));
        let props: Vec<(&str, &str)> = props.split(',').map(|p| p.split_once('=').expect(line)).collect();
        let keys: Vec<&str> = props.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["file", "line", "col", "endLine", "endColumn", "title"], "{line}");
        assert_eq!(props[0].1, format!("examples/{BROKEN}"));
        assert_eq!(props[5].1, format!("momentum-plan {}", issue.code.as_str()));
        let n = |i: usize| props[i].1.parse::<usize>().expect(line);
        let want = plan.pointer(&pointer(&issue.path)).unwrap();
        assert_eq!(&value_written_at(&text, n(1), n(2)), want, "{line}");
        assert!((n(3), n(4)) > (n(1), n(2)), "{line}");
    }
}

#[test]
fn io_and_usage_errors_exit_2_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_string_lossy().into_owned();
    std::fs::copy(example(BROKEN), d("a.plan.json")).unwrap();
    std::fs::copy(example(BROKEN), d("lonely.plan.json")).unwrap();
    std::fs::copy(example(BROKEN), d("plan.txt")).unwrap();
    std::fs::write(d("a.request.json"), "{\"requestId\": \"r\",}").unwrap();

    let missing = run(&["check", &d("missing.plan.json")]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains(&format!("cannot read the plan {}", d("missing.plan.json"))), "{}", missing.stderr);

    let not_json = run(&["check", &d("a.plan.json")]);
    assert_eq!(not_json.code, 2);
    assert!(
        not_json.stderr.contains(&format!("the request {} is not JSON: ", d("a.request.json")))
            && not_json.stderr.contains("at line 1, column 19"),
        "{}",
        not_json.stderr
    );

    let no_request = run(&["check", &d("lonely.plan.json")]);
    assert_eq!(no_request.code, 2);
    assert!(no_request.stderr.contains(&format!("cannot read the request {}", d("lonely.request.json"))));

    let unpaired = run(&["check", &d("plan.txt")]);
    assert_eq!(unpaired.code, 2);
    assert!(unpaired.stderr.contains("cannot tell which request"), "{}", unpaired.stderr);

    // The other plans are still checked, and the worst outcome wins.
    let mixed = run(&["check", "examples/calm-weekday.plan.json", &d("missing.plan.json")]);
    assert_eq!(mixed.code, 2);
    assert!(mixed.stdout.contains("1 plan checked: 1 valid, 0 invalid, 1 not read"), "{}", mixed.stdout);

    for args in [&["check"][..], &["check", "--format", "xml", "x.plan.json"], &["frobnicate"], &["schema"]] {
        let r = run(args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stderr.starts_with("error:") || r.stderr.contains("Usage:"), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn a_plan_that_is_not_json_is_an_invalid_plan_shown_at_the_fault() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("x.plan.json");
    std::fs::write(&plan, "{\"format\": \"x\",\n  \"kind\": }\n").unwrap();
    let r = run(&["check", "--request", "examples/calm-weekday.request.json", plan.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    let verdict = validate_bytes(&read(&plan), &request_of("calm-weekday.plan.json"));
    assert_eq!(verdict.errors[0].code.as_str(), "json");
    assert!(verdict.errors[0].message.contains("at line 2, column 11"));
    assert!(r.stdout.contains(&format!("{}:2:11\n", plan.display())), "{}", r.stdout);
    assert!(r.stdout.contains("2 |   \"kind\": }\n"), "{}", r.stdout);
}

#[test]
fn repair_prints_or_writes_the_cores_repaired_plan() {
    // The calm example with one category in the wrong case: a safe fix; and the broken example,
    // whose errors have no fix that may be applied.
    let dir = tempfile::tempdir().unwrap();
    let calm = String::from_utf8(read(&example("calm-weekday.plan.json"))).unwrap();
    let cased = calm.replacen("\"category\": \"rest\"", "\"category\": \"Rest\"", 1);
    assert_ne!(cased, calm);
    let copy = dir.path().join("c.plan.json");
    std::fs::write(&copy, &cased).unwrap();
    std::fs::copy(example("calm-weekday.request.json"), dir.path().join("c.request.json")).unwrap();
    let copy_arg = copy.to_str().unwrap();
    let broken = example(BROKEN);
    // A duration written 30.4: rounding it is an unsafe fix.
    let rounded = calm.replacen("\"durationMin\": 30,", "\"durationMin\": 30.4,", 1);
    assert_ne!(rounded, calm);
    let unsafe_copy = dir.path().join("u.plan.json");
    std::fs::write(&unsafe_copy, &rounded).unwrap();
    let unsafe_arg = unsafe_copy.to_str().unwrap();
    let calm_request = request_of("calm-weekday.plan.json");
    let r = run(&["repair", "--request", "examples/calm-weekday.request.json", unsafe_arg]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("0 fixes applied; 1 errors left (1 unsafe fixes offered: --unsafe applies them)"),
        "{}",
        r.stderr
    );
    let cases = [
        (cased.as_bytes().to_vec(), copy_arg, &calm_request, "examples/calm-weekday.request.json"),
        (rounded.as_bytes().to_vec(), unsafe_arg, &calm_request, "examples/calm-weekday.request.json"),
        (read(&broken), broken.to_str().unwrap(), &request_of(BROKEN), "examples/calm-weekday-broken.request.json"),
    ];
    for (plan, arg, request, request_file) in cases {
        for unsafe_fixes in [false, true] {
            let options = RepairOptions { unsafe_fixes, ..RepairOptions::default() };
            let want = repair(Input::Bytes(&plan), Input::Value(request), &options).unwrap();
            let mut args = vec!["repair", "--request", request_file, arg];
            if unsafe_fixes {
                args.push("--unsafe");
            }
            let r = run(&args);
            assert_eq!(r.code, i32::from(!want.verdict.valid), "{}", r.stderr);
            assert_eq!(r.stdout, want.plan.clone() + "\n");
            assert!(r.stderr.contains(&format!("{} fixes applied", want.applied.len())), "{}", r.stderr);
            args.push("--json");
            assert_eq!(run(&args).stdout, want.to_json() + "\n");
        }
    }
    let want = repair(Input::Bytes(cased.as_bytes()), Input::Value(&calm_request), &RepairOptions::default()).unwrap();
    assert_eq!(want.applied.len(), 1, "the case fix is applied");
    assert!(want.verdict.valid);

    let out = dir.path().join("out.json");
    let r = run(&["repair", copy_arg, "-o", out.to_str().unwrap()]);
    assert!(r.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&out).unwrap(), want.plan.clone() + "\n");
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), cased, "-o leaves the plan alone");
    assert_eq!(run(&["repair", copy_arg, "--write"]).code, 0);
    assert_eq!(std::fs::read_to_string(&copy).unwrap(), want.plan + "\n");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 4, "no temporary file is left: {left:?}");
    assert_eq!(run(&["check", copy_arg]).code, 0, "the written plan is valid");

    let r = run(&["repair", copy_arg, "--write", "--json"]);
    assert_eq!(r.code, 2, "--write and --json conflict");
    let r = run(&["repair", dir.path().join("none.plan.json").to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot read the plan"));
    let r = run(&["repair", copy_arg, "-o", dir.path().join("no/such/dir/out.json").to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot write"), "{}", r.stderr);
}

#[test]
fn schema_prints_the_cores_plan_schema() {
    for name in ["calm-weekday.plan.json", "first-5k.plan.json"] {
        let request_file = format!("examples/{}", name.replace(".plan.json", ".request.json"));
        for (flag, variant) in [("validation", SchemaVariant::Validation), ("strict", SchemaVariant::Strict)] {
            let r = run(&["schema", "--request", &request_file, "--variant", flag]);
            assert_eq!(r.code, 0, "{}", r.stderr);
            assert_eq!(r.stdout, plan_schema(&request_of(name), variant).unwrap().to_string() + "\n");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.request.json");
    std::fs::write(&bad, r#"{"requestId": "r", "kind": "weekly"}"#).unwrap();
    let r = run(&["schema", "--request", bad.to_str().unwrap()]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("no plan can satisfy this request"), "{}", r.stderr);
    let r = run(&["schema", "--request", bad.to_str().unwrap(), "--variant", "loose"]);
    assert_eq!(r.code, 2);
}

#[test]
fn text_that_is_not_json_is_framed_at_the_parse_fault_whatever_the_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let long = {
        let mut p: Value = serde_json::from_slice(&read(&example(BROKEN))).unwrap();
        p["description"] = Value::String("x".repeat(3000));
        p.to_string()
    };
    let cases: [(&str, Vec<u8>); 5] = [
        ("empty", Vec::new()),
        ("bom", b"\xef\xbb\xbf{}".to_vec()),
        ("utf8", b"{\"a\": \"\xff\"}".to_vec()),
        ("blank", b"\n\n  \n".to_vec()),
        ("long", long.into_bytes()),
    ];
    let request = request_of("calm-weekday.plan.json");
    for (name, bytes) in cases {
        let path = dir.path().join(format!("{name}.plan.json"));
        std::fs::write(&path, &bytes).unwrap();
        let r = run(&["check", "--request", "examples/calm-weekday.request.json", path.to_str().unwrap()]);
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        let verdict = validate_bytes(&bytes, &request);
        let frames = r.stdout.matches("error[").count();
        assert_eq!(frames, verdict.errors.len(), "{name}: {}", r.stdout);
        if verdict.errors[0].code.as_str() == "json" {
            // The message ends its reason with "at line L, column C": the frame is there.
            let msg = &verdict.errors[0].message;
            let at = msg.split(" at line ").nth(1).expect(msg);
            let (line, rest) = at.split_once(", column ").expect(msg);
            let column: String = rest.chars().take_while(char::is_ascii_digit).collect();
            assert!(r.stdout.contains(&format!("{}:{line}:{column}\n", path.display())), "{name}: {}", r.stdout);
        }
    }
}

#[test]
fn the_readmes_unsafe_repair_line_makes_the_broken_example_valid() {
    // README: `momentum-plan repair --unsafe examples/calm-weekday-broken.plan.json`
    let r = run(&["repair", "--unsafe", &format!("examples/{BROKEN}")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let verdict = validate_bytes(r.stdout.trim_end().as_bytes(), &request_of(BROKEN));
    assert!(verdict.valid, "{}", verdict.to_json());
    assert!(r.stderr.contains("applied a fix for the category issue at $.routine.blocks[3].category"), "{}", r.stderr);
    assert!(r.stderr.contains("0 errors left"), "{}", r.stderr);
}

#[test]
fn a_plan_with_many_issues_shows_the_first_200_and_counts_the_rest() {
    // 300 overlapping blocks: the core gives one issue or more each; the frames stop at 200.
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("crowded.plan.json");
    let mut value: Value = serde_json::from_slice(&read(&example("calm-weekday.plan.json"))).unwrap();
    let block = value["routine"]["blocks"][0].clone();
    value["routine"]["blocks"] = Value::Array(vec![block; 300]);
    let text = serde_json::to_string_pretty(&value).unwrap();
    std::fs::write(&plan, &text).unwrap();
    let request = example("calm-weekday.request.json").to_string_lossy().into_owned();
    let verdict = validate_bytes(text.as_bytes(), &request_of("calm-weekday.plan.json"));
    let all = verdict.errors.len() + verdict.warnings.len();
    assert!(all > 200, "{all}");
    let name = plan.to_string_lossy().into_owned();
    let tail = format!("... and {} more issues in {name} (--format json lists them all)", all - 200);
    let r = run(&["check", "--color", "never", "--request", &request, &name]);
    assert_eq!(r.code, 1);
    let frames = r.stdout.lines().filter(|l| l.starts_with("error[") || l.starts_with("warning[")).count();
    assert_eq!(frames, 200, "{}", r.stdout);
    assert!(r.stdout.contains(&tail), "{}", r.stdout);
    assert!(r.stdout.contains(&format!("{} errors", verdict.errors.len())), "the summary counts them all");
    let g = run(&["check", "--format", "github", "--request", &request, &name]);
    assert_eq!(g.stdout.lines().filter(|l| l.starts_with("::")).count(), 200);
    assert!(g.stdout.contains(&tail), "{}", g.stdout);
}

#[cfg(unix)]
#[test]
fn repair_output_is_a_new_file_with_the_usual_mode_and_write_keeps_the_old_one() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    // What any program's new file gets here: 0666 less the umask.
    let usual = dir.path().join("usual");
    std::fs::write(&usual, "x").unwrap();
    let out = dir.path().join("out.plan.json");
    let r = run(&["repair", "--unsafe", &format!("examples/{BROKEN}"), "-o", &out.to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(mode(&out), mode(&usual));
    let kept = dir.path().join("kept.plan.json");
    std::fs::copy(example(BROKEN), &kept).unwrap();
    std::fs::copy(example(&BROKEN.replace(".plan.json", ".request.json")), dir.path().join("kept.request.json"))
        .unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o640)).unwrap();
    let r = run(&["repair", "--unsafe", "--write", &kept.to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(mode(&kept), 0o640);
}
