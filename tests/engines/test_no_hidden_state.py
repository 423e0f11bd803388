"""The engines keep no hidden state: every function under `games/engine/` and `games/rules/` answers from its
arguments alone, so a replay, a bot's search and a live game can never see different answers for the same
state.

The modules' syntax trees are scanned for what hidden state needs:
- `global` or `nonlocal` outside a nested function's own closure (`global` at all);
- a module-level name changed after import: item or slice assignment or deletion (`_CACHE[key] = ...`,
  `_last[:] = ...`), attribute assignment, augmented assignment, or a changing method call (`.append`,
  `.clear`, `.update`, `.setdefault`, `.pop` ...), also through a local alias (`cache = _CACHE`);
- a module-level empty container (`{}`, `[]`, `set()`, `dict()` ...), which has no use but being filled later;
- `id(...)` (identity-keyed look-ups), memoising decorators (`functools.cache`, `lru_cache`,
  `cached_property`), and `__missing__` methods that store what they build (lazily filled tables).

Precomputation stays welcome when it is explicit: constants built once at import and never changed, fields
of the state, or objects the caller holds (see docs/engines.md).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = [ROOT / "games" / "engine", ROOT / "games" / "rules"]
MODULES = sorted(path for package in PACKAGES for path in package.rglob("*.py"))

_CHANGING_METHODS = {"append", "extend", "insert", "pop", "popitem", "remove", "clear", "update", "setdefault",
                     "add", "discard", "sort", "reverse", "appendleft", "extendleft", "difference_update",
                     "intersection_update", "symmetric_difference_update", "__setitem__", "__delitem__"}
_EMPTY_FACTORIES = {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque", "bytearray"}
_MEMO_DECORATORS = {"cache", "lru_cache", "cached_property"}


def _module_names(tree: ast.Module) -> set[str]:
    """The names bound at module level (assignments only: functions and classes are not state)."""
    names: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
            node, (ast.AnnAssign, ast.AugAssign)) else []
        for target in targets:
            for leaf in ast.walk(target):
                if isinstance(leaf, ast.Name):
                    names.add(leaf.id)
    return names


def _is_empty_container(value: ast.expr | None) -> bool:
    if isinstance(value, (ast.Dict, ast.List, ast.Set)):
        return not (value.keys if isinstance(value, ast.Dict) else value.elts)
    if isinstance(value, ast.Call) and not value.args and not value.keywords:
        func = value.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return name in _EMPTY_FACTORIES
    return False


def _root_name(node: ast.expr) -> str | None:
    """`x` for `x`, `x[...]`, `x.attr`, `x[...].attr[...]` ..."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def findings(source: str) -> list[str]:
    """What in `source` keeps or could keep state between calls, as `line: what` strings."""
    tree = ast.parse(source)
    module_names = _module_names(tree)
    found: list[str] = []
    for node in tree.body:
        value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
        if _is_empty_container(value):
            found.append(f"{node.lineno}: module-level empty container")
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found.append(f"{node.lineno}: global {', '.join(node.names)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id":
            found.append(f"{node.lineno}: id(...)")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                if _decorator_name(decorator) in _MEMO_DECORATORS:
                    found.append(f"{node.lineno}: memoised function {node.name}")
            if node.name == "__missing__":
                for inner in ast.walk(node):
                    targets = inner.targets if isinstance(inner, ast.Assign) else []
                    if any(isinstance(t, ast.Subscript) and _root_name(t) == "self" for t in targets):
                        found.append(f"{inner.lineno}: __missing__ stores what it builds")
            found.extend(_changes_in(node, module_names))
    return sorted(set(found), key=lambda item: int(item.split(":")[0]))


def _changes_in(function: ast.FunctionDef | ast.AsyncFunctionDef, module_names: set[str]) -> list[str]:
    """Changes a function makes to module-level names (directly or through a local alias)."""
    local = {arg.arg for arg in (*function.args.args, *function.args.kwonlyargs, *function.args.posonlyargs)}
    aliases: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name) and node.value.id in module_names:
            aliases.update(t.id for t in node.targets if isinstance(t, ast.Name))
    for node in ast.walk(function):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            local.update(t.id for target in targets for t in ast.walk(target)
                         if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store))
    shared = (module_names - local) | aliases

    def touches(target: ast.expr) -> bool:
        return isinstance(target, (ast.Subscript, ast.Attribute)) and _root_name(target) in shared

    out: list[str] = []
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and node.target.id in shared:
                out.append(f"{node.lineno}: augmented assignment to module-level {node.target.id}")
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _CHANGING_METHODS and isinstance(node.func.value, ast.Name)
              and node.func.value.id in shared):
            out.append(f"{node.lineno}: {node.func.value.id}.{node.func.attr}(...) changes module-level state")
            continue
        else:
            continue
        for target in targets:
            if touches(target):
                out.append(f"{node.lineno}: assignment into module-level {_root_name(target)}")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_engine_modules_keep_no_hidden_state(path):
    assert findings(path.read_text()) == []


def test_the_scan_finds_each_kind_of_hidden_state():
    source = '''
_CACHE: dict = {}
_last = [None, None]
_seen = set()
_TABLE = {"a": 1}


def remember(key, value):
    _CACHE[key] = value


def keep(state):
    cache = _last
    cache[:] = [state, 1]


def note(x):
    _TABLE.setdefault(x, 2)


def by_identity(obj):
    return _TABLE.get(id(obj))


def counter():
    global _count
    _count += 1


@functools.lru_cache(maxsize=None)
def slow(n):
    return n


class Lazy(dict):
    def __missing__(self, key):
        value = self[key] = key * 2
        return value
'''
    lines = {int(item.split(":")[0]) for item in findings(source)}
    assert lines == {2, 4, 9, 14, 18, 22, 26, 31, 37}


def test_the_scan_lets_constants_and_local_work_through():
    source = '''
_TABLE = {"a": 1}
_PACKS = tuple(sorted(x) for x in range(3))


def build(cards):
    out = []
    out.append(cards)
    table = dict(_TABLE)
    table["b"] = 2
    return out, table, _TABLE["a"]


class Fresh(dict):
    def __missing__(self, key):
        return key * 2
'''
    assert findings(source) == []
