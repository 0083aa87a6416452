//! Payment card numbers: issuer prefix and length tables plus the Luhn check. Digits may be
//! grouped by spaces or dashes, used consistently (`4111 1111 1111 1111`, `3782-822463-10005`).
//!
//! A Luhn-valid number with a known issuer prefix is still one in ten of all numbers of that
//! length (the 62nd Fibonacci number, 4052739537881, is a "Visa"): only a card word nearby
//! ("card", "visa", "CVV", "expiry", "payment", "tarjeta", "Karte", "карта", "信用卡"…, before it
//! or just after) or the grouping cards are printed with makes it a card. Confidence: 0.97
//! grouped with context, 0.95 unbroken with context; without a card word 0.6 grouped (a number
//! written `4111 1111 1111 1111` is a card wherever it stands) and 0.2 unbroken, below the
//! default reporting threshold (0.4): a bare run of digits is more often a computed number.

use super::scan::{clean_end, hit, read_digits, Keywords};
use super::{PiiKind, PiiMatch};

/// Card words, in English and other languages written in Latin letters; matched at a word start,
/// as a prefix (`card` covers "cardholder", `pay` "payment", `cc` "cc=", "ccn" and `cc_number`,
/// `cart` covers "carte", "cartão", "carta", `kart` covers "Karte", "karta", "kart", `kort`
/// covers "kort", "kortti").
const CONTEXT: Keywords = Keywords::new(&[
    b"card", b"credit", b"debit", b"visa", b"mastercard", b"amex", b"maestro", b"dankort", b"rupay", b"cvv", b"cvc", b"expir",
    b"exp ", b"exp/", b"exp:", b"pay", b"paid", b"cc", b"billing", b"charge", b"cart", b"tarjeta", b"pago", b"pagam",
    b"paiement", b"kart", b"kort", b"kredit", b"zahlung", b"kaart", b"betaal", b"uatp",
]);

/// Card words in other scripts, found anywhere in the window (CJK has no spaces between words):
/// Russian and Ukrainian "карт…", Chinese "卡" (信用卡, 银行卡, 卡号), Japanese "カード", Korean
/// "카드", Arabic "بطاقة", Hebrew "כרטיס", Hindi "कार्ड", Greek "κάρτα".
const SCRIPT_WORDS: [&str; 8] = ["карт", "卡", "カード", "카드", "بطاقة", "כרטיס", "कार्ड", "κάρτ"];

/// Bytes looked at for a card word before the number, and after it (`… exp 12/27`).
const BEFORE: usize = 48;
const AFTER: usize = 24;

pub(super) fn find(b: &[u8], start: usize) -> Option<PiiMatch> {
    let d = read_digits::<19>(b, start, b" -");
    if d.overflow || d.len < 12 || !clean_end(b, d.end) {
        return None;
    }
    let groups = &d.groups[..d.ngroups];
    if groups.len() > 1 && !grouping_ok(groups) {
        return None;
    }
    let digits = &d.digits[..d.len];
    if !issuer_ok(digits) || !luhn(digits) {
        return None;
    }
    let after = (d.end + AFTER).min(b.len());
    let context = CONTEXT.before(b, start, BEFORE) || CONTEXT.before(b, after, after - d.end) || script_word(b, start, d.end, after);
    let confidence = match (context, groups.len() > 1) {
        (true, true) => 0.97,
        (true, false) => 0.95,
        (false, true) => 0.6,
        (false, false) => 0.2,
    };
    Some(hit(PiiKind::CreditCard, start, d.end, confidence))
}

/// A card word of another script within the window around the number (`start..end`).
fn script_word(b: &[u8], start: usize, end: usize, after: usize) -> bool {
    let before = &b[start.saturating_sub(BEFORE)..start];
    let after = &b[end..after];
    // Every word starts with a byte of 0xC0 or more: a window of ASCII only has none of them.
    let non_ascii = |w: &[u8]| w.iter().any(|&c| c >= 0xC0);
    (non_ascii(before) || non_ascii(after))
        && SCRIPT_WORDS.iter().any(|w| memchr::memmem::find(before, w.as_bytes()).is_some() || memchr::memmem::find(after, w.as_bytes()).is_some())
}

/// Printed groupings: fours (the last may be shorter, 19-digit cards end with 3), Amex 4-6-5,
/// Diners 4-6-4.
fn grouping_ok(g: &[u8]) -> bool {
    let (last, head) = g.split_last().expect("at least two groups");
    (head.iter().all(|&x| x == 4) && (1..=4).contains(last)) || g == [4, 6, 5] || g == [4, 6, 4]
}

fn prefix(d: &[u8], n: usize) -> u32 {
    d[..n].iter().fold(0, |acc, &x| acc * 10 + u32::from(x))
}

/// Issuer identification number ranges with the lengths each issuer uses.
fn issuer_ok(d: &[u8]) -> bool {
    let len = d.len();
    let p2 = prefix(d, 2);
    let p3 = prefix(d, 3);
    let p4 = prefix(d, 4);
    let long = (16..=19).contains(&len);
    // Maestro (Maestro UK 6759, 676770, 676774 among them) issues 12 to 19 digits.
    let maestro = (12..=19).contains(&len);
    match d[0] {
        1 => len == 15, // UATP
        2 => {
            ((2221..=2720).contains(&p4) && len == 16) // Mastercard 2-series
                || ((2200..=2204).contains(&p4) && long) // Mir
        }
        3 => {
            ((p2 == 34 || p2 == 37) && len == 15) // Amex
                || ((3528..=3589).contains(&p4) && long) // JCB
                || (((300..=305).contains(&p3) || p2 == 36 || p2 == 38 || p2 == 39) && (14..=19).contains(&len)) // Diners
                || ((p3 == 353 || p3 == 356) && len == 16) // RuPay on JCB
        }
        4 => matches!(len, 13 | 16 | 19), // Visa, Visa/Dankort 4571, Elo's Visa-range BINs
        5 => {
            ((51..=55).contains(&p2) && len == 16) // Mastercard
                // Maestro 50 and 56–58 (5018, 5020, 5038, 5893), Dankort 5019, Verve 5060–5079,
                // RuPay 508, Elo 509.
                || ((p2 == 50 || (56..=58).contains(&p2)) && maestro)
        }
        // Discover 6011, 644–649 and 65 (Troy and RuPay share 65), RuPay 60, UnionPay 62,
        // Verve 650002–650027; Maestro, Laser and Solo 63xx and 67xx, InterPayment 636,
        // InstaPayment 637–639.
        6 => (matches!(p2, 60 | 62 | 64 | 65) && long) || (matches!(p2, 63 | 67) && maestro),
        8 => (p2 == 81 || p2 == 82) && len == 16, // RuPay
        9 => p4 == 9792 && len == 16,             // Troy
        _ => false,
    }
}

pub(super) fn luhn(d: &[u8]) -> bool {
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            let x = u32::from(x);
            if i & 1 == 1 {
                let y = x * 2;
                if y > 9 { y - 9 } else { y }
            } else {
                x
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

#[cfg(test)]
mod tests {
    use crate::pii::{detect, PiiKind};

    fn cards(text: &str) -> Vec<&str> {
        detect(text).into_iter().filter(|m| m.kind == PiiKind::CreditCard).map(|m| &text[m.start..m.end]).collect()
    }

    #[test]
    fn finds_each_issuer() {
        for n in [
            "4111111111111111",    // Visa
            "4111 1111 1111 1111", // Visa grouped
            "4012-8888-8888-1881", // Visa dashes
            "5555 5555 5555 4444", // Mastercard
            "2223003122003222",    // Mastercard 2-series
            "378282246310005",     // Amex
            "3782 822463 10005",   // Amex 4-6-5
            "6011111111111117",    // Discover
            "3530111333300000",    // JCB
            "30569309025904",      // Diners
            "6200000000000005",    // UnionPay
            "5019717010103742",    // Dankort
            "6759649826438453",    // Maestro UK
            "675964982648",        // Maestro, 12 digits
            "135412345678911",     // UATP
            "2200123456789019",    // Mir
            "6521123456789012",    // RuPay
            "8112345678901239",    // RuPay 81
            "5061123456789010",    // Verve
            "9792123456789018",    // Troy
            "5090123456789015",    // Elo
            "6361234567890129",    // InterPayment
        ] {
            let text = format!("pay with {n} today");
            assert_eq!(cards(&text), vec![n], "{n}");
        }
    }

    #[test]
    fn rejects_luhn_failures_and_unknown_issuers() {
        assert!(cards("pay with 4111111111111112 today").is_empty());
        assert!(cards("id 1234567812345670 ok").is_empty()); // Luhn-valid, no issuer starts with 1
        assert!(cards("amex 371449635398432 x").is_empty()); // Amex prefix, Luhn fails
        assert!(cards("5112345678901234").is_empty()); // Mastercard prefix, Luhn fails
    }

    fn confidence(text: &str) -> f32 {
        detect(text).into_iter().find(|m| m.kind == PiiKind::CreditCard).map_or(0.0, |m| m.confidence)
    }

    #[test]
    fn card_words_decide_the_confidence() {
        for text in [
            "card 4111 1111 1111 1111",
            "Visa: 4111111111111111",
            "Kreditkarte 5555 5555 5555 4444 bitte belasten",
            "numéro de carte 4012 8888 8888 1881",
            "tarjeta de crédito 378282246310005",
            "4111 1111 1111 1111 exp 12/27",
            "4111111111111111, CVV 123",
            "cc=5569-3719-5562-7994",
            "ccn: 4111111111111111",
            "Номер карты: 4111 1111 1111 1111",
            "信用卡号 4111111111111111",
            "カード番号 4111-1111-1111-1111",
            "카드 번호 5555 5555 5555 4444",
            "رقم البطاقة 4111 1111 1111 1111",
        ] {
            assert!(confidence(text) >= 0.95, "{text}");
        }
        for text in [
            "Compute the 62nd Fibonacci number: 4052739537881",
            "the sum is 4111111111111111",
            "trace id 6011111111111117 in the log",
            "订单号 4111111111111111",
        ] {
            let c = confidence(text);
            assert!(c > 0.0 && c < 0.4, "{text}: {c}");
        }
        // Printed in a card's groups, a number is reported without a card word.
        for text in ["order total 4111 1111 1111 1111 units", "Номер заказа 4111-1111-1111-1111"] {
            assert!((confidence(text) - 0.6).abs() < 1e-6, "{text}");
        }
    }

    #[test]
    fn new_ranges_need_their_own_lengths() {
        assert!(cards("card 1354123456782").is_empty()); // UATP prefix, 13 digits
        assert!(cards("card 2205123456789014").is_empty()); // past Mir's 2200–2204
        assert!(cards("card 9791123456789019").is_empty()); // not Troy's 9792
        assert!(cards("card 6112345678901233").is_empty()); // 61: no issuer
        assert!(cards("card 7012345678901232").is_empty()); // 7: no issuer
    }

    #[test]
    fn rejects_inconsistent_or_odd_grouping() {
        assert!(cards("4111 1111-1111 1111").is_empty());
        assert!(cards("41 111111 11111111").is_empty());
    }

    #[test]
    fn rejects_isbn_and_longer_numbers() {
        assert!(cards("ISBN 978-3-16-148410-0").is_empty());
        assert!(cards("ISBN 9783161484100").is_empty());
        assert!(cards("41111111111111111111").is_empty());
        assert!(cards("x4111111111111111").is_empty());
        assert!(cards("550e8400-e29b-41d4-a716-446655440000").is_empty());
    }

    #[test]
    fn byte_offsets_after_non_ascii() {
        let text = "Zahlung für Müller: 4111 1111 1111 1111 ✓";
        let m = detect(text);
        assert_eq!(m.len(), 1);
        assert_eq!(&text[m[0].start..m[0].end], "4111 1111 1111 1111");
        assert_eq!(m[0].start, "Zahlung für Müller: ".len());
    }
}
