//! Showing a surface: its reachable set brought up to date, the emitted forms of what changed
//! refreshed, and the component update of the step made (see [`surface`](super::surface) for
//! each of those steps).

use super::new_error;
use serde_json::Value;

use super::form::{Form, Out};
use super::{Error, ErrorKind, ProgressiveParser};
use crate::official::catalog::Version;

/// What asks [`ProgressiveParser::flush_surface`] to show a surface.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Flush {
    /// The end of a chunk: the surface is shown only if something queued it since.
    Queued,
    /// `beginRendering` or `createSurface`: what was held for the surface is shown.
    Started,
    /// A component update ended: the surface is shown, and its root must be among its components.
    UpdateEnded,
}

impl<F> ProgressiveParser<F> {
    /// Emits the components of `sid` reachable from its root, if anything changed: in official
    /// mode all of them, in changed-only mode those that changed. Only the components stored
    /// since the last flush (and those whose placeholders they resolve) are looked at, unless
    /// the reachable set has to be worked out again. `why` says what asks for the flush, and so
    /// whether a surface not waiting in [`Self::queued`] is left alone and whether a missing root
    /// is an error. The components in `sent` (the surface's as a message passed on wrote them)
    /// are counted as sent where their emitted form is the one written there.
    pub(super) fn flush_surface<M: Form>(
        &mut self,
        sid: &str,
        why: Flush,
        sent: &[Value],
        out: &mut Out<M>,
    ) -> Result<(), Error> {
        let Some(surface) = self.surfaces.get_mut(sid) else {
            return Ok(());
        };
        let Some(root) = surface.due(why == Flush::Queued) else {
            return Ok(());
        };
        if why == Flush::UpdateEnded && !surface.has(&root) {
            return Err(no_root(self.version, &root));
        }
        if let Some(e) = surface.first_self_reference() {
            return Err(self.heal(sid).unwrap_or(e));
        }
        let mut candidates = std::mem::take(&mut self.room.lists.candidates);
        if let Err(e) = surface.update_reach(&root, &mut candidates) {
            return Err(self.heal(sid).unwrap_or(e));
        }
        // Bring the emitted form of every candidate up to date.
        let mut changed = surface.refresh_all(&candidates, sid, self.version, &self.catalogs);
        if !sent.is_empty() {
            changed = surface.count_as_sent(sent, &candidates);
        }
        let lists = &mut self.room.lists;
        lists.candidates = candidates;
        let message = surface.step_message(sid, self.mode, self.version, changed, lists, out);
        if let Some(message) = message {
            out.update(sid, message);
        }
        Ok(())
    }
}

/// The error for a component update of `version` that ended without its surface's `root`.
fn no_root(version: Version, root: &str) -> Error {
    let kind = version.components().key();
    new_error(
        ErrorKind::Topology,
        format!("No root component (id='{root}') found in {kind}"),
    )
}
