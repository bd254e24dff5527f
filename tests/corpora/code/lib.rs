//! A key-value cache.
use std::collections::HashMap;
use std::fmt;

pub const CAPACITY: usize = 64;

/// A cached entry.
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: String,
    pub value: Vec<u8>,
}

/// Something that can be evicted.
pub trait Evict {
    fn evict(&mut self) -> Option<Entry>;
}

pub enum Policy {
    Lru,
    Fifo,
}

pub type Map = HashMap<String, Entry>;

pub struct Cache {
    map: Map,
    policy: Policy,
}

impl Cache {
    /// Make an empty cache.
    pub fn new(policy: Policy) -> Self {
        Cache { map: HashMap::new(), policy }
    }

    pub fn get(&self, key: &str) -> Option<&Entry> {
        self.map.get(&normalize(key))
    }
}

impl fmt::Display for Cache {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "cache({})", self.map.len())
    }
}

fn normalize(key: &str) -> String {
    key.trim().to_lowercase()
}
