"""The type stubs describe the extension module as it is: every class,
function and attribute in `_native.pyi` exists, and every public name of
the module is stubbed, with the same methods."""

from __future__ import annotations

import ast
import pathlib

import stpc
from stpc import _native

STUBS = pathlib.Path(stpc.__file__).with_name("_native.pyi")


def stubbed():
    tree = ast.parse(STUBS.read_text(encoding="utf-8"))
    classes, names = {}, set()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = {
                n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AnnAssign)) and hasattr(n, "name")
            } | {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return classes, names


def test_stubs_ship_with_the_package():
    assert STUBS.exists()
    assert STUBS.with_name("py.typed").exists()


def test_every_stubbed_name_exists():
    classes, _ = stubbed()
    for cls, members in classes.items():
        obj = getattr(_native, cls)
        if issubclass(obj, BaseException):
            continue  # exception attributes (`LoadError.kind`) are set per instance
        for m in members - {"__init__"}:
            assert hasattr(obj, m), f"{cls}.{m} is stubbed but does not exist"


def test_every_public_name_is_stubbed():
    classes, names = stubbed()
    public = {n for n in dir(_native) if not n.startswith("_")}
    assert public <= set(classes) | names, public - set(classes) - names
    for cls in classes:
        obj = getattr(_native, cls)
        members = {
            n for n, v in vars(obj).items()
            if not n.startswith("_") and (callable(v) or isinstance(v, property) or hasattr(v, "__get__"))
        }
        missing = members - classes[cls]
        assert not missing, f"{cls}: {missing} not stubbed"


def test_load_errors_carry_their_kind():
    try:
        stpc.Engine.from_bytes(b"{}")
    except stpc.LoadError as e:
        assert isinstance(e.kind, str) and e.kind
    else:
        raise AssertionError("an empty object loaded as a table")


def test_the_package_reexports_the_module():
    assert set(stpc.__all__) - {"ACTIONS"} <= {n for n in dir(_native) if not n.startswith("_")}
    assert stpc.__version__ == _native.RUNTIME_VERSION
