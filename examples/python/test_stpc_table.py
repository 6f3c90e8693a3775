#!/usr/bin/env python3
"""Unit tests of the Python table reader (standard library ``unittest``).

    python3 test_stpc_table.py [TABLE.json]

With a table (written by ``stpc compile``), the loader tests run on it too:
it loads in both canonical layouts, and every kind of tampering the Rust
loader refuses is refused here (a flipped byte anywhere, reordered keys with
a recomputed digest, another format version, a float written as an integer).
"""

from __future__ import annotations

import json
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stpc_table as s  # noqa: E402

TABLE_PATH = None


class Floats(unittest.TestCase):
    # Outputs of serde_json 1.0.154 (zmij) for the same doubles.
    CASES = [
        (0.0, "0.0"), (-0.0, "-0.0"), (1.0, "1.0"), (0.7, "0.7"), (1e-5, "0.00001"), (1e-6, "1e-6"),
        (1.5e-7, "1.5e-7"), (1e15, "1000000000000000.0"), (1e16, "1e+16"), (1e17, "1e+17"),
        (1.2345e21, "1.2345e+21"), (123456789012345678.0, "1.2345678901234568e+17"),
        (1e100, "1e+100"), (1e-100, "1e-100"), (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"), (0.1, "0.1"),
        (0.30000000000000004, "0.30000000000000004"), (12345.678, "12345.678"), (1e-4, "0.0001"),
        (0.001234, "0.001234"), (100.0, "100.0"), (1e22, "1e+22"),
        (9007199254740993.0, "9007199254740992.0"), (2.5e-5, "0.000025"), (3e-5, "0.00003"),
        (-2.5, "-2.5"),
    ]

    def test_zmij_layout(self):
        for value, text in self.CASES:
            self.assertEqual(s.format_float(value), text, value)

    def test_number_text_follows_serde_json(self):
        self.assertEqual(s.number_text(s.parse_json("-0")), "-0.0")
        self.assertEqual(s.number_text(s.parse_json("18446744073709551616")), "1.8446744073709552e+19")
        self.assertEqual(s.number_text(s.parse_json("18446744073709551615")), "18446744073709551615")
        self.assertEqual(s.number_text(s.parse_json("1E2")), "100.0")
        self.assertEqual(s.number_text(True), "true")

    def test_nan_is_not_json(self):
        with self.assertRaises(ValueError):
            s.parse_json("NaN")


class Regexes(unittest.TestCase):
    def check(self, rust, yes=(), no=()):
        py = re.compile(s.translate_regex(rust))
        for text in yes:
            self.assertIsNotNone(py.search(text), (rust, text))
        for text in no:
            self.assertIsNone(py.search(text), (rust, text))

    def test_flags_persist_to_the_end_of_the_group_across_alternation(self):
        self.check(r"a(?i)b|c", yes=["aB", "C"], no=["AB"])
        self.check(r"(?:x(?i)y)|z", yes=["xY", "z"], no=["Z", "XY"])

    def test_dollar_is_end_of_text_unless_multiline(self):
        self.check(r"a$", yes=["xa"], no=["a\n"])
        self.check(r"(?m)a$", yes=["a\nb"])

    def test_verbose_and_swap_greed(self):
        self.check("(?x) a b # comment\n c", yes=["abc"], no=["a b c"])
        self.assertEqual(re.compile(s.translate_regex(r"(?U)a+")).search("aaa").group(0), "a")

    def test_classes(self):
        self.check(r"[[:alpha:]]+\d", yes=["ab1"], no=["_1"])
        self.check(r"[^\s<>]+@", yes=["x@"], no=[" @"])
        self.check(r"\p{Lu}\p{Ll}+", yes=["Émile"], no=["émile"])
        self.check(r"[\p{Ll}'-]+x", yes=["o'x"])
        self.check(r"\x{41}\u0042", yes=["AB"])
        self.check(r"[]a]", yes=["]"])

    def test_rust_whitespace_is_not_pythons(self):
        self.check(r"a\sb", yes=["a b", "a\u3000b"], no=["a\x1cb"])

    def test_unsupported_syntax_is_refused(self):
        for rust in [r"[a&&b]", r"\p{Greek}", r"[\P{L}]"]:
            with self.assertRaises(ValueError):
                s.translate_regex(rust)

    def test_word_and_digit_follow_rusts_tables(self):
        p = s.Pattern(r"\bI\b")
        self.assertIsNone(p.search("G\u0301I"))  # U+0301 is a word character in Rust
        self.assertIsNotNone(p.search("a I b"))
        self.assertEqual(s.Pattern(r"\w+").search("\u00b2x").group(0), "x")  # ² is not
        self.assertEqual(s.Pattern(r"[^\w\s]").search("e\u0301 !").group(0), "!")
        self.assertEqual(s.Pattern(r"[\d]+").search("x\U0001e4f0\U0001e4f1").group(0), "\U0001e4f0\U0001e4f1")
        self.assertTrue(s._is_word("\u093f"))  # Other_Alphabetic
        self.assertFalse(s._is_word("\u0301"))
        self.assertEqual(s._rust_trim("\x1c a \u3000"), "\x1c a")

    def test_entity_patterns_translate(self):
        for kind, rust in s.ENTITY_PATTERNS.items():
            re.compile(s.translate_regex(rust))
        self.assertIsNotNone(s._entity("gov_id").search("ssn: AB12345"))
        self.assertIsNotNone(s._entity("ip").search("FE80::1"))


class Matching(unittest.TestCase):
    def test_word_boundaries(self):
        self.assertTrue(s.at_word_boundaries("a lease b", 2, 7))
        self.assertFalse(s.at_word_boundaries("release", 2, 7))
        self.assertTrue(s.at_word_boundaries("x-ray", 0, 2))

    def test_globs(self):
        self.assertTrue(s.glob_match("*.GOV", "irs.gov"))
        self.assertTrue(s.glob_match("a?c*", "abcdef"))
        self.assertFalse(s.glob_match("a?c", "ac"))

    def test_host_of(self):
        self.assertEqual(s.host_of("https://u@Host.example:80/p?q"), "Host.example")
        self.assertIsNone(s.host_of("no-scheme"))


@unittest.skipIf(TABLE_PATH is None and len(sys.argv) < 2, "no table given")
class Loading(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(TABLE_PATH, "rb") as f:
            cls.data = f.read()
        cls.table = s.load(cls.data)

    def refused(self, data, kind=None):
        with self.assertRaises(s.LoadError) as cm:
            s.load(data)
        if kind:
            self.assertEqual(cm.exception.kind, kind)

    def test_both_layouts_load(self):
        compact = s.encode_canonical(self.table).encode()
        self.assertEqual(s.load(compact), self.table)
        self.assertEqual(s.load(compact + b"\n"), self.table)
        self.refused(compact + b"\n\n", "not_canonical")

    def test_flipped_bytes_are_refused(self):
        # A sample of positions (every byte takes minutes in Python; the Rust
        # runtime's test flips every one).
        n = len(self.data)
        positions = sorted({0, 1, n - 2, n - 1, *range(0, n, max(1, n // 60))})
        for i in positions:
            flipped = bytearray(self.data)
            flipped[i] ^= 0x01 if i % 2 else 0x20
            with self.assertRaises(s.LoadError, msg=f"byte {i}"):
                s.load(bytes(flipped))

    def test_reordered_keys_are_refused_even_with_a_fresh_digest(self):
        t = json.loads(self.data)
        reordered = {"digest": t["digest"], **{k: v for k, v in t.items() if k != "digest"}}
        reordered["digest"] = s.compute_digest(t)
        self.refused(json.dumps(reordered, indent=2, ensure_ascii=False).encode(), "not_canonical")

    def test_an_explicit_false_flag_is_not_canonical(self):
        # `undeclared_destinations` is written only when true (serde's
        # skip_serializing_if): an explicit `false` under a fresh digest is
        # refused, and so is the flag's removal from a table that has it.
        t = json.loads(self.data)
        if t.get("undeclared_destinations"):
            del t["undeclared_destinations"]
            self.refused(json.dumps(t, indent=2, ensure_ascii=False).encode())
            return
        items = list(t.items())
        at = [k for k, _ in items].index("destinations") + 1
        flagged = dict(items[:at] + [("undeclared_destinations", False)] + items[at:])
        flagged["digest"] = s.compute_digest(t)
        self.refused(json.dumps(flagged, indent=2, ensure_ascii=False).encode(), "not_canonical")

    def test_the_index_reference_is_read_when_present_and_checked(self):
        # `index` (the labeler index `stpc compile -o` writes beside the
        # table) is left out when absent; present, it is covered by the
        # digest and must have its shape: `null`, a string length or an
        # unknown key is refused under a fresh digest.
        t = json.loads(self.data)
        t.pop("index", None)
        ok = dict(t, index={"sha256": "ab" * 32, "bytes": 12})
        ok["digest"] = s.compute_digest(ok)
        self.assertEqual(s.load(json.dumps(ok, indent=2, ensure_ascii=False).encode())["index"], ok["index"])
        for bad in [None, {"sha256": "ab" * 32, "bytes": "12"}, {"sha256": "ab" * 32, "bytes": 12, "x": 1}]:
            b = dict(t, index=bad)
            try:
                b["digest"] = s.compute_digest(b)
            except s.LoadError:
                continue  # refused while encoding: as good as at load
            self.refused(json.dumps(b, indent=2, ensure_ascii=False).encode())

    def test_other_versions_are_refused_first(self):
        t = json.loads(self.data)
        t["format_version"] = s.FORMAT_VERSION + 1
        self.refused(json.dumps(t).encode(), "unsupported_version")

    def test_a_float_written_as_an_integer_is_refused(self):
        text = self.data.decode()
        if '"value": 0.7' in text:
            self.refused(text.replace('"value": 0.7', '"value": 1', 1).encode())

    def test_decisions_fail_closed_on_unknown_modes(self):
        rt = s.CellReader(self.table)
        tool = self.table["tools"][0]["name"] if self.table["tools"] else "t"
        d = rt.decide_cell({"tool": tool, "destination": "x", "mode": "no-such-mode",
                            "confidence": 0.9, "args": {}})
        self.assertEqual((d["action"], d["rule_id"], d["cell"]), ("block", None, None))

    def test_confidences_outside_the_unit_interval_fail_closed(self):
        rt = s.CellReader(self.table)
        tool = self.table["tools"][0]["name"] if self.table["tools"] else "t"
        labels = {"args": None, "destination": None, "fields": {}}
        for c in (1.5, -0.1):
            d = rt.decide_cell({"tool": tool, "destination": "x", "mode": "speculative",
                                 "confidence": c, "labels": labels})
            self.assertEqual((d["action"], d["rule_id"], d["cell"]), ("block", None, None))

    def test_the_mode_and_the_confidence_are_never_assumed(self):
        rt = s.CellReader(self.table)
        tool = self.table["tools"][0]["name"] if self.table["tools"] else "t"
        # Labels are given so that only mode and confidence are in question.
        labels = {"args": None, "destination": None, "fields": {}}
        for event in (
            {"tool": tool, "destination": "x", "labels": labels},
            {"tool": tool, "destination": "x", "mode": "speculative", "labels": labels},
        ):
            with self.assertRaises(s.EventError):
                rt.decide_cell(event)

    def test_events_are_read_as_the_rust_reader_reads_them(self):
        rt = s.CellReader(self.table)
        tool = self.table["tools"][0]["name"] if self.table["tools"] else "t"
        fields = [a["name"] for a in self.table["tools"][0]["args"]] if self.table["tools"] else []
        args = {f: "x" for f in fields}
        plain = {"tool": tool, "destination": "x", "mode": "committed", "args": args}
        aliased = {"name": tool, "destination": "x", "mode": "committed",
                   "arguments": json.dumps(args)}
        self.assertEqual(rt.decide_cell(plain), rt.decide_cell(aliased))
        if rt.labeler.args.supported:
            self.assertEqual(rt.decide_cell(aliased)["labels"]["fields"].keys(), args.keys())
        refused = (
            dict(plain, confidance=0.9),             # misspelt: never a silent default
            dict(plain, name=tool),                  # a field and its alias
            dict(plain, args="{not json"),
            dict(plain, confidence=float("nan")),
            dict(plain, confidence=True),
            {"destination": "x", "mode": "committed"},
            "[1, 2]",
        )
        for event in refused:
            with self.assertRaises(s.EventError):
                rt.decide_cell(event)

    def test_event_errors_do_not_quote_values(self):
        rt = s.CellReader(self.table)
        secret = "my landlord is evicting me"
        with self.assertRaises(s.EventError) as e:
            rt.decide_cell({"tool": "t", "destination": "x", "mode": "committed", secret: 1})
        self.assertNotIn("landlord", str(e.exception))


@unittest.skipIf(not os.environ.get("STPC_TRUSTED_KEY"), "no trusted key given")
class Signatures(unittest.TestCase):
    """With ``STPC_TRUSTED_KEY`` (a public key file) and a table given whose
    ``.sig`` that key made (``stpc sign``): the signed table loads; a table
    with one cell weakened and its digest recomputed is refused; so is any
    other key, a missing signature, and a tampered signature."""

    def setUp(self):
        with open(TABLE_PATH, "rb") as f:
            self.data = f.read()
        with open(TABLE_PATH + ".sig") as f:
            self.sig = f.read()
        with open(os.environ["STPC_TRUSTED_KEY"]) as f:
            self.key = f.read()

    def refused(self, data, sig, keys, why):
        with self.assertRaises(s.LoadError) as cm:
            s.load_signed(data, sig, keys)
        self.assertEqual(cm.exception.kind, "signature")
        self.assertIn(why, str(cm.exception))

    def test_the_signed_table_loads(self):
        t = s.load_signed(self.data, self.sig, [self.key])
        self.assertEqual(t["digest"], json.loads(self.sig)["digest"])

    def test_a_resealed_table_is_refused(self):
        t = json.loads(self.data)
        weakened = next(c for c in t["cells"] if c["action"] == "block")
        weakened["action"] = "allow"
        t["digest"] = s.compute_digest(t)
        resealed = s.encode_canonical(t, pretty=True).encode()
        s.load(resealed)  # the digest alone accepts it
        self.refused(resealed, self.sig, [self.key], "another table's digest")

    def test_other_keys_and_broken_signatures_are_refused(self):
        other = "stpc-ed25519-public:" + "11" * 32
        self.refused(self.data, self.sig, [other], "")
        self.refused(self.data, self.sig, [], "not trusted")
        self.refused(self.data, "not a signature", [self.key], "not a signature")
        bad = json.loads(self.sig)
        last = bad["signature"][-1]
        bad["signature"] = bad["signature"][:-1] + ("0" if last != "0" else "1")
        self.refused(self.data, json.dumps(bad), [self.key], "does not match")


if __name__ == "__main__":
    if len(sys.argv) > 1 and not sys.argv[1].startswith("-"):
        TABLE_PATH = sys.argv.pop(1)
        Loading.__unittest_skip__ = False
        Signatures.__unittest_skip__ = not os.environ.get("STPC_TRUSTED_KEY")
    unittest.main()
