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

Unicode: Python's ``\\w``, ``\\b`` and ``\\d`` and ``str.isalnum`` differ from
Rust's on a few thousand code points (combining marks, ``No`` digits such
as ``²``, characters newer than Python's tables), so this module embeds the
runtime's own tables (``RUST_WORD`` and friends, kept in sync by a Rust
test) and, for texts containing such a code point, matches with an *exact*
translation of each pattern built on them. ``\\p{..}`` general categories come
from ``unicodedata`` (possibly a Unicode version behind). Class set
operations (``&&``, ``--``, ``~~``), negated nested classes and script
properties are refused at load time (``LoadError('bad_pattern')``) rather
than approximated.

Usage::

    from stpc_table import load, CellReader
    table = load(open("web_default.table.json", "rb").read())
    rt = CellReader(table)
    d = rt.decide_cell({"tool": "web_search", "destination": "brave",
                         "mode": "speculative", "confidence": 0.9,
                         "args": {"q": "tenant rights"}})
    print(d["action"], d["rule_name"])
"""

from __future__ import annotations

import bisect
import hashlib
import json
import math
import re

__all__ = [
    "FORMAT_VERSION",
    "UNKNOWN",
    "MISSING",
    "FAIL_CLOSED_RULE_NAME",
    "LoadError",
    "load",
    "load_signed",
    "check_signature",
    "encode_canonical",
    "compute_digest",
    "format_float",
    "number_text",
    "parse_json",
    "translate_regex",
    "Pattern",
    "ENTITY_PATTERNS",
    "CellReader",
    "EventError",
    "read_event",
]

FORMAT_VERSION = 2
UNKNOWN = "<unknown>"
MISSING = "<missing>"
FAIL_CLOSED_RULE_NAME = "<fail-closed>"
MAX_DIMS = 24
MAX_LABELS = 64
U64_MAX = 18446744073709551615
U32_MAX = 4294967295
U16_MAX = 65535


class LoadError(Exception):
    """The table is refused. ``kind`` names the check that failed:
    ``json``, ``unsupported_version``, ``not_canonical``, ``digest_mismatch``,
    ``encode``, ``index_out_of_range``, ``invalid``, ``child_count``,
    ``bad_pattern``, ``bad_lexicon``, ``signature``. Messages never contain
    values."""

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
# ("opt", T), ("flag",) (a bool written only when true, as serde's
# `skip_serializing_if` does), ("skip", T) (an option written only when
# set), ("nonempty", T) (a list written only when it has members),
# ("map_f64",), ("enum", [names]), a struct
# name (key of STRUCTS), or ("tagged", tag, {variant: [(field, T), ...]}).

_ACTION = ("enum", ["allow", "rewrite", "shadow", "defer", "block"])
_ADDRESS_KIND = ("enum", ["host", "url", "collection"])
_SUBJECT = ("enum", ["args", "destination"])
_ENTITY_KIND = (
    "enum",
    [
        "email",
        "phone",
        "person_name",
        "date",
        "time",
        "money",
        "gov_id",
        "address",
        "url",
        "ip",
        "secret",
        "coordinates",
        "account_number",
    ],
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
        ("undeclared_destinations", ("flag",)),
        ("observers", ("vec", "Observer")),
        ("forbid", ("vec", "ForbidCut")),
        ("thresholds", ("vec", "Threshold")),
        ("budgets", ("vec", "Budget")),
        ("audit", "AuditPolicy"),
        ("substitutes", ("vec", "Substitute")),
        ("transforms", ("vec", "Transform")),
        ("lexicons", ("vec", "Lexicon")),
        ("labelers", "Labelers"),
        # The labeler index beside the table (`TABLE.index`): this reader
        # labels from the lexicons and only checks the reference's shape.
        ("index", ("skip", "IndexRef")),
    ],
    "IndexRef": [("sha256", "str"), ("bytes", "u64")],
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
        # `rewrite args >= L using ...`: the label index at or above which
        # every field is rewritten; left out when the rule names no scope.
        ("scope", ("skip", "u32")),
        # `on promote reissue`: a promoted rewritten call is decided again.
        ("reissue", ("flag",)),
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
    "ForbidCut": [
        ("subject", _SUBJECT),
        ("label", "u32"),
        ("observers", ("vec", "u32")),
        # The modes the cut leaves out (`unless committed`); serde leaves
        # an empty list out.
        ("unless", ("nonempty", ("vec", "u32"))),
    ],
    "Threshold": [("mode", "u32"), ("value", "f64")],
    "Budget": [("name", "str"), ("limit", "u32"), ("subject", _SUBJECT), ("at_least", "u32")],
    "AuditPolicy": [
        ("sinks", ("vec", "u32")),
        ("raw_args", "bool"),
        # What a record of a never-dispatched event omits.
        ("withhold_destination", ("flag",)),
        ("withhold_labels", ("flag",)),
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
    "LabelRule": [
        ("when", ("vec", "Condition")),
        ("unless", ("vec", "Condition")),
        ("fields", ("vec", "str")),
        ("tools", ("vec", "str")),
        ("label", "u32"),
    ],
    "Condition": (
        "tagged",
        "match",
        {
            "lexicon": [("lexicons", ("vec", "u32"))],
            "terms": [("lexicons", ("vec", "u32"))],
            "parts": [("lexicons", ("vec", "u32"))],
            "pattern": [("regex", "str")],
            "entity": [("kind", _ENTITY_KIND)],
            "address": [("kind", _ADDRESS_KIND), ("glob", "str")],
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
    if ty in ("u64", "u32", "u16"):
        hi = {"u64": U64_MAX, "u32": U32_MAX, "u16": U16_MAX}[ty]
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
    if kind == "flag":
        return _encode(value, "bool", path, pretty, depth)
    if kind == "skip":  # an `Option` serde leaves out when it is `None`
        return _encode(value, ty[1], path, pretty, depth)
    if kind == "nonempty":  # a list serde leaves out when it is empty
        return _encode(value, ty[1], path, pretty, depth)
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
    names = [f for f, _ in fields]
    keys = list(value.keys())
    unknown = [k for k in keys if k not in names and not (tag and k == tag[0])]
    if unknown:
        raise _shape_error(path, "unknown field")
    for f, fty in fields:
        if fty == ("flag",):
            if f in value and not isinstance(value[f], bool):
                raise _shape_error(f"{path}.{f}", "expected a boolean")
        elif f not in value and not (
            isinstance(fty, tuple) and fty[0] in ("opt", "skip", "nonempty")
        ):
            raise _shape_error(path, f"missing field `{f}`")
    # A flag is written only when it is set (an explicit `false` is not
    # canonical, and the layout check below refuses it).
    present = [
        f
        for f, fty in fields
        if not (fty == ("flag",) and value.get(f) is not True)
        and not (isinstance(fty, tuple) and fty[0] == "skip" and f not in value)
        and not (isinstance(fty, tuple) and fty[0] == "nonempty" and not value.get(f))
    ]
    expected = ([tag[0]] if tag else []) + present
    sep = ": " if pretty else ":"
    items = []
    if tag:
        items.append(_escape_string(tag[0]) + sep + _escape_string(tag[1]))
    for f, fty in fields:
        if f not in present:
            continue
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


def load_signed(data: bytes, signature: str, trusted_keys) -> dict:
    """:func:`load`, then require ``signature`` (the text of the table's
    ``.sig`` file) to be an Ed25519 signature of the table's digest by one of
    ``trusted_keys`` (texts of ``stpc keygen`` public key files). A table
    that was edited and re-digested is refused, as in the Rust runtime's
    ``Engine::load_signed``."""
    table = load(data)
    check_signature(table, signature, trusted_keys)
    return table


_PUBLIC_PREFIX = "stpc-ed25519-public:"
_MESSAGE_PREFIX = b"stpc-table-signature-v1\n"


def _hex_bytes(text, n):
    if not isinstance(text, str) or len(text) != 2 * n:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def check_signature(table: dict, signature: str, trusted_keys) -> None:
    """Raise :class:`LoadError` (``signature``) unless ``signature`` is a
    signature of ``table``'s digest by one of ``trusted_keys``."""

    def refuse(why):
        raise LoadError("signature", f"table signature refused: {why}")

    keys = []
    for text in trusted_keys:
        key = _hex_bytes(text.strip()[len(_PUBLIC_PREFIX):], 32) if isinstance(text, str) and text.strip().startswith(_PUBLIC_PREFIX) else None
        if key is None:
            refuse("a trusted key is not an stpc public key")
        keys.append(key)
    try:
        sig = parse_json(signature, strict_keys=True)
    except (ValueError, RecursionError, TypeError):
        refuse("the signature file is not a signature")
    if not isinstance(sig, dict) or set(sig) != {"algorithm", "key", "digest", "signature"}:
        refuse("the signature file is not a signature")
    if sig["algorithm"] != "ed25519":
        refuse("the signature is not ed25519")
    if sig["digest"] != table["digest"]:
        refuse("the signature is over another table's digest")
    key = _hex_bytes(sig["key"], 32)
    if key is None:
        refuse("the signature names a malformed key")
    if key not in keys:
        refuse("the signing key is not trusted")
    raw = _hex_bytes(sig["signature"], 64)
    if raw is None:
        refuse("the signature is malformed")
    if not _ed25519_verify(key, _MESSAGE_PREFIX + table["digest"].encode("ascii"), raw):
        refuse("the signature does not match the table's digest")


# Ed25519 verification (RFC 8032, section 6: the reference arithmetic in
# extended coordinates). The standard library has no Ed25519, and this
# reader has no dependencies; verifying one signature at load costs a few
# milliseconds. Scalars and coordinates out of range are refused; only a
# trusted key's signatures are ever checked, so the small-order cases that
# the Rust runtime's `verify_strict` also refuses cannot help a forger who
# does not hold that key.
_P = 2**255 - 19
_L = 2**252 + 27742317777372353535851937790883648493
_D = -121665 * pow(121666, _P - 2, _P) % _P
_SQRT_M1 = pow(2, (_P - 1) // 4, _P)


def _point_add(a, b):
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % _P
    bb = (y1 + x1) * (y2 + x2) % _P
    cc = 2 * t1 * t2 * _D % _P
    dd = 2 * z1 * z2 % _P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _point_mul(s, pt):
    q = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            q = _point_add(q, pt)
        pt = _point_add(pt, pt)
        s >>= 1
    return q


def _point_equal(a, b):
    return (a[0] * b[2] - b[0] * a[2]) % _P == 0 and (a[1] * b[2] - b[1] * a[2]) % _P == 0


def _recover_x(y, sign):
    if y >= _P:
        return None
    x2 = (y * y - 1) * pow(_D * y * y + 1, _P - 2, _P)
    if x2 % _P == 0:
        return None if sign else 0
    x = pow(x2, (_P + 3) // 8, _P)
    if (x * x - x2) % _P != 0:
        x = x * _SQRT_M1 % _P
    if (x * x - x2) % _P != 0:
        return None
    if (x & 1) != sign:
        x = _P - x
    return x


def _decompress(s):
    y = int.from_bytes(s, "little")
    sign = y >> 255
    y &= (1 << 255) - 1
    x = _recover_x(y, sign)
    if x is None:
        return None
    return (x, y, 1, x * y % _P)


_G_Y = 4 * pow(5, _P - 2, _P) % _P
_G = (_recover_x(_G_Y, 0), _G_Y, 1, _recover_x(_G_Y, 0) * _G_Y % _P)


def _ed25519_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    a = _decompress(public)
    r = _decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    if s >= _L:
        return False
    h = int.from_bytes(hashlib.sha512(signature[:32] + public + message).digest(), "little") % _L
    return _point_equal(_point_mul(s, _G), _point_add(r, _point_mul(h, a)))


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
    if c.get("scope") is not None:
        _index(f"cells[{i}].scope", c["scope"], len(t["lattices"]["args"]["labels"]))
    if c["action"] != "rewrite" and (c.get("scope") is not None or c.get("reissue")):
        raise _invalid(f"cells[{i}]", "only a rewrite cell has a scope or reissues on promotion")


def _labeler(t, lab, n, what):
    _index(f"{what}.fallback", lab["fallback"], n)
    nlex = len(t["lexicons"])
    for i, r in enumerate(lab["rules"]):
        w = f"{what}.rules[{i}]"
        _index(f"{w}.label", r["label"], n)
        if not r["when"]:
            raise _invalid(w, "a rule needs at least one condition")
        for j, c in enumerate(r["when"] + r["unless"]):
            if c["match"] in ("lexicon", "terms", "parts"):
                if not c["lexicons"]:
                    raise _invalid(
                        f"{w}.conditions[{j}].lexicons", "a condition names at least one lexicon"
                    )
                for k, l in enumerate(c["lexicons"]):
                    _index(f"{w}.conditions[{j}].lexicons[{k}]", l, nlex)


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
    for i, f in enumerate(t["forbid"]):
        for j, m in enumerate(f.get("unless", [])):
            _index(f"forbid[{i}].unless[{j}]", m, n_modes)
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
    return s.strip(_WHITE_SPACE_CHARS)


# ---------------------------------------------------------------------------
# The Unicode tables of the Rust runtime
# ---------------------------------------------------------------------------


def _ranges(text: str):
    """Parse ``lo-hi`` / ``lo`` hex words into sorted ``(lo, hi)`` pairs."""
    out = []
    for word in text.split():
        lo, _, hi = word.partition("-")
        out.append((int(lo, 16), int(hi or lo, 16)))
    return out


# BEGIN GENERATED: Unicode tables of the Rust runtime
# What the `regex` crate's `\w` and `\d` and Rust's `char::is_alphanumeric`
# and `char::is_whitespace` match, as hex code point ranges. Checked (and, with
# STPC_BLESS=1, rewritten) by `cargo test -p stpc-tests --test compiler vectors`.
RUST_WORD = _ranges("""
30-39 41-5a 5f 61-7a aa b5 ba c0-d6 d8-f6 f8-2c1 2c6-2d1 2e0-2e4 2ec 2ee 300-374 376-377 37a-37d
37f 386 388-38a 38c 38e-3a1 3a3-3f5 3f7-481 483-52f 531-556 559 560-588 591-5bd 5bf 5c1-5c2
5c4-5c5 5c7 5d0-5ea 5ef-5f2 610-61a 620-669 66e-6d3 6d5-6dc 6df-6e8 6ea-6fc 6ff 710-74a 74d-7b1
7c0-7f5 7fa 7fd 800-82d 840-85b 860-86a 870-887 889-88e 897-8e1 8e3-963 966-96f 971-983 985-98c
98f-990 993-9a8 9aa-9b0 9b2 9b6-9b9 9bc-9c4 9c7-9c8 9cb-9ce 9d7 9dc-9dd 9df-9e3 9e6-9f1 9fc 9fe
a01-a03 a05-a0a a0f-a10 a13-a28 a2a-a30 a32-a33 a35-a36 a38-a39 a3c a3e-a42 a47-a48 a4b-a4d a51
a59-a5c a5e a66-a75 a81-a83 a85-a8d a8f-a91 a93-aa8 aaa-ab0 ab2-ab3 ab5-ab9 abc-ac5 ac7-ac9
acb-acd ad0 ae0-ae3 ae6-aef af9-aff b01-b03 b05-b0c b0f-b10 b13-b28 b2a-b30 b32-b33 b35-b39
b3c-b44 b47-b48 b4b-b4d b55-b57 b5c-b5d b5f-b63 b66-b6f b71 b82-b83 b85-b8a b8e-b90 b92-b95
b99-b9a b9c b9e-b9f ba3-ba4 ba8-baa bae-bb9 bbe-bc2 bc6-bc8 bca-bcd bd0 bd7 be6-bef c00-c0c
c0e-c10 c12-c28 c2a-c39 c3c-c44 c46-c48 c4a-c4d c55-c56 c58-c5a c5d c60-c63 c66-c6f c80-c83
c85-c8c c8e-c90 c92-ca8 caa-cb3 cb5-cb9 cbc-cc4 cc6-cc8 cca-ccd cd5-cd6 cdd-cde ce0-ce3 ce6-cef
cf1-cf3 d00-d0c d0e-d10 d12-d44 d46-d48 d4a-d4e d54-d57 d5f-d63 d66-d6f d7a-d7f d81-d83 d85-d96
d9a-db1 db3-dbb dbd dc0-dc6 dca dcf-dd4 dd6 dd8-ddf de6-def df2-df3 e01-e3a e40-e4e e50-e59
e81-e82 e84 e86-e8a e8c-ea3 ea5 ea7-ebd ec0-ec4 ec6 ec8-ece ed0-ed9 edc-edf f00 f18-f19 f20-f29
f35 f37 f39 f3e-f47 f49-f6c f71-f84 f86-f97 f99-fbc fc6 1000-1049 1050-109d 10a0-10c5 10c7 10cd
10d0-10fa 10fc-1248 124a-124d 1250-1256 1258 125a-125d 1260-1288 128a-128d 1290-12b0 12b2-12b5
12b8-12be 12c0 12c2-12c5 12c8-12d6 12d8-1310 1312-1315 1318-135a 135d-135f 1380-138f 13a0-13f5
13f8-13fd 1401-166c 166f-167f 1681-169a 16a0-16ea 16ee-16f8 1700-1715 171f-1734 1740-1753
1760-176c 176e-1770 1772-1773 1780-17d3 17d7 17dc-17dd 17e0-17e9 180b-180d 180f-1819 1820-1878
1880-18aa 18b0-18f5 1900-191e 1920-192b 1930-193b 1946-196d 1970-1974 1980-19ab 19b0-19c9
19d0-19d9 1a00-1a1b 1a20-1a5e 1a60-1a7c 1a7f-1a89 1a90-1a99 1aa7 1ab0-1ace 1b00-1b4c 1b50-1b59
1b6b-1b73 1b80-1bf3 1c00-1c37 1c40-1c49 1c4d-1c7d 1c80-1c8a 1c90-1cba 1cbd-1cbf 1cd0-1cd2
1cd4-1cfa 1d00-1f15 1f18-1f1d 1f20-1f45 1f48-1f4d 1f50-1f57 1f59 1f5b 1f5d 1f5f-1f7d 1f80-1fb4
1fb6-1fbc 1fbe 1fc2-1fc4 1fc6-1fcc 1fd0-1fd3 1fd6-1fdb 1fe0-1fec 1ff2-1ff4 1ff6-1ffc 200c-200d
203f-2040 2054 2071 207f 2090-209c 20d0-20f0 2102 2107 210a-2113 2115 2119-211d 2124 2126 2128
212a-212d 212f-2139 213c-213f 2145-2149 214e 2160-2188 24b6-24e9 2c00-2ce4 2ceb-2cf3 2d00-2d25
2d27 2d2d 2d30-2d67 2d6f 2d7f-2d96 2da0-2da6 2da8-2dae 2db0-2db6 2db8-2dbe 2dc0-2dc6 2dc8-2dce
2dd0-2dd6 2dd8-2dde 2de0-2dff 2e2f 3005-3007 3021-302f 3031-3035 3038-303c 3041-3096 3099-309a
309d-309f 30a1-30fa 30fc-30ff 3105-312f 3131-318e 31a0-31bf 31f0-31ff 3400-4dbf 4e00-a48c
a4d0-a4fd a500-a60c a610-a62b a640-a672 a674-a67d a67f-a6f1 a717-a71f a722-a788 a78b-a7cd
a7d0-a7d1 a7d3 a7d5-a7dc a7f2-a827 a82c a840-a873 a880-a8c5 a8d0-a8d9 a8e0-a8f7 a8fb a8fd-a92d
a930-a953 a960-a97c a980-a9c0 a9cf-a9d9 a9e0-a9fe aa00-aa36 aa40-aa4d aa50-aa59 aa60-aa76
aa7a-aac2 aadb-aadd aae0-aaef aaf2-aaf6 ab01-ab06 ab09-ab0e ab11-ab16 ab20-ab26 ab28-ab2e
ab30-ab5a ab5c-ab69 ab70-abea abec-abed abf0-abf9 ac00-d7a3 d7b0-d7c6 d7cb-d7fb f900-fa6d
fa70-fad9 fb00-fb06 fb13-fb17 fb1d-fb28 fb2a-fb36 fb38-fb3c fb3e fb40-fb41 fb43-fb44 fb46-fbb1
fbd3-fd3d fd50-fd8f fd92-fdc7 fdf0-fdfb fe00-fe0f fe20-fe2f fe33-fe34 fe4d-fe4f fe70-fe74
fe76-fefc ff10-ff19 ff21-ff3a ff3f ff41-ff5a ff66-ffbe ffc2-ffc7 ffca-ffcf ffd2-ffd7 ffda-ffdc
10000-1000b 1000d-10026 10028-1003a 1003c-1003d 1003f-1004d 10050-1005d 10080-100fa 10140-10174
101fd 10280-1029c 102a0-102d0 102e0 10300-1031f 1032d-1034a 10350-1037a 10380-1039d 103a0-103c3
103c8-103cf 103d1-103d5 10400-1049d 104a0-104a9 104b0-104d3 104d8-104fb 10500-10527 10530-10563
10570-1057a 1057c-1058a 1058c-10592 10594-10595 10597-105a1 105a3-105b1 105b3-105b9 105bb-105bc
105c0-105f3 10600-10736 10740-10755 10760-10767 10780-10785 10787-107b0 107b2-107ba 10800-10805
10808 1080a-10835 10837-10838 1083c 1083f-10855 10860-10876 10880-1089e 108e0-108f2 108f4-108f5
10900-10915 10920-10939 10980-109b7 109be-109bf 10a00-10a03 10a05-10a06 10a0c-10a13 10a15-10a17
10a19-10a35 10a38-10a3a 10a3f 10a60-10a7c 10a80-10a9c 10ac0-10ac7 10ac9-10ae6 10b00-10b35
10b40-10b55 10b60-10b72 10b80-10b91 10c00-10c48 10c80-10cb2 10cc0-10cf2 10d00-10d27 10d30-10d39
10d40-10d65 10d69-10d6d 10d6f-10d85 10e80-10ea9 10eab-10eac 10eb0-10eb1 10ec2-10ec4 10efc-10f1c
10f27 10f30-10f50 10f70-10f85 10fb0-10fc4 10fe0-10ff6 11000-11046 11066-11075 1107f-110ba 110c2
110d0-110e8 110f0-110f9 11100-11134 11136-1113f 11144-11147 11150-11173 11176 11180-111c4
111c9-111cc 111ce-111da 111dc 11200-11211 11213-11237 1123e-11241 11280-11286 11288 1128a-1128d
1128f-1129d 1129f-112a8 112b0-112ea 112f0-112f9 11300-11303 11305-1130c 1130f-11310 11313-11328
1132a-11330 11332-11333 11335-11339 1133b-11344 11347-11348 1134b-1134d 11350 11357 1135d-11363
11366-1136c 11370-11374 11380-11389 1138b 1138e 11390-113b5 113b7-113c0 113c2 113c5 113c7-113ca
113cc-113d3 113e1-113e2 11400-1144a 11450-11459 1145e-11461 11480-114c5 114c7 114d0-114d9
11580-115b5 115b8-115c0 115d8-115dd 11600-11640 11644 11650-11659 11680-116b8 116c0-116c9
116d0-116e3 11700-1171a 1171d-1172b 11730-11739 11740-11746 11800-1183a 118a0-118e9 118ff-11906
11909 1190c-11913 11915-11916 11918-11935 11937-11938 1193b-11943 11950-11959 119a0-119a7
119aa-119d7 119da-119e1 119e3-119e4 11a00-11a3e 11a47 11a50-11a99 11a9d 11ab0-11af8 11bc0-11be0
11bf0-11bf9 11c00-11c08 11c0a-11c36 11c38-11c40 11c50-11c59 11c72-11c8f 11c92-11ca7 11ca9-11cb6
11d00-11d06 11d08-11d09 11d0b-11d36 11d3a 11d3c-11d3d 11d3f-11d47 11d50-11d59 11d60-11d65
11d67-11d68 11d6a-11d8e 11d90-11d91 11d93-11d98 11da0-11da9 11ee0-11ef6 11f00-11f10 11f12-11f3a
11f3e-11f42 11f50-11f5a 11fb0 12000-12399 12400-1246e 12480-12543 12f90-12ff0 13000-1342f
13440-13455 13460-143fa 14400-14646 16100-16139 16800-16a38 16a40-16a5e 16a60-16a69 16a70-16abe
16ac0-16ac9 16ad0-16aed 16af0-16af4 16b00-16b36 16b40-16b43 16b50-16b59 16b63-16b77 16b7d-16b8f
16d40-16d6c 16d70-16d79 16e40-16e7f 16f00-16f4a 16f4f-16f87 16f8f-16f9f 16fe0-16fe1 16fe3-16fe4
16ff0-16ff1 17000-187f7 18800-18cd5 18cff-18d08 1aff0-1aff3 1aff5-1affb 1affd-1affe 1b000-1b122
1b132 1b150-1b152 1b155 1b164-1b167 1b170-1b2fb 1bc00-1bc6a 1bc70-1bc7c 1bc80-1bc88 1bc90-1bc99
1bc9d-1bc9e 1ccf0-1ccf9 1cf00-1cf2d 1cf30-1cf46 1d165-1d169 1d16d-1d172 1d17b-1d182 1d185-1d18b
1d1aa-1d1ad 1d242-1d244 1d400-1d454 1d456-1d49c 1d49e-1d49f 1d4a2 1d4a5-1d4a6 1d4a9-1d4ac
1d4ae-1d4b9 1d4bb 1d4bd-1d4c3 1d4c5-1d505 1d507-1d50a 1d50d-1d514 1d516-1d51c 1d51e-1d539
1d53b-1d53e 1d540-1d544 1d546 1d54a-1d550 1d552-1d6a5 1d6a8-1d6c0 1d6c2-1d6da 1d6dc-1d6fa
1d6fc-1d714 1d716-1d734 1d736-1d74e 1d750-1d76e 1d770-1d788 1d78a-1d7a8 1d7aa-1d7c2 1d7c4-1d7cb
1d7ce-1d7ff 1da00-1da36 1da3b-1da6c 1da75 1da84 1da9b-1da9f 1daa1-1daaf 1df00-1df1e 1df25-1df2a
1e000-1e006 1e008-1e018 1e01b-1e021 1e023-1e024 1e026-1e02a 1e030-1e06d 1e08f 1e100-1e12c
1e130-1e13d 1e140-1e149 1e14e 1e290-1e2ae 1e2c0-1e2f9 1e4d0-1e4f9 1e5d0-1e5fa 1e7e0-1e7e6
1e7e8-1e7eb 1e7ed-1e7ee 1e7f0-1e7fe 1e800-1e8c4 1e8d0-1e8d6 1e900-1e94b 1e950-1e959 1ee00-1ee03
1ee05-1ee1f 1ee21-1ee22 1ee24 1ee27 1ee29-1ee32 1ee34-1ee37 1ee39 1ee3b 1ee42 1ee47 1ee49 1ee4b
1ee4d-1ee4f 1ee51-1ee52 1ee54 1ee57 1ee59 1ee5b 1ee5d 1ee5f 1ee61-1ee62 1ee64 1ee67-1ee6a
1ee6c-1ee72 1ee74-1ee77 1ee79-1ee7c 1ee7e 1ee80-1ee89 1ee8b-1ee9b 1eea1-1eea3 1eea5-1eea9
1eeab-1eebb 1f130-1f149 1f150-1f169 1f170-1f189 1fbf0-1fbf9 20000-2a6df 2a700-2b739 2b740-2b81d
2b820-2cea1 2ceb0-2ebe0 2ebf0-2ee5d 2f800-2fa1d 30000-3134a 31350-323af e0100-e01ef
""")
RUST_DIGIT = _ranges("""
30-39 660-669 6f0-6f9 7c0-7c9 966-96f 9e6-9ef a66-a6f ae6-aef b66-b6f be6-bef c66-c6f ce6-cef
d66-d6f de6-def e50-e59 ed0-ed9 f20-f29 1040-1049 1090-1099 17e0-17e9 1810-1819 1946-194f
19d0-19d9 1a80-1a89 1a90-1a99 1b50-1b59 1bb0-1bb9 1c40-1c49 1c50-1c59 a620-a629 a8d0-a8d9
a900-a909 a9d0-a9d9 a9f0-a9f9 aa50-aa59 abf0-abf9 ff10-ff19 104a0-104a9 10d30-10d39 10d40-10d49
11066-1106f 110f0-110f9 11136-1113f 111d0-111d9 112f0-112f9 11450-11459 114d0-114d9 11650-11659
116c0-116c9 116d0-116e3 11730-11739 118e0-118e9 11950-11959 11bf0-11bf9 11c50-11c59 11d50-11d59
11da0-11da9 11f50-11f59 16130-16139 16a60-16a69 16ac0-16ac9 16b50-16b59 16d70-16d79 1ccf0-1ccf9
1d7ce-1d7ff 1e140-1e149 1e2f0-1e2f9 1e4f0-1e4f9 1e5f1-1e5fa 1e950-1e959 1fbf0-1fbf9
""")
RUST_ALNUM = _ranges("""
30-39 41-5a 61-7a aa b2-b3 b5 b9-ba bc-be c0-d6 d8-f6 f8-2c1 2c6-2d1 2e0-2e4 2ec 2ee 345 363-374
376-377 37a-37d 37f 386 388-38a 38c 38e-3a1 3a3-3f5 3f7-481 48a-52f 531-556 559 560-588 5b0-5bd
5bf 5c1-5c2 5c4-5c5 5c7 5d0-5ea 5ef-5f2 610-61a 620-657 659-669 66e-6d3 6d5-6dc 6e1-6e8 6ed-6fc
6ff 710-73f 74d-7b1 7c0-7ea 7f4-7f5 7fa 800-817 81a-82c 840-858 860-86a 870-887 889-88f 897
8a0-8c9 8d4-8df 8e3-8e9 8f0-93b 93d-94c 94e-950 955-963 966-96f 971-983 985-98c 98f-990 993-9a8
9aa-9b0 9b2 9b6-9b9 9bd-9c4 9c7-9c8 9cb-9cc 9ce 9d7 9dc-9dd 9df-9e3 9e6-9f1 9f4-9f9 9fc a01-a03
a05-a0a a0f-a10 a13-a28 a2a-a30 a32-a33 a35-a36 a38-a39 a3e-a42 a47-a48 a4b-a4c a51 a59-a5c a5e
a66-a75 a81-a83 a85-a8d a8f-a91 a93-aa8 aaa-ab0 ab2-ab3 ab5-ab9 abd-ac5 ac7-ac9 acb-acc ad0
ae0-ae3 ae6-aef af9-afc b01-b03 b05-b0c b0f-b10 b13-b28 b2a-b30 b32-b33 b35-b39 b3d-b44 b47-b48
b4b-b4c b56-b57 b5c-b5d b5f-b63 b66-b6f b71-b77 b82-b83 b85-b8a b8e-b90 b92-b95 b99-b9a b9c
b9e-b9f ba3-ba4 ba8-baa bae-bb9 bbe-bc2 bc6-bc8 bca-bcc bd0 bd7 be6-bf2 c00-c0c c0e-c10 c12-c28
c2a-c39 c3d-c44 c46-c48 c4a-c4c c55-c56 c58-c5a c5c-c5d c60-c63 c66-c6f c78-c7e c80-c83 c85-c8c
c8e-c90 c92-ca8 caa-cb3 cb5-cb9 cbd-cc4 cc6-cc8 cca-ccc cd5-cd6 cdc-cde ce0-ce3 ce6-cef cf1-cf3
d00-d0c d0e-d10 d12-d3a d3d-d44 d46-d48 d4a-d4c d4e d54-d63 d66-d78 d7a-d7f d81-d83 d85-d96
d9a-db1 db3-dbb dbd dc0-dc6 dcf-dd4 dd6 dd8-ddf de6-def df2-df3 e01-e3a e40-e46 e4d e50-e59
e81-e82 e84 e86-e8a e8c-ea3 ea5 ea7-eb9 ebb-ebd ec0-ec4 ec6 ecd ed0-ed9 edc-edf f00 f20-f33
f40-f47 f49-f6c f71-f83 f88-f97 f99-fbc 1000-1036 1038 103b-1049 1050-109d 10a0-10c5 10c7 10cd
10d0-10fa 10fc-1248 124a-124d 1250-1256 1258 125a-125d 1260-1288 128a-128d 1290-12b0 12b2-12b5
12b8-12be 12c0 12c2-12c5 12c8-12d6 12d8-1310 1312-1315 1318-135a 1369-137c 1380-138f 13a0-13f5
13f8-13fd 1401-166c 166f-167f 1681-169a 16a0-16ea 16ee-16f8 1700-1713 171f-1733 1740-1753
1760-176c 176e-1770 1772-1773 1780-17b3 17b6-17c8 17d7 17dc 17e0-17e9 17f0-17f9 1810-1819
1820-1878 1880-18aa 18b0-18f5 1900-191e 1920-192b 1930-1938 1946-196d 1970-1974 1980-19ab
19b0-19c9 19d0-19da 1a00-1a1b 1a20-1a5e 1a61-1a74 1a80-1a89 1a90-1a99 1aa7 1abf-1ac0 1acc-1ace
1b00-1b33 1b35-1b43 1b45-1b4c 1b50-1b59 1b80-1ba9 1bac-1be5 1be7-1bf1 1c00-1c36 1c40-1c49
1c4d-1c7d 1c80-1c8a 1c90-1cba 1cbd-1cbf 1ce9-1cec 1cee-1cf3 1cf5-1cf6 1cfa 1d00-1dbf 1dd3-1df4
1e00-1f15 1f18-1f1d 1f20-1f45 1f48-1f4d 1f50-1f57 1f59 1f5b 1f5d 1f5f-1f7d 1f80-1fb4 1fb6-1fbc
1fbe 1fc2-1fc4 1fc6-1fcc 1fd0-1fd3 1fd6-1fdb 1fe0-1fec 1ff2-1ff4 1ff6-1ffc 2070-2071 2074-2079
207f-2089 2090-209c 2102 2107 210a-2113 2115 2119-211d 2124 2126 2128 212a-212d 212f-2139
213c-213f 2145-2149 214e 2150-2189 2460-249b 24b6-24ff 2776-2793 2c00-2ce4 2ceb-2cee 2cf2-2cf3
2cfd 2d00-2d25 2d27 2d2d 2d30-2d67 2d6f 2d80-2d96 2da0-2da6 2da8-2dae 2db0-2db6 2db8-2dbe
2dc0-2dc6 2dc8-2dce 2dd0-2dd6 2dd8-2dde 2de0-2dff 2e2f 3005-3007 3021-3029 3031-3035 3038-303c
3041-3096 309d-309f 30a1-30fa 30fc-30ff 3105-312f 3131-318e 3192-3195 31a0-31bf 31f0-31ff
3220-3229 3248-324f 3251-325f 3280-3289 32b1-32bf 3400-4dbf 4e00-a48c a4d0-a4fd a500-a60c
a610-a62b a640-a66e a674-a67b a67f-a6ef a717-a71f a722-a788 a78b-a7dc a7f1-a805 a807-a827
a830-a835 a840-a873 a880-a8c3 a8c5 a8d0-a8d9 a8f2-a8f7 a8fb a8fd-a92a a930-a952 a960-a97c
a980-a9b2 a9b4-a9bf a9cf-a9d9 a9e0-a9fe aa00-aa36 aa40-aa4d aa50-aa59 aa60-aa76 aa7a-aabe aac0
aac2 aadb-aadd aae0-aaef aaf2-aaf5 ab01-ab06 ab09-ab0e ab11-ab16 ab20-ab26 ab28-ab2e ab30-ab5a
ab5c-ab69 ab70-abea abf0-abf9 ac00-d7a3 d7b0-d7c6 d7cb-d7fb f900-fa6d fa70-fad9 fb00-fb06
fb13-fb17 fb1d-fb28 fb2a-fb36 fb38-fb3c fb3e fb40-fb41 fb43-fb44 fb46-fbb1 fbd3-fd3d fd50-fd8f
fd92-fdc7 fdf0-fdfb fe70-fe74 fe76-fefc ff10-ff19 ff21-ff3a ff41-ff5a ff66-ffbe ffc2-ffc7
ffca-ffcf ffd2-ffd7 ffda-ffdc 10000-1000b 1000d-10026 10028-1003a 1003c-1003d 1003f-1004d
10050-1005d 10080-100fa 10107-10133 10140-10178 1018a-1018b 10280-1029c 102a0-102d0 102e1-102fb
10300-10323 1032d-1034a 10350-1037a 10380-1039d 103a0-103c3 103c8-103cf 103d1-103d5 10400-1049d
104a0-104a9 104b0-104d3 104d8-104fb 10500-10527 10530-10563 10570-1057a 1057c-1058a 1058c-10592
10594-10595 10597-105a1 105a3-105b1 105b3-105b9 105bb-105bc 105c0-105f3 10600-10736 10740-10755
10760-10767 10780-10785 10787-107b0 107b2-107ba 10800-10805 10808 1080a-10835 10837-10838 1083c
1083f-10855 10858-10876 10879-1089e 108a7-108af 108e0-108f2 108f4-108f5 108fb-1091b 10920-10939
10940-10959 10980-109b7 109bc-109cf 109d2-10a03 10a05-10a06 10a0c-10a13 10a15-10a17 10a19-10a35
10a40-10a48 10a60-10a7e 10a80-10a9f 10ac0-10ac7 10ac9-10ae4 10aeb-10aef 10b00-10b35 10b40-10b55
10b58-10b72 10b78-10b91 10ba9-10baf 10c00-10c48 10c80-10cb2 10cc0-10cf2 10cfa-10d27 10d30-10d39
10d40-10d65 10d69 10d6f-10d85 10e60-10e7e 10e80-10ea9 10eab-10eac 10eb0-10eb1 10ec2-10ec7
10efa-10efc 10f00-10f27 10f30-10f45 10f51-10f54 10f70-10f81 10fb0-10fcb 10fe0-10ff6 11000-11045
11052-1106f 11071-11075 11080-110b8 110c2 110d0-110e8 110f0-110f9 11100-11132 11136-1113f
11144-11147 11150-11172 11176 11180-111bf 111c1-111c4 111ce-111da 111dc 111e1-111f4 11200-11211
11213-11234 11237 1123e-11241 11280-11286 11288 1128a-1128d 1128f-1129d 1129f-112a8 112b0-112e8
112f0-112f9 11300-11303 11305-1130c 1130f-11310 11313-11328 1132a-11330 11332-11333 11335-11339
1133d-11344 11347-11348 1134b-1134c 11350 11357 1135d-11363 11380-11389 1138b 1138e 11390-113b5
113b7-113c0 113c2 113c5 113c7-113ca 113cc-113cd 113d1 113d3 11400-11441 11443-11445 11447-1144a
11450-11459 1145f-11461 11480-114c1 114c4-114c5 114c7 114d0-114d9 11580-115b5 115b8-115be
115d8-115dd 11600-1163e 11640 11644 11650-11659 11680-116b5 116b8 116c0-116c9 116d0-116e3
11700-1171a 1171d-1172a 11730-1173b 11740-11746 11800-11838 118a0-118f2 118ff-11906 11909
1190c-11913 11915-11916 11918-11935 11937-11938 1193b-1193c 1193f-11942 11950-11959 119a0-119a7
119aa-119d7 119da-119df 119e1 119e3-119e4 11a00-11a32 11a35-11a3e 11a50-11a97 11a9d 11ab0-11af8
11b60-11b67 11bc0-11be0 11bf0-11bf9 11c00-11c08 11c0a-11c36 11c38-11c3e 11c40 11c50-11c6c
11c72-11c8f 11c92-11ca7 11ca9-11cb6 11d00-11d06 11d08-11d09 11d0b-11d36 11d3a 11d3c-11d3d
11d3f-11d41 11d43 11d46-11d47 11d50-11d59 11d60-11d65 11d67-11d68 11d6a-11d8e 11d90-11d91
11d93-11d96 11d98 11da0-11da9 11db0-11ddb 11de0-11de9 11ee0-11ef6 11f00-11f10 11f12-11f3a
11f3e-11f40 11f50-11f59 11fb0 11fc0-11fd4 12000-12399 12400-1246e 12480-12543 12f90-12ff0
13000-1342f 13441-13446 13460-143fa 14400-14646 16100-1612e 16130-16139 16800-16a38 16a40-16a5e
16a60-16a69 16a70-16abe 16ac0-16ac9 16ad0-16aed 16b00-16b2f 16b40-16b43 16b50-16b59 16b5b-16b61
16b63-16b77 16b7d-16b8f 16d40-16d6c 16d70-16d79 16e40-16e96 16ea0-16eb8 16ebb-16ed3 16f00-16f4a
16f4f-16f87 16f8f-16f9f 16fe0-16fe1 16fe3 16ff0-16ff6 17000-18cd5 18cff-18d1e 18d80-18df2
1aff0-1aff3 1aff5-1affb 1affd-1affe 1b000-1b122 1b132 1b150-1b152 1b155 1b164-1b167 1b170-1b2fb
1bc00-1bc6a 1bc70-1bc7c 1bc80-1bc88 1bc90-1bc99 1bc9e 1ccf0-1ccf9 1d2c0-1d2d3 1d2e0-1d2f3
1d360-1d378 1d400-1d454 1d456-1d49c 1d49e-1d49f 1d4a2 1d4a5-1d4a6 1d4a9-1d4ac 1d4ae-1d4b9 1d4bb
1d4bd-1d4c3 1d4c5-1d505 1d507-1d50a 1d50d-1d514 1d516-1d51c 1d51e-1d539 1d53b-1d53e 1d540-1d544
1d546 1d54a-1d550 1d552-1d6a5 1d6a8-1d6c0 1d6c2-1d6da 1d6dc-1d6fa 1d6fc-1d714 1d716-1d734
1d736-1d74e 1d750-1d76e 1d770-1d788 1d78a-1d7a8 1d7aa-1d7c2 1d7c4-1d7cb 1d7ce-1d7ff 1df00-1df1e
1df25-1df2a 1e000-1e006 1e008-1e018 1e01b-1e021 1e023-1e024 1e026-1e02a 1e030-1e06d 1e08f
1e100-1e12c 1e137-1e13d 1e140-1e149 1e14e 1e290-1e2ad 1e2c0-1e2eb 1e2f0-1e2f9 1e4d0-1e4eb
1e4f0-1e4f9 1e5d0-1e5ed 1e5f0-1e5fa 1e6c0-1e6de 1e6e0-1e6f5 1e6fe-1e6ff 1e7e0-1e7e6 1e7e8-1e7eb
1e7ed-1e7ee 1e7f0-1e7fe 1e800-1e8c4 1e8c7-1e8cf 1e900-1e943 1e947 1e94b 1e950-1e959 1ec71-1ecab
1ecad-1ecaf 1ecb1-1ecb4 1ed01-1ed2d 1ed2f-1ed3d 1ee00-1ee03 1ee05-1ee1f 1ee21-1ee22 1ee24 1ee27
1ee29-1ee32 1ee34-1ee37 1ee39 1ee3b 1ee42 1ee47 1ee49 1ee4b 1ee4d-1ee4f 1ee51-1ee52 1ee54 1ee57
1ee59 1ee5b 1ee5d 1ee5f 1ee61-1ee62 1ee64 1ee67-1ee6a 1ee6c-1ee72 1ee74-1ee77 1ee79-1ee7c 1ee7e
1ee80-1ee89 1ee8b-1ee9b 1eea1-1eea3 1eea5-1eea9 1eeab-1eebb 1f100-1f10c 1f130-1f149 1f150-1f169
1f170-1f189 1fbf0-1fbf9 20000-2a6df 2a700-2b81d 2b820-2cead 2ceb0-2ebe0 2ebf0-2ee5d 2f800-2fa1d
30000-3134a 31350-33479
""")
RUST_WHITE_SPACE = _ranges("""
9-d 20 85 a0 1680 2000-200a 2028-2029 202f 205f 3000
""")
# END GENERATED


def _in(ranges, cp: int) -> bool:
    i = bisect.bisect_right(ranges, (cp, 0x110000)) - 1
    return i >= 0 and ranges[i][0] <= cp <= ranges[i][1]


def _spans(cps):
    out = []
    for c in cps:
        if out and out[-1][1] + 1 == c:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def _class_body(spans) -> str:
    return "".join(
        ("\\U%08x" % a) if a == b else ("\\U%08x-\\U%08x" % (a, b)) for a, b in spans
    )


_DIFFS: dict = {}


def _diffs():
    """Where Python's ``re`` and Rust's ``regex`` disagree on ``\\w`` and
    ``\\d``: code points Rust counts and Python does not (``extra``) and the
    reverse (``missing``). Computed once (a scan of every code point) and only
    when a text contains such a code point."""
    if not _DIFFS:
        word_extra, word_missing, digit_extra, digit_missing = [], [], [], []
        for cp in range(0x110000):
            if 0xD800 <= cp <= 0xDFFF:
                continue
            ch = chr(cp)
            py_w = ch.isalnum() or ch == "_"
            rs_w = _in(RUST_WORD, cp)
            if rs_w and not py_w:
                word_extra.append(cp)
            elif py_w and not rs_w:
                word_missing.append(cp)
            py_d = ch.isdecimal()
            rs_d = _in(RUST_DIGIT, cp)
            if rs_d and not py_d:
                digit_extra.append(cp)
            elif py_d and not rs_d:
                digit_missing.append(cp)
        _DIFFS["trigger"] = frozenset(word_extra + word_missing + digit_extra + digit_missing)
        for name, cps in [
            ("word_extra", word_extra),
            ("word_missing", word_missing),
            ("digit_extra", digit_extra),
            ("digit_missing", digit_missing),
        ]:
            _DIFFS[name] = _class_body(_spans(cps))
    return _DIFFS


def _needs_exact(text: str) -> bool:
    """Whether Python's own ``\\w``, ``\\b`` and ``\\d`` could differ from
    Rust's on ``text`` (it contains a code point where they disagree)."""
    if text.isascii():
        return False
    trigger = _diffs()["trigger"]
    return any(ord(ch) in trigger for ch in text)


# ---------------------------------------------------------------------------
# Rust `regex` syntax to Python `re`
# ---------------------------------------------------------------------------

# Unicode White_Space, which Rust's `\s` matches (Python's `\s` adds U+001C-1F).
_WHITE_SPACE_CHARS = "".join(chr(c) for lo, hi in RUST_WHITE_SPACE for c in range(lo, hi + 1))
_SPACE_CLASS_BODY = _class_body(RUST_WHITE_SPACE)

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

    def __init__(self, pattern: str, exact: bool = False):
        self.p = pattern
        self.i = 0
        # Exact mode: `\\w`, `\\d`, `\\b` and their negations follow Rust's
        # tables rather than Python's (see `_diffs`).
        self.exact = exact

    def _is_exact(self, cur) -> bool:
        return self.exact and cur["u"]

    def _special(self, c: str) -> str:
        """Rust's ``\\w``, ``\\W``, ``\\d`` or ``\\D`` as a one-character
        Python expression: Python's class, less the code points only Python
        counts, plus those only Rust counts. Case-insensitivity is switched
        off inside (the classes are closed under case), which keeps Python
        from expanding their ranges at compile time."""
        d = _diffs()
        base, minus, plus = {
            "w": (r"\w", d["word_missing"], d["word_extra"]),
            "W": (r"\W", d["word_extra"], d["word_missing"]),
            "d": (r"\d", d["digit_missing"], d["digit_extra"]),
            "D": (r"\D", d["digit_extra"], d["digit_missing"]),
        }[c]
        expr = ("(?![" + minus + "])" if minus else "") + base
        if plus:
            expr += "|[" + plus + "]"
        return "(?-i:" + expr + ")"

    def _word(self, cur) -> str:
        return self._special("w") if self._is_exact(cur) else r"\w"

    def _boundary(self, cur, kind: str) -> str:
        if not self._is_exact(cur):
            return {
                "b": r"\b",
                "B": r"\B",
                "start": r"\b(?=\w)",
                "end": r"\b(?<=\w)",
                "start-half": r"(?<!\w)",
                "end-half": r"(?!\w)",
            }[kind]
        w = self._word(cur)
        return {
            "b": f"(?:(?<={w})(?!{w})|(?<!{w})(?={w}))",
            "B": f"(?:(?<={w})(?={w})|(?<!{w})(?!{w}))",
            "start": f"(?<!{w})(?={w})",
            "end": f"(?<={w})(?!{w})",
            "start-half": f"(?<!{w})",
            "end-half": f"(?!{w})",
        }[kind]

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
            if self._is_exact(cur) and not in_class:
                return self._special(c)
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
                if name not in ("start", "end", "start-half", "end-half"):
                    self._raise("word boundary kind")
                return self._boundary(cur, name)
            return self._boundary(cur, "b")
        if c == "B":
            return self._boundary(cur, "B")
        if c == "A":
            return r"\A"
        if c == "z":
            return r"\Z"
        if c == "<":
            return self._boundary(cur, "start")
        if c == ">":
            return self._boundary(cur, "end")
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
        specials: list = []
        items = self._class_items(cur, specials)
        if not specials:
            return "[" + ("^" if negated else "") + items + "]"
        # Exact mode: `\\w` and friends are expressions, not class members.
        if negated:
            rest = ("[^" + items + "]") if items else "(?s:.)"
            return "(?:" + "".join("(?!" + x + ")" for x in specials) + rest + ")"
        parts = (["[" + items + "]"] if items else []) + specials
        return "(?:" + "|".join(parts) + ")"

    def _class_items(self, cur, specials: list) -> str:
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
                out.append(self._class_items(cur, specials))
                continue
            if c == "\\" and self.peek(1) in ("d", "D", "w", "W") and self._is_exact(cur):
                specials.append(self._special(self.peek(1)))
                self.i += 2
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


def translate_regex(pattern: str, exact: bool = False) -> str:
    """Translate a Rust ``regex`` pattern to an equivalent Python ``re``
    pattern; raise ``ValueError`` for syntax this reader does not support.

    Python's ``\\w``, ``\\b`` and ``\\d`` agree with Rust's on every code
    point but a few thousand (combining marks, ``No`` digits such as ``²``,
    characters newer than Python's Unicode tables). With ``exact``, they are
    replaced by expressions that follow Rust's tables everywhere, at a higher
    compile cost; :class:`Pattern` uses that variant only for texts that
    contain such a code point."""
    key = (pattern, exact)
    if key not in _TRANSLATED:
        try:
            _TRANSLATED[key] = _RegexTranslator(pattern, exact).translate()
        except _Unsupported as e:
            raise ValueError(str(e)) from None
    return _TRANSLATED[key]


class Pattern:
    """A Rust pattern compiled for Python: the plain translation, and the
    exact one compiled on first need."""

    def __init__(self, rust: str):
        self.rust = rust
        self.fast = re.compile(translate_regex(rust))
        self._exact = None

    def search(self, text: str):
        if _needs_exact(text):
            if self._exact is None:
                self._exact = re.compile(translate_regex(self.rust, exact=True))
            return self._exact.search(text)
        return self.fast.search(text)


def _compile(pattern: str) -> Pattern:
    return Pattern(pattern)


# ---------------------------------------------------------------------------
# Entity recognisers (runtime/src/entity.rs, copied verbatim)
# ---------------------------------------------------------------------------

ENTITY_PATTERNS = {
    "email": r"(?i)(?-u:\b)[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?-u:\b)",
    "phone": (
        r"(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?|(?-u:\b)\d{3}[ .-])\d{3}[ .-]?\d{4}(?-u:\b)"
        r"|\+\d{1,3}[ .-]?\d{2,4}[ .-]?\d{3,4}[ .-]?\d{3,4}(?-u:\b)"
        r"|(?-u:\b)\d{3}\.\d{3}\.\d{4}(?-u:\b)"
    ),
    "person_name": (
        r"(?-u:\b)(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+(?P<e>[A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)"
        r"|(?i:(?-u:\b)my\s+name\s+is|(?-u:\b)name\s*:)\s+(?P<e2>[A-Za-z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)"
    ),
    "date": (
        r"(?i)(?-u:\b)\d{4}-\d{1,2}-\d{1,2}(?-u:\b)"
        r"|(?-u:\b)\d{1,2}/\d{1,2}/\d{2,4}(?-u:\b)"
        r"|(?-u:\b)\d{1,2}\.\d{1,2}\.\d{4}(?-u:\b)"
        r"|(?-u:\b)(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?(?-u:\b)"
        r"|(?-u:\b)\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?-u:\b)(?:,?\s+\d{4}(?-u:\b))?"
    ),
    "time": (
        r"(?i)(?-u:\b)(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:\s?[ap]\.?m(?-u:\b)\.?)?"
        r"|(?-u:\b)(?:1[0-2]|0?[1-9])\s?[ap]\.?m(?-u:\b)\.?"
    ),
    "money": (
        r"(?i)[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|thousand|million|billion)(?-u:\b))?"
        r"|(?-u:\b)\d[\d,]*(?:\.\d+)?\s?(?:k\s)?(?:usd|eur|gbp|dollars?|euros?|pounds?|bucks)(?-u:\b)"
    ),
    "gov_id": (
        r"(?-u:\b)\d{3}-\d{2}-\d{4}(?-u:\b)"
        r"|(?-u:\b)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?-u:\b)"
        r"|(?i:(?-u:\b)(?:ssn|social security(?: number)?|passport(?: number| no\.?)?|national id|tax id|driver'?s licen[cs]e(?: number)?)\s*[:#]?\s*)(?P<e>[A-Z0-9][A-Z0-9-]{4,})(?-u:\b)"
    ),
    "address": (
        r"(?i)(?-u:\b)\d{1,6}\s+(?:[a-z0-9.'-]+\s+){0,4}"
        r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|parkway|pkwy|highway|hwy|square|sq|circle|cir)(?-u:\b)\.?"
        r"|(?i)(?-u:\b)[a-zà-ÿ'-]{2,}(?:straat|strasse|straße|str\.|steeg|weg|laan|gracht|plein|kade|dijk|singel|markt|allee|gasse|platz|ring|damm|ufer)\s+\d{1,4}[a-z]?(?-u:\b)"
        r"|(?i)(?-u:\b)(?:rue|avenue|boulevard|bd|chemin|impasse|allée|calle|c/|avenida|avda\.?|plaza|paseo|carrer|via|viale|piazza)\s+(?:(?:de|del|la|las|los|des|du|le|les|di|della)\s+)*[a-zà-ÿ'-]{2,}(?:\s+[a-zà-ÿ'-]{2,}){0,3},?\s+(?:n[º°o]\.?\s*)?\d{1,4}(?-u:\b)"
        r"|(?i)(?-u:\b)\d{1,4}(?:\s?bis)?,?\s+(?:rue|avenue|boulevard|bd|chemin|impasse|allée|place)(?-u:\b)"
    ),
    "url": r"""(?i)(?-u:\b)(?:https?|ftp)://[^\s<>"']+|(?-u:\b)www\.[^\s<>"']+""",
    "ip": (
        r"(?-u:\b)(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?-u:\b)"
        r"|(?i)(?-u:\b)(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?-u:\b)"
        r"|(?i)(?-u:\b)(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}:?){0,6}[0-9a-f]{1,4}(?-u:\b)"
    ),
    "secret": (
        r"(?-u:\b)(?:glpat|gldt|ghp|gho|ghu|ghs|ghr|github_pat|xox[abprs]|sk|sk_live|sk_test|rk_live|pk_live|npm|pypi|hf|shpat|dop_v1)[-_][A-Za-z0-9_-]{12,}"
        r"|(?-u:\b)(?:AKIA|ASIA)[0-9A-Z]{16}(?-u:\b)|(?-u:\b)AIza[0-9A-Za-z_-]{20,}"
        r"|(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"
        r"|-----BEGIN [A-Z ]*PRIVATE KEY-----|(?-u:\b)ssh-(?:ed25519|rsa|dss|ecdsa[\w-]*) AAAA[0-9A-Za-z+/]{8,}"
        r"|(?i:(?-u:\b)(?:password|passwd|pwd|passwort|wachtwoord|contraseña|mot de passe|secret|token|api[_-]?key|access[_-]?key)\s*[:=]\s*)[^\s,;]{4,}"
    ),
    "coordinates": (
        r"-?(?-u:\b)(?:[0-8]?\d|90)\.\d{3,},\s?-?(?-u:\b)(?:1[0-7]\d|0?\d{1,2}|180)\.\d{3,}(?-u:\b)"
    ),
    "account_number": (
        r"(?-u:\b)[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?-u:\b)"
        r"|(?-u:\b)(?:\d{4}[ -]){3}\d{4}(?-u:\b)|(?-u:\b)\d{16}(?-u:\b)"
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
    """``label::is_word``: Rust's ``char::is_alphanumeric`` or ``_``."""
    if ch.isascii():
        return ch.isalnum() or ch == "_"
    return _in(RUST_ALNUM, ord(ch))


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


# Conditions this reader evaluates. `terms` and `parts` (word-level matching
# with folding, endings, compounds and typos) are the Rust runtime's: a rule
# that uses them cannot be evaluated here, so a labeler with one labels
# nothing, and every value it would label is `<missing>`, which every
# verified table decides as DEFER or BLOCK (fail closed). Use the `stpc-guard`
# Python package (the Rust runtime) to label with such tables.
SUPPORTED_CONDITIONS = ("lexicon", "pattern", "entity", "address")


class _Rules:
    def __init__(self, table, labeler, which):
        self.rules = []  # (when, unless, fields, tools, label)
        self.fallback = labeler["fallback"]
        self.supported = True
        for i, r in enumerate(labeler["rules"]):
            compiled = []
            for part in ("when", "unless"):
                conds = []
                for c in r[part]:
                    kind = c["match"]
                    if kind not in SUPPORTED_CONDITIONS:
                        self.supported = False
                        conds.append(("unsupported", None))
                    elif kind == "pattern":
                        try:
                            conds.append(("pattern", _compile(c["regex"])))
                        except (ValueError, re.error):
                            raise LoadError(
                                "bad_pattern",
                                f"labeler `{which}` rule {i + 1} has a pattern that does not compile",
                            ) from None
                    elif kind == "lexicon":
                        conds.append(("lexicon", tuple(c["lexicons"])))
                    elif kind == "entity":
                        conds.append(("entity", c["kind"]))
                    else:
                        conds.append(("address", (c["kind"], c["glob"])))
                compiled.append(conds)
            self.rules.append((compiled[0], compiled[1], r["fields"], r["tools"], r["label"]))
        self.needs_lex = any(
            k == "lexicon" for when, unless, _, _, _ in self.rules for k, _ in when + unless
        )


class Labeler:
    """The compiled labelers of one table (``label::Labeler``).

    ``supported`` is false when a labeler uses a condition this reader does
    not evaluate (see ``SUPPORTED_CONDITIONS``): labels are then ``None``
    (``<missing>``) and decisions fail closed."""

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
        self.tool_fields = {t["name"]: {a["name"] for a in t["args"]} for t in table["tools"]}
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

    def _holds(self, kind, arg, text, lex):
        if kind == "lexicon":
            return any(l < len(lex) and lex[l] for l in arg)
        if kind == "pattern":
            return arg.search(text) is not None
        if kind == "entity":
            return _entity(arg).search(text) is not None
        if kind == "address":
            k, glob = arg
            target = (host_of(text) or text) if k == "host" else text
            return glob_match(glob, target)
        return False

    def label_text(self, rules: _Rules, join, text: str, tool="", field=None):
        acc = None
        lex = self.lexicon_set(text) if rules.needs_lex else []
        for when, unless, fields, tools, label in rules.rules:
            if tools and tool not in tools:
                continue
            if fields and field not in fields:
                continue
            if all(self._holds(k, a, text, lex) for k, a in when) and not any(
                self._holds(k, a, text, lex) for k, a in unless
            ):
                acc = self._join(join, acc, label)
        return acc

    def _leaf(self, text, acc, tool, field):
        label = self.label_text(self.args, self.args_join, text, tool, field)
        if label is None:
            label = self.args.fallback
        return self._join(self.args_join, acc, label)

    def _walk(self, v, acc, tool, field):
        if v is None:
            return acc
        if isinstance(v, bool):
            return self._leaf("true" if v else "false", acc, tool, field)
        if isinstance(v, (int, float)):
            return self._leaf(number_text(v), acc, tool, field)
        if isinstance(v, str):
            return self._leaf(v, acc, tool, field)
        if isinstance(v, list):
            for item in v:
                acc = self._walk(item, acc, tool, field)
            return acc
        if isinstance(v, dict):
            for k, item in v.items():
                acc = self._leaf(k, acc, tool, field)
                acc = self._walk(item, acc, tool, field)
            return acc
        raise TypeError("not a JSON value")

    def label_value(self, field, v, tool=""):
        """The label of one argument field (join over its leaves); ``None``
        when the labeler uses a condition this reader does not evaluate."""
        if not self.args.supported:
            return None
        acc = self._walk(v, None, tool, field)
        return self.args.fallback if acc is None else acc

    def label_args(self, args, tool=""):
        """``(fields, joined)``: per-field labels and their join; ``([], None)``
        when the arguments are not an object or cannot be labeled here. The
        name of a field the tool does not declare is labeled too."""
        if not isinstance(args, dict) or not self.args.supported:
            return [], None
        declared = self.tool_fields.get(tool)
        fields = []
        joined = None
        for k, v in args.items():
            acc = None
            if declared is None or k not in declared:
                acc = self._leaf(k, acc, tool, k)
            acc = self._walk(v, acc, tool, k)
            label = self.args.fallback if acc is None else acc
            joined = self._join(self.args_join, joined, label)
            fields.append((k, label))
        return fields, (self.args_bottom if joined is None else joined)

    def label_destination(self, known, destination: str):
        """The destination's label; ``None`` for an undeclared destination
        when its labeler cannot be evaluated here."""
        if known is not None and known < len(self.dest_labels):
            return self.dest_labels[known]
        if not self.destination.supported:
            return None
        label = self.label_text(self.destination, self.dest_join, destination)
        return self.destination.fallback if label is None else label


# ---------------------------------------------------------------------------
# Deciding (runtime/src/decide.rs)
# ---------------------------------------------------------------------------


class EventError(ValueError):
    """An event that cannot be read, refused as the Rust reader
    (``stpc_runtime::event``) refuses it: an unknown or misspelt field, a
    field twice (``tool`` and its alias ``name``), a required field missing
    or of the wrong type, ``args`` given as a string that is not JSON, a
    confidence that is not a finite number. Messages name fields, never
    argument values."""


#: The fields of an event and their aliases (``stpc_runtime::event``).
EVENT_FIELDS = {
    "id": "id",
    "tool": "tool",
    "name": "tool",
    "args": "args",
    "arguments": "args",
    "destination": "destination",
    "mode": "mode",
    "confidence": "confidence",
    "branch": "branch",
    "task": "task",
    "labels": "labels",
    "budgets_exhausted": "budgets_exhausted",
}


def read_event(event) -> dict:
    """The event in its canonical form, or :class:`EventError`: aliases
    resolved (``name`` is ``tool``, ``arguments`` is ``args``), ``args``
    given as a JSON string parsed, ``branch`` defaulted to ``main``, a
    committed event's confidence 1.0. Nothing that decides is assumed: no
    ``mode``, or a non-committed event without ``confidence``, is refused."""
    if isinstance(event, (str, bytes)):
        try:
            event = parse_json(event if isinstance(event, str) else event.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            raise EventError("the event is not JSON") from None
    if not isinstance(event, dict):
        raise EventError("the event is not a JSON object")
    out: dict = {}
    for key, value in event.items():
        canonical = EVENT_FIELDS.get(key)
        if canonical is None:
            plain = isinstance(key, str) and 0 < len(key) <= 32 and key.replace("_", "").isalnum()
            raise EventError(f"unknown field `{key if plain else '…'}`")
        if canonical in out:
            raise EventError(f"duplicate field `{canonical}`")
        out[canonical] = value
    for key in ("tool", "destination"):
        if not isinstance(out.get(key), str):
            raise EventError(f"missing field `{key}`" if key not in out else f"`{key}` is not a string")
    mode = out.get("mode")
    if mode is None:
        raise EventError("the event has no `mode` (`committed` or `speculative`); stpc never assumes one")
    if not isinstance(mode, str):
        raise EventError("`mode` is not a string")
    confidence = out.get("confidence")
    if confidence is None:
        if mode != "committed":
            raise EventError("the event is not committed but has no `confidence`; stpc never assumes one")
        confidence = 1.0
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)):
        raise EventError("`confidence` is not a number")
    if not math.isfinite(confidence):
        raise EventError("`confidence` is not a finite number")
    out["confidence"] = float(confidence)
    args = out.get("args", {})
    if isinstance(args, str):
        try:
            args = parse_json(args)
        except ValueError:
            raise EventError("`args` is a string but does not hold JSON") from None
    out["args"] = args
    branch = out.get("branch", "main")
    if not isinstance(branch, str):
        raise EventError("`branch` is not a string")
    out["branch"] = branch
    exhausted = out.get("budgets_exhausted", [])
    if not isinstance(exhausted, list) or not all(isinstance(b, str) for b in exhausted):
        raise EventError("`budgets_exhausted` is not a list of names")
    out["budgets_exhausted"] = exhausted
    labels = out.get("labels")
    if labels is not None:
        if not isinstance(labels, dict) or set(labels) - {"args", "destination", "fields"}:
            raise EventError("`labels` is not {args, destination, fields}")
    return out


def _mode_and_confidence(event: dict):
    """The event's mode and confidence, never assumed: an event without a
    mode, or a non-committed event without a confidence, is refused (as the
    Rust reader refuses it), because the only value a reader could assume is
    the most permissive one. A committed event's confidence is 1.0."""
    mode = event.get("mode")
    if not isinstance(mode, str):
        raise DecideError("the event has no `mode`")
    if "confidence" in event:
        return mode, event["confidence"]
    if mode == "committed":
        return mode, 1.0
    raise DecideError("the event is not committed but has no `confidence`")


class DecideError(Exception):
    """The event cannot be placed in the domain; the decision fails closed."""


FAIL_CLOSED = {
    "action": "block",
    "cell": None,
    "rule_id": None,
    "rule_name": FAIL_CLOSED_RULE_NAME,
    "transforms": [],
    "substitute": None,
    "scope": None,
    "reissue": False,
}


class CellReader:
    """A loaded table with its labeler and name lookups (``Decider``): it
    labels events and decides their table **cell**. It is not a monitor: no
    rewrite, re-labelling, substitute, deferral queue or budget count (use
    the ``stpc-monitor`` package for those)."""

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
        if not 0.0 <= c <= 1.0:
            raise DecideError("confidence is outside [0, 1]")
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
        # A call goes only where its tool says it goes: a destination the
        # (declared) tool does not declare is placed as unknown, as the Rust
        # runtime's Decider::placed_destination does.
        if tool is not None and dest is not None:
            own = t["tools"][tool]["destinations"] if 0 <= tool < len(t["tools"]) else []
            if own and dest not in own:
                dest = None
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
            "rule_name": c["rule_name"],
            "transforms": list(c["transforms"]),
            "substitute": c["substitute"],
            "scope": c.get("scope"),
            "reissue": bool(c.get("reissue")),
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
        fields, joined = self.labeler.label_args(args, event.get("tool", ""))
        dlabel = self.labeler.label_destination(dest_id, event.get("destination", ""))
        return {
            "args": None if joined is None else arg_names[joined],
            "destination": None if dlabel is None else dest_names[dlabel],
            "fields": {k: arg_names[l] for k, l in fields},
        }

    def decide_cell(self, event: dict) -> dict:
        """Decide an event given as in ``stpc decide``'s input, extended with
        ``budgets_exhausted`` (budget names) and optional explicit ``labels``
        (``{"args": name|null, "destination": name|null, "fields": {..}}``)
        that bypass the labeler. Returns the decision plus the labels used.

        This decides the table **cell** only: it does not rewrite arguments,
        re-label a rewrite's output, run substitutes, queue deferred events
        or count budgets, which the Rust monitor (or the ``stpc-monitor``
        Python package built from it) does. A REWRITE cell here is not a
        permission to send the original arguments. An event that cannot be
        read raises :class:`EventError` (see :func:`read_event`)."""
        event = read_event(event)
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
                *_mode_and_confidence(event),
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
