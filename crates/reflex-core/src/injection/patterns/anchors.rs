//! For each trigger word, the rows it anchors (`starts`): where a hit of the word puts a
//! candidate start of each row, and the bytes that must lie before the word there.
//!
//! A row's literal may hold its anchor word past its first byte (`hey assistant` is anchored
//! by `assistant`, four bytes in); the trigger pass says nothing of the bytes before the word,
//! and the row searched at every `assistant` less four, five, six and ten bytes (`hi `,
//! `hey `, `dear `, `hello `, `attention `): on the attack bench text five searches that found
//! nothing, each ~200 instructions. Comparing the few bytes before the word with the literals'
//! costs less, and a start where none fits cannot match, since every match begins with one of
//! the literals.

use super::super::starts::begins_with;

/// For each trigger word, the rows it anchors and at which offset into their matches, all in
/// one list: word `w`'s are `list[at[w]..at[w + 1]]` (a hit reads two offsets, not a `Vec`
/// of its own elsewhere in memory).
pub(super) struct Anchors {
    at: Vec<u32>,
    /// (row, offset | lead << 8): `lead` is the entry's lead-ins in `leads`, or `NO_LEAD`; in
    /// the one entry, so a hit reads one list as before.
    list: Vec<(u16, u16)>,
    /// The bytes one of which lies before the word at a start of the row, for (row, offset)
    /// entries with an offset: the literals' bytes before the word (`hi ` of `hi assistant`).
    leads: Vec<Leads>,
}

/// The lead-ins of one entry: the byte strings one of which lies before the word.
pub(super) type Leads = Vec<Box<[u8]>>;

/// An entry whose start is not checked against the bytes before its word.
pub(super) const NO_LEAD: u16 = 0xff;
/// The most lead-ins an entry is checked against: more cost more than a search.
const MAX_LEADS: usize = 4;

impl Anchors {
    /// `of[w]`: the (row, offset, lead-ins) entries word `w` anchors.
    pub(super) fn new(of: &[Vec<(u16, u16, Leads)>]) -> Anchors {
        let mut at = Vec::with_capacity(of.len() + 1);
        let (mut list, mut leads) = (Vec::new(), Vec::<Leads>::new());
        for rows in of {
            at.push(list.len() as u32);
            for (row, offset, pre) in rows {
                // Literals are at most 64 bytes (`starts::prefixes`).
                assert!(*offset < 0x100, "an anchor offset past a byte");
                let k = match leads.iter().position(|l| l == pre) {
                    _ if *offset == 0 || pre.is_empty() || pre.len() > MAX_LEADS => NO_LEAD,
                    Some(k) => k as u16,
                    None if leads.len() < usize::from(NO_LEAD) => {
                        leads.push(pre.clone());
                        (leads.len() - 1) as u16
                    }
                    None => NO_LEAD,
                };
                list.push((*row, *offset | k << 8));
            }
        }
        at.push(list.len() as u32);
        Anchors { at, list, leads }
    }

    /// The (row, offset | lead << 8) entries word `w` anchors.
    pub(super) fn of(&self, w: u16) -> &[(u16, u16)] {
        let w = usize::from(w);
        &self.list[self.at[w] as usize..self.at[w + 1] as usize]
    }

    /// Whether `before` (the bytes between a start and its word's hit) is one of the lead-ins
    /// `k` (not `NO_LEAD`).
    pub(super) fn leads_in(&self, k: u16, before: &[u8]) -> bool {
        // Lead-ins are a few bytes: `==` called `bcmp` for each.
        self.leads[usize::from(k)].iter().any(|l| l.len() == before.len() && begins_with(before, l))
    }

    /// How many trigger words there are.
    pub(super) fn words(&self) -> usize {
        self.at.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::super::table;
    use super::NO_LEAD;

    /// A start whose bytes before its word are none of the entry's lead-ins has no match, on
    /// the corpus lines, the frozen test texts and their ROT13 forms; and such starts occur.
    #[test]
    fn no_match_starts_where_the_lead_in_differs() {
        let mut texts = super::super::test_texts();
        texts.push("note to the assistant: hey assistant, dear assistant: hi ai".into());
        let t = table();
        let (mut fitted, mut vetoed) = (0usize, 0usize);
        for text in super::super::search_forms(&texts) {
            let armed = t.arm(&text);
            for &(w, at) in &armed.hits {
                for &(row, packed) in t.anchors.of(w) {
                    let (offset, lead) = (packed & 0xff, packed >> 8);
                    let Some(s) = (at as usize).checked_sub(usize::from(offset)) else { continue };
                    if lead == NO_LEAD || s > text.len() {
                        continue;
                    }
                    let re = &t.rules[usize::from(row)].1;
                    let matches = re.find_iter(&text).any(|m| m.start() == s);
                    if t.anchors.leads_in(lead, &text.as_bytes()[s..at as usize]) {
                        fitted += 1;
                    } else {
                        assert!(!matches, "row {row} matches at {s} on {text:?}");
                        vetoed += 1;
                    }
                }
            }
        }
        assert!(fitted > 10 && vetoed > 10, "{fitted} fitted, {vetoed} vetoed");
    }
}
