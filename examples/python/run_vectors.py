#!/usr/bin/env python3
"""Run conformance vectors against the Python table reader.

    python3 run_vectors.py NAME.vectors.jsonl NAME.table.json

``stpc vectors`` (or ``stpc compile --emit vectors``) writes the vectors: one
JSON object per line, whose ``kind`` is

- ``header``: the table's ``contract`` and ``digest`` (must match the table);
- ``decide``: an event with explicit labels and budget states, and the cell
  the Rust runtime decides (``action``, ``rule_id``, ``rule_name``, ``cell``);
- ``label_arg``: one argument value (in a field) and the label the Rust
  labeler gives it;
- ``label_destination``: a destination string and its label;
- ``event``: an event with raw arguments, the labels the Rust labeler gives
  it, and the decision;
- ``monitor``: an event as an agent writes it (aliases, misspelt or missing
  fields) and what the Rust monitor did with it. This reader decides cells
  only, so it checks that it reads the event as Rust does (refuses exactly
  the refused ones) and that it places it in the same cell with the same
  labels; the action, rewritten arguments and substitute results are
  checked by the ``stpc-monitor`` package's tests. ``promote``/``abandon``
  lines concern the monitor's queues and are counted, not checked.

A table whose labelers use a condition this reader does not evaluate
(``terms``, ``parts``: see ``stpc_table.SUPPORTED_CONDITIONS``) is labeled
here as ``<missing>``: its ``label_*`` and ``event`` vectors are then checked
to fail closed (no label, and no event the Rust runtime blocks or defers is
allowed here) rather than to agree.

Exit status: 0 when every vector agrees, 1 on any mismatch, 2 when the table
cannot be loaded or the vectors cannot be read. Mismatches are printed with
the vector's ``id``; values are printed too, since vectors are test data.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import stpc_table  # noqa: E402

DECISION_KEYS = ("action", "rule_id", "rule_name", "cell")


def _decision(d: dict) -> dict:
    return {k: d[k] for k in DECISION_KEYS}


def _monitor_vector(rt, v: dict):
    """(expected, got) for a ``monitor`` vector, as far as a cell reader can
    tell."""
    if "event" not in v:
        return None, None  # promote / abandon: the monitor's queues
    expect = v["expect"]
    try:
        d = rt.decide_cell(v["event"])
    except stpc_table.EventError:
        return expect.get("error"), "event"
    if "error" in expect:
        return "event", "read without error"
    if not (rt.labeler.args.supported and rt.labeler.destination.supported):
        return True, d["action"] != "allow" or expect["action"] == "allow"
    want = {"cell": expect["cell"], "rule_id": expect["rule_id"], "labels": expect["labels"]}
    return want, {"cell": d["cell"], "rule_id": d["rule_id"], "labels": d["labels"]}


def run(vectors_path: str, table_path: str, out=sys.stdout) -> int:
    try:
        with open(table_path, "rb") as f:
            table = stpc_table.load(f.read())
    except OSError as e:
        print(f"error: cannot read `{table_path}`: {e.strerror}", file=sys.stderr)
        return 2
    except stpc_table.LoadError as e:
        print(f"error: `{table_path}` refused: {e}", file=sys.stderr)
        return 2
    rt = stpc_table.CellReader(table)
    arg_names = table["lattices"]["args"]["labels"]
    dest_names = table["lattices"]["destination"]["labels"]
    try:
        with open(vectors_path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: cannot read `{vectors_path}`: {e}", file=sys.stderr)
        return 2
    counts: dict = {}
    failures = 0
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            v = stpc_table.parse_json(line)
        except ValueError:
            print(f"error: {vectors_path}:{n}: not JSON", file=sys.stderr)
            return 2
        kind = v.get("kind")
        vid = v.get("id", f"line {n}")
        if kind == "header":
            if v.get("digest") != table["digest"] or v.get("contract") != table["contract"]:
                print(f"error: {vectors_path} was written for another table", file=sys.stderr)
                return 2
            continue
        if kind == "decide":
            got = _decision(rt.decide_cell(v["event"]))
            want = v["expect"]
        elif kind == "label_arg":
            label = rt.labeler.label_value(v.get("field", "value"), v["value"])
            got = None if label is None else arg_names[label]
            want = v["expect"] if rt.labeler.args.supported else None
        elif kind == "label_destination":
            dest = v["destination"]
            label = rt.labeler.label_destination(rt.destination_id(dest), dest)
            got = None if label is None else dest_names[label]
            supported = rt.labeler.destination.supported or rt.destination_id(dest) is not None
            want = v["expect"] if supported else None
        elif kind == "event":
            d = rt.decide_cell(v["event"])
            if rt.labeler.args.supported and rt.labeler.destination.supported:
                got = dict(_decision(d), labels=d["labels"])
                want = v["expect"]
            else:
                # Labels are `<missing>` here, which a verified table never
                # decides as ALLOW (fail closed).
                got = d["action"] != "allow"
                want = True
        elif kind == "monitor":
            want, got = _monitor_vector(rt, v)
        else:
            print(f"error: {vectors_path}:{n}: unknown kind `{kind}`", file=sys.stderr)
            return 2
        counts[kind] = counts.get(kind, 0) + 1
        if got != want:
            failures += 1
            print(f"MISMATCH {vid} ({kind}, line {n})", file=out)
            print(f"  expected: {want}", file=out)
            print(f"  got:      {got}", file=out)
    summary = ", ".join(f"{counts[k]} {k}" for k in sorted(counts))
    status = "ok" if failures == 0 else f"{failures} FAILED"
    print(f"{os.path.basename(vectors_path)}: {status} ({summary or 'no vectors'})", file=out)
    return 1 if failures else 0


def main(argv) -> int:
    if len(argv) != 3:
        print("usage: run_vectors.py VECTORS.jsonl TABLE.json", file=sys.stderr)
        return 2
    return run(argv[1], argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
