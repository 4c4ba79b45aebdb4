//! A component of a surface as last seen and what was made of it, and the placeholder
//! components shown for the children that have not arrived.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde_json::Value;

use crate::official::catalog::Catalog;
use crate::official::legacy::partial_json::Slot;
use crate::official::legacy::progressive::component::Processed;
use crate::official::legacy::progressive::components::Cached;
use crate::official::legacy::progressive::form::compact_json;

/// A component as last seen, and what was made of it.
#[derive(Debug)]
pub(in crate::official::legacy::progressive) struct Comp {
    pub(super) value: Value,
    /// `children` / `explicitList` fields whose list was still open when this was taken.
    pub(super) open_lists: Vec<String>,
    /// The byte of the response where its latest writing begins (its `{`): where an error
    /// about it is placed.
    pub(super) at: u64,
    pub(super) seq: u64,
    /// Ids it refers to, as the catalog reads them.
    pub(super) refs: Vec<String>,
    /// `refs` as the reachability last followed them (kept up to date while reachable).
    pub(super) followed: Vec<String>,
    /// How many of the first `refs` are known to be those of `followed` (they stayed as they
    /// were since `followed` was made): when that covers `followed`, it starts `refs` without a
    /// look at their texts.
    pub(super) same_as_followed: usize,
    /// The form that is emitted (placeholders in, v0.8 paths made absolute) when it differs
    /// from `value`, or the form last emitted while `stale`; `None`: `value` itself.
    pub(super) processed: Option<Value>,
    /// `processed` is out of date.
    pub(super) stale: bool,
    /// Placeholder ids `processed` refers to, in order.
    pub(super) placeholders: Vec<String>,
    /// The placeholder components of `placeholders`, in the same order.
    pub(super) shown: Vec<Arc<Placeholder>>,
    /// The missing child ids behind `placeholders` (not the `loading_children_` ones).
    pub(super) missing: Vec<String>,
    /// A form made before and no longer needed, whose allocations the next one reuses.
    pub(super) spare: Option<Value>,
    /// Bumped whenever `processed` changes (starts at 0: never processed).
    pub(super) version: u64,
    /// `value` was brought up to date in place since the last refresh (see
    /// [`ProgressiveParser::sniff_component`](crate::official::legacy::progressive::ProgressiveParser)),
    /// so the form last emitted is no longer at hand to compare with: the next refresh counts
    /// it as changed.
    pub(super) edited: bool,
    /// The `version` last put in a message (official mode: sent or rejected, as the reference
    /// counts it; changed-only mode: sent). Settable through a shared reference, so that a
    /// step marks what it picks in the same look-up that reads it (an atomic rather than a
    /// `Cell`, which would make the parser not `Sync`; only `&mut self` methods touch it).
    pub(super) yielded: AtomicU64,
    /// The emitted form as JSON text, made when first sent as text
    /// ([`Form::TEXT`](crate::official::legacy::progressive::form::Form::TEXT)) and dropped whenever
    /// `version` moves (through a shared reference, so that a step makes it in the same look-up
    /// that picks the component).
    pub(super) text: OnceLock<String>,
    /// How many child ids the emitted form was made from (see
    /// [`Processed::calls`](crate::official::legacy::progressive::component::Processed::calls)).
    pub(super) child_calls: usize,
    /// The child id added in place since the last refresh, when that is all that changed (see
    /// [`Appended`]).
    pub(super) appended: Option<Appended>,
    /// All that changed in place since the last refresh is a string the catalog check cannot
    /// tell apart ([`Validator::free_at`](crate::official::validator::Validator::free_at)): the
    /// verdict it gave then still holds.
    pub(super) free_edit: bool,
    /// All that happened since the last refresh is that children it names arrived: its
    /// emitted form can differ from the one before only in child ids.
    pub(super) children_came: bool,
    /// Whether every child id of `value` sits where the catalog check cannot tell ids apart
    /// ([`Validator::free_under`](crate::official::validator::Validator::free_under)), once
    /// looked up; dropped when `value` changes shape.
    pub(super) child_ids_free: Option<bool>,
}

/// A child id added at the end of a list of children of a stored component, in place (see
/// `ProgressiveParser::append_in_place`): the next refresh brings the emitted form up to date
/// there ([`append_child`](crate::official::legacy::progressive::component::append_child)) instead of
/// making it again.
#[derive(Debug)]
pub(super) struct Appended {
    /// Where the list is in the component (and in its emitted form).
    pub(super) path: Vec<Slot>,
    pub(super) child: String,
}

/// What happened to a component since its last refresh, besides what made it stale.
#[derive(Debug, Clone, Copy)]
pub(super) struct Since {
    /// See [`Comp::edited`].
    pub(super) edited: bool,
    /// See [`Comp::free_edit`].
    pub(super) free_edit: bool,
    /// See [`Comp::children_came`].
    pub(super) children_came: bool,
}

impl Comp {
    /// A component stored for the first time, as insertion `seq`, referring to `refs`.
    pub(super) fn new(cached: Cached, seq: u64, refs: Vec<String>) -> Box<Comp> {
        Box::new(Comp {
            value: cached.value,
            open_lists: cached.open_lists,
            at: cached.at,
            seq,
            refs,
            followed: Vec::new(),
            same_as_followed: 0,
            processed: None,
            spare: None,
            stale: true,
            placeholders: Vec::new(),
            shown: Vec::new(),
            missing: Vec::new(),
            version: 0,
            edited: false,
            yielded: AtomicU64::new(0),
            text: OnceLock::new(),
            child_calls: 0,
            appended: None,
            free_edit: false,
            children_came: false,
            child_ids_free: None,
        })
    }

    /// Takes the component as seen again: its first `kept` references stay, `new_refs` follow
    /// them. Returns its insertion number.
    pub(super) fn seen_again(&mut self, cached: Cached, kept: usize, new_refs: Vec<String>) -> u64 {
        // Keep the form last made until it is made again (it is compared with the next).
        let old = std::mem::replace(&mut self.value, cached.value);
        self.child_ids_free = None;
        if self.processed.is_none() && self.version > 0 {
            self.processed = Some(old);
        }
        self.open_lists = cached.open_lists;
        self.at = cached.at;
        self.same_as_followed = self.same_as_followed.min(kept);
        self.refs.truncate(kept);
        self.refs.extend(new_refs);
        self.mark_stale();
        self.seq
    }

    /// The component as last seen, when no list of children was open in it then (it is
    /// finished as far as anything shown goes).
    pub(in crate::official::legacy::progressive) fn closed_value(&self) -> Option<&Value> {
        self.open_lists.is_empty().then_some(&self.value)
    }

    /// Where its latest writing begins in the response.
    pub(in crate::official::legacy::progressive) fn at(&self) -> u64 {
        self.at
    }

    /// Adds the string `new` at the end of the list `list_of` finds in the component, which
    /// holds `items` items, and to its references when the catalog reads it as one: what
    /// storing the component again would do when that is all it gained. False, changing
    /// nothing that matters, when the list is not found or has another length, or the
    /// references would change otherwise.
    pub(in crate::official::legacy::progressive) fn append_child_id(
        &mut self,
        catalog: &Catalog,
        list_of: impl Fn(&mut Value) -> Option<&mut Value>,
        items: usize,
        new: &str,
    ) -> bool {
        match list_of(&mut self.value) {
            Some(Value::Array(list)) if list.len() == items => {
                list.push(Value::String(new.to_owned()));
                self.child_ids_free = None;
            }
            _ => return false,
        }
        // The references known, then at most the new string.
        let mut known = self.refs.iter();
        let (mut same, mut added) = (true, false);
        catalog.for_each_reference(&self.value, |r, _| match known.next() {
            Some(k) => same &= k == r,
            None => {
                same &= !added && r == new;
                added = true;
            }
        });
        if !same || known.next().is_some() {
            if let Some(Value::Array(list)) = list_of(&mut self.value) {
                list.pop();
            }
            return false;
        }
        if added {
            self.refs.push(new.to_owned());
        }
        self.stale = true;
        self.edited = true;
        true
    }

    /// After [`Comp::append_child_id`]: whether the added string is free for the catalog check,
    /// and where the list is when it is a list of children (its emitted form can take the id
    /// in place too).
    pub(in crate::official::legacy::progressive) fn note_appended(
        &mut self,
        free: bool,
        children_at: Option<Vec<Slot>>,
        child: &str,
    ) {
        self.free_edit = free;
        self.appended = children_at.map(|path| Appended {
            path,
            child: child.to_owned(),
        });
    }

    /// Puts `text` in the string `slot_of` finds in the component (its cut string, grown):
    /// what storing the component again would do when that is all that changed. `Some(true)`
    /// when it grew, `Some(false)` when it was that text already, `None`, changing nothing,
    /// when the string is not found or the new text would change what the component refers to.
    pub(in crate::official::legacy::progressive) fn grow_text(
        &mut self,
        catalog: &Catalog,
        slot_of: impl Fn(&mut Value) -> Option<&mut Value>,
        text: String,
    ) -> Option<bool> {
        let Some(Value::String(slot)) = slot_of(&mut self.value) else {
            return None;
        };
        if *slot == text {
            return Some(false);
        }
        let old = std::mem::replace(slot, text);
        let mut refs = self.refs.iter();
        let mut same_refs = true;
        catalog.for_each_reference(&self.value, |r, _| {
            same_refs &= refs.next().is_some_and(|known| known == r);
        });
        if !same_refs || refs.next().is_some() {
            if let Some(Value::String(slot)) = slot_of(&mut self.value) {
                *slot = old;
            }
            return None;
        }
        Some(true)
    }

    /// After [`Comp::grow_text`] grew it: whether the grown string is free for the catalog
    /// check.
    pub(in crate::official::legacy::progressive) fn note_grown(&mut self, free: bool) {
        self.mark_stale();
        self.edited = true;
        self.free_edit = free;
    }

    /// Takes what a refresh made: `made` and the placeholder components it `shown`, and `form`,
    /// the new emitted form (`None`: the form before, which stays) with a form to keep as spare;
    /// `spare_form` is the buffer the form was to be made in, if it was not used.
    pub(super) fn keep_form(
        &mut self,
        made: Processed,
        shown: Vec<Arc<Placeholder>>,
        (processed, spare): (Option<Value>, Option<Value>),
        spare_form: Option<Value>,
    ) {
        let Processed {
            placeholders,
            missing,
            calls,
            rewritten,
            ..
        } = made;
        self.stale = false;
        self.placeholders = placeholders;
        self.shown = shown;
        self.missing = missing;
        self.child_calls = calls;
        match processed {
            Some(processed) => {
                debug_assert_eq!(rewritten, processed != self.value);
                let (kept, spare) = if rewritten {
                    (Some(processed), None)
                } else {
                    (None, Some(processed))
                };
                self.spare = std::mem::replace(&mut self.processed, kept)
                    .or(spare)
                    .or(spare_form);
                self.bump();
            }
            None => {
                self.spare = spare.or(spare_form);
                // Unchanged: keep the form, unless it is the component itself.
                if self.processed.as_ref() == Some(&self.value) {
                    self.spare = self.processed.take();
                }
            }
        }
    }

    /// What happened since the last refresh, taken (and forgotten) by the refresh.
    pub(super) fn take_since(&mut self) -> Since {
        Since {
            edited: std::mem::take(&mut self.edited),
            free_edit: std::mem::take(&mut self.free_edit),
            children_came: std::mem::take(&mut self.children_came),
        }
    }

    /// The emitted form: `processed`, or `value` itself.
    pub(super) fn emitted(&self) -> &Value {
        self.processed.as_ref().unwrap_or(&self.value)
    }

    /// The emitted form as JSON text, made if it is not made yet for this `version`.
    pub(super) fn text(&self) -> &str {
        self.text.get_or_init(|| compact_json(self.emitted()))
    }

    /// It has something not put in a message yet: its emitted form or a placeholder it shows.
    pub(super) fn unsent(&self) -> bool {
        self.yielded.load(Ordering::Relaxed) != self.version
            || self
                .shown
                .iter()
                .any(|p| !p.yielded.load(Ordering::Relaxed))
    }

    /// Something changed that the next refresh looks at whole.
    pub(super) fn mark_stale(&mut self) {
        self.stale = true;
        self.appended = None;
        self.free_edit = false;
        self.children_came = false;
    }

    /// The emitted form changed: a new `version`, whose text is made when asked for.
    pub(super) fn bump(&mut self) {
        self.version += 1;
        self.text.take();
    }
}

/// A placeholder component, as made for the catalog check.
#[derive(Debug)]
pub(in crate::official::legacy::progressive) struct Placeholder {
    /// Its id (`loading_` and the missing child's id).
    pub(super) id: String,
    /// The catalog accepts it.
    pub(super) ok: bool,
    pub(super) made: Value,
    /// It was put in a message (settable through a shared reference, by the step that puts it
    /// there).
    pub(super) yielded: AtomicBool,
    /// `made` as JSON text, made when first sent as text (a placeholder never changes).
    pub(super) text: OnceLock<String>,
}

impl Placeholder {
    /// Placeholder `id`, made as `made`, which the catalog accepts when `ok`.
    pub(super) fn new(id: String, ok: bool, made: Value) -> Placeholder {
        Placeholder {
            id,
            ok,
            made,
            yielded: AtomicBool::new(false),
            text: OnceLock::new(),
        }
    }

    /// `made` as JSON text.
    pub(super) fn text(&self) -> &str {
        self.text.get_or_init(|| compact_json(&self.made))
    }
}
