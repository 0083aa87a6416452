//! A string-keyed map that keeps its entries in recency order, every operation O(1): a
//! `HashMap` from key to slot and a doubly-linked list threaded through a slab of slots by
//! index (no unsafe, no `Rc`). Shared by the cache and the rate limiter; it knows nothing
//! about time or sizes, its owners decide what to evict.

use std::collections::HashMap;
use std::sync::Arc;

/// A slot index. `u32` keeps nodes small; four billion entries is far past any memory bound.
pub(crate) type Slot = u32;
const NIL: Slot = Slot::MAX;

struct Node<V> {
    /// Shared with the index so an evicted slot can find its own map entry.
    key: Arc<str>,
    value: V,
    /// Towards the most recently used end.
    prev: Slot,
    /// Towards the least recently used end.
    next: Slot,
}

pub(crate) struct LruMap<V> {
    // std's SipHash on purpose: keys come from callers (user ids, client-chosen cache keys),
    // so a predictable hasher would let them force collisions.
    index: HashMap<Arc<str>, Slot>,
    slots: Vec<Option<Node<V>>>,
    free: Vec<Slot>,
    /// Most recently used.
    head: Slot,
    /// Least recently used.
    tail: Slot,
}

impl<V> LruMap<V> {
    pub(crate) fn new() -> Self {
        LruMap {
            index: HashMap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            head: NIL,
            tail: NIL,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }

    pub(crate) fn find(&self, key: &str) -> Option<Slot> {
        self.index.get(key).copied()
    }

    pub(crate) fn key(&self, slot: Slot) -> &str {
        &self.node(slot).key
    }

    pub(crate) fn value(&self, slot: Slot) -> &V {
        &self.node(slot).value
    }

    pub(crate) fn value_mut(&mut self, slot: Slot) -> &mut V {
        &mut self.node_mut(slot).value
    }

    /// The least recently used slot.
    pub(crate) fn lru(&self) -> Option<Slot> {
        (self.tail != NIL).then_some(self.tail)
    }

    /// The slot used just more recently than `slot`, walking from the LRU end.
    pub(crate) fn more_recent(&self, slot: Slot) -> Option<Slot> {
        let prev = self.node(slot).prev;
        (prev != NIL).then_some(prev)
    }

    /// Marks `slot` most recently used.
    pub(crate) fn touch(&mut self, slot: Slot) {
        if self.head != slot {
            self.unlink(slot);
            self.push_front(slot);
        }
    }

    /// Inserts a key that is not present, as the most recently used.
    pub(crate) fn insert(&mut self, key: &str, value: V) -> Slot {
        debug_assert!(self.find(key).is_none(), "insert of a present key");
        let key: Arc<str> = Arc::from(key);
        let node = Node {
            key: Arc::clone(&key),
            value,
            prev: NIL,
            next: NIL,
        };
        let slot = if let Some(slot) = self.free.pop() {
            self.slots[slot as usize] = Some(node);
            slot
        } else {
            let slot = Slot::try_from(self.slots.len()).expect("fewer than u32::MAX entries");
            self.slots.push(Some(node));
            slot
        };
        self.index.insert(key, slot);
        self.push_front(slot);
        slot
    }

    pub(crate) fn remove(&mut self, slot: Slot) -> V {
        self.unlink(slot);
        let node = self.slots[slot as usize]
            .take()
            .expect("remove of a live slot");
        self.index.remove(&node.key);
        self.free.push(slot);
        node.value
    }

    /// Removes every entry for which `drop` says true; O(n). Returns how many went.
    pub(crate) fn remove_where(&mut self, mut drop: impl FnMut(&str, &V) -> bool) -> usize {
        let mut removed = 0;
        let mut cursor = self.tail;
        while cursor != NIL {
            let next = self.node(cursor).prev;
            let node = self.node(cursor);
            if drop(&node.key, &node.value) {
                self.remove(cursor);
                removed += 1;
            }
            cursor = next;
        }
        removed
    }

    pub(crate) fn clear(&mut self) {
        *self = Self::new();
    }

    fn node(&self, slot: Slot) -> &Node<V> {
        self.slots[slot as usize].as_ref().expect("live slot")
    }

    fn node_mut(&mut self, slot: Slot) -> &mut Node<V> {
        self.slots[slot as usize].as_mut().expect("live slot")
    }

    fn unlink(&mut self, slot: Slot) {
        let (prev, next) = {
            let node = self.node(slot);
            (node.prev, node.next)
        };
        if prev == NIL {
            self.head = next;
        } else {
            self.node_mut(prev).next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            self.node_mut(next).prev = prev;
        }
        let node = self.node_mut(slot);
        node.prev = NIL;
        node.next = NIL;
    }

    fn push_front(&mut self, slot: Slot) {
        let old_head = self.head;
        {
            let node = self.node_mut(slot);
            node.prev = NIL;
            node.next = old_head;
        }
        if old_head == NIL {
            self.tail = slot;
        } else {
            self.node_mut(old_head).prev = slot;
        }
        self.head = slot;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order<V>(map: &LruMap<V>) -> Vec<String> {
        let mut keys = Vec::new();
        let mut cursor = map.lru();
        while let Some(slot) = cursor {
            keys.push(map.key(slot).to_string());
            cursor = map.more_recent(slot);
        }
        keys
    }

    #[test]
    fn keeps_recency_order_through_touch_remove_and_reuse() {
        let mut map = LruMap::new();
        let a = map.insert("a", 1);
        let b = map.insert("b", 2);
        map.insert("c", 3);
        assert_eq!(order(&map), ["a", "b", "c"]);
        map.touch(a);
        assert_eq!(order(&map), ["b", "c", "a"]);
        assert_eq!(map.remove(b), 2);
        assert_eq!(order(&map), ["c", "a"]);
        assert_eq!(map.find("b"), None);
        let d = map.insert("d", 4);
        assert_eq!(d, b, "freed slot is reused");
        assert_eq!(order(&map), ["c", "a", "d"]);
        assert_eq!(map.remove_where(|_, v| *v == 3), 1);
        assert_eq!(order(&map), ["a", "d"]);
        assert_eq!(map.len(), 2);
        *map.value_mut(a) += 10;
        assert_eq!(*map.value(map.find("a").unwrap()), 11);
    }
}
