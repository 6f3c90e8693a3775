"""A reader of stpc decision tables in Python, standard library only.

It loads a table written by ``stpc compile``, refuses it exactly when the
Rust runtime (``stpc_runtime::Table::from_json``) does, labels events with
the table's labelers and decides them by walking the decision diagram. It
mirrors, module by module:

- ``runtime/src/table/mod.rs``, ``digest.rs`` and ``validate.rs``: the format
  version is read first; the bytes must be exactly the compact or the pretty
  canonical encoding (one trailing newline allowed); the digest is the SHA-256
  of the compact encoding with ``digest`` set to ``""``; then the structural
  rules;
- ``runtime/src/label.rs`` and ``entity.rs``: lexicons matched ASCII
  case-insensitively at word boundaries, regular expressions (Rust ``regex``
  syntax, translated to Python's ``re`` by :func:`translate_regex`), the entity
  recognisers, address globs, the required fallback, joins through the
  lattice's join table;
- ``runtime/src/decide.rs``: the point of the abstract domain and the walk of
  the diagram, failing closed to a BLOCK cell.

The canonical encoding is reproduced by an encoder written here rather than
``json.dumps``: ``serde_json`` writes floats with the ``zmij`` algorithm
(shortest round-trip digits; plain notation for decimal exponents -5 to 15,
``1e-6`` and ``1e+16`` outside), where Python writes ``1e-05`` and ``1e-06``.
The encoder also knows the field order of every object in the format, so a
table whose keys were reordered is refused here as it is in Rust.

Known differences from the Rust runtime, all at the edges of Unicode: Python's
``\\w`` and ``\\b`` count ``No`` digits (``²``) as word characters and
combining marks as not, where Rust's do the opposite; a pattern using
``\\p{..}`` classes other than letters and digits, or class set operations
(``&&``, ``--``, ``~~``), is refused at load time (``LoadError('bad_pattern')``)
rather than approximated.

Usage::

    from stpc_table import load, Runtime
    table = load(open("web_default.table.json", "rb").read())
    rt = Runtime(table)
    d = rt.decide_event({"tool": "web_search", "destination": "brave",
                         "mode": "speculative", "confidence": 0.9,
                         "args": {"q": "tenant rights"}})
    print(d["action"], d["rule_name"])
"""

from __future__ import annotations

import hashlib
import json
import math
import re

__all__ = [
    "FORMAT_VERSION",
    "UNKNOWN",
    "MISSING",
    "FAIL_CLOSED_RULE_ID",
    "FAIL_CLOSED_RULE_NAME",
    "LoadError",
    "load",
    "encode_canonical",
    "compute_digest",
    "format_float",
    "number_text",
    "parse_json",
    "translate_regex",
    "ENTITY_PATTERNS",
    "Runtime",
]

FORMAT_VERSION = 1
UNKNOWN = "<unknown>"
MISSING = "<missing>"
FAIL_CLOSED_RULE_ID = 4294967295
FAIL_CLOSED_RULE_NAME = "<fail-closed>"
MAX_DIMS = 24
MAX_LABELS = 64
U32_MAX = 4294967295
U16_MAX = 65535


class LoadError(Exception):
    """The table is refused. ``kind`` names the check that failed:
    ``json``, ``unsupported_version``, ``not_canonical``, ``digest_mismatch``,
    ``encode``, ``index_out_of_range``, ``invalid``, ``child_count``,
    ``bad_pattern``, ``bad_lexicon``. Messages never contain values."""

    def __init__(self, kind: str, message: str):
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


# ---------------------------------------------------------------------------
# JSON numbers and floats as serde_json sees them
# ---------------------------------------------------------------------------


def _parse_int(text: str):
    """serde_json reads integers into u64 or i64; ``-0`` and anything out of
    range become f64."""
    if text == "-0":
        return -0.0
    value = int(text)
    if -(2**63) <= value < 2**64:
        return value
    return float(text)


def _reject_constant(name: str):
    raise ValueError(f"`{name}` is not JSON")


def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError("duplicate key")
        out[k] = v
    return out


def parse_json(text: str, *, strict_keys: bool = False):
    """Parse JSON the way serde_json does: integers out of the u64/i64 range
    and ``-0`` are floats, ``NaN`` and ``Infinity`` are refused. With
    ``strict_keys`` a repeated key is an error (serde's ``deny_unknown_fields``
    structs refuse duplicates); otherwise the last one wins, as in a
    ``serde_json::Map``."""
    kwargs = {"parse_int": _parse_int, "parse_constant": _reject_constant}
    if strict_keys:
        kwargs["object_pairs_hook"] = _no_duplicates
    return json.loads(text, **kwargs)


def format_float(value: float) -> str:
    """A float as serde_json writes it (the ``zmij`` layout of the shortest
    round-trip digits)."""
    if not math.isfinite(value):
        raise ValueError("not finite")
    if value == 0.0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    r = repr(abs(value))  # shortest round-trip digits, like zmij
    if "e" in r:
        mant, exp = r.split("e")
        exp = int(exp)
    else:
        mant, exp = r, 0
    if "." in mant:
        ip, fp = mant.split(".")
    else:
        ip, fp = mant, ""
    digits = (ip + fp).lstrip("0")
    # value = 0.<ip><fp> * 10^(len(ip) + exp), adjusted for stripped zeros
    point = len(ip) + exp - (len(ip + fp) - len((ip + fp).lstrip("0")))
    digits = digits.rstrip("0") or "0"
    e = point - 1  # scientific exponent: d.ddd * 10^e
    n = len(digits)
    if -5 <= e <= 15:
        if e >= n - 1:
            return sign + digits + "0" * (e - n + 1) + ".0"
        if e >= 0:
            return sign + digits[: e + 1] + "." + digits[e + 1 :]
        return sign + "0." + "0" * (-e - 1) + digits
    frac = ("." + digits[1:]) if n > 1 else ""
    return sign + digits[0] + frac + "e" + ("+" if e >= 0 else "-") + str(abs(e))


def number_text(value) -> str:
    """The text of a JSON number as ``serde_json::Number``'s ``Display``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return format_float(value)


def _escape_string(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20:
            out.append(
                {8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r"}.get(o, "\\u%04x" % o)
            )
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


# ---------------------------------------------------------------------------
# The format's shape: every object's fields in declaration order
# ---------------------------------------------------------------------------

# A type is one of: "u32", "u16", "f64", "str", "bool", ("vec", T),
# ("opt", T), ("map_f64",), ("enum", [names]), a struct name (key of
# STRUCTS), or ("tagged", tag, {variant: [(field, T), ...]}).

_ACTION = ("enum", ["allow", "rewrite", "shadow", "defer", "block"])
_ADDRESS_KIND = ("enum", ["host", "url", "collection"])
_SUBJECT = ("enum", ["args", "destination"])
_ENTITY_KIND = (
    "enum",
    ["email", "phone", "person_name", "date", "time", "money", "gov_id", "address", "url", "ip"],
)
_GRANULARITY = ("enum", ["hour", "day", "week", "month", "year"])
_FIELD_TYPE = (
    "tagged",
    "kind",
    {
        "text": [],
        "entity": [],
        "time": [],
        "number": [],
        "enum": [("values", ("vec", "str"))],
        "list": [("item", "FieldType")],
    },
)

STRUCTS = {
    "Table": [
        ("format_version", "u32"),
        ("digest", "str"),
        ("contract", "str"),
        ("params", ("map_f64",)),
        ("lattices", "Lattices"),
        ("dimensions", ("vec", "Dimension")),
        ("diagram", "Diagram"),
        ("cells", ("vec", "Cell")),
        ("tools", ("vec", "Tool")),
        ("destinations", ("vec", "Destination")),
        ("observers", ("vec", "Observer")),
        ("forbid", ("vec", "ForbidCut")),
        ("thresholds", ("vec", "Threshold")),
        ("budgets", ("vec", "Budget")),
        ("audit", "AuditPolicy"),
        ("substitutes", ("vec", "Substitute")),
        ("transforms", ("vec", "Transform")),
        ("lexicons", ("vec", "Lexicon")),
        ("labelers", "Labelers"),
    ],
    "Lattices": [("args", "Lattice"), ("destination", "Lattice")],
    "Lattice": [
        ("name", "str"),
        ("labels", ("vec", "str")),
        ("join", ("vec", ("vec", "u32"))),
        ("bottom", "u32"),
    ],
    "Dimension": [("kind", "DimensionKind"), ("values", ("vec", "str"))],
    "DimensionKind": (
        "tagged",
        "dim",
        {
            "tool": [],
            "destination": [],
            "mode": [],
            "arg_label": [],
            "dest_label": [],
            "confidence": [("cuts", ("vec", "f64"))],
            "budget": [("budget", "u32")],
            "field_label": [("field", "str")],
        },
    ),
    "Diagram": [("root", "u32"), ("nodes", ("vec", "Node"))],
    "Node": (
        "tagged",
        "node",
        {
            "branch": [("dim", "u16"), ("children", ("vec", "u32"))],
            "leaf": [("cell", "u32")],
        },
    ),
    "Cell": [
        ("action", _ACTION),
        ("transforms", ("vec", "u32")),
        ("substitute", ("opt", "u32")),
        ("rule_id", "u32"),
        ("rule_name", "str"),
    ],
    "Tool": [
        ("name", "str"),
        ("effect", "str"),
        ("args", ("vec", "ArgField")),
        ("destinations", ("vec", "u32")),
        ("substitute", ("opt", "u32")),
    ],
    "ArgField": [("name", "str"), ("type", "FieldType")],
    "FieldType": _FIELD_TYPE,
    "Destination": [
        ("name", "str"),
        ("address", "Address"),
        ("label", "u32"),
        ("observers", ("vec", "u32")),
    ],
    "Address": [("kind", _ADDRESS_KIND), ("value", "str")],
    "Observer": [
        ("name", "str"),
        ("locality", ("enum", ["external", "internal"])),
        ("sees", ("vec", "str")),
    ],
    "ForbidCut": [("subject", _SUBJECT), ("label", "u32"), ("observers", ("vec", "u32"))],
    "Threshold": [("mode", "u32"), ("value", "f64")],
    "Budget": [("name", "str"), ("limit", "u32"), ("subject", _SUBJECT), ("at_least", "u32")],
    "AuditPolicy": [
        ("sinks", ("vec", "u32")),
        ("raw_args", "bool"),
        ("scrub_after_commit", "bool"),
    ],
    "Substitute": [
        ("name", "str"),
        ("tool", "u32"),
        ("observers", ("vec", "u32")),
        ("on_promote", ("enum", ["reuse", "reissue"])),
    ],
    "Transform": [
        ("name", "str"),
        ("applies_to", ("vec", "FieldType")),
        ("output_label", "u32"),
        ("steps", ("vec", "Step")),
    ],
    "Step": (
        "tagged",
        "op",
        {
            "replace_lexicon": [("lexicon", "u32"), ("with", ("opt", "str"))],
            "redact_entity": [("kind", _ENTITY_KIND), ("with", ("opt", "str"))],
            "coarsen_time": [("to", _GRANULARITY)],
            "constant": [("value", "str")],
        },
    ),
    "Lexicon": [("name", "str"), ("entries", ("vec", "LexiconEntry"))],
    "LexiconEntry": [("phrase", "str"), ("replacement", ("opt", "str"))],
    "Labelers": [("args", "Labeler"), ("destination", "Labeler")],
    "Labeler": [("rules", ("vec", "LabelRule")), ("fallback", "u32")],
    "LabelRule": (
        "tagged",
        "rule",
        {
            "lexicon": [("lexicon", "u32"), ("label", "u32"), ("unless_lexicon", ("opt", "u32"))],
            "pattern": [("regex", "str"), ("label", "u32"), ("unless_lexicon", ("opt", "u32"))],
            "entity": [("kind", _ENTITY_KIND), ("label", "u32")],
            "address": [("kind", _ADDRESS_KIND), ("glob", "str"), ("label", "u32")],
        },
    ),
}


class _Layout(Exception):
    """The value has the right shape but not the canonical key order."""


def _shape_error(path: str, what: str) -> LoadError:
    return LoadError("json", f"{path}: {what}")


def _fields(ty):
    return STRUCTS[ty] if isinstance(ty, str) and ty in STRUCTS else ty


def _encode(value, ty, path: str, pretty: bool, depth: int) -> str:
    """Encode ``value`` as type ``ty`` in the canonical layout; raise
    ``LoadError('json')`` when it is not of that type and ``_Layout`` when its
    keys are in another order than serde writes them."""
    ty = _fields(ty)
    if ty == "u32" or ty == "u16":
        hi = U32_MAX if ty == "u32" else U16_MAX
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= hi:
            raise _shape_error(path, f"expected {ty}")
        return str(value)
    if ty == "f64":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _shape_error(path, "expected a number")
        try:
            return format_float(float(value))
        except ValueError:
            raise LoadError("encode", f"{path} is not finite") from None
    if ty == "str":
        if not isinstance(value, str):
            raise _shape_error(path, "expected a string")
        return _escape_string(value)
    if ty == "bool":
        if not isinstance(value, bool):
            raise _shape_error(path, "expected a boolean")
        return "true" if value else "false"
    if isinstance(ty, list):  # a struct
        return _encode_object(value, None, ty, path, pretty, depth)
    kind = ty[0]
    if kind == "vec":
        if not isinstance(value, list):
            raise _shape_error(path, "expected an array")
        items = [_encode(v, ty[1], f"{path}[{i}]", pretty, depth + 1) for i, v in enumerate(value)]
        return _join("[", "]", items, pretty, depth)
    if kind == "opt":
        return "null" if value is None else _encode(value, ty[1], path, pretty, depth)
    if kind == "enum":
        if not isinstance(value, str) or value not in ty[1]:
            raise _shape_error(path, "unknown variant")
        return _escape_string(value)
    if kind == "map_f64":
        if not isinstance(value, dict):
            raise _shape_error(path, "expected an object")
        keys = list(value.keys())
        ordered = sorted(keys, key=lambda k: k.encode("utf-8", "surrogatepass"))
        if keys != ordered:
            raise _Layout()
        sep = ": " if pretty else ":"
        items = [
            _escape_string(k) + sep + _encode(value[k], "f64", f"{path}.{k}", pretty, depth + 1)
            for k in ordered
        ]
        return _join("{", "}", items, pretty, depth)
    if kind == "tagged":
        _, tag, variants = ty
        if not isinstance(value, dict):
            raise _shape_error(path, "expected an object")
        variant = value.get(tag)
        if not isinstance(variant, str) or variant not in variants:
            raise _shape_error(path, f"unknown or missing `{tag}`")
        return _encode_object(value, (tag, variant), variants[variant], path, pretty, depth)
    raise _shape_error(path, "unknown type")  # pragma: no cover


def _encode_object(value, tag, fields, path, pretty, depth) -> str:
    if not isinstance(value, dict):
        raise _shape_error(path, "expected an object")
    expected = ([tag[0]] if tag else []) + [f for f, _ in fields]
    keys = list(value.keys())
    unknown = [k for k in keys if k not in expected]
    if unknown:
        raise _shape_error(path, "unknown field")
    for f, fty in fields:
        if f not in value and not (isinstance(fty, tuple) and fty[0] == "opt"):
            raise _shape_error(path, f"missing field `{f}`")
    sep = ": " if pretty else ":"
    items = []
    if tag:
        items.append(_escape_string(tag[0]) + sep + _escape_string(tag[1]))
    for f, fty in fields:
        items.append(
            _escape_string(f) + sep + _encode(value.get(f), fty, f"{path}.{f}", pretty, depth + 1)
        )
    if keys != expected:
        # Every value is well-typed (encoded above) but the order or the
        # presence of optional fields differs from what serde writes.
        raise _Layout()
    return _join("{", "}", items, pretty, depth)


def _join(open_: str, close: str, items, pretty: bool, depth: int) -> str:
    if not items:
        return open_ + close
    if not pretty:
        return open_ + ",".join(items) + close
    inner = "  " * (depth + 1)
    return open_ + "\n" + ",\n".join(inner + i for i in items) + "\n" + "  " * depth + close


def encode_canonical(table: dict, *, pretty: bool = False) -> str:
    """The canonical encoding of a table (compact, or pretty with two-space
    indent), with keys in the format's declaration order."""
    return _encode(table, "Table", "table", pretty, 0)


def compute_digest(table: dict) -> str:
    """Lowercase hex SHA-256 of the compact encoding with ``digest`` = ``""``."""
    unsealed = dict(table)
    unsealed["digest"] = ""
    body = encode_canonical(unsealed).encode("utf-8")
    return hashlib.sha256(body).hexdigest()


def load(data: bytes) -> dict:
    """Parse, verify and validate a table; raise :class:`LoadError` if the
    Rust runtime would refuse it."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise LoadError("json", "the bytes are not UTF-8") from None
    try:
        obj = parse_json(text, strict_keys=True)
    except (ValueError, RecursionError) as e:
        raise LoadError("json", f"not valid JSON ({type(e).__name__})") from None
    if not isinstance(obj, dict) or "format_version" not in obj:
        raise LoadError("json", "missing field `format_version`")
    version = obj["format_version"]
    if isinstance(version, bool) or not isinstance(version, int) or not 0 <= version <= U32_MAX:
        raise LoadError("json", "`format_version` is not a u32")
    if version != FORMAT_VERSION:
        raise LoadError(
            "unsupported_version",
            f"table format version {version} is not supported (this reader reads version 1)",
        )
    try:
        compact = encode_canonical(obj)
        pretty = encode_canonical(obj, pretty=True)
        canonical = True
    except _Layout:
        canonical = False
    except UnicodeEncodeError:
        raise LoadError("json", "a string is not valid Unicode") from None
    try:
        if not canonical or text not in (compact, compact + "\n", pretty, pretty + "\n"):
            raise LoadError("not_canonical", "table bytes are not in canonical layout")
        if obj["digest"] != compute_digest(obj):
            raise LoadError("digest_mismatch", "table digest does not match its content")
    except UnicodeEncodeError:
        raise LoadError("json", "a string is not valid Unicode") from None
    validate(obj)
    return obj


# ---------------------------------------------------------------------------
# Structural validation (runtime/src/table/validate.rs)
# ---------------------------------------------------------------------------


def _index(what: str, i: int, n: int):
    if not i < n:
        raise LoadError("index_out_of_range", f"{what} refers to index {i} but only {n} exist")


def _invalid(what: str, rule: str):
    return LoadError("invalid", f"{what}: {rule}")


def _unique(names, what: str):
    seen = set()
    for i, n in enumerate(names):
        if n == "":
            raise _invalid(f"{what}[{i}].name", "must not be empty")
        if n in seen:
            raise _invalid(f"{what}[{i}].name", "is a duplicate")
        seen.add(n)


def _field_type(ty, what):
    if ty["kind"] == "enum" and not ty["values"]:
        raise _invalid(what, "an enum type has no values")
    if ty["kind"] == "list":
        _field_type(ty["item"], what)


def _lattice(lat, what):
    n = len(lat["labels"])
    if n == 0 or n > MAX_LABELS:
        raise _invalid(f"{what}.labels", "must have 1 to 64 labels")
    _unique(lat["labels"], f"{what}.labels")
    join = lat["join"]
    if len(join) != n or any(len(r) != n for r in join):
        raise _invalid(f"{what}.join", "must be a square table with one row and column per label")
    _index(f"{what}.bottom", lat["bottom"], n)

    def j(a, b):
        return join[a][b] if a < n and b < n else U32_MAX

    for a in range(n):
        if j(a, a) != a or j(lat["bottom"], a) != a:
            raise _invalid(f"{what}.join", "join is not idempotent or bottom is not least")
        for b in range(n):
            ab = j(a, b)
            if ab >= n or ab != j(b, a):
                raise _invalid(f"{what}.join", "join is out of range or not commutative")
            for c in range(n):
                if j(ab, c) != j(a, j(b, c)):
                    raise _invalid(f"{what}.join", "join is not associative")


def _label_values(lat):
    return list(lat["labels"]) + [MISSING]


def _dimensions(t):
    dims = t["dimensions"]
    if len(dims) < 6 or len(dims) > MAX_DIMS:
        raise _invalid("dimensions", "must have 6 to 24 entries")
    budgets_seen = 0
    fields = set()

    def expect(what, found, expected):
        if found != expected:
            raise _invalid(f"{what}.values", "do not match the names this dimension implies")

    order_rule = (
        "dimensions must be tool, destination, mode, arg_label, dest_label, confidence, "
        "budgets, field labels in that order"
    )
    for i, d in enumerate(dims):
        what = f"dimensions[{i}]"
        k = d["kind"]["dim"]
        if i == 0 and k == "tool":
            expect(what, d["values"], [x["name"] for x in t["tools"]] + [UNKNOWN])
        elif i == 1 and k == "destination":
            expect(what, d["values"], [x["name"] for x in t["destinations"]] + [UNKNOWN])
        elif i == 2 and k == "mode":
            _unique(d["values"], f"{what}.values")
            if "committed" not in d["values"]:
                raise _invalid(what, "the mode dimension must contain `committed`")
        elif i == 3 and k == "arg_label":
            expect(what, d["values"], _label_values(t["lattices"]["args"]))
        elif i == 4 and k == "dest_label":
            expect(what, d["values"], _label_values(t["lattices"]["destination"]))
        elif i == 5 and k == "confidence":
            cuts = d["kind"]["cuts"]
            if any(not math.isfinite(c) for c in cuts) or any(
                a >= b for a, b in zip(cuts, cuts[1:])
            ):
                raise _invalid(what, "confidence cuts must be finite and strictly increasing")
            if len(d["values"]) != len(cuts) + 1:
                raise _invalid(what, "a confidence dimension has one more value than cuts")
        elif i >= 6 and k == "budget":
            if d["kind"]["budget"] != budgets_seen or fields:
                raise _invalid(
                    what,
                    "budget dimensions must follow confidence, one per budget in budget order",
                )
            budgets_seen += 1
            expect(what, d["values"], ["available", "exhausted"])
        elif i >= 6 and k == "field_label":
            if d["kind"]["field"] in fields:
                raise _invalid(what, "a field has two field_label dimensions")
            fields.add(d["kind"]["field"])
            expect(what, d["values"], _label_values(t["lattices"]["args"]))
        else:
            raise _invalid(what, order_rule)
    if budgets_seen != len(t["budgets"]):
        raise _invalid("dimensions", "every budget needs exactly one budget dimension")


def _diagram(t):
    nodes = t["diagram"]["nodes"]
    _index("diagram.root", t["diagram"]["root"], len(nodes))
    for i, node in enumerate(nodes):
        if node["node"] == "leaf":
            _index(f"diagram.nodes[{i}].cell", node["cell"], len(t["cells"]))
            continue
        dim = node["dim"]
        _index(f"diagram.nodes[{i}].dim", dim, len(t["dimensions"]))
        expected = len(t["dimensions"][dim]["values"])
        if len(node["children"]) != expected:
            raise LoadError(
                "child_count",
                f"diagram.nodes[{i}] tests dimension {dim} with {len(node['children'])} "
                f"children but the dimension has {expected} values",
            )
        for j, c in enumerate(node["children"]):
            _index(f"diagram.nodes[{i}].children[{j}]", c, len(nodes))
            child = nodes[c]
            if child["node"] == "branch" and child["dim"] <= dim:
                raise _invalid(
                    f"diagram.nodes[{i}].children[{j}]",
                    "a child must test a later dimension (the diagram must be ordered and acyclic)",
                )


def _cell(t, i, c):
    for j, tr in enumerate(c["transforms"]):
        _index(f"cells[{i}].transforms[{j}]", tr, len(t["transforms"]))
    if c["substitute"] is not None:
        _index(f"cells[{i}].substitute", c["substitute"], len(t["substitutes"]))
    if c["action"] == "rewrite" and not c["transforms"]:
        raise _invalid(f"cells[{i}]", "a rewrite cell needs at least one transform")
    if c["action"] != "rewrite" and c["transforms"]:
        raise _invalid(f"cells[{i}]", "only a rewrite cell has transforms")
    if c["action"] != "shadow" and c["substitute"] is not None:
        raise _invalid(f"cells[{i}]", "only a shadow cell has a substitute")


def _labeler(t, lab, n, what):
    _index(f"{what}.fallback", lab["fallback"], n)
    nlex = len(t["lexicons"])
    for i, r in enumerate(lab["rules"]):
        w = f"{what}.rules[{i}]"
        if r["rule"] == "lexicon":
            _index(f"{w}.lexicon", r["lexicon"], nlex)
        _index(f"{w}.label", r["label"], n)
        if r["rule"] in ("lexicon", "pattern") and r["unless_lexicon"] is not None:
            _index(f"{w}.unless_lexicon", r["unless_lexicon"], nlex)


def validate(t: dict):
    """Every structural rule of ``validate.rs``, in the same order."""
    _lattice(t["lattices"]["args"], "lattices.args")
    _lattice(t["lattices"]["destination"], "lattices.destination")
    n_args = len(t["lattices"]["args"]["labels"])
    n_dest = len(t["lattices"]["destination"]["labels"])
    n_obs = len(t["observers"])
    _dimensions(t)
    _diagram(t)
    for i, c in enumerate(t["cells"]):
        _cell(t, i, c)
    _unique([x["name"] for x in t["tools"]], "tools")
    for i, tool in enumerate(t["tools"]):
        _unique([a["name"] for a in tool["args"]], f"tools[{i}].args")
        for j, a in enumerate(tool["args"]):
            _field_type(a["type"], f"tools[{i}].args[{j}]")
        for j, d in enumerate(tool["destinations"]):
            _index(f"tools[{i}].destinations[{j}]", d, len(t["destinations"]))
        if tool["substitute"] is not None:
            _index(f"tools[{i}].substitute", tool["substitute"], len(t["substitutes"]))
    _unique([x["name"] for x in t["destinations"]], "destinations")
    for i, d in enumerate(t["destinations"]):
        _index(f"destinations[{i}].label", d["label"], n_dest)
        for j, o in enumerate(d["observers"]):
            _index(f"destinations[{i}].observers[{j}]", o, n_obs)
    _unique([x["name"] for x in t["observers"]], "observers")
    for i, f in enumerate(t["forbid"]):
        _index(f"forbid[{i}].label", f["label"], n_args if f["subject"] == "args" else n_dest)
        for j, o in enumerate(f["observers"]):
            _index(f"forbid[{i}].observers[{j}]", o, n_obs)
    n_modes = len(t["dimensions"][2]["values"])
    for i, th in enumerate(t["thresholds"]):
        _index(f"thresholds[{i}].mode", th["mode"], n_modes)
        if not 0.0 <= th["value"] <= 1.0:
            raise _invalid(f"thresholds[{i}].value", "must be in [0, 1]")
    for i, b in enumerate(t["budgets"]):
        if b["limit"] == 0:
            raise _invalid(f"budgets[{i}].limit", "must be at least 1")
        _index(f"budgets[{i}].at_least", b["at_least"], n_args if b["subject"] == "args" else n_dest)
    for i, s in enumerate(t["audit"]["sinks"]):
        _index(f"audit.sinks[{i}]", s, n_obs)
    _unique([x["name"] for x in t["substitutes"]], "substitutes")
    for i, s in enumerate(t["substitutes"]):
        _index(f"substitutes[{i}].tool", s["tool"], len(t["tools"]))
        for j, o in enumerate(s["observers"]):
            _index(f"substitutes[{i}].observers[{j}]", o, n_obs)
    for i, tr in enumerate(t["transforms"]):
        _index(f"transforms[{i}].output_label", tr["output_label"], n_args)
        if not tr["steps"]:
            raise _invalid(f"transforms[{i}].steps", "must not be empty")
        for j, ty in enumerate(tr["applies_to"]):
            _field_type(ty, f"transforms[{i}].applies_to[{j}]")
        for j, st in enumerate(tr["steps"]):
            if st["op"] == "replace_lexicon":
                _index(f"transforms[{i}].steps[{j}].lexicon", st["lexicon"], len(t["lexicons"]))
    for i, lex in enumerate(t["lexicons"]):
        if any(_rust_trim(e["phrase"]) == "" for e in lex["entries"]):
            raise _invalid(f"lexicons[{i}].entries", "a phrase is empty")
    _labeler(t, t["labelers"]["args"], n_args, "labelers.args")
    _labeler(t, t["labelers"]["destination"], n_dest, "labelers.destination")


def _rust_trim(s: str) -> str:
    """``str::trim``: strips Unicode ``White_Space`` (Python's ``str.strip``
    also strips the separators U+001C to U+001F, which Rust keeps)."""
    return s.strip("".join(_WHITE_SPACE))


# ---------------------------------------------------------------------------
# Rust `regex` syntax to Python `re`
# ---------------------------------------------------------------------------

# Unicode White_Space, which Rust's `\s` matches (Python's `\s` adds U+001C-1F).
_WHITE_SPACE = [
    "\t", "\n", "\x0b", "\x0c", "\r", " ", "\x85", "\xa0", "\u1680",
    *[chr(c) for c in range(0x2000, 0x200B)],
    "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
]
_SPACE_CLASS_BODY = r"\t\n\x0b\x0c\r\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

_ASCII_CLASSES = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "ascii": r"\x00-\x7f",
    "blank": r"\t\x20",
    "cntrl": r"\x00-\x1f\x7f",
    "digit": "0-9",
    "graph": r"\x21-\x7e",
    "lower": "a-z",
    "print": r"\x20-\x7e",
    "punct": r"\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e",
    "space": r"\t\n\x0b\x0c\r\x20",
    "upper": "A-Z",
    "word": "0-9A-Za-z_",
    "xdigit": "0-9A-Fa-f",
}


class _Unsupported(Exception):
    pass


# General categories, by every name Rust's `regex` accepts for them (the
# abbreviation and the long name, compared loosely: case, spaces, `_` and
# `-` ignored). Scripts and binary properties other than these are not
# supported.
_CATEGORY_NAMES = {
    "L": ["letter"], "LC": ["casedletter"], "Lu": ["uppercaseletter"], "Ll": ["lowercaseletter"],
    "Lt": ["titlecaseletter"], "Lm": ["modifierletter"], "Lo": ["otherletter"],
    "M": ["mark", "combiningmark"], "Mn": ["nonspacingmark"], "Mc": ["spacingmark"],
    "Me": ["enclosingmark"], "N": ["number"], "Nd": ["decimalnumber", "digit"],
    "Nl": ["letternumber"], "No": ["othernumber"], "P": ["punctuation", "punct"],
    "Pc": ["connectorpunctuation"], "Pd": ["dashpunctuation"], "Ps": ["openpunctuation"],
    "Pe": ["closepunctuation"], "Pi": ["initialpunctuation"], "Pf": ["finalpunctuation"],
    "Po": ["otherpunctuation"], "S": ["symbol"], "Sm": ["mathsymbol"], "Sc": ["currencysymbol"],
    "Sk": ["modifiersymbol"], "So": ["othersymbol"], "Z": ["separator"],
    "Zs": ["spaceseparator"], "Zl": ["lineseparator"], "Zp": ["paragraphseparator"],
    "C": ["other"], "Cc": ["control", "cntrl"], "Cf": ["format"], "Co": ["privateuse"],
    "Cs": ["surrogate"], "Cn": ["unassigned"],
}
_CATEGORY_BY_NAME = {}
for _abbr, _longs in _CATEGORY_NAMES.items():
    for _n in [_abbr.lower()] + _longs:
        _CATEGORY_BY_NAME[_n] = _abbr
_CATEGORY_RANGES: dict = {}


def _category_ranges():
    """Code point ranges per two-letter general category (one scan, cached)."""
    if not _CATEGORY_RANGES:
        import unicodedata

        cur, start = None, 0
        for cp in range(0x110000):
            cat = unicodedata.category(chr(cp))
            if cat != cur:
                if cur is not None:
                    _CATEGORY_RANGES.setdefault(cur, []).append((start, cp - 1))
                cur, start = cat, cp
        _CATEGORY_RANGES.setdefault(cur, []).append((start, 0x10FFFF))
    return _CATEGORY_RANGES


def _category_class(name: str) -> str:
    """A class body (no brackets) for a general category such as ``Lu``."""
    key = name.replace(" ", "").replace("_", "").replace("-", "").lower()
    if key.startswith("gc=") or key.startswith("generalcategory="):
        key = key.split("=", 1)[1]
    abbr = _CATEGORY_BY_NAME.get(key)
    if abbr is None:
        raise _Unsupported(r"\p class")
    ranges = _category_ranges()
    if abbr == "LC":
        cats = ["Lu", "Ll", "Lt"]
    elif len(abbr) == 1:
        cats = [c for c in ranges if c.startswith(abbr)]
    else:
        cats = [abbr]
    spans = sorted(r for c in cats for r in ranges.get(c, []))
    return "".join(
        ("\\U%08x" % a) if a == b else ("\\U%08x-\\U%08x" % (a, b)) for a, b in spans
    )


class _RegexTranslator:
    """Recursive descent over Rust regex syntax, writing Python syntax.

    Flags: Rust's ``(?flags)`` sets flags until the end of the enclosing
    group, across ``|``; Python only allows global flags at the start, so each
    stretch with flags other than the enclosing Python state is wrapped in a
    scoped group ``(?i-ms:...)``. ``x`` (whitespace) and ``U`` (swap greed)
    are applied during translation; ``$`` without ``m`` becomes ``\\Z``
    (Python's ``$`` also matches before a final newline, Rust's does not).
    """

    def __init__(self, pattern: str):
        self.p = pattern
        self.i = 0

    def peek(self, k=0):
        j = self.i + k
        return self.p[j] if j < len(self.p) else None

    def translate(self) -> str:
        flags = {"i": False, "m": False, "s": False, "U": False, "u": True, "x": False}
        out = self.alternation(flags)
        if self.i < len(self.p):
            raise _Unsupported("unbalanced `)`")
        return out

    @staticmethod
    def py_state(f):
        return (f["i"], f["m"], f["s"], f["u"])

    @staticmethod
    def wrapper(f):
        on = "".join(c for c in "ims" if f[c])
        off = "".join(c for c in "ims" if not f[c])
        return "(?" + ("u" if f["u"] else "a") + on + ("-" + off if off else "") + ":"

    def alternation(self, flags) -> str:
        cur = dict(flags)
        base = self.py_state(flags)
        out = []
        wrapped = False
        while self.i < len(self.p):
            c = self.p[self.i]
            if c == ")":
                break
            if cur["x"] and c in " \t\n\r\x0b\x0c":
                self.i += 1
                continue
            if cur["x"] and c == "#":
                while self.i < len(self.p) and self.p[self.i] != "\n":
                    self.i += 1
                continue
            if c == "|":
                self.i += 1
                if wrapped:
                    out.append(")")
                out.append("|")
                wrapped = self.py_state(cur) != base
                if wrapped:
                    out.append(self.wrapper(cur))
                continue
            if c == "(" and self.peek(1) == "?" and self._is_directive():
                new = self._flags_directive(cur)
                if self.py_state(new) != self.py_state(cur):
                    if wrapped:
                        out.append(")")
                    wrapped = self.py_state(new) != base
                    if wrapped:
                        out.append(self.wrapper(new))
                cur = new
                continue
            atom = self.atom(cur)
            q = self.quantifier(cur)
            while q:
                atom += q
                q = self.quantifier(cur)
                if q:
                    # Python refuses a repeated repetition such as `a**`.
                    atom = "(?:" + atom + ")"
            out.append(atom)
        if wrapped:
            out.append(")")
        return "".join(out)

    def _is_directive(self) -> bool:
        j = self.i + 2
        while j < len(self.p) and (self.p[j].isalpha() or self.p[j] == "-"):
            j += 1
        return j < len(self.p) and self.p[j] == ")" and j > self.i + 2

    def _parse_flags(self, cur, end_chars):
        new = dict(cur)
        neg = False
        while True:
            c = self.peek()
            if c is None:
                raise _Unsupported("unclosed flags")
            if c in end_chars:
                return new
            self.i += 1
            if c == "-":
                neg = True
            elif c in "imsUux":
                new[c] = not neg
            else:
                raise _Unsupported(f"flag `{c}`")

    def _flags_directive(self, cur):
        self.i += 2  # "(?"
        new = self._parse_flags(cur, ")")
        self.i += 1
        return new

    def quantifier(self, cur) -> str:
        c = self.peek()
        q = ""
        if c in ("*", "+", "?"):
            self.i += 1
            q = c
        elif c == "{":
            j = self.p.find("}", self.i)
            body = self.p[self.i + 1 : j].replace(" ", "") if j > 0 else ""
            if j > 0 and re.fullmatch(r"\d+(,\d*)?", body):
                self.i = j + 1
                q = "{" + body + "}"
            else:
                raise _Unsupported("bad repetition")
        else:
            return ""
        lazy = False
        if self.peek() == "?":
            self.i += 1
            lazy = True
        if cur["U"]:
            lazy = not lazy
        return q + ("?" if lazy else "")

    def atom(self, cur) -> str:
        c = self.p[self.i]
        if c == "(":
            return self.group(cur)
        if c == "[":
            return self.char_class(cur)
        if c == "\\":
            return self.escape(cur, in_class=False)
        self.i += 1
        if c == ".":
            return "."
        if c == "^":
            return "^"
        if c == "$":
            return "$" if cur["m"] else r"\Z"
        if c in "*+?{":
            raise _Unsupported("repetition without an operand")
        return re.escape(c)

    def group(self, cur) -> str:
        self.i += 1  # "("
        head = ""
        inner_flags = cur
        if self.peek() == "?":
            if self.p.startswith("?P<", self.i) or (
                self.p.startswith("?<", self.i) and self.peek(2) not in ("=", "!")
            ):
                start = self.i + (3 if self.p.startswith("?P<", self.i) else 2)
                end = self.p.find(">", start)
                if end < 0:
                    raise _Unsupported("unclosed group name")
                head = "(?P<" + self.p[start:end] + ">"
                self.i = end + 1
            else:
                self.i += 1
                new = self._parse_flags(cur, ":)")
                if self.peek() != ":":
                    raise _Unsupported("group syntax")
                self.i += 1
                inner_flags = new
                head = self.wrapper(new) if self.py_state(new) != self.py_state(cur) else "(?:"
        else:
            head = "("
        body = self.alternation(inner_flags)
        if self.peek() != ")":
            raise _Unsupported("unclosed group")
        self.i += 1
        return head + body + ")"

    def _hex(self, n=None) -> int:
        if self.peek() == "{":
            j = self.p.find("}", self.i)
            if j < 0:
                raise _Unsupported("unclosed hex escape")
            text = self.p[self.i + 1 : j]
            self.i = j + 1
        else:
            text = self.p[self.i : self.i + n]
            self.i += n
        if not text or not re.fullmatch(r"[0-9A-Fa-f]+", text):
            raise _Unsupported("bad hex escape")
        return int(text, 16)

    def escape(self, cur, in_class: bool) -> str:
        self.i += 1  # "\\"
        c = self.peek()
        if c is None:
            raise _Unsupported("trailing backslash")
        self.i += 1
        if c in "dDwW":
            # Without `u` the enclosing wrapper carries Python's `a` flag.
            return "\\" + c
        if c == "s":
            if not cur["u"]:
                body = r"\t\n\x0b\x0c\r\x20"
            else:
                body = _SPACE_CLASS_BODY
            return body if in_class else "[" + body + "]"
        if c == "S":
            if in_class:
                return r"\S"  # approximation inside a class (U+001C-1F)
            body = r"\t\n\x0b\x0c\r\x20" if not cur["u"] else _SPACE_CLASS_BODY
            return "[^" + body + "]"
        if c in "pP":
            if self.peek() == "{":
                j = self.p.find("}", self.i)
                if j < 0:
                    raise _Unsupported("unclosed property")
                name = self.p[self.i + 1 : j]
                self.i = j + 1
            else:
                name = self.peek() or ""
                self.i += 1
            negated = c == "P"
            if name.startswith("^"):
                negated, name = not negated, name[1:]
            body = _category_class(name)
            if in_class:
                if negated:
                    raise _Unsupported(r"negated \P inside a class")
                return body
            return ("[^" if negated else "[") + body + "]"
        if in_class and c in "bBAzZ<>":
            if c == "b":
                return self._char(8)
            raise _Unsupported("assertion inside a class")
        if c == "b":
            if self.peek() == "{":
                j = self.p.find("}", self.i)
                name = self.p[self.i + 1 : j]
                self.i = j + 1
                return {
                    "start": r"\b(?=\w)",
                    "end": r"\b(?<=\w)",
                    "start-half": r"(?<!\w)",
                    "end-half": r"(?!\w)",
                }.get(name) or self._raise("word boundary kind")
            return r"\b"
        if c == "B":
            return r"\B"
        if c == "A":
            return r"\A"
        if c == "z":
            return r"\Z"
        if c == "<":
            return r"\b(?=\w)"
        if c == ">":
            return r"\b(?<=\w)"
        if c == "x":
            return self._char(self._hex(2))
        if c == "u":
            return self._char(self._hex(4))
        if c == "U":
            return self._char(self._hex(8))
        simple = {"a": "\x07", "f": "\x0c", "t": "\t", "n": "\n", "r": "\r", "v": "\x0b"}
        if c in simple:
            return self._char(ord(simple[c]))
        if c.isalnum():
            raise _Unsupported(f"escape `\\{c}`")
        return self._char(ord(c))

    @staticmethod
    def _raise(what):
        raise _Unsupported(what)

    @staticmethod
    def _char(cp: int) -> str:
        if cp > 0x10FFFF:
            raise _Unsupported("code point out of range")
        ch = chr(cp)
        if ch.isprintable() and not ch.isspace():
            return re.escape(ch)
        return "\\U%08x" % cp

    def char_class(self, cur) -> str:
        self.i += 1  # "["
        negated = False
        if self.peek() == "^":
            negated = True
            self.i += 1
        items = self._class_items(cur, first=True)
        return "[" + ("^" if negated else "") + items + "]"

    def _class_items(self, cur, first: bool) -> str:
        out = []
        start = True
        while True:
            c = self.peek()
            if c is None:
                raise _Unsupported("unclosed class")
            if c == "]" and not start:
                self.i += 1
                return "".join(out)
            start = False
            if cur["x"] and c in " \t\n\r\x0b\x0c":
                self.i += 1
                continue
            if c in "&-~" and self.peek(1) == c and self.peek(2) not in ("]", None):
                raise _Unsupported("class set operation")
            if c == "[":
                if self.p.startswith("[:", self.i):
                    j = self.p.find(":]", self.i + 2)
                    name = self.p[self.i + 2 : j] if j > 0 else ""
                    if name in _ASCII_CLASSES:
                        out.append(_ASCII_CLASSES[name])
                        self.i = j + 2
                        continue
                    raise _Unsupported("ASCII class")
                # A nested class is a union; only non-negated ones are supported.
                self.i += 1
                if self.peek() == "^":
                    raise _Unsupported("negated nested class")
                out.append(self._class_items(cur, first=True))
                continue
            lo, single = self._class_atom(cur)
            if self.peek() == "-" and self.peek(1) not in ("]", None) and single:
                self.i += 1
                hi, single = self._class_atom(cur)
                if not single:
                    raise _Unsupported("bad class range")
                out.append(lo + "-" + hi)
                continue
            out.append(lo)

    def _class_atom(self, cur):
        """One class member and whether it is a single character (a range
        bound) rather than a class body such as ``\\d``."""
        c = self.peek()
        if c == "\\":
            nxt = self.peek(1)
            text = self.escape(cur, in_class=True)
            return text, nxt is not None and nxt not in "dDwWsSpP"
        self.i += 1
        return self._char(ord(c)), True


_TRANSLATED: dict = {}


def translate_regex(pattern: str) -> str:
    """Translate a Rust ``regex`` pattern to an equivalent Python ``re``
    pattern; raise ``ValueError`` for syntax this reader does not support."""
    if pattern not in _TRANSLATED:
        try:
            _TRANSLATED[pattern] = _RegexTranslator(pattern).translate()
        except _Unsupported as e:
            raise ValueError(str(e)) from None
    return _TRANSLATED[pattern]


def _compile(pattern: str):
    return re.compile(translate_regex(pattern))


# ---------------------------------------------------------------------------
# Entity recognisers (runtime/src/entity.rs, copied verbatim)
# ---------------------------------------------------------------------------

ENTITY_PATTERNS = {
    "email": r"(?i)\b[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b",
    "phone": (
        r"(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|\b\d{3}[ .-])\d{3}[ .-]?\d{4}\b"
        r"|\+\d{1,3}[ .-]?\d{2,4}[ .-]?\d{3,4}[ .-]?\d{3,4}\b"
        r"|\b\d{3}\.\d{3}\.\d{4}\b"
    ),
    "person_name": (
        r"\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+(?P<e>[A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)"
        r"|(?i:\bmy\s+name\s+is|\bname\s*:)\s+(?P<e2>[A-Za-z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)"
    ),
    "date": (
        r"(?i)\b\d{4}-\d{1,2}-\d{1,2}\b"
        r"|\b\d{1,2}/\d{1,2}/\d{2,4}\b"
        r"|\b\d{1,2}\.\d{1,2}\.\d{4}\b"
        r"|\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b"
        r"|\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b(?:,?\s+\d{4}\b)?"
    ),
    "time": (
        r"(?i)\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:\s?[ap]\.?m\b\.?)?"
        r"|\b(?:1[0-2]|0?[1-9])\s?[ap]\.?m\b\.?"
    ),
    "money": (
        r"(?i)[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|thousand|million|billion)\b)?"
        r"|\b\d[\d,]*(?:\.\d+)?\s?(?:k\s)?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks)\b"
    ),
    "gov_id": (
        r"\b\d{3}-\d{2}-\d{4}\b"
        r"|\b[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b"
        r"|(?i:\b(?:ssn|social security(?: number)?|passport(?: number| no\.?)?|national id|tax id|driver'?s licen[cs]e(?: number)?)\s*[:#]?\s*)(?P<e>[A-Z0-9][A-Z0-9-]{4,})\b"
    ),
    "address": (
        r"(?i)\b\d{1,6}\s+(?:[a-z0-9.'-]+\s+){0,4}"
        r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|parkway|pkwy|highway|hwy|square|sq|circle|cir)\b\.?"
    ),
    "url": r"""(?i)\b(?:https?|ftp)://[^\s<>"']+|\bwww\.[^\s<>"']+""",
    "ip": (
        r"\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b"
        r"|(?i)\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b"
        r"|(?i)\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}:?){0,6}[0-9a-f]{1,4}\b"
    ),
}

_ENTITIES: dict = {}


def _entity(kind: str):
    if kind not in _ENTITIES:
        _ENTITIES[kind] = _compile(ENTITY_PATTERNS[kind])
    return _ENTITIES[kind]


# ---------------------------------------------------------------------------
# Labeling (runtime/src/label.rs)
# ---------------------------------------------------------------------------

_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _ascii_lower(s: str) -> str:
    return s.translate(_ASCII_LOWER)


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def at_word_boundaries(text: str, start: int, end: int) -> bool:
    """``label::at_word_boundaries`` over character offsets."""
    inner = text[start:end]
    starts_word = bool(inner) and _is_word(inner[0])
    ends_word = bool(inner) and _is_word(inner[-1])
    left_ok = not starts_word or not (start > 0 and _is_word(text[start - 1]))
    right_ok = not ends_word or not (end < len(text) and _is_word(text[end]))
    return left_ok and right_ok


def host_of(s: str):
    """``label::host_of``: the host of ``scheme://[user@]host[:port]/...``."""
    if "://" not in s:
        return None
    rest = s.split("://", 1)[1]
    authority = re.split(r"[/?#]", rest, maxsplit=1)[0]
    host = authority.rsplit("@", 1)[1] if "@" in authority else authority
    host = host.split(":", 1)[0]
    return host or None


def _eq_ascii_ci(a: str, b: str) -> bool:
    return a == b or (a.isascii() and b.isascii() and a.lower() == b.lower())


def glob_match(glob: str, text: str) -> bool:
    """``label::glob_match``: ``*`` any run, ``?`` one character, ASCII
    case-insensitive, backtracking on the last ``*`` only."""
    g, t = glob, text
    gi = ti = 0
    star = None
    while ti < len(t):
        gc = g[gi] if gi < len(g) else None
        if gc == "*":
            star = (gi, ti)
            gi += 1
        elif gc is not None and (gc == "?" or _eq_ascii_ci(gc, t[ti])):
            gi += 1
            ti += 1
        elif star is not None:
            sg, st = star
            gi = sg + 1
            ti = st + 1
            star = (sg, st + 1)
        else:
            return False
    return all(c == "*" for c in g[gi:])


class _Rules:
    def __init__(self, table, labeler, which):
        self.lexicon = []
        self.patterns = []
        self.entity = []
        self.address = []
        self.fallback = labeler["fallback"]
        for i, r in enumerate(labeler["rules"]):
            kind = r["rule"]
            if kind == "lexicon":
                self.lexicon.append((r["lexicon"], r["label"], r["unless_lexicon"]))
            elif kind == "pattern":
                try:
                    rx = _compile(r["regex"])
                except (ValueError, re.error):
                    raise LoadError(
                        "bad_pattern", f"labeler `{which}` rule {i} has a pattern that does not compile"
                    ) from None
                self.patterns.append((rx, r["label"], r["unless_lexicon"]))
            elif kind == "entity":
                self.entity.append((r["kind"], r["label"]))
            else:
                self.address.append((r["kind"], r["glob"], r["label"]))
        self.needs_lex = bool(self.lexicon) or any(u is not None for _, _, u in self.patterns)


class Labeler:
    """The compiled labelers of one table (``label::Labeler``)."""

    def __init__(self, table: dict):
        self.table = table
        # Phrases are trimmed and matched ASCII case-insensitively.
        self.phrases = []  # (lowered phrase, lexicon index)
        for li, lex in enumerate(table["lexicons"]):
            for e in lex["entries"]:
                self.phrases.append((_ascii_lower(_rust_trim(e["phrase"])), li))
        self.n_lexicons = len(table["lexicons"])
        self.args = _Rules(table, table["labelers"]["args"], "args")
        self.destination = _Rules(table, table["labelers"]["destination"], "destination")
        self.args_join = table["lattices"]["args"]["join"]
        self.dest_join = table["lattices"]["destination"]["join"]
        self.args_bottom = table["lattices"]["args"]["bottom"]
        self.dest_labels = [d["label"] for d in table["destinations"]]
        for kind in ENTITY_PATTERNS:
            _entity(kind)

    def lexicon_set(self, text: str):
        """Which lexicons have a phrase in ``text`` at word boundaries (all
        occurrences, overlapping, as the Aho-Corasick overlapping search)."""
        low = _ascii_lower(text)
        found = [False] * self.n_lexicons
        for phrase, li in self.phrases:
            if found[li]:
                continue
            start = low.find(phrase)
            while start >= 0:
                if at_word_boundaries(text, start, start + len(phrase)):
                    found[li] = True
                    break
                start = low.find(phrase, start + 1)
        return found

    @staticmethod
    def _join(join, a, b):
        if a is None:
            return b
        try:
            return join[a][b]
        except IndexError:
            return max(a, b)

    def label_text(self, rules: _Rules, join, text: str):
        acc = None
        lex = self.lexicon_set(text) if rules.needs_lex else []

        def has(i):
            return i is not None and i < len(lex) and lex[i]

        for li, label, unless in rules.lexicon:
            if has(li) and not has(unless):
                acc = self._join(join, acc, label)
        for rx, label, unless in rules.patterns:
            if rx.search(text) is not None and not has(unless):
                acc = self._join(join, acc, label)
        for kind, label in rules.entity:
            if _entity(kind).search(text) is not None:
                acc = self._join(join, acc, label)
        for kind, glob, label in rules.address:
            target = (host_of(text) or text) if kind == "host" else text
            if glob_match(glob, target):
                acc = self._join(join, acc, label)
        return acc

    def _leaf(self, text, acc):
        label = self.label_text(self.args, self.args_join, text)
        if label is None:
            label = self.args.fallback
        return self._join(self.args_join, acc, label)

    def _walk(self, v, acc):
        if v is None:
            return acc
        if isinstance(v, bool):
            return self._leaf("true" if v else "false", acc)
        if isinstance(v, (int, float)):
            return self._leaf(number_text(v), acc)
        if isinstance(v, str):
            return self._leaf(v, acc)
        if isinstance(v, list):
            for item in v:
                acc = self._walk(item, acc)
            return acc
        if isinstance(v, dict):
            for k, item in v.items():
                acc = self._leaf(k, acc)
                acc = self._walk(item, acc)
            return acc
        raise TypeError("not a JSON value")

    def label_value(self, v) -> int:
        """The label of one argument field (join over its leaves)."""
        acc = self._walk(v, None)
        return self.args.fallback if acc is None else acc

    def label_args(self, args):
        """``(fields, joined)``: per-field labels and their join; ``([], None)``
        when the arguments are not an object."""
        if not isinstance(args, dict):
            return [], None
        fields = []
        joined = None
        for k, v in args.items():
            label = self.label_value(v)
            joined = self._join(self.args_join, joined, label)
            fields.append((k, label))
        return fields, (self.args_bottom if joined is None else joined)

    def label_destination(self, known, destination: str) -> int:
        if known is not None and known < len(self.dest_labels):
            return self.dest_labels[known]
        label = self.label_text(self.destination, self.dest_join, destination)
        return self.destination.fallback if label is None else label


# ---------------------------------------------------------------------------
# Deciding (runtime/src/decide.rs)
# ---------------------------------------------------------------------------


class DecideError(Exception):
    """The event cannot be placed in the domain; the decision fails closed."""


FAIL_CLOSED = {
    "action": "block",
    "cell": None,
    "rule_id": FAIL_CLOSED_RULE_ID,
    "rule_name": FAIL_CLOSED_RULE_NAME,
    "transforms": [],
    "substitute": None,
}


class Runtime:
    """A loaded table with its labeler and name lookups (``Decider``)."""

    def __init__(self, table: dict):
        self.table = table
        self.labeler = Labeler(table)
        self.tools = {t["name"]: i for i, t in enumerate(table["tools"])}
        dests = {}
        # Names win over addresses: addresses first, then names (later wins).
        for i, d in enumerate(table["destinations"]):
            if d["address"]["kind"] != "url":
                dests[d["address"]["value"]] = i
                dests[_ascii_lower(d["address"]["value"])] = i
        for i, d in enumerate(table["destinations"]):
            dests[d["name"]] = i
        self.destinations = dests
        self.modes = {}
        self.cuts = []
        self.fields = []
        for d in table["dimensions"]:
            k = d["kind"]["dim"]
            if k == "mode":
                for i, m in enumerate(d["values"]):
                    self.modes.setdefault(m, i)
            elif k == "confidence":
                self.cuts = list(d["kind"]["cuts"])
            elif k == "field_label":
                self.fields.append(d["kind"]["field"])
        self.missing_arg = len(table["lattices"]["args"]["labels"])
        self.missing_dest = len(table["lattices"]["destination"]["labels"])

    # -- names ------------------------------------------------------------

    def tool_id(self, name: str):
        return self.tools.get(name)

    def destination_id(self, name: str):
        if name in self.destinations:
            return self.destinations[name]
        host = host_of(name)
        if host is not None and _ascii_lower(host) in self.destinations:
            return self.destinations[_ascii_lower(host)]
        for i, d in enumerate(self.table["destinations"]):
            if d["address"]["kind"] == "url" and glob_match(d["address"]["value"], name):
                return i
        return None

    def arg_label_id(self, name):
        labels = self.table["lattices"]["args"]["labels"]
        return labels.index(name) if name in labels else None

    def dest_label_id(self, name):
        labels = self.table["lattices"]["destination"]["labels"]
        return labels.index(name) if name in labels else None

    # -- points -----------------------------------------------------------

    def interval(self, c) -> int:
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c):
            raise DecideError("confidence is not a finite number")
        n = 0
        for cut in self.cuts:
            if c >= cut:
                n += 1
            else:
                break
        return n

    def point(self, tool, dest, mode, confidence, arg_label, dest_label, fields, exhausted):
        """The coordinates of a query; ``tool``/``dest`` are ids or ``None``
        (unknown), labels are ids or ``None`` (missing), ``fields`` maps field
        names to label ids, ``exhausted`` is one bool per budget."""
        t = self.table
        if mode not in self.modes:
            raise DecideError("mode is not declared by the contract")
        mode_id = self.modes[mode]

        def label(l, missing):
            if l is None:
                return missing
            if isinstance(l, int) and 0 <= l < missing:
                return l
            raise DecideError("a label id is outside its lattice")

        arg = label(arg_label, self.missing_arg)
        dl = label(dest_label, self.missing_dest)
        conf = self.interval(confidence)
        if len(exhausted) != len(t["budgets"]):
            raise DecideError("wrong number of budget states")
        coords = [
            len(t["tools"]) if tool is None else tool,
            len(t["destinations"]) if dest is None else dest,
            mode_id,
            arg,
            dl,
            conf,
        ]
        coords += [1 if e else 0 for e in exhausted]
        for f in self.fields:
            coords.append(label(fields.get(f), self.missing_arg))
        if len(coords) > MAX_DIMS:
            raise DecideError("the table has too many dimensions")
        return coords

    def evaluate(self, coords):
        """Walk the diagram; the cell index, or ``None`` (fail closed)."""
        t = self.table
        nodes = t["diagram"]["nodes"]
        n = t["diagram"]["root"]
        for _ in range(len(t["dimensions"]) + 1):
            if not 0 <= n < len(nodes):
                return None
            node = nodes[n]
            if node["node"] == "leaf":
                c = node["cell"]
                return c if 0 <= c < len(t["cells"]) else None
            dim = node["dim"]
            if dim >= len(coords):
                return None
            v = coords[dim]
            if not 0 <= v < len(node["children"]):
                return None
            n = node["children"][v]
        return None

    def decision(self, coords):
        cell = None if coords is None else self.evaluate(coords)
        if cell is None:
            return dict(FAIL_CLOSED)
        c = self.table["cells"][cell]
        return {
            "action": c["action"],
            "cell": cell,
            "rule_id": c["rule_id"],
            "rule_name": FAIL_CLOSED_RULE_NAME if c["rule_id"] == FAIL_CLOSED_RULE_ID else c["rule_name"],
            "transforms": list(c["transforms"]),
            "substitute": c["substitute"],
        }

    # -- events -----------------------------------------------------------

    def budget_states(self, exhausted_names):
        names = set(exhausted_names or [])
        return [b["name"] in names for b in self.table["budgets"]]

    def label_event(self, event: dict):
        """Labels of an event as names: ``{"args", "destination", "fields"}``,
        from the event's explicit ``labels`` where given, else the labeler."""
        t = self.table
        arg_names = t["lattices"]["args"]["labels"]
        dest_names = t["lattices"]["destination"]["labels"]
        args = event.get("args", {})
        if isinstance(args, str):
            # OpenAI-style tool calls carry arguments as a JSON string.
            args = parse_json(args)
        dest_id = self.destination_id(event.get("destination", ""))
        fields, joined = self.labeler.label_args(args)
        dlabel = self.labeler.label_destination(dest_id, event.get("destination", ""))
        return {
            "args": None if joined is None else arg_names[joined],
            "destination": dest_names[dlabel],
            "fields": {k: arg_names[l] for k, l in fields},
        }

    def decide_event(self, event: dict) -> dict:
        """Decide an event given as in ``stpc decide``'s input, extended with
        ``budgets_exhausted`` (budget names) and optional explicit ``labels``
        (``{"args": name|null, "destination": name|null, "fields": {..}}``)
        that bypass the labeler. Returns the decision plus the labels used."""
        explicit = event.get("labels")
        if explicit is None:
            labels = self.label_event(event)
        else:
            labels = {
                "args": explicit.get("args"),
                "destination": explicit.get("destination"),
                "fields": dict(explicit.get("fields") or {}),
            }
        try:
            arg = None if labels["args"] is None else self.arg_label_id(labels["args"])
            dl = None if labels["destination"] is None else self.dest_label_id(labels["destination"])
            if (labels["args"] is not None and arg is None) or (
                labels["destination"] is not None and dl is None
            ):
                raise DecideError("a label is not in its lattice")
            fields = {}
            for k, name in labels["fields"].items():
                fid = self.arg_label_id(name)
                if fid is None:
                    raise DecideError("a label is not in its lattice")
                fields[k] = fid
            coords = self.point(
                self.tool_id(event.get("tool", "")),
                self.destination_id(event.get("destination", "")),
                event.get("mode", "committed"),
                event.get("confidence", 1.0),
                arg,
                dl,
                fields,
                self.budget_states(event.get("budgets_exhausted")),
            )
        except DecideError:
            coords = None
        d = self.decision(coords)
        d["labels"] = labels
        return d
