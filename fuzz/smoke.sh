#!/usr/bin/env bash
# Runs every fuzz target for a short while on the nightly toolchain (the progressive target only
# where ../shared/a2ui or $A2UI_SHARED/a2ui is there).
#   fuzz/smoke.sh            # about 60 s per target
#   FUZZ_SECONDS=10 fuzz/smoke.sh
# Exits non-zero when a target crashes (the input is saved under fuzz/artifacts/<target>/).
set -euo pipefail

cd "$(dirname "$0")"
seconds="${FUZZ_SECONDS:-60}"
targets=(split_bytes structured data_split create_surface direct express_stream progressive)
# The direct target's seed: a v1.0 response in the SDK's direct-JSON format.
mkdir -p corpus/direct
cat >corpus/direct/seed-v1.0-list <<'SEED'
Here are two places.
<a2ui-json>
[{"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"}},
 {"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": [
   {"id": "root", "component": "Column", "children": ["title", "list"]},
   {"id": "title", "component": "Text", "text": {"@path": "/title"}},
   {"id": "list", "component": "List", "children": {"componentId": "card", "path": "/items"}},
   {"id": "card", "component": "Card", "child": "name"},
   {"id": "name", "component": "Text", "text": {"@path": "name"}}]}},
 {"version": "v1.0", "updateDataModel": {"surfaceId": "s", "value": {"title": "Two places", "items": [
   {"name": "Quick Bites", "rating": 4.2}, {"name": "The Fancy Place", "rating": 4.8}]}}}]
</a2ui-json>
Which one?
SEED
# The Express stream target's seeds: a response with two blocks (a fence, comments and strings
# holding the close tag, a list, an update), and the restaurant card where the shared data is.
mkdir -p corpus/express_stream
cat >corpus/express_stream/seed-two-blocks <<'SEED'
Here are two places < $20 🍝.
<a2ui>
```a2ui
surface("places", sendDataModel=true)
# a comment with </a2ui>
$/title = "Two places"
$/items = [{name: "Quick Bites", rating: 4.2}, {name: r"The \ Fancy Place", rating: 4.8}]
root = Column([title, list]) // the root
title = Text($/title, "caption")
list = List(_template($/items, card), "vertical")
card = Card(name, id="place")
name = Text($name); note = Text("""a "triple" </a2ui>""")
```
</a2ui>
Which one?
<A2UI kind="update">
surface("places", update=true)
title = Text("Pick one")
$/items/0/rating = 4.3
</A2UI >
SEED
card="${A2UI_SHARED:-../../shared}/a2ui-express/20_restaurant-card.underscore.a2ui"
if [[ -f "$card" ]]; then
    { printf 'Here is a place you might like.\n<a2ui>\n'; cat "$card"; printf '\n</a2ui>\nShall I book?'; } \
        >corpus/express_stream/seed-restaurant-card
fi
# The progressive target reads the A2UI specification's catalogs; its seeds are the restaurant
# finder's example responses, written here (not kept in the repository).
shared="${A2UI_SHARED:-../../shared}"
if [[ -d "$shared/a2ui/spec" ]]; then
    mkdir -p corpus/progressive
    for example in "$shared"/a2ui/restaurant_finder/examples/*/*.json; do
        version="$(basename "$(dirname "$example")")"
        {
            printf 'Here is what I found for you.\n<a2ui-json>\n'
            cat "$example"
            printf '\n</a2ui-json>\nEnjoy your meal!'
        } >"corpus/progressive/seed-$version-$(basename "$example")"
    done
else
    echo "fuzz smoke: $shared/a2ui/spec not found, skipping the progressive target"
    targets=(split_bytes structured data_split create_surface direct express_stream)
fi

if ! rustup toolchain list | grep -q nightly; then
    echo "fuzz smoke: a nightly toolchain is required (rustup toolchain install nightly)" >&2
    exit 1
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "fuzz smoke: installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

# Optimised, with debug assertions and overflow checks on: the parser's own cross-checks (such
# as the validator's two ways of checking a component) run on every input.
cargo +nightly fuzz build -O --debug-assertions

status=0
for target in "${targets[@]}"; do
    extra=()
    if [[ -f "$target.dict" ]]; then
        extra+=("-dict=$target.dict")
    fi
    log="$(mktemp)"
    echo "fuzz smoke: $target for ${seconds}s"
    if cargo +nightly fuzz run -O --debug-assertions "$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1 "${extra[@]}" \
        >"$log" 2>&1; then
        grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec)' "$log" || true
        echo "fuzz smoke: $target ok"
    else
        status=1
        tail -n 60 "$log"
        echo "fuzz smoke: $target FAILED (see fuzz/artifacts/$target/)" >&2
    fi
    rm -f "$log"
done
exit "$status"
