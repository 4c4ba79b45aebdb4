"""Records how the official A2UI Python SDK's direct-JSON streaming parser
(`a2ui-agent-sdk` 0.9.0, `DirectJsonParser.parse_chunk`) treats JSON that a model
got almost right: trailing commas, raw control characters inside strings, curly
quotes used as JSON quotes, and a few things it still rejects.

    python3 -m venv /tmp/sdk && /tmp/sdk/bin/pip install a2ui-agent-sdk==0.9.0
    /tmp/sdk/bin/python tests/lenient/record.py

Writes `tests/lenient/golden.json` (next to this script), a JSON list with one
entry per case of the corpus below:

    {
      "name": str, "description": str,
      "version": "v1.0" | "v0.9",      # the SDK catalog: BasicCatalog(version)
      "wrapped": bool,                 # the `wrapped` argument of parse_chunk
      "progressive_keys": [str],
      "response": str,                 # the whole model response
      "whole_accepted": bool,          # the one-chunk run raised no error
      "agreed": bool,                  # every chunking gave the same outcome
      "errors_agreed": bool,           # every chunking gave the same `error`
      "outcome": OUTCOME,              # only when agreed
      "chunkings": {"whole": OUTCOME, "1": OUTCOME, "3": OUTCOME, "7": OUTCOME}
                                       # only when not agreed
    }
    OUTCOME = {"parts": [PART, ...], "error": null | {"type": str, "message": str}}
    PART = {"text": str} | {"a2ui": [message, ...]}

A chunking feeds the response to a new parser (`DirectJsonParser([catalog],
progressive_keys=...)`, catalog as in benches/direct_sdk.py) as consecutive
slices of that many characters (Python str slices, i.e. code points; "whole" is one
slice), calling `parse_chunk(slice, wrapped=...)` for each. `parts` is every part
the calls returned, in order, concatenated across calls; an A2uiPart is
serialised with the SDK's own `to_message_dicts`. If a call raises, `error` holds
the exception's class name and `str()`, `parts` holds what the earlier calls
returned (the parts of the raising call are lost, as for any caller), and feeding
stops. The corpus is written here; no shared data is read.
"""
import json
import os
import sys

from a2ui.core.basic_catalog import BasicCatalog
from a2ui.inference_formats._shared import to_message_dicts
from a2ui.inference_formats.direct_json.parser import DirectJsonParser
from a2ui.parser import A2uiPart, TextPart

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "golden.json")
CHUNKINGS = ("whole", "1", "3", "7")
KEYS = ["text"]

V10_CATALOG = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json"
V09_CATALOG = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"

BEFORE = "Sure, here is what I put together for you.\n"
AFTER = "\nLet me know if you want any changes."


def block(body):
    return f"{BEFORE}<a2ui-json>\n{body}\n</a2ui-json>{AFTER}"


# A v1.0 `updateComponents` with a column of two texts; `{t1}`/`{t2}` are the
# text values as written (quotes included), `{tail}` what follows the last
# component inside the list, `{end}` what follows the list inside the body.
def v10_update(t1='"Good morning"', t2='"Two tables are free tonight"', tail="",
               end="", outer=""):
    return ('[{"version": "v1.0", "updateComponents": {"surfaceId": "main", "components": ['
            '{"id": "root", "component": "Column", "children": ["greeting", "status"]}, '
            '{"id": "greeting", "component": "Text", "text": ' + t1 + '}, '
            '{"id": "status", "component": "Text", "text": ' + t2 + '}' + tail
            + ']' + end + '}}' + outer + ']')


CASES = []


def curly(text):
    """Every straight double quote of `text` turned into “ and ” alternately."""
    out, opening = [], True
    for ch in text:
        if ch == '"':
            out.append("\u201c" if opening else "\u201d")
            opening = not opening
        else:
            out.append(ch)
    return "".join(out)


def case(name, description, response, version="v1.0", wrapped=True, keys=KEYS):
    CASES.append(dict(name=name, description=description, version=version,
                      wrapped=wrapped, progressive_keys=list(keys), response=response))


# --- control ---
case("strict_baseline", "Strict JSON, for comparison.", block(v10_update()))

# --- trailing commas ---
case("comma_before_brace", "A trailing comma before the `}` of a component.",
     block(v10_update(t2='"Two tables are free tonight",')))
case("comma_before_brace_of_body", "A trailing comma before the `}` of the message body.",
     block(v10_update(end=",")))
case("comma_before_bracket", "A trailing comma before the `]` of the components list.",
     block(v10_update(tail=",")))
case("comma_before_bracket_of_payload", "A trailing comma before the `]` of the message list.",
     block(v10_update(outer="").replace("}}]", "}},]")))
case("comma_before_bracket_of_children", "A trailing comma in a list of child ids.",
     block(v10_update().replace('"status"]', '"status",]')))
case("comma_then_line_break_before_brace", "A trailing comma, then a line break and indent, before `}`.",
     block(v10_update(t2='"Two tables are free tonight",\n    ')))
case("comma_everywhere", "Trailing commas at every level of the payload.",
     block('[{"version": "v1.0", "updateComponents": {"surfaceId": "main", "components": ['
           '{"id": "root", "component": "Column", "children": ["greeting",],}, '
           '{"id": "greeting", "component": "Text", "text": "Hello",},],},},]'))

# --- raw control characters inside strings ---
case("raw_line_break_in_value", "A raw LF inside a string value.",
     block(v10_update(t1='"Good morning,\nand welcome"')))
case("raw_crlf_in_value", "A raw CR LF inside a string value.",
     block(v10_update(t1='"Good morning,\r\nand welcome"')))
case("raw_tab_in_value", "A raw tab inside a string value.",
     block(v10_update(t2='"Tables:\t2"')))
case("raw_other_controls_in_value", "Raw U+0001, U+001F and U+0000 inside a string value.",
     block(v10_update(t2='"a\x01b\x1fc\x00d"')))
case("raw_line_break_in_data_key", "A raw line break inside an object key of a data model.",
     block('[{"version": "v1.0", "updateDataModel": {"surfaceId": "main", "path": "/", '
           '"value": {"two\nlines": "yes"}}}]'))
case("raw_line_break_and_escaped_line_break", "A raw LF and an escaped \\n in the same value.",
     block(v10_update(t1='"one\ntwo\\nthree"')))

# --- curly quotes ---
case("curly_quotes_everywhere", "Every JSON quote written as “ (opening) and ” (closing).",
     block(curly(v10_update())))
case("curly_quotes_one_key_and_value", "One key and its value in curly quotes, the rest straight.",
     block(v10_update(t1="\u201cGood morning\u201d").replace('"text": \u201cGood',
                                                           '\u201ctext\u201d: \u201cGood')))
case("curly_close_quotes_only", "Keys and values quoted with ” on both sides.",
     block(v10_update(t2="\u201dTwo tables\u201d").replace('"surfaceId"', "\u201dsurfaceId\u201d")))
case("curly_single_quotes_as_json_quotes", "Keys and values in ‘ and ’.",
     block(v10_update(t1="\u2018Good morning\u2019")))
case("curly_double_inside_normal_string", "A “quoted” word inside an otherwise strict string.",
     block(v10_update(t1='"She said \u201cwelcome\u201d"')))
case("curly_apostrophe_inside_normal_string", "An apostrophe ’ inside an otherwise strict string.",
     block(v10_update(t1='"It\u2019s open"')))
case("curly_apostrophe_and_curly_key", "An apostrophe ’ inside a value, and a curly-quoted key elsewhere in the block.",
     block(v10_update(t1='"It\u2019s open"').replace('"surfaceId"', "\u201csurfaceId\u201d")))
case("curly_double_inside_string_and_curly_key", "A “quoted” word inside a straight string, and a curly-quoted key elsewhere.",
     block(v10_update(t1='"She said \u201cwelcome\u201d"').replace('"surfaceId"', "\u201csurfaceId\u201d")))
case("curly_apostrophe_then_curly_key_in_later_message",
     "Message 1 is strict with an apostrophe ’ in a value; message 2 uses a curly-quoted key.",
     block('[{"version": "v1.0", "updateComponents": {"surfaceId": "main", "components": ['
           '{"id": "root", "component": "Text", "text": "It\u2019s open"}]}}, '
           '{"version": "v1.0", "updateDataModel": {\u201csurfaceId\u201d: "main", "path": "/", "value": {"n": 1}}}]'))
case("curly_double_inside_string_then_curly_key_in_later_message",
     "Message 1 is strict with “quoted” words in a value; message 2 uses a curly-quoted key.",
     block('[{"version": "v1.0", "updateComponents": {"surfaceId": "main", "components": ['
           '{"id": "root", "component": "Text", "text": "Say \u201chi\u201d"}]}}, '
           '{"version": "v1.0", "updateDataModel": {\u201csurfaceId\u201d: "main", "path": "/", "value": {"n": 1}}}]'))
case("straight_quote_inside_curly_string", "A straight \" inside a value written in curly quotes.",
     block(v10_update(t1='\u201cSay "hi"\u201d')))
case("close_tag_inside_curly_string", "A `</a2ui-json>` inside a value written in curly quotes.",
     block(v10_update(t1="\u201cend </a2ui-json> here\u201d")))
case("close_tag_inside_straight_string", "A `</a2ui-json>` inside a strict string value.",
     block(v10_update(t1='"end </a2ui-json> here"')))

# --- content that looks like a repair target ---
case("string_looks_like_trailing_comma", "String values ending in `,}` and `, ]` in strict JSON.",
     block(v10_update(t1='"a,}"', t2='"b, ]"')))
case("string_looks_like_trailing_comma_with_real_ones",
     "String values `a,}` and `b, ]` beside real trailing commas.",
     block(v10_update(t1='"a,}"', t2='"b, ]",', tail=",")))
case("prose_with_lenient_looking_text", "Prose outside the block with curly quotes, `,}` and a tab.",
     "I\u2019ve used \u201cquotes\u201d, {a,} and [b,]\tand a tab.\n<a2ui-json>\n"
     + v10_update() + "\n</a2ui-json>\nDone,}")

# --- mixtures and other messages ---
case("mixture_comma_line_break_curly", "Trailing commas, a raw line break and curly quotes together.",
     block('[{\u201cversion\u201d: \u201cv1.0\u201d, \u201cupdateComponents\u201d: {"surfaceId": "main", "components": ['
           '{"id": "root", "component": "Text", "text": \u201cLine one\nLine two\u201d,},],},},]'))
case("create_update_data_v10", "createSurface, updateComponents and updateDataModel with lenient bits.",
     block('[\n  {"version": "v1.0", "createSurface": {"surfaceId": "main", "catalogId": "'
           + V10_CATALOG + '",},},\n'
           '  {"version": "v1.0", "updateComponents": {"surfaceId": "main", "components": [\n'
           '    {"id": "root", "component": "Column", "children": ["title", "body",],},\n'
           '    {"id": "title", "component": "Text", "text": \u201cOur menu\u201d},\n'
           '    {"id": "body", "component": "Text", "text": {"@path": "/note"},},\n'
           '  ]}},\n'
           '  {"version": "v1.0", "updateDataModel": {"surfaceId": "main", "path": "/", '
           '"value": {"note": "Soup\tof the day:\nleek",},},},\n]'))
case("v09_create_update_data", "v0.9 createSurface, updateComponents, updateDataModel with lenient bits.",
     block('[{"version": "v0.9", "createSurface": {"surfaceId": "main", "catalogId": "'
           + V09_CATALOG + '",}},'
           '{"version": "v0.9", "updateComponents": {"surfaceId": "main", "components": ['
           '{"id": "root", "component": "Text", "text": \u201cHello\nthere\u201d,},]}},'
           '{\u201cversion\u201d: "v0.9", "updateDataModel": {"surfaceId": "main", "path": "/x", "value": 3,}},]'),
     version="v0.9")
case("single_object_not_list", "The block holds one message object, not a list, with a trailing comma.",
     block('{"version": "v1.0", "deleteSurface": {"surfaceId": "main",},}'))
case("fenced_block_with_trailing_comma", "A ```json fence inside the tags, and a trailing comma.",
     block("```json\n" + v10_update(tail=",") + "\n```"))
case("two_blocks_second_lenient", "Two blocks; the second has a trailing comma and curly quotes.",
     BEFORE + "<a2ui-json>" + v10_update() + "</a2ui-json>\nAnd the update:\n<a2ui-json>"
     + '[{\u201cversion\u201d: "v1.0", "deleteSurface": {"surfaceId": "main",}}]' + "</a2ui-json>" + AFTER)
case("duplicate_key", "A key written twice in one object.",
     block(v10_update(t1='"first", "text": "second"')))
case("bare_json_trailing_comma", "Bare JSON (wrapped=False) with trailing commas.",
     v10_update(tail=",", end=","), wrapped=False)
case("bare_json_curly_and_line_break", "Bare JSON (wrapped=False) with curly quotes and a raw line break.",
     v10_update(t1="\u201cGood\nmorning\u201d").replace('"version"', "\u201cversion\u201d"), wrapped=False)
case("bare_json_single_quotes", "Bare JSON (wrapped=False) with single quotes (an unwrapped stream is never compiled, so never raises).",
     v10_update(t1="'Good morning'"), wrapped=False)
case("no_progressive_keys_lenient", "Trailing comma, raw line break and curly quotes with progressive_keys empty.",
     block(v10_update(t1="\u201cGood\nmorning\u201d", tail=",")), keys=[])

# --- still rejected ---
case("reject_single_quotes", "A value in ASCII single quotes.", block(v10_update(t1="'Good morning'")))
case("reject_unquoted_key", "An unquoted key.", block(v10_update().replace('"surfaceId"', "surfaceId")))
case("reject_line_comment", "A // comment between components.",
     block(v10_update(tail=" // the end\n")))
case("reject_block_comment", "A /* */ comment between components.",
     block(v10_update(tail=" /* end */")))
case("reject_missing_comma", "A missing comma between two components.",
     block(v10_update().replace('"Good morning"}, ', '"Good morning"} ')))
case("reject_double_comma", "Two commas before `]`.", block(v10_update(tail=",,")))
case("reject_leading_comma", "A comma right after `[`.",
     block(v10_update().replace('"children": [', '"children": [,')))
case("reject_lone_comma_in_object", "An object holding only a comma.",
     block('[{"version": "v1.0", "updateDataModel": {"surfaceId": "main", "path": "/", "value": {,}}}]'))
case("reject_python_literal", "A Python `True` literal.",
     block('[{"version": "v1.0", "updateDataModel": {"surfaceId": "main", "path": "/", "value": True}}]'))
case("reject_nan", "A NaN number.",
     block('[{"version": "v1.0", "updateDataModel": {"surfaceId": "main", "path": "/", "value": NaN}}]'))
case("reject_invalid_escape", "An invalid escape `\\q` in a string.", block(v10_update(t1='"a\\qb"')))
case("reject_nbsp_between_tokens", "A no-break space (U+00A0) between tokens.",
     block(v10_update().replace('"text": "Good', '"text":\u00a0"Good')))
case("unterminated_string_swallows_close_tag", "A string left open before the close tag (the tag is read as string content, so the block never closes).",
     block(v10_update(t2='"Two tables').replace("}]}}]", "")))
case("reject_curly_and_single_quotes", "Curly keys that would be repaired plus ASCII single quotes that are not.",
     block(v10_update(t1="'Good morning'").replace('"surfaceId"', "\u201csurfaceId\u201d")))


def part_json(part):
    if isinstance(part, TextPart):
        return {"text": part.text}
    if isinstance(part, A2uiPart):
        return {"a2ui": to_message_dicts(part.a2ui)}
    raise TypeError(f"unexpected part {part!r}")


def run(c, size):
    parser = DirectJsonParser([BasicCatalog(c["version"])],
                              progressive_keys=c["progressive_keys"])
    text = c["response"]
    step = (len(text) or 1) if size == "whole" else int(size)
    parts = []
    try:
        for i in range(0, len(text), step):
            parts.extend(part_json(p) for p in parser.parse_chunk(text[i:i + step],
                                                                   wrapped=c["wrapped"]))
    except Exception as e:  # recorded, not handled
        return {"parts": parts, "error": {"type": type(e).__name__, "message": str(e)}}
    return {"parts": parts, "error": None}


def main():
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "case names must be unique"
    golden = []
    for c in CASES:
        outcomes = {size: run(c, size) for size in CHUNKINGS}
        encoded = {json.dumps(o, sort_keys=True) for o in outcomes.values()}
        entry = dict(c)
        entry["whole_accepted"] = outcomes["whole"]["error"] is None
        entry["agreed"] = len(encoded) == 1
        entry["errors_agreed"] = len({json.dumps(o["error"]) for o in outcomes.values()}) == 1
        if entry["agreed"]:
            entry["outcome"] = outcomes["whole"]
        else:
            entry["chunkings"] = outcomes
        golden.append(entry)
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
        f.write("\n")
    for e in golden:
        errs = {k: (o["error"] or {}).get("type") for k, o in
                (e["chunkings"].items() if not e["agreed"] else [("all", e["outcome"])])}
        print(f'{e["name"]:55} whole_accepted={e["whole_accepted"]!s:5} agreed={e["agreed"]!s:5} {errs}')
    print(f"{len(golden)} cases written to {os.path.relpath(OUT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
