use std::fmt::Write as _;
use std::sync::Arc;

use crate::cache::CacheTier;
use crate::detector::{CheckOptions, Detector, DetectorConfig};
use crate::json::{self, Value};
use crate::ratelimit::{Limit, Limiter};

use crate::ratelimit::Decision;

use super::{head, Answer, CheckEndpoint, CheckRequest};

fn endpoint(capacity: u32) -> CheckEndpoint {
    CheckEndpoint {
        detector: Arc::new(Detector::new(DetectorConfig::default())),
        cache: Arc::new(CacheTier::new(1_000, 1 << 20)),
        limiter: Arc::new(Limiter::new(1_000)),
        per_user: Limit { capacity, window_ms: 60_000 },
    }
}

fn read(json: &str) -> Option<(String, String, [bool; 3])> {
    CheckRequest::read(json.as_bytes())
        .map(|b| (b.text.into_owned(), b.user_id.into_owned(), [b.options.check_pii, b.options.check_injection, b.use_cache]))
}

#[test]
fn takes_the_usual_body() {
    assert_eq!(read(r#"{"text":"hi there","user_id":"u1"}"#), Some(("hi there".into(), "u1".into(), [true; 3])));
    let spaced = " {\n \"user_id\" : \"u1\" ,\t\"text\":\"a\\\"b\\\\c\\/\\n\\u00e9\\ud83d\\ude00\u{e9}\", \"check_pii\": false, \"use_cache\":true}\r\n";
    assert_eq!(read(spaced), Some(("a\"b\\c/\n\u{e9}\u{1f600}\u{e9}".into(), "u1".into(), [false, true, true])));
    let off = r#"{"text":"x","user_id":"u","check_injection":false,"use_cache":false}"#;
    assert_eq!(read(off).map(|p| p.2), Some([true, false, false]));
}

#[test]
fn leaves_every_other_body_to_the_caller() {
    for json in [
        r#"{"text":"hi"}"#,
        r#"{"text":"","user_id":"u"}"#,
        r#"{"text":"hi","user_id":""}"#,
        r#"{"text":"hi","user_id":"u","colour":"blue"}"#,
        r#"{"text":"hi","text":"again","user_id":"u"}"#,
        r#"{"text":"hi","user_id":"u","check_pii":1}"#,
        r#"{"text":"hi","user_id":"u","check_pii":false,"check_pii":true}"#,
        r#"{"text":"hi","user_id":null}"#,
        r#"{"text":42,"user_id":"u"}"#,
        r#"{"text":"a\ud800","user_id":"u"}"#,
        r#"{"text":"a\ud800\u0041","user_id":"u"}"#,
        r#"{"text":"a\x","user_id":"u"}"#,
        r#"{"text":"a\u00g1","user_id":"u"}"#,
        r#"{"text":"hi","user_id":"u"} x"#,
        r#"{"text":"hi","user_id":"u",}"#,
        r#"{"text":"hi","user_id":"u""#,
        r#"["hi"]"#,
        "{}",
        "",
        "{\"text\":\"tab\there\",\"user_id\":\"u\"}",
        "\u{feff}{\"text\":\"hi\",\"user_id\":\"u\"}",
        r#"{"te\u0078t":"hi","user_id":"u"}"#,
    ] {
        assert!(read(json).is_none(), "{json}");
    }
    assert!(CheckRequest::read(b"{\"text\":\"\xff\",\"user_id\":\"u\"}").is_none(), "not UTF-8");
    assert!(read(&format!(r#"{{"text":"{}","user_id":"u"}}"#, "a".repeat(100_001))).is_none());
    assert!(read(&format!(r#"{{"text":"a","user_id":"{}"}}"#, "u".repeat(257))).is_none());
    assert!(read(&format!(r#"{{"text":"{}","user_id":"{}"}}"#, "a".repeat(100_000), "u".repeat(256))).is_some());
}

#[test]
fn finds_every_quote_and_escape_wherever_it_falls() {
    for n in 0..40 {
        let text = format!("{}\"{}\\{}\u{1}", "a".repeat(n), "\u{e9}".repeat(n), "b".repeat(n % 17));
        let mut body = String::from("{\"text\":");
        json::string(&mut body, &text);
        body.push_str(",\"user_id\":\"u\"}");
        assert_eq!(read(&body).map(|p| p.0), Some(text), "{body}");
    }
}

#[test]
fn answers_with_the_request_id_the_check_and_the_time() {
    let e = endpoint(100);
    let mut out = String::new();
    let answer = e.answer(br#"{"text":"mail ada@example.com","user_id":"u1"}"#, "a\"b", 5, &mut out);
    assert!(matches!(answer, Answer::Answered { decision: d, head: h } if d.allowed && d.limit == 100 && d.remaining == 99 && h > 0));
    let Answer::Answered { head: h, .. } = answer else { unreachable!() };
    assert!(out[..h].starts_with("a\"b\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: 100\r\n"));
    let v = json::parse(&out[h..]).unwrap();
    let Value::Object(fields) = &v else { panic!("an object") };
    assert_eq!(fields.first().map(|(k, _)| k.as_str()), Some("request_id"));
    assert_eq!(fields.last().map(|(k, _)| k.as_str()), Some("processing_time_ms"));
    assert_eq!(v.get("request_id").and_then(Value::as_str), Some("a\"b"));
    assert_eq!(v.get("cache_hit"), Some(&Value::Bool(false)));
    let key = Detector::cache_key("mail ada@example.com", CheckOptions::default());
    assert_eq!(v.get("cache_key").and_then(Value::as_str), Some(key.as_str()));
    assert_eq!(v.get("redacted_text").and_then(Value::as_str), Some("mail [EMAIL_1]"));
}

#[test]
fn a_hit_answers_the_stored_value_and_the_text_is_remembered() {
    let e = endpoint(100);
    let text = "What is the refund policy?";
    e.cache.set(&Detector::cache_key(text, CheckOptions::default()), "{\"answer\":\"30 days\"}", 60_000, 0).unwrap();
    let body = format!(r#"{{"text":"{text}","user_id":"u1"}}"#);
    let mut out = String::new();
    let mut replies = Vec::new();
    for _ in 0..3 {
        let Answer::Answered { head: h, .. } = e.answer(body.as_bytes(), "r", 1, &mut out) else { panic!("answered") };
        out.replace_range(..h, "");
        let v = json::parse(&out).unwrap();
        assert_eq!(v.get("cached_value").and_then(|c| c.get("answer")).and_then(Value::as_str), Some("30 days"));
        assert_eq!(v.get("routing").and_then(|r| r.get("route")).and_then(Value::as_str), Some("cache"));
        replies.push(out.split(",\"processing_time_ms\"").next().unwrap().to_string());
    }
    assert!(replies.windows(2).all(|w| w[0] == w[1]), "a remembered hit answers as the first");
    assert_eq!(e.detector.stats().checks, 3);
    let unused = format!(r#"{{"text":"{text}","user_id":"u1","use_cache":false}}"#);
    e.answer(unused.as_bytes(), "r", 1, &mut out);
    assert!(out.contains("\"cache_hit\":false") && !out.contains("cached_value"), "use_cache false skips the tier");
}

#[test]
fn a_refused_request_is_not_checked() {
    let e = endpoint(2);
    let mut out = String::from("untouched");
    let body = br#"{"text":"hello","user_id":"u1"}"#;
    for remaining in [1, 0] {
        assert!(matches!(e.answer(body, "r", 0, &mut out), Answer::Answered { decision: d, .. } if d.remaining == remaining));
    }
    out.replace_range(.., "untouched");
    let Answer::Refused(d) = e.answer(body, "r", 0, &mut out) else { panic!("refused") };
    assert!(!d.allowed && d.retry_after_ms == 30_000);
    assert_eq!(out, "untouched");
    assert_eq!(e.detector.stats().checks, 2);
    // Another user has a bucket of their own.
    assert!(matches!(e.answer(br#"{"text":"hello","user_id":"u2"}"#, "r", 0, &mut out), Answer::Answered { .. }));
}

#[test]
fn a_declined_body_takes_no_token() {
    let e = endpoint(1);
    let mut out = String::new();
    assert_eq!(e.answer(br#"{"text":"hello"}"#, "r", 0, &mut out), Answer::Declined);
    assert!(matches!(e.answer(br#"{"text":"hello","user_id":"u"}"#, "r", 0, &mut out), Answer::Answered { .. }));
    let mut long = String::new();
    let _ = write!(long, r#"{{"text":"{}","user_id":"u"}}"#, "x".repeat(10));
    assert!(matches!(e.answer(long.as_bytes(), "r", 0, &mut out), Answer::Refused(_)));
}

#[test]
fn the_head_is_the_request_id_then_a_line_per_header() {
    let d = |reset_ms| Decision { allowed: true, limit: 1000, remaining: 999, reset_ms, retry_after_ms: 0 };
    let mut out = String::from("{");
    assert_eq!(head(&mut out, "req-1", &d(59_001)), out.len() - 1);
    assert_eq!(
        out,
        "{req-1\r\ncontent-type: application/json; charset=utf-8\r\nratelimit-limit: 1000\r\nratelimit-remaining: 999\r\nratelimit-reset: 60"
    );
    for (ms, seconds) in [(0, "0"), (1, "1"), (1_000, "1"), (1_001, "2")] {
        out.clear();
        head(&mut out, "r", &d(ms));
        assert!(out.ends_with(&format!("ratelimit-reset: {seconds}")), "{ms} ms: {out}");
    }
}

#[test]
fn no_head_for_a_request_id_that_could_break_a_line() {
    let d = Decision { allowed: true, limit: 1, remaining: 0, reset_ms: 1, retry_after_ms: 0 };
    for id in ["", "a\r\nb", "a\nb", "tab\there", "caf\u{e9}", "del\u{7f}"] {
        let mut out = String::from("kept");
        assert_eq!(head(&mut out, id, &d), 0, "{id:?}");
        assert_eq!(out, "kept");
    }
    let mut out = String::new();
    assert!(head(&mut out, " !~ printable ", &d) > 0);
}
