//! The component being written: a look at it after each piece of block text, stored on its
//! surface as a snapshot of the builder's stack, or brought up to date in place when all it
//! gained since is a longer cut string or one more child id (see [`Writing`]).

use serde_json::Value;

use super::ProgressiveParser;
use super::component::CHILD_FIELDS;
use super::heal::heal_component_string;
use crate::official::legacy::partial_json::{Body, Frame, Stack};

/// The component being written, stored from the builder's stack when its shape
/// ([`PartialJson::shape`](crate::official::legacy::partial_json::PartialJson::shape)) was `shape`:
/// while the shape stands still, only its cut string grew, and the stored component is brought
/// up to date in place rather than copied from the stack again; likewise while the list it was
/// writing only gains strings (see [`Writing::list`]).
///
/// Kept from one component to the next, so that its strings are allocated once.
#[derive(Debug)]
pub(super) struct Writing {
    /// It describes a stored component (else the rest is stale).
    pub(super) valid: bool,
    shape: u64,
    sid: String,
    id: String,
    /// The list open at the top of the stack when it was stored, if any: while only strings
    /// are added to it, each is added to the stored component in place.
    list: Option<OpenList>,
    /// Whether the cut string of `shape`, grown in place, is free for the catalog check
    /// ([`Validator::free_at`](crate::official::validator::Validator::free_at)), once looked up
    /// (its place stays while `shape` does).
    text_free: Option<bool>,
    /// Cut strings and lists of children may grow in place; off only to test those paths
    /// against making a snapshot every time.
    pub(super) in_place: bool,
    /// How often a cut string grew in place (tests only).
    #[cfg(test)]
    pub(super) grown: usize,
    /// How often a list item was added in place (tests only).
    #[cfg(test)]
    pub(super) appended: usize,
}

/// The list being written when the component was stored: its frame (by [`Frame::serial`] and
/// the stack's height) and how many items it had.
#[derive(Debug, Clone, Copy)]
struct OpenList {
    serial: u64,
    height: usize,
    items: usize,
    /// Whether a string added to it is free for the catalog check
    /// ([`Validator::free_at`](crate::official::validator::Validator::free_at)), once looked up.
    free: Option<bool>,
}

impl Writing {
    /// Nothing stored yet; in place growth on.
    pub(super) fn new() -> Writing {
        Writing {
            valid: false,
            shape: 0,
            sid: String::new(),
            id: String::new(),
            list: None,
            text_free: None,
            in_place: true,
            #[cfg(test)]
            grown: 0,
            #[cfg(test)]
            appended: 0,
        }
    }

    /// The component was stored on surface `sid` from `stack`, whose shape was `shape`.
    fn stored(&mut self, sid: &str, shape: u64, stack: &Stack) {
        self.sid.clear();
        self.sid.push_str(sid);
        (self.valid, self.shape, self.text_free) = (true, shape, None);
        self.list = match stack.last() {
            Some(Frame {
                body: Body::Array(items),
                serial,
                ..
            }) => Some(OpenList {
                serial: *serial,
                height: stack.len(),
                items: items.len(),
                free: None,
            }),
            _ => None,
        };
    }
}

impl<F> ProgressiveParser<F> {
    /// Rebuilds the component being written, if any, and caches it.
    pub(super) fn sniff_component(&mut self) {
        let Some(index) = self.json.stack.iter().enumerate().position(|(i, _)| {
            i >= 1
                && self
                    .json
                    .stack
                    .boxed()
                    .get(..=i)
                    .is_some_and(is_component_frame)
        }) else {
            return;
        };
        // The same shape: the same stack, so the same component at the same `index`.
        let shape = self.json.shape;
        if self.writing.in_place && self.writing.valid && self.update_in_place(index, shape) {
            return;
        }
        self.writing.valid = false;
        let cut = self
            .json
            .cut_string(heal_component_string)
            .map(|(_, text)| text);
        if !self.may_be_usable(index, cut.is_some()) {
            return;
        }
        let snapshot = self.json.snapshot_with(index, cut);
        let Some(snapshot) = snapshot else { return };
        let at = self.json.stack.get(index).map_or(0, |f| f.at);
        let open_lists = open_child_lists(&self.json.stack, index);
        let w = &mut self.writing;
        w.id.clear();
        w.id.push_str(
            snapshot
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default(),
        );
        if self.take_component(snapshot, open_lists, at) {
            if let Some(sid) = &self.current.surface {
                self.writing.stored(sid, shape, &self.json.stack);
            }
        }
    }

    /// Brings the stored copy of the component being written (at `stack[index]`, now of shape
    /// `shape`) up to date in place, when that is all it takes: its cut string grew
    /// ([`Self::grow_in_place`]) or its list gained a string ([`Self::append_in_place`]).
    fn update_in_place(&mut self, index: usize, shape: u64) -> bool {
        if self.writing.shape == shape && self.grow_in_place(index) {
            #[cfg(test)]
            {
                self.writing.grown += 1;
            }
            return true;
        }
        if self.append_in_place(index) {
            #[cfg(test)]
            {
                self.writing.appended += 1;
            }
            return true;
        }
        false
    }

    /// Brings the stored copy of the component being written up to date when all it gained
    /// since it was stored ([`Writing`]) is one string at the end of the list it was writing (a
    /// child's id added to `children` or `explicitList`): the string is added to the stored
    /// list, and to its references when the catalog reads it as one, without a snapshot.
    /// False, changing nothing, when more may have changed: another list is being written, it
    /// grew by more or by something else, it was empty (its placeholder goes away), the new
    /// string is the component's own id, or its references would change otherwise.
    fn append_in_place(&mut self, index: usize) -> bool {
        let w = &self.writing;
        let Some(mark) = w.list.filter(|m| m.items > 0) else {
            return false;
        };
        let stack = &self.json.stack;
        let Some(new) = added_string(stack, mark) else {
            return false;
        };
        if *new == w.id || self.current.rejected.contains(&w.id) {
            return false;
        }
        let catalog = self.catalogs.catalog();
        let Some(surface) = self.surfaces.get_mut(&w.sid) else {
            return false;
        };
        // Only over an emitted form that is up to date, and a list that was not empty.
        let Some(comp) = surface.up_to_date_mut(&w.id, true) else {
            return false;
        };
        let json = &self.json;
        if !comp.append_child_id(
            catalog,
            |value| json.open_slot(index, value),
            mark.items,
            new,
        ) {
            return false;
        }
        // A list of children: its emitted form can take the id in place too.
        let of_children = stack
            .last()
            .and_then(|f| f.key.as_deref())
            .is_some_and(|k| CHILD_FIELDS.contains(&k));
        let path = if of_children || mark.free.is_none() {
            self.json.open_path(index)
        } else {
            None
        };
        // The list held an item before (`mark.items > 0`), so only the added one may matter.
        let free = mark.free.unwrap_or_else(|| {
            path.as_ref()
                .is_some_and(|path| self.catalogs.free_at(path, None))
        });
        comp.note_appended(free, path.filter(|_| of_children), new);
        if surface.touch(w.id.clone()) {
            self.queued.push(w.sid.clone());
        }
        let shape = self.json.shape;
        let w = &mut self.writing;
        (w.shape, w.text_free) = (shape, None);
        w.list = Some(OpenList {
            items: mark.items + 1,
            free: Some(free),
            ..mark
        });
        true
    }

    /// Brings the stored copy of the component being written up to date with its cut string,
    /// when that string is all that changed since it was stored ([`Writing`]): what storing a new
    /// snapshot would do, without making one. False, changing nothing, when the string is not
    /// shown any more, its place is not found, the component is gone or was set aside, or the
    /// new text would change what the component refers to: a snapshot is then made.
    fn grow_in_place(&mut self, index: usize) -> bool {
        let w = &self.writing;
        let Some((key, text)) = self.json.cut_string(heal_component_string) else {
            return false;
        };
        if self.current.rejected.contains(&w.id) {
            return false;
        }
        let catalog = self.catalogs.catalog();
        let Some(surface) = self.surfaces.get_mut(&w.sid) else {
            return false;
        };
        // Only over an emitted form that is up to date (so that it is known to differ now).
        let Some(comp) = surface.up_to_date_mut(&w.id, false) else {
            return false;
        };
        let json = &self.json;
        match comp.grow_text(catalog, |value| json.cut_string_slot(index, value), text) {
            None => return false,
            Some(false) => return true,
            Some(true) => {}
        }
        // The same shape, the same place: looked up once.
        let free = w.text_free.unwrap_or_else(|| {
            self.json
                .open_path(index)
                .is_some_and(|path| self.catalogs.free_at(&path, Some(key)))
        });
        comp.note_grown(free);
        if surface.touch(w.id.clone()) {
            self.queued.push(w.sid.clone());
        }
        self.writing.text_free = Some(free);
        true
    }

    /// A quick look at the open component at `stack[index]`, before copying it: false when the
    /// copy would surely be unusable (no id yet, or an object just opened and still empty), or
    /// when the component waits: a member of its innermost open object has begun and is not
    /// shown yet (a key, or a value that is not a cut string it shows, which `shown` says).
    /// The reference then cannot heal the component into JSON and keeps what it showed of it.
    fn may_be_usable(&self, index: usize, shown: bool) -> bool {
        if !shown && self.json.member_in_progress() {
            return false;
        }
        let stack = &self.json.stack;
        let has_id = matches!(
            stack.get(index),
            Some(Frame { body: Body::Object { map, .. }, .. })
                if map.get("id").and_then(Value::as_str).is_some_and(|id| !id.is_empty())
        );
        let top = stack.len().saturating_sub(1);
        // Without its `component` member (finished or open) it is never usable.
        let has_body = top > index
            || matches!(
                stack.get(index),
                Some(Frame { body: Body::Object { map, .. }, .. }) if map.contains_key("component")
            );
        if !has_id || !has_body {
            return false;
        }
        // An open object shows a member once one is finished, or through its open child, or
        // (innermost) through a cut string it may show.
        stack
            .iter()
            .enumerate()
            .skip(index + 1)
            .all(|(i, frame)| match &frame.body {
                Body::Object { map, key, .. } if map.is_empty() => {
                    if i == top {
                        shown
                    } else {
                        key.is_some()
                    }
                }
                _ => true,
            })
    }
}

/// The string added at the end of the list `mark` describes, when that list, still at the top
/// of `stack`, gained just that one item since.
fn added_string(stack: &Stack, mark: OpenList) -> Option<&String> {
    let Some(Frame {
        body: Body::Array(items),
        serial,
        ..
    }) = stack.last()
    else {
        return None;
    };
    if (*serial, stack.len(), items.len()) != (mark.serial, mark.height, mark.items + 1) {
        return None;
    }
    match items.last() {
        Some(Value::String(new)) => Some(new),
        _ => None,
    }
}

/// The `children` / `explicitList` lists still open and empty in the component at
/// `stack[index]`, by key.
fn open_child_lists(stack: &Stack, index: usize) -> Vec<String> {
    stack
        .iter()
        .skip(index + 1)
        .filter_map(|f| match (&f.key, &f.body) {
            (Some(k), Body::Array(items))
                if items.is_empty() && (k == "children" || k == "explicitList") =>
            {
                Some(k.clone())
            }
            _ => None,
        })
        .collect()
}

/// Whether the innermost frame of `stack` is a component: an object directly in the
/// `components` list of a message payload.
pub(super) fn is_component_frame(stack: &[Box<Frame>]) -> bool {
    match stack {
        [.., parent, last] => {
            matches!(last.body, Body::Object { .. })
                && matches!(parent.body, Body::Array(_))
                && parent.key.as_deref() == Some("components")
        }
        _ => false,
    }
}
