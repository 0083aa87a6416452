use super::*;

fn arms(text: &str) -> Arms {
    route(text, false, false, false).suggested_arms
}

fn complexity(text: &str) -> Complexity {
    route(text, false, false, false).complexity
}

#[test]
fn route_follows_the_verdicts_with_blocked_first() {
    assert_eq!(route("hi", false, false, false).route, Route::Orchestrator);
    assert_eq!(route("hi", true, false, false).route, Route::Cache);
    assert_eq!(route("hi", true, true, false).route, Route::Blocked);
    assert_eq!(route("hi", false, true, true).route, Route::Blocked);
}

#[test]
fn short_questions_are_simple() {
    assert_eq!(
        complexity("What is the capital of France?"),
        Complexity::Simple
    );
    assert_eq!(complexity(""), Complexity::Simple);
    assert_eq!(complexity("Hello. How are you?"), Complexity::Simple);
    assert!(arms("What is the capital of France?").is_empty());
}

#[test]
fn sequenced_or_multi_intent_requests_are_moderate() {
    assert_eq!(
        complexity("Download the report and then summarise it. After that email it to Bob."),
        Complexity::Moderate
    );
    assert_eq!(
        complexity("Find the latest release notes and run the test suite."),
        Complexity::Moderate
    );
}

#[test]
fn lists_code_and_length_make_a_request_complex() {
    let plan = "Please do the following:\n\
                1. Search the knowledge base for the outage report.\n\
                2. Run the diagnostics command on each host.\n\
                3) Fix the bug in the retry function, then verify it.\n\
                4. Finally, redact personal data from the summary.\n";
    assert_eq!(complexity(plan), Complexity::Complex);
    assert_eq!(
        arms(plan),
        [
            "planner",
            "retriever",
            "executor",
            "coder",
            "judge",
            "guardian"
        ]
    );

    let with_code = "Refactor this:\n```rust\nfn main() { println!(\"hi\"); }\n```\nthen test it.";
    assert_eq!(complexity(with_code), Complexity::Moderate);
    let long = "word ".repeat(250) + ". Then again. And again. And once more. Done. Really.";
    assert_eq!(complexity(&long), Complexity::Complex);
}

#[test]
fn list_markers_and_fences_are_counted_at_line_starts_only() {
    let s =
        Signals::scan("- a\n  * b\n+ c\n10) d\n1.5 is not a marker\nx - y\n```\n~~~\nnot ``` here");
    assert_eq!((s.list_items, s.code_fences), (4, 2));
    // A numbered marker's dot does not end a sentence.
    assert_eq!(Signals::scan("1. one\n2. two").sentences, 2);
    assert_eq!(Signals::scan("Pi is 3.14 roughly. e.g. this").sentences, 3);
}

#[test]
fn intent_keywords_pick_arms_in_a_fixed_order() {
    assert_eq!(arms("search for hotels in Rome"), ["retriever"]);
    assert_eq!(arms("Look up the population of Peru"), ["retriever"]);
    assert_eq!(arms("please COMPUTE 17 * 23"), ["executor"]);
    assert_eq!(arms("execute ls in a shell"), ["executor"]);
    assert_eq!(arms("write a function that reverses a string"), ["coder"]);
    assert_eq!(arms("fix the bug in my parser"), ["coder"]);
    assert_eq!(arms("fix bug 123"), ["coder"]);
    assert_eq!(arms("verify this proof"), ["judge"]);
    assert_eq!(arms("sanitize my notes"), ["guardian"]);
    assert_eq!(arms("strip personal data out"), ["guardian"]);
    assert_eq!(arms("PII please"), ["guardian"]);
    // Halves of phrases alone mean nothing.
    assert!(arms("look at this bug, the data is up").is_empty());
}

#[test]
fn pii_found_adds_the_guardian() {
    assert_eq!(
        route("tell me a joke", false, false, true).suggested_arms,
        ["guardian"]
    );
    assert_eq!(
        route("redact this", false, false, true).suggested_arms,
        ["guardian"]
    );
}

#[test]
fn planner_leads_whenever_the_request_is_not_simple() {
    let hint = route(
        "Search for flights, then calculate the cheapest, then check the dates.",
        true,
        false,
        false,
    );
    assert_eq!(hint.route, Route::Cache);
    assert_ne!(hint.complexity, Complexity::Simple);
    assert_eq!(
        hint.suggested_arms,
        ["planner", "retriever", "executor", "judge"]
    );
}

#[test]
fn every_keyword_is_found_and_near_misses_are_not() {
    for &(word, kind) in KEYWORDS {
        // Both key builders: a short tail, and a 16-byte window with text after the word.
        let mut padded = word.to_vec();
        padded.extend_from_slice(b" and some more text after it");
        assert_eq!(read_word(&padded), (word.len(), kind));
        padded[..word.len()].make_ascii_uppercase();
        assert_eq!(read_word(&padded), (word.len(), kind));
        assert_eq!(
            read_word(word),
            (word.len(), kind),
            "{}",
            String::from_utf8_lossy(word)
        );
        let upper = word.to_ascii_uppercase();
        assert_eq!(read_word(&upper).1, kind);
    }
    for miss in [
        &b"searchx"[..],
        b"tes",
        b"implementations",
        b"xthen",
        b"",
        b"runsrunsrunsrunsruns",
    ] {
        assert_eq!(
            read_word(miss).1,
            Word::Other,
            "{}",
            String::from_utf8_lossy(miss)
        );
        let mut padded = miss.to_vec();
        padded.extend_from_slice(b" and some more text after it");
        assert_eq!(read_word(&padded).1, Word::Other);
    }
    assert_eq!(read_word(b"then, more"), (4, Word::Sequence));
}

#[test]
fn non_ascii_text_is_scanned_without_panicking() {
    let hint = route(
        "Ｓｅａｒｃｈ naïve café — ünïcode 🚀? Then ✓ test.",
        false,
        false,
        false,
    );
    assert_eq!(
        hint.suggested_arms,
        ["judge"],
        "full-width letters are not folded here"
    );
    assert_eq!(Signals::scan("naïve café. 🚀 done!").sentences, 2);
}

/// `read_word` as it was: a byte loop for the length, a scan of the keyword list for the kind.
fn reference_read_word(bytes: &[u8]) -> (usize, Word) {
    let len = bytes.iter().position(|&b| !is_word_byte(b)).unwrap_or(bytes.len());
    let word: Vec<u8> = bytes[..len].iter().map(|&b| b | 0x20).collect();
    let kind = KEYWORDS.iter().find(|(k, _)| *k == word.as_slice()).map_or(Word::Other, |&(_, kind)| kind);
    (len, kind)
}

#[test]
fn read_word_matches_the_byte_loop_on_random_text() {
    let pieces: &[&[u8]] = &[
        b"the", b"Then", b"SEARCH", b"run", b"x", b" ", b"  ", b".", b",", b"\n", b"-", b"'", b"_",
        b"9", b"implementation", b"verification", b"\xc3\xa9", b"\xf0\x9f\x9a\x80", b"@", b"[", b"`",
        b"{", b"/", b":", b"\t", b"bugfix", b"lookup", b"informationally", b"\x00",
    ];
    let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d_u64);
    let mut checked = 0;
    for _ in 0..20_000 {
        let mut text = Vec::new();
        for _ in 0..next() % 12 {
            text.extend_from_slice(pieces[(next() % pieces.len() as u64) as usize]);
        }
        for start in 0..text.len() {
            let rest = &text[start..];
            if is_word_byte(rest[0]) {
                assert_eq!(read_word(rest), reference_read_word(rest), "{:?}", String::from_utf8_lossy(rest));
                checked += 1;
            }
        }
    }
    assert!(checked > 100_000, "{checked}");
}

fn is_space_or_end(bytes: &[u8], i: usize) -> bool {
    bytes.get(i).copied().unwrap_or(b' ').is_ascii_whitespace()
}

/// `Signals::note` as it was, on the two previous words instead of a `Phrase`.
fn note_by_words(s: &mut Signals, word: Word, prev: Word, prev2: Word) {
    match word {
        Word::Retriever => s.retriever = true,
        Word::Executor => s.executor = true,
        Word::Coder => s.coder = true,
        Word::Judge => s.judge = true,
        Word::Guardian => s.guardian = true,
        Word::Sequence => s.sequencing += 1,
        Word::Up if prev == Word::Look => s.retriever = true,
        Word::Bug if prev == Word::Fix || (prev == Word::Article && prev2 == Word::Fix) => s.coder = true,
        Word::Data if prev == Word::Personal => s.guardian = true,
        Word::That if prev == Word::After && prev2 != Word::Sequence => s.sequencing += 1,
        _ => {}
    }
}

/// `Signals::scan` as it was: one byte at a time, each word read to its end before the next.
fn reference_scan(text: &str) -> Signals {
    let bytes = text.as_bytes();
    let mut s = Signals { bytes: bytes.len(), ..Signals::default() };
    let mut line_start = true;
    let mut open_sentence = false;
    let (mut prev, mut prev2) = (Word::Other, Word::Other);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if line_start {
            if b == b' ' || b == b'\t' {
                i += 1;
                continue;
            }
            line_start = false;
            if let Some(marker_len) = list_marker(&bytes[i..]) {
                s.sentences += u32::from(open_sentence);
                open_sentence = false;
                s.list_items += 1;
                i += marker_len;
                continue;
            }
            if bytes[i..].starts_with(b"```") || bytes[i..].starts_with(b"~~~") {
                s.code_fences += 1;
                i += 3;
                continue;
            }
        }
        if b == b' ' {
            i += 1;
            continue;
        }
        if is_word_byte(b) {
            let (len, word) = reference_read_word(&bytes[i..]);
            note_by_words(&mut s, word, prev, prev2);
            (prev2, prev) = (prev, word);
            open_sentence = true;
            i += len;
            continue;
        }
        match b {
            b'\n' => line_start = true,
            b'.' | b'!' | b'?' if open_sentence && is_space_or_end(bytes, i + 1) => {
                s.sentences += 1;
                open_sentence = false;
            }
            b',' | b';' | b':' => s.clauses += 1,
            _ => {}
        }
        i += 1;
    }
    if open_sentence {
        s.sentences += 1;
    }
    s
}

#[test]
fn the_block_scan_counts_like_the_byte_loop() {
    let pieces = [
        "the", "Then", "SEARCH", "look", "up", "fix", "a", "bug", "personal", "data", "after", "that",
        "Looks", "UP", "fixes", "FIXING", "this", "my", "bugs", "Personal", "details", "info", "AFTER", "That",
        "afterwards", "lastly", "then after that", "fix the bug", "look up", "the bug", "code", "pii",
        "finally", "run", "tests", "x", " ", "  ", ".", ". ", "!", "?", ",", ";", ":", "\n", "\n  ", "\n\t",
        "\n- ", "\n* ", "\n+ ", "\n1. ", "\n12) ", "\n1234. ", "\n```", "\n~~~", "```", "- ", "3. ", "\r",
        "\t", "'", "_", "9", "-", "(", "\u{e9}", "\u{1f680}", "\u{a0}", "implementation",
        "averyveryverylongwordthatcrossesblocks", "another_long_identifier_with_underscores_and_digits_0123456789",
        "verification", "\0", "\u{c}", "\u{b}", ".\r", "!\u{c}",
        // Words that share a keyword's first letters, and marks the lanes leave to the walk.
        "runner", "RUN'S", "pii_x", "fix9", "thence", "Theory", "it's", "_run", "fix_", "'", "''", "__",
    ];
    let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15_u64);
    for round in 0..30_000 {
        let mut text = String::new();
        for _ in 0..next() % (if round % 10 == 0 { 400 } else { 40 }) {
            text.push_str(pieces[(next() % pieces.len() as u64) as usize]);
        }
        assert_eq!(Signals::scan(&text), reference_scan(&text), "{text:?}");
    }
    for text in [
        "",
        " ",
        "\n",
        "- ",
        "```",
        &"word ".repeat(13),
        &format!("{}x", " ".repeat(63)),
        &format!("{}abc", "y".repeat(62)),
        &format!("{}.\nthen", "z".repeat(63)),
        // A full stop on a block's last byte, and what follows it on the next block's first.
        &format!("{}.,x", "z".repeat(63)),
        &format!("{}.;x", "z ".repeat(31)),
        &format!("{}.\u{c}x", "z ".repeat(31)),
        &format!("{}.\rx", "z ".repeat(31)),
        &format!("{}.\u{b}x", "z ".repeat(31)),
        &format!("{}. x", "z ".repeat(31)),
    ] {
        assert_eq!(Signals::scan(text), reference_scan(text), "{text:?}");
    }
}

#[test]
fn every_keyword_that_stands_alone_passes_the_prefix_test() {
    for &(word, kind) in KEYWORDS {
        if !matches!(kind, Word::Up | Word::Bug | Word::Article | Word::Data | Word::That) {
            // As the scan reads it: the word's letters and a zero after a word of three.
            let mut letters = word.to_vec();
            letters.extend_from_slice(&[0; 4]);
            let key = u32::from_le_bytes(letters[..4].try_into().unwrap());
            assert_eq!(key, keywords::prefix_key(word));
            assert!(keywords::may_stand_alone(key), "{}", String::from_utf8_lossy(word));
            assert_eq!(keywords::prefix_key(&word.to_ascii_uppercase()), key);
        }
    }
    // The commonest words of prose are skipped (a collision would only cost time).
    for word in ["the", "and", "that", "with", "for", "this", "are", "was", "have"] {
        assert!(!keywords::may_stand_alone(keywords::prefix_key(word.as_bytes())), "{word}");
    }
}

#[test]
fn phrases_count_only_with_their_first_half_right_before() {
    assert_eq!(arms("fix the bug"), ["coder"]);
    assert_eq!(arms("fix bug"), ["coder"]);
    assert!(arms("the bug").is_empty());
    assert!(arms("fix a nasty bug").is_empty());
    assert!(arms("look it up").is_empty());
    assert_eq!(arms("LOOKING UP"), ["retriever"]);
    assert_eq!(arms("personal data"), ["guardian"]);
    assert_eq!(Signals::scan("after that").sequencing, 1);
    assert_eq!(Signals::scan("then after that").sequencing, 1);
    assert_eq!(Signals::scan("then soon after that").sequencing, 2);
}

#[test]
fn words_running_past_a_block_are_read_whole() {
    for word in ["search", "implementation", "implementations", "then", "verification", "a_word_longer_than_sixteen_bytes"] {
        for start in 40..=64 {
            for after in ["", " ", " up", ".", "\n", "x"] {
                let text = format!("{}{word}{after} look up", "y ".repeat(start / 2) + &" ".repeat(start % 2));
                assert_eq!(Signals::scan(&text), reference_scan(&text), "{text:?}");
            }
        }
    }
}

