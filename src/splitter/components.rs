//! Split-out components: each wrapped as a message of its own, and repeats held back.

use super::*;

/// Most component ids remembered for de-duplication.
pub(super) const MAX_TRACKED_IDS: usize = 1 << 16;

/// Component ids already sent, per surface, with a hash of the component's bytes. Surfaces and
/// ids are keyed by 64-bit hashes, so a lookup allocates nothing; a collision on all three hashes at
/// once would only hold back one repeat of a component. One small table per surface keeps the
/// lookups in cache however large the whole UI grows, and forgetting a surface is one removal.
#[derive(Debug, Default)]
pub(super) struct Sent {
    pub(super) surfaces: QuickMap<u64, QuickMap<u64, u64>>,
    pub(super) tracked: usize,
}

impl Sent {
    /// Records the component; `true` when the same bytes were already sent under this id.
    pub(super) fn is_repeat(&mut self, surface: &[u8], id: &[u8], bytes: &[u8]) -> bool {
        let hash = fingerprint(bytes);
        let (surface, id) = (fingerprint(surface), fingerprint(id));
        if let Some(old) = self
            .surfaces
            .get_mut(&surface)
            .and_then(|ids| ids.get_mut(&id))
        {
            let repeat = *old == hash;
            *old = hash;
            return repeat;
        }
        if self.tracked < MAX_TRACKED_IDS {
            // A table is made only for an id that is kept, so memory stays bounded by the limit;
            // it starts with room for a typical surface, to spare the first few regrowths.
            self.surfaces
                .entry(surface)
                .or_insert_with(|| QuickMap::with_capacity_and_hasher(14, QuickState::default()))
                .insert(id, hash);
            self.tracked += 1;
        }
        false
    }

    pub(super) fn forget(&mut self, surface: &[u8]) {
        if let Some(ids) = self.surfaces.remove(&fingerprint(surface)) {
            self.tracked -= ids.len();
        }
    }
}

/// A component wrapped as a message of its own: `bytes[at..at + len]` is the component, and the
/// raw `surfaceId` (and `version`, when the message has it) begin at the offsets given.
pub(super) struct Built {
    pub(super) bytes: Vec<u8>,
    pub(super) at: usize,
    pub(super) len: usize,
    pub(super) surface_at: usize,
    pub(super) version_at: Option<usize>,
}

/// Wraps the component whose bytes are `earlier` followed by `here` (one copy, exactly sized) as
/// `{"surfaceUpdate":{"surfaceId":S,"components":[C]}}` or, from an `updateComponents` or a v1.0
/// `createSurface`, `{"version":V,"updateComponents":{"surfaceId":S,"components":[C]}}`.
pub(super) fn component_message(cur: &Current, earlier: &[u8], here: &[u8]) -> Built {
    const V09: &[u8] = b"{\"version\":";
    const V09_BODY: &[u8] = b",\"updateComponents\":{\"surfaceId\":";
    const V08: &[u8] = b"{\"surfaceUpdate\":{\"surfaceId\":";
    const LIST: &[u8] = b",\"components\":[";
    const END: &[u8] = b"]}}";
    let surface = cur.surface_raw();
    let version = cur
        .version
        .as_ref()
        .map_or(&b"\"v0.9\""[..], |c| &c.raw[..]);
    let v09 = matches!(
        cur.kind(),
        MessageKind::UpdateComponents | MessageKind::CreateSurface
    );
    let head = if v09 {
        V09.len() + version.len() + V09_BODY.len()
    } else {
        V08.len()
    };
    let len = earlier.len() + here.len();
    let at = head + surface.len() + LIST.len();
    // Exactly sized, so that turning it into `Bytes` needs no second allocation.
    let mut v = Vec::with_capacity(at + len + END.len());
    if v09 {
        v.extend_from_slice(V09);
        v.extend_from_slice(version);
        v.extend_from_slice(V09_BODY);
    } else {
        v.extend_from_slice(V08);
    }
    v.extend_from_slice(surface);
    v.extend_from_slice(LIST);
    v.extend_from_slice(earlier);
    v.extend_from_slice(here);
    v.extend_from_slice(END);
    Built {
        bytes: v,
        at,
        len,
        surface_at: head,
        version_at: v09.then_some(V09.len()),
    }
}

impl Splitter {
    /// Hands out a split-out component, unless it repeats one already sent on its surface.
    /// `id` is where the component's raw `id` string lies inside the component.
    #[inline(never)]
    pub(super) fn emit_component(&mut self, built: Built, id: Option<(usize, usize)>) {
        let cur = &mut self.cur;
        cur.split = true;
        let component = built.bytes.get(built.at..).unwrap_or_default();
        let component = component.get(..built.len).unwrap_or_default();
        let raw_id = id.and_then(|(from, to)| Some((from, component.get(from..to)?)));
        if let (true, Some((_, raw))) = (self.config.dedup_components, raw_id) {
            if self.sent.is_repeat(cur.surface_raw(), raw, component) {
                return;
            }
        }
        let component_id = match raw_id {
            None => Field::None,
            Some((_, raw)) if raw.contains(&b'\\') => {
                decode(raw).map_or(Field::None, Field::Decoded)
            }
            Some((from, raw)) => Field::Raw {
                start: built.at + from,
                end: built.at + from + raw.len(),
            },
        };
        let field = |c: &Option<Captured>, at| c.as_ref().map_or(Field::None, |c| c.field(at));
        // A `createSurface`'s inline components go out as updates of the surface it created.
        let kind = match cur.kind() {
            MessageKind::CreateSurface => MessageKind::UpdateComponents,
            kind => kind,
        };
        let message = Message {
            bytes: Bytes::from(built.bytes),
            kind,
            version: field(&cur.version, built.version_at),
            surface_id: field(&cur.surface, Some(built.surface_at)),
            component_id,
        };
        self.emit(message);
    }
}
