//! What a step sends of a surface: in official mode every reachable component, in changed-only
//! mode those the renderer does not have yet, each with the placeholders it shows, as one
//! component update; or nothing, when the catalog rejects the step.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde_json::Value;

use super::{Comp, Placeholder, Surface};
use crate::hash::QuickMap;
use crate::official::Emission;
use crate::official::catalog::Version;
use crate::official::legacy::progressive::form::{Form, Out, compact_json};
use crate::official::legacy::progressive::lists::{FlushLists, emptied};
use crate::official::legacy::progressive::seen::Seen;

impl Surface {
    /// The component update a step sends for surface `sid`, if any, after the emitted forms of
    /// `lists.candidates` were brought up to date (`changed` when one of them has something
    /// not put in a message yet); marks what it sends as sent. The lists are handed back
    /// empty.
    pub(in crate::official::legacy::progressive) fn step_message<M: Form>(
        &mut self,
        sid: &str,
        mode: Emission,
        version: Version,
        changed: bool,
        lists: &mut FlushLists,
        out: &mut Out<M>,
    ) -> Option<M> {
        // What to send: everything reachable, or what the renderer does not have yet.
        if self.sid_json.is_empty() {
            self.sid_json = compact_json(&Value::from(sid));
        }
        let Surface {
            reach,
            comps,
            checks,
            loading_ids,
            pending,
            sid_json,
            ..
        } = self;
        let mut step = Step::take(lists);
        // The message to send, if any (the lists are handed back after it is made).
        let message = 'send: {
            // Each component to send is picked in the same look-up that marks it sent (sent as
            // text, its text is made below unless it is made already for its version).
            let fresh = match mode {
                Emission::Official if changed => {
                    step.pick_all(reach, comps);
                    Vec::new()
                }
                Emission::Official => break 'send None,
                Emission::ChangedOnly => {
                    let mut all = std::mem::take(pending);
                    all.extend(lists.candidates.drain(..));
                    step.pick_unsent(all, reach, comps)
                }
            };
            if step.picked.is_empty() {
                break 'send None;
            }
            // First whether the step is accepted and which placeholders it shows, so that the
            // message is made only when it is sent.
            let valid = checks.invalid.iter().all(|id| !reach.contains_key(id));
            let shown_ok = step.gather::<M>(mode, reach, comps, *loading_ids);
            let accepted = valid && shown_ok;
            let message = accepted.then(|| step.message(version, (sid, sid_json.as_str()), out));
            if mode == Emission::ChangedOnly {
                if !accepted {
                    pending.extend(fresh);
                    break 'send None;
                }
                for comp in &step.picked {
                    comp.yielded.store(comp.version, Ordering::Relaxed);
                }
            }
            step.mark_new_placeholders_sent();
            message
        };
        lists.candidates.clear();
        step.give_back(lists);
        message
    }
}

impl Surface {
    /// Counts the components in `sent` (as a message passed on wrote them) as sent, each whose
    /// emitted form is the one written there, reachable and showing no placeholder; returns
    /// whether one of `candidates` still has something not put in a message.
    pub(in crate::official::legacy::progressive) fn count_as_sent(
        &mut self,
        sent: &[Value],
        candidates: &[String],
    ) -> bool {
        for value in sent {
            let Some(id) = value.get("id").and_then(Value::as_str) else {
                continue;
            };
            let comp = self.comps.get(id).filter(|c| {
                self.reach.contains_key(id) && c.shown.is_empty() && c.emitted() == value
            });
            if let Some(comp) = comp {
                comp.yielded.store(comp.version, Ordering::Relaxed);
            }
        }
        candidates
            .iter()
            .any(|id| self.comps.get(id).is_some_and(|c| c.unsent()))
    }
}

/// The lists one step fills, taken from [`FlushLists`] and handed back emptied.
struct Step<'a> {
    /// The components it sends.
    picked: Vec<&'a Comp>,
    /// The placeholders it sends for the first time.
    new_placeholders: Vec<&'a Placeholder>,
    /// The placeholders it sends.
    shown: Vec<&'a Placeholder>,
    /// What the message is made of: each component's emitted form and its JSON text.
    items: Vec<(&'a Value, &'a str)>,
}

impl<'a> Step<'a> {
    /// The lists of `lists`, empty.
    fn take(lists: &mut FlushLists) -> Step<'a> {
        Step {
            picked: std::mem::take(&mut lists.picked),
            new_placeholders: std::mem::take(&mut lists.new_placeholders),
            shown: std::mem::take(&mut lists.shown),
            items: std::mem::take(&mut lists.items),
        }
    }

    /// Hands the lists back to `lists`, emptied, their room kept.
    fn give_back(self, lists: &mut FlushLists) {
        lists.picked = emptied(self.picked);
        lists.new_placeholders = emptied(self.new_placeholders);
        lists.shown = emptied(self.shown);
        lists.items = emptied(self.items);
    }

    /// The component update of surface `(sid, sid_json)` (its id and its id as JSON text)
    /// that sends what was gathered, written over a message `out` has to reuse, if any.
    fn message<M: Form>(&mut self, version: Version, ids: (&str, &str), out: &mut Out<M>) -> M {
        self.items.extend(
            self.shown
                .iter()
                .map(|p| (&p.made, if M::TEXT { p.text() } else { "" })),
        );
        let reuse = out.reuse();
        M::components(version, ids, &self.items, reuse)
    }

    /// Marks the placeholders sent for the first time as sent.
    fn mark_new_placeholders_sent(&self) {
        for made in &self.new_placeholders {
            made.yielded.store(true, Ordering::Relaxed);
        }
    }

    /// Official mode: picks every reachable component, marked sent (official mode counts a
    /// rejected step as sent, as the reference does).
    fn pick_all(
        &mut self,
        reach: &BTreeMap<String, usize>,
        comps: &'a QuickMap<String, Box<Comp>>,
    ) {
        self.picked.reserve(reach.len());
        for id in reach.keys() {
            if let Some(comp) = comps.get(id) {
                comp.yielded.store(comp.version, Ordering::Relaxed);
                self.picked.push(&**comp);
            }
        }
    }

    /// Changed-only mode: picks those of `ids` that are reachable and not sent yet (in the
    /// look-up that finds them), and returns their ids.
    fn pick_unsent(
        &mut self,
        ids: impl IntoIterator<Item = String>,
        reach: &BTreeMap<String, usize>,
        comps: &'a QuickMap<String, Box<Comp>>,
    ) -> Vec<String> {
        let mut fresh = Vec::new();
        for id in ids {
            let unsent = comps
                .get(&id)
                .filter(|c| c.yielded.load(Ordering::Relaxed) != c.version);
            if let Some(comp) = unsent.filter(|_| reach.contains_key(&id)) {
                self.picked.push(&**comp);
                fresh.push(id);
            }
        }
        fresh
    }

    /// Lists what the picked components are sent as, and the placeholders they show (all of
    /// them in official mode, the new ones in changed-only mode), each once; false when the
    /// catalog rejects one of those placeholders or one takes the id of a reachable component
    /// (with room for every placeholder shown, so that neither list grows).
    fn gather<M: Form>(
        &mut self,
        mode: Emission,
        reach: &BTreeMap<String, usize>,
        comps: &QuickMap<String, Box<Comp>>,
        loading_ids: bool,
    ) -> bool {
        let room = self.picked.iter().map(|c| c.shown.len()).sum::<usize>();
        let mut accepted = true;
        let mut seen = Seen::default();
        self.shown.reserve(room);
        self.items.reserve(self.picked.len() + room);
        for &comp in &self.picked {
            self.items
                .push((comp.emitted(), if M::TEXT { comp.text() } else { "" }));
            for made in comp.shown.iter().map(Arc::as_ref) {
                let pid = made.id.as_str();
                if !seen.insert(pid) {
                    continue;
                }
                accepted &=
                    made.ok && !(loading_ids && comps.contains_key(pid) && reach.contains_key(pid));
                let new = !made.yielded.load(Ordering::Relaxed);
                if new {
                    self.new_placeholders.push(made);
                }
                if mode == Emission::Official || new {
                    self.shown.push(made);
                }
            }
        }
        accepted
    }
}
