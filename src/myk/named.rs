//! Names for what a scenario leaves unnamed (the items a group carries, whom its relationship
//! points are toward, a weakness's specific item, a core's object), drawn the same for the same
//! scenario. It lives with the game, not the renderers: the weak points' clue texts
//! (`myk::weak_story`) name the same things the booklet does.

use crate::myk::model::{Map, Scenario};
use crate::tables::Tables;

/// Names what the scenario leaves unnamed (the items a group carries, whom its relationship
/// points are toward, a weakness's specific item), from the item tables, the same for the same
/// scenario: each pick has its own stream of the seed and the room.
pub struct Named<'a> {
    seed: u64,
    key: String,
    court: u32,
    tables: &'a Tables,
}

impl<'a> Named<'a> {
    pub fn new(s: &Scenario, m: &Map, r: &crate::myk::model::Room, tables: &'a Tables) -> Named<'a> {
        Named { seed: s.seed, key: format!("name/map{}/{}", m.index, r.id), court: s.court.size, tables }
    }

    fn dice(&self, what: &str) -> crate::dice::Dice {
        crate::dice::Dice::new(self.seed).child(&self.key).child(what)
    }

    /// `n` different items (Rare Items when `rare`), named.
    pub fn items(&self, what: &str, n: u32, rare: bool) -> Vec<String> {
        let mut d = self.dice(what);
        let mut out: Vec<String> = Vec::new();
        for _ in 0..n * 4 {
            if out.len() as u32 == n {
                break;
            }
            let item = crate::myk::story::pick_item(self.tables, rare, &mut d);
            if !out.contains(&item) {
                out.push(item);
            }
        }
        out
    }

    /// A court member (1-based) for `what`.
    pub fn member(&self, what: &str) -> u32 {
        self.dice(what).between(1, self.court.max(1))
    }

    /// A material the item tables name.
    pub fn material(&self, what: &str) -> String {
        self.dice(what).choose(crate::myk::story::materials(self.tables)).cloned().unwrap_or_default()
    }
}
