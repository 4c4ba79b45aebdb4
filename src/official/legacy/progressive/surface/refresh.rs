//! Bringing a component's emitted form up to date: the component itself when there is nothing
//! to swap or rewrite, a placeholder id swapped back in place when only children arrived, a
//! child id added in place when only that was added, or else the form made again; then checked
//! against the catalog unless the verdict on the form before still holds.

use std::sync::Arc;

use serde_json::Value;

use super::checks::Checks;
use super::comp::{Appended, Comp, Placeholder, Since};
use super::{Mentions, Surface};
#[cfg(debug_assertions)]
use crate::hash::QuickMap;
use crate::official::catalog::Version;
use crate::official::legacy::partial_json::slot_at;
use crate::official::legacy::progressive::catalogs::Catalogs;
use crate::official::legacy::progressive::component::{
    CHILD_FIELDS, PLACEHOLDER_PREFIX, Processed, append_child, assign, needs_processing,
    process_component, show_arrived, stands_for_one_of,
};
use crate::official::validator::Likeness;

/// What a new emitted form needs, set against the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// It is the same form: nothing to check, nothing new to send.
    Same,
    /// Only what the catalog check cannot tell apart changed: the verdict before holds.
    Holds,
    /// It is checked against the catalog.
    Check,
}

impl Surface {
    /// Brings the emitted form of every one of `candidates` up to date ([`Surface::refresh`]);
    /// true when one of them has something not put in a message yet.
    pub(in crate::official::legacy::progressive) fn refresh_all(
        &mut self,
        candidates: &[String],
        sid: &str,
        version: Version,
        validator: &Catalogs,
    ) -> bool {
        let mut changed = false;
        for id in candidates {
            changed |= self.refresh(id, sid, version, validator);
        }
        changed
    }

    /// Brings the emitted form of `id` up to date (placeholders, paths) and checks it against
    /// the catalog when it changed; true when it has something not put in a message yet
    /// ([`Comp::unsent`]).
    fn refresh(&mut self, id: &str, sid: &str, version: Version, validator: &Catalogs) -> bool {
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        if !comp.stale {
            return comp.unsent();
        }
        let since = comp.take_since();
        if since.children_came && !since.edited {
            if let Some(unsent) = self.show_arrived(id, sid, version, validator) {
                return unsent;
            }
        }
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        if comp.open_lists.is_empty() && !needs_processing(&comp.value, version) {
            // Nothing to swap or rewrite: the component is its own emitted form.
            let (checks, mentioned_by) = (&mut self.checks, &mut self.mentioned_by);
            return refresh_as_is(comp, (sid, id), validator, since, checks, mentioned_by);
        }
        let earlier = Processed {
            placeholders: std::mem::take(&mut comp.placeholders),
            missing: std::mem::take(&mut comp.missing),
            calls: comp.child_calls,
            ..Processed::default()
        };
        let appended = comp.appended.take().filter(|_| since.edited);
        // A form made before and no longer needed: a new form is made in its buffer.
        let mut spare_form = comp.spare.take();
        let Some((processed, made)) =
            self.make_form(id, version, appended, earlier, &mut spare_form)
        else {
            return false;
        };
        self.take_form(
            id,
            (sid, version),
            validator,
            since,
            (processed, made),
            spare_form,
        )
    }

    /// The new emitted form of `id`, with what was made of it: the form before with the child
    /// id `appended` says was added ([`Surface::append_to_form`]), or else made again from the
    /// component, in the buffer of `spare_form` if there is one. `earlier` is what was made of
    /// the form before.
    fn make_form(
        &mut self,
        id: &str,
        version: Version,
        appended: Option<Appended>,
        earlier: Processed,
        spare_form: &mut Option<Value>,
    ) -> Option<(Value, Processed)> {
        match self.append_to_form(id, appended, earlier) {
            Ok(done) => Some(done),
            Err(earlier) => {
                let mut processed = spare_form.take().unwrap_or(Value::Null);
                let comp = self.comps.get(id)?;
                assign(&mut processed, &comp.value);
                let comps = &self.comps;
                let made = process_component(
                    &mut processed,
                    &comp.open_lists,
                    |child| comps.contains_key(child),
                    version,
                    earlier,
                );
                Some((processed, made))
            }
        }
    }

    /// Takes `processed`, the new emitted form of `id` (`made` what was made of it), in place of
    /// the one before: checked against the catalog unless the verdict before holds, its
    /// placeholders made, the components showing placeholders noted. True when the component
    /// has something not put in a message yet ([`Comp::unsent`]).
    fn take_form(
        &mut self,
        id: &str,
        (sid, version): (&str, Version),
        validator: &Catalogs,
        since: Since,
        (processed, made): (Value, Processed),
        spare_form: Option<Value>,
    ) -> bool {
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        let child_ids_changed =
            !made.no_longer_missing.is_empty() || !made.newly_missing.is_empty();
        if since.children_came && child_ids_changed && comp.child_ids_free.is_none() {
            comp.child_ids_free = Some(validator.free_under(&comp.value, &CHILD_FIELDS));
        }
        let verdict = verdict(
            comp,
            id,
            since,
            &made,
            child_ids_changed,
            &processed,
            validator,
        );
        let form = self.apply_verdict(verdict, (sid, id), validator, processed, &made);
        let shown = self.show_placeholders(id, (sid, version), validator, &made);
        let Some(comp) = self.comps.get_mut(id) else {
            return false;
        };
        comp.keep_form(made, shown, form, spare_form);
        comp.unsent()
    }

    /// What `verdict` asks of `processed`, the new emitted form of component `id` of surface
    /// `sid` (`made` what was made of it): the form to keep, checked when it is to be, and the
    /// one to keep as spare (see [`Comp::keep_form`]).
    fn apply_verdict(
        &mut self,
        verdict: Verdict,
        (sid, id): (&str, &str),
        validator: &Catalogs,
        processed: Value,
        made: &Processed,
    ) -> (Option<Value>, Option<Value>) {
        match verdict {
            Verdict::Same => (None, Some(processed)),
            Verdict::Holds => {
                #[cfg(debug_assertions)]
                self.checks.assert_stands(validator, (sid, id), &processed);
                (Some(processed), None)
            }
            Verdict::Check => {
                // Its own references were checked when it was stored; a placeholder can only
                // make it refer to itself if its id is that placeholder's.
                let may_refer_to_itself = id
                    .strip_prefix(PLACEHOLDER_PREFIX)
                    .is_some_and(|child| made.missing.iter().any(|m| m == child));
                let back = self
                    .checks
                    .check(validator, (sid, id), processed, may_refer_to_itself);
                (Some(back), None)
            }
        }
    }

    /// The placeholder components the new emitted form of `id` shows (`made` what was made of
    /// it), in order, made when new; notes which missing children it shows placeholders for.
    fn show_placeholders(
        &mut self,
        id: &str,
        (sid, version): (&str, Version),
        validator: &Catalogs,
        made: &Processed,
    ) -> Vec<Arc<Placeholder>> {
        let mut shown = Vec::with_capacity(made.placeholders.len());
        for pid in &made.placeholders {
            shown.push(self.checks.placeholder(pid, sid, version, validator));
        }
        self.mentioned_by.forget(&made.no_longer_missing, id);
        for child in made
            .newly_missing
            .iter()
            .filter_map(|&i| made.missing.get(i))
        {
            self.mentioned_by.add(child, id);
        }
        shown
    }

    /// The emitted form of `id` taken out and brought up to date in place for the child id
    /// `appended` says was added ([`append_child`]), with what was made of it; `earlier` (what
    /// was made of the form before) comes back when there is nothing to go on or the form has to
    /// be made again.
    fn append_to_form(
        &mut self,
        id: &str,
        appended: Option<Appended>,
        earlier: Processed,
    ) -> Result<(Value, Processed), Processed> {
        let Some(Appended { path, child }) = appended else {
            return Err(earlier);
        };
        let present = self.comps.contains_key(&child);
        let Some(comp) = self.comps.get_mut(id) else {
            return Err(earlier);
        };
        let Some(mut form) = comp.processed.take() else {
            return Err(earlier);
        };
        let made = match slot_at(&mut form, &path).and_then(Value::as_array_mut) {
            Some(list) => append_child(list, &child, present, earlier),
            None => Err(earlier),
        };
        match made {
            Ok(made) => {
                #[cfg(test)]
                {
                    self.appended_to_form += 1;
                }
                Ok((form, made))
            }
            Err(earlier) => {
                comp.processed = Some(form);
                Err(earlier)
            }
        }
    }

    /// Brings the emitted form of `id` up to date in place when all that happened since it was
    /// made is that children it names arrived ([`Comp::children_came`]): their placeholder ids
    /// are swapped for their own ([`show_arrived`]) instead of the form being made again. Only
    /// where the catalog check cannot tell its child ids apart, so that the verdict on the form
    /// before holds. Whether it then has something not put in a message yet ([`Comp::unsent`]);
    /// `None`, changing nothing, when that is not so or the form has to be made again (an open
    /// list, or an id that may be taken for a placeholder's).
    fn show_arrived(
        &mut self,
        id: &str,
        sid: &str,
        version: Version,
        validator: &Catalogs,
    ) -> Option<bool> {
        if self.loading_ids || id.starts_with(PLACEHOLDER_PREFIX) {
            return None;
        }
        let comp = self.comps.get_mut(id)?;
        if comp.version == 0
            || !comp.open_lists.is_empty()
            || comp.missing.is_empty()
            || comp.processed.is_none()
        {
            return None;
        }
        let free = *comp
            .child_ids_free
            .get_or_insert_with(|| validator.free_under(&comp.value, &CHILD_FIELDS));
        if !free {
            return None;
        }
        let comps = &self.comps;
        let comp = comps.get(id)?;
        let came: Vec<String> = comp
            .missing
            .iter()
            .filter(|m| comps.contains_key(m.as_str()))
            .cloned()
            .collect();
        #[cfg(debug_assertions)]
        let expected = made_again(comp, comps, version);
        #[cfg(not(debug_assertions))]
        let _ = version;
        let comp = self.comps.get_mut(id)?;
        comp.stale = false;
        comp.appended = None;
        if came.is_empty() {
            // Nothing arrived after all: the form stays as it is.
            #[cfg(debug_assertions)]
            debug_assert_eq!(Some(&expected.0), comp.processed.as_ref());
            return Some(comp.unsent());
        }
        let form = comp.processed.as_mut()?;
        let swapped = show_arrived(form, &came);
        debug_assert!(swapped >= came.len());
        // `shown` holds the placeholder components of `placeholders`, in the same order.
        comp.placeholders
            .retain(|pid| !stands_for_one_of(pid, &came));
        comp.shown.retain(|p| !stands_for_one_of(&p.id, &came));
        comp.missing.retain(|m| !came.contains(m));
        let rewritten =
            !comp.placeholders.is_empty() || Some(&comp.value) != comp.processed.as_ref();
        if !rewritten {
            comp.spare = comp.processed.take();
        }
        #[cfg(debug_assertions)]
        {
            assert_swapped_as_made(comp, rewritten, &came, &expected);
            self.checks
                .assert_stands(validator, (sid, id), comp.emitted());
        }
        #[cfg(not(debug_assertions))]
        let _ = sid;
        comp.bump();
        let unsent = comp.unsent();
        self.mentioned_by.forget(&came, id);
        Some(unsent)
    }
}

/// [`Surface::refresh`] of a component that is its own emitted form (nothing to swap or
/// rewrite): checked against the catalog when it changed and the verdict before does not hold.
fn refresh_as_is(
    comp: &mut Comp,
    (sid, id): (&str, &str),
    validator: &Catalogs,
    since: Since,
    checks: &mut Checks,
    mentioned_by: &mut Mentions,
) -> bool {
    let likeness = match &comp.processed {
        Some(last) if !since.edited && comp.version > 0 => validator.likeness(last, &comp.value),
        _ => Likeness::Other,
    };
    let same = likeness == Likeness::Same;
    // The verdict on the form before holds when only free strings changed since.
    let known = comp.version > 0
        && if since.edited {
            since.free_edit
        } else {
            likeness == Likeness::Free
        };
    comp.processed = None;
    comp.stale = false;
    comp.appended = None;
    comp.child_calls = 0;
    comp.placeholders.clear();
    comp.shown.clear();
    let old_missing = std::mem::take(&mut comp.missing);
    if known {
        #[cfg(debug_assertions)]
        checks.assert_stands(validator, (sid, id), &comp.value);
        comp.bump();
    } else if !same {
        let value = std::mem::take(&mut comp.value);
        comp.value = checks.check(validator, (sid, id), value, false);
        comp.bump();
    }
    let unsent = comp.unsent();
    mentioned_by.forget(&old_missing, id);
    unsent
}

/// Whether `processed`, a new emitted form of component `id` (`made` what was made of it), is
/// the form before, differs from it only where the catalog check cannot tell forms apart, or
/// is to be checked.
fn verdict(
    comp: &Comp,
    id: &str,
    since: Since,
    made: &Processed,
    child_ids_changed: bool,
    processed: &Value,
    validator: &Catalogs,
) -> Verdict {
    let last = if comp.version == 0 || since.edited {
        None
    } else {
        Some(comp.emitted())
    };
    // Nothing rewritten: `processed` is `value` itself (no need to compare them).
    let likeness = match last {
        Some(last) if !made.rewritten && comp.processed.is_none() => {
            debug_assert!(last == processed);
            Likeness::Same
        }
        // Only child ids may differ, and only where a child's presence changed.
        Some(last) if since.children_came => {
            if !child_ids_changed {
                debug_assert!(last == processed);
                Likeness::Same
            } else if comp.child_ids_free == Some(true) {
                debug_assert_eq!(validator.likeness(last, processed), Likeness::Free);
                Likeness::Free
            } else {
                validator.likeness(last, processed)
            }
        }
        Some(last) => validator.likeness(last, processed),
        None => Likeness::Other,
    };
    if likeness == Likeness::Same {
        return Verdict::Same;
    }
    // The verdict on the form before holds when only free strings changed since (and, its
    // id not being a placeholder's, the check never looks for a self-reference).
    let holds = comp.version > 0
        && !id.starts_with(PLACEHOLDER_PREFIX)
        && match last {
            Some(_) => likeness == Likeness::Free,
            None => since.edited && since.free_edit,
        };
    if holds {
        Verdict::Holds
    } else {
        Verdict::Check
    }
}

/// Debug builds: the emitted form of `comp` made again from the component, with what was made
/// of it, for [`Surface::show_arrived`] to compare its form swapped in place with.
#[cfg(debug_assertions)]
fn made_again(
    comp: &Comp,
    comps: &QuickMap<String, Box<Comp>>,
    version: Version,
) -> (Value, Processed) {
    let mut form = comp.value.clone();
    let earlier = Processed {
        placeholders: comp.placeholders.clone(),
        missing: comp.missing.clone(),
        calls: comp.child_calls,
        ..Processed::default()
    };
    let made = process_component(
        &mut form,
        &comp.open_lists,
        |child| comps.contains_key(child),
        version,
        earlier,
    );
    (form, made)
}

/// Debug builds: asserts that the form of `comp` that [`Surface::show_arrived`] swapped the
/// children `came` into (`rewritten` when it is not the component itself) is the form made
/// again (`expected`, from [`made_again`]).
#[cfg(debug_assertions)]
fn assert_swapped_as_made(
    comp: &Comp,
    rewritten: bool,
    came: &[String],
    expected: &(Value, Processed),
) {
    let (form, made) = expected;
    debug_assert_eq!(form, comp.emitted());
    debug_assert_eq!(made.rewritten, rewritten);
    debug_assert_eq!(made.placeholders, comp.placeholders);
    debug_assert_eq!(made.missing, comp.missing);
    debug_assert_eq!(made.calls, comp.child_calls);
    debug_assert!(made.newly_missing.is_empty());
    let mut went = made.no_longer_missing.clone();
    went.sort();
    let mut came = came.to_vec();
    came.sort();
    debug_assert_eq!(went, came);
}
