"""The compiled engine's augmenting ``.pxd`` files checked against their ``.py``, without Cython.

``standoff accelerate`` compiles the engine's ``.py`` with the declarations of the ``.pxd`` beside
it (server/accelerate.py). The ``.pxd`` restates what the ``.py`` defines, so the two can drift: a
``.py`` edit that the pure test run accepts may be refused by Cython, or compiled into code that
fails or, worse, computes something else (a ``cpdef int`` function returning ``'x'`` returns
``120`` compiled). :func:`check` finds, from the sources alone and in well under a second, the
disagreements that are decidable statically; each rule below names what the compiled build does
when it is broken (checked with Cython 3.3).

Declarations (``cpdef``/``cdef`` functions, ``cdef class`` methods):

- declared but not defined in the ``.py`` (or defined as something else): Cython refuses;
- parameters: the same names, in the same order, the same ones with defaults (``=*``), no
  ``*args``, ``**kwargs`` or keyword-only ones: Cython refuses a different count or defaults
  shape; a renamed parameter compiles, but keyword calls then differ and what the ``.pxd`` types
  is no longer what the reader (or tests/test_cython_pitfalls.py) thinks;
- a default that cannot become the parameter's C type (``None`` for an ``int``): Cython refuses;
- no decorator (C calls from inside the module would skip it);
- no closure in the body (``lambda``, generator expression, nested ``def`` or ``class``) and no
  ``yield``: Cython refuses them in a ``cpdef`` function ("closures inside cpdef functions not
  yet supported"); list, set and dict comprehensions are fine;
- the declared return type against each ``return`` whose value's type is plain from the syntax
  (a literal, a display, a comprehension, a comparison, ``None``, a call of a builtin type),
  and against the implicit ``None`` of a body that can end without ``return``: a ``list``
  function returning a tuple raises ``TypeError`` compiled; an ``int`` one returning a string
  returns its first character's code, returning ``None`` is refused; a ``bint`` one returning a
  tuple returns ``True`` instead of the tuple;
- ``@cython.locals``: each name is a local of the function (else the declaration is silently
  ignored), and an assignment of a plainly typed value agrees with the declared type (Cython
  refuses ``Cannot assign type 'list object' to 'tuple object'``).

Extension types (``cdef class``):

- the ``.py`` defines a plain class of that name, undecorated, whose only base is the declared
  one (Cython refuses another first base; a class the ``.py`` lacks is still made, empty, in the
  compiled module only);
- its attributes are exactly the ``.py`` class's ``__slots__`` (when it has them), and every
  attribute the class's methods assign through ``self`` is declared on it or a base (an extension
  type has no ``__dict__``: ``AttributeError`` compiled); a plainly typed value assigned to a
  typed attribute agrees with the type; so do assignments through parameters and locals the
  ``.pxd`` types as an extension type (``state.hands = ()`` with ``STState state``);
- every ``cpdef`` method it declares is defined in the ``.py`` class body itself (Cython refuses
  one that no base defines; one a base defines compiles to the base's, a stale declaration).

Between ``.pxd`` files: every ``cimport`` names a ``.pxd`` that exists and declares the names
taken from it, and every type named in a declaration is a C type, a builtin type, or an
extension type declared or cimported there.

The ``.pxd`` files are read by :func:`parse`, a small parser for the subset of Cython's
declaration syntax they use (listed in its docstring). Cython's own parser
(``Cython.Compiler``) is not a public API; this one refuses any line outside its subset, so a
new construct in a ``.pxd`` fails the check loudly (extend the parser) and is never skipped.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

#: C types a declaration may name (the ones Cython converts from and to Python ints or floats).
C_INTEGERS = frozenset({"char", "short", "int", "long", "Py_ssize_t", "size_t", "Py_hash_t",
                        "longlong", "unsigned", "signed"})
C_FLOATS = frozenset({"float", "double"})
#: Builtin types Cython checks exactly (a declared ``list`` accepts a list or ``None``).
BUILTINS = frozenset({"list", "tuple", "dict", "set", "frozenset", "str", "bytes", "bytearray"})
#: Types that say nothing: any Python object.
OBJECT = frozenset({"object"})


class PxdSyntaxError(ValueError):
    """A ``.pxd`` line outside the subset :func:`parse` reads."""


@dataclass
class Param:
    name: str
    type: str | None  # None: a Python object
    default: bool  # ``=*``: the .py gives a default


@dataclass
class Function:
    name: str
    line: int
    returns: str | None  # None: a Python object
    params: list[Param]
    locals: dict[str, str] = field(default_factory=dict)  # @cython.locals


@dataclass
class CClass:
    name: str
    line: int
    base: str | None
    attributes: dict[str, str] = field(default_factory=dict)  # name -> type ("object" if untyped)
    methods: dict[str, Function] = field(default_factory=dict)


@dataclass
class Pxd:
    path: Path
    functions: dict[str, Function] = field(default_factory=dict)
    classes: dict[str, CClass] = field(default_factory=dict)
    #: ``(line, level, dotted module or "", [(name, as_name)])``
    cimports: list[tuple[int, int, str, list[tuple[str, str]]]] = field(default_factory=list)


# -- the .pxd subset ------------------------------------------------------------------------------

_NAME = r"[A-Za-z_]\w*"
_FUNC = re.compile(rf"c?p?def\s+(?:({_NAME}(?:\s+{_NAME})*?)\s+)?({_NAME})\s*\((.*)\)\s*"
                   r"(?:except\s*\??\s*(?:-?\d+|\*)|noexcept)?$")
_ATTR = re.compile(rf"cdef\s+(?:(public|readonly)\s+)?({_NAME}(?:\s+{_NAME})*?)\s+({_NAME})$")
_CLASS = re.compile(rf"cdef\s+class\s+({_NAME})\s*(?:\(\s*({_NAME})\s*\))?\s*:$")
_CIMPORT = re.compile(rf"from\s+(\.*)((?:{_NAME})(?:\.{_NAME})*)?\s+cimport\s+\(?(.*?)\)?$")


def _logical_lines(text: str) -> list[tuple[int, int, str]]:
    """``(line number, indent, text)`` per logical line: comments dropped, bracketed
    continuations joined."""
    lines, pending, start, indent, depth = [], "", 0, 0, 0
    for number, raw in enumerate(text.splitlines(), 1):
        code = raw.split("#", 1)[0].rstrip()
        if "'" in code or '"' in code:
            raise PxdSyntaxError(f"{number}: a string literal (not in the subset read)")
        if not code.strip():
            continue
        if not pending:
            start, indent = number, len(code) - len(code.lstrip())
        pending = f"{pending} {code.strip()}" if pending else code.strip()
        depth += code.count("(") - code.count(")")
        if depth == 0:
            lines.append((start, indent, pending))
            pending = ""
    if pending:
        raise PxdSyntaxError(f"{start}: unbalanced parentheses")
    return lines


def _locals(number: int, text: str) -> dict[str, str]:
    """``@cython.locals(a=cython.int, b=tuple)`` -> ``{"a": "int", "b": "tuple"}``."""
    try:
        call = ast.parse(text[1:], mode="eval").body
    except SyntaxError:
        raise PxdSyntaxError(f"{number}: {text}") from None
    if not (isinstance(call, ast.Call) and ast.unparse(call.func) == "cython.locals" and not call.args):
        raise PxdSyntaxError(f"{number}: only @cython.locals(name=type, ...) decorators are read")
    found = {}
    for keyword in call.keywords:
        value = keyword.value
        if isinstance(value, ast.Attribute) and ast.unparse(value.value) == "cython":
            found[keyword.arg] = value.attr
        elif isinstance(value, ast.Name):
            found[keyword.arg] = value.id
        else:
            raise PxdSyntaxError(f"{number}: the type of {keyword.arg} is not a name")
    return found


def _params(number: int, text: str) -> list[Param]:
    params = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        words, default = part, False
        if part.endswith("=*"):
            words, default = part[:-2].strip(), True
        elif "=" in part or "*" in part or "[" in part:
            raise PxdSyntaxError(f"{number}: parameter {part!r} (only `[type] name[=*]` is read)")
        names = words.split()
        if not all(re.fullmatch(_NAME, w) for w in names) or names[-2:-1] in (["not"], ["or"]):
            raise PxdSyntaxError(f"{number}: parameter {part!r} (only `[type] name[=*]` is read)")
        params.append(Param(names[-1], " ".join(names[:-1]) or None, default))
    return params


def _function(number: int, text: str, decorators: dict[str, str]) -> Function:
    match = _FUNC.fullmatch(text)
    if not match or not text.startswith(("cpdef ", "cdef ")):
        raise PxdSyntaxError(f"{number}: {text}")
    returns, name, params = match.groups()
    return Function(name, number, None if returns in (None, "object") else returns,
                    _params(number, params), decorators)


def parse(path: Path) -> Pxd:
    """Read a ``.pxd`` of the subset the engine's use: comments; ``import cython``;
    ``from <relative module> cimport a, b as c`` (parenthesised or not);
    ``@cython.locals(name=type, ...)`` before a function; module-level ``cpdef``/``cdef``
    functions ``[return type] name([type] param[=*], ...) [except ...]``; ``cdef class Name[(Base)]:``
    whose indented body holds ``pass``, attributes ``cdef [public|readonly] type name`` and such
    (decorated) methods. Anything else raises :class:`PxdSyntaxError` naming the line."""
    pxd = Pxd(path)
    decorators: dict[str, str] = {}
    current: CClass | None = None
    try:
        lines = _logical_lines(path.read_text(encoding="utf-8"))
    except PxdSyntaxError as exc:
        raise PxdSyntaxError(f"{path}:{exc}") from None
    for number, indent, text in lines:
        if indent == 0:
            current = None
        elif current is None:
            raise PxdSyntaxError(f"{path}:{number}: an indented line outside a cdef class")
        try:
            if text.startswith("@"):
                decorators.update(_locals(number, text))
                continue
            if decorators and not text.startswith(("cpdef ", "cdef ")) or _CLASS.fullmatch(text) and decorators:
                raise PxdSyntaxError(f"{number}: a decorator before {text!r}")
            if text == "import cython" and current is None:
                continue
            if (match := _CIMPORT.fullmatch(text)) and current is None:
                dots, module, names = match.groups()
                taken = []
                for item in filter(None, (n.strip() for n in names.split(","))):
                    words = item.split()
                    if len(words) == 1:
                        taken.append((words[0], words[0]))
                    elif len(words) == 3 and words[1] == "as":
                        taken.append((words[0], words[2]))
                    else:
                        raise PxdSyntaxError(f"{number}: {text}")
                pxd.cimports.append((number, len(dots), module or "", taken))
                continue
            if (match := _CLASS.fullmatch(text)) and current is None:
                current = CClass(match.group(1), number, match.group(2))
                pxd.classes[current.name] = current
                continue
            if current is not None and text == "pass":
                continue
            if current is not None and (match := _ATTR.fullmatch(text)) and "(" not in text:
                current.attributes[match.group(3)] = match.group(2)
                continue
            if text.startswith(("cpdef ", "cdef ")) and "(" in text:
                function = _function(number, text, decorators)
                decorators = {}
                target = current.methods if current is not None else pxd.functions
                target[function.name] = function
                continue
        except PxdSyntaxError as exc:
            raise PxdSyntaxError(f"{path}:{exc}") from None
        raise PxdSyntaxError(f"{path}:{number}: not in the subset of .pxd syntax read: {text}")
    if decorators:
        raise PxdSyntaxError(f"{path}: a decorator at the end of the file")
    return pxd


# -- what a Python expression plainly is ----------------------------------------------------------

_DISPLAYS = {ast.Tuple: "tuple", ast.List: "list", ast.ListComp: "list", ast.Set: "set",
             ast.SetComp: "set", ast.Dict: "dict", ast.DictComp: "dict", ast.JoinedStr: "str",
             ast.Compare: "bool", ast.Lambda: "function", ast.GeneratorExp: "generator"}
_BUILTIN_CALLS = {"tuple": "tuple", "list": "list", "set": "set", "dict": "dict", "frozenset": "frozenset",
                  "str": "str", "bytes": "bytes", "sorted": "list", "len": "int", "bool": "bool",
                  "repr": "str", "bytearray": "bytearray"}


def kind(node: ast.expr | None, shadowed: set[str]) -> str | None:
    """The type a value has whatever runs before it (``"None"``, ``"tuple"``, ``"int"``...), or
    ``None`` when the syntax does not say. ``shadowed`` are names the module rebinds (then a call
    of ``tuple`` may not be the builtin)."""
    if node is None:
        return "None"
    if isinstance(node, ast.Constant):
        return "None" if node.value is None else type(node.value).__name__
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return "bool"
    if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
        return kind(node.operand, shadowed)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in shadowed:
        return _BUILTIN_CALLS.get(node.func.id)
    return _DISPLAYS.get(type(node))


def agrees(declared: str | None, value: str | None, classes: set[str]) -> bool:
    """Whether a value of kind ``value`` (see :func:`kind`) passes, unchanged, where ``declared``
    is expected (``classes``: the extension types in scope)."""
    if declared is None or declared in OBJECT or value is None:
        return True
    if declared == "bint":
        return value in ("bool", "int")
    if declared in C_INTEGERS or declared.split()[-1] in C_INTEGERS:
        return value in ("bool", "int")
    if declared in C_FLOATS:
        return value in ("bool", "int", "float")
    if declared in BUILTINS or declared in classes:
        return value in ("None", declared)
    return True


# -- the .py side ---------------------------------------------------------------------------------

_CLOSURES = (ast.Lambda, ast.GeneratorExp, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _own_nodes(function: ast.FunctionDef):
    """The nodes of ``function``'s body outside nested functions and classes (closures are
    reported on their own)."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _CLOSURES):
            stack.extend(ast.iter_child_nodes(node))


def _terminates(body: list[ast.stmt]) -> bool:
    """Whether ``body`` surely ends in ``return`` or ``raise`` (never falls off its end)."""
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ast.Return, ast.Raise)):
        return True
    if isinstance(last, ast.If):
        return _terminates(last.body) and _terminates(last.orelse)
    if isinstance(last, ast.While):
        forever = isinstance(last.test, ast.Constant) and bool(last.test.value)
        return forever and not any(isinstance(n, ast.Break) for n in ast.walk(last))
    if isinstance(last, (ast.With, ast.AsyncWith)):
        return _terminates(last.body)
    if isinstance(last, ast.Try):
        if last.finalbody and _terminates(last.finalbody):
            return True
        return _terminates(last.body + last.orelse if last.orelse else last.body) and all(
            _terminates(h.body) for h in last.handlers)
    if isinstance(last, ast.Match):
        return False
    return False


def _bound_names(function: ast.FunctionDef) -> set[str]:
    """The names local to ``function``: its parameters and whatever its body binds."""
    args = function.args
    names = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
    names |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
    for node in _own_nodes(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _comprehension_targets(function: ast.FunctionDef) -> set[str]:
    return {n.id for c in _own_nodes(function) if isinstance(c, ast.comprehension)
            for n in ast.walk(c.target) if isinstance(n, ast.Name)}


def _module_rebinds(tree: ast.Module) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


# -- the check ------------------------------------------------------------------------------------


class Package:
    """The ``.pxd`` files of a package folder, parsed once, by dotted module (relative)."""

    def __init__(self, root: Path):
        self.root = root
        self.pxds = {".".join(p.relative_to(root).with_suffix("").parts): parse(p)
                     for p in sorted(root.rglob("*.pxd"))}

    def resolve(self, module: str, level: int, name: str) -> str:
        """The dotted module a relative ``cimport`` in ``module`` names."""
        parts = module.split(".")[:-1]
        if level > 1:
            parts = parts[: len(parts) - (level - 1)]
        return ".".join([*parts, *filter(None, name.split("."))])

    def scope(self, module: str) -> dict[str, tuple[str, str]]:
        """Names a ``.pxd`` can use for an extension type or a function: ``{name: (module, name)}``."""
        pxd = self.pxds[module]
        names = {n: (module, n) for n in (*pxd.classes, *pxd.functions)}
        for _, level, source, taken in pxd.cimports:
            for name, alias in taken:
                if source:
                    names[alias] = (self.resolve(module, level, source), name)
        return names

    def cclass(self, module: str, name: str) -> tuple[str, CClass] | None:
        """The extension type ``name`` means in ``module``'s ``.pxd``, with the module declaring it."""
        target = self.scope(module).get(name)
        if target is None or target[0] not in self.pxds or target[1] not in self.pxds[target[0]].classes:
            return None
        return target[0], self.pxds[target[0]].classes[target[1]]

    def attributes(self, module: str, name: str) -> dict[str, str]:
        """The attributes of the extension type ``name`` (in ``module``), its bases' included."""
        found: dict[str, str] = {}
        while name is not None and (declared := self.cclass(module, name)) is not None:
            module, cls = declared
            found = {**cls.attributes, **found}
            name = cls.base
        return found


def _signature(where: str, declared: Function, defined: ast.FunctionDef, known: set[str],
               shadowed: set[str]) -> list[str]:
    problems = []
    args = defined.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        problems.append(f"{where}: the .py takes *args, **kwargs, keyword-only or positional-only "
                        "parameters; the .pxd declares plain ones")
    names = [a.arg for a in args.args]
    with_default = set(names[len(names) - len(args.defaults):]) if args.defaults else set()
    want = [p.name for p in declared.params]
    if names != want:
        problems.append(f"{where}: parameters ({', '.join(names)}) in the .py, ({', '.join(want)}) in the .pxd")
    else:
        given = {p.name for p in declared.params if p.default}
        if given != with_default:
            problems.append(f"{where}: defaults on ({', '.join(sorted(with_default)) or 'none'}) in the .py, "
                            f"=* on ({', '.join(sorted(given)) or 'none'}) in the .pxd")
        defaults = dict(zip(names[len(names) - len(args.defaults):], args.defaults))
        for param in declared.params:
            if param.name in defaults and not agrees(param.type, kind(defaults[param.name], shadowed), known):
                problems.append(f"{where}: the default of {param.name} ({ast.unparse(defaults[param.name])}) "
                                f"is not a {param.type}")
    if defined.decorator_list:
        problems.append(f"{where}: decorated in the .py (C calls from the module would skip the decorator)")
    return problems


def _body(where: str, declared: Function, defined: ast.FunctionDef, known: set[str],
          shadowed: set[str]) -> list[str]:
    problems = []
    for node in _own_nodes(defined):
        if isinstance(node, _CLOSURES):
            what = {ast.Lambda: "a lambda", ast.GeneratorExp: "a generator expression"}.get(
                type(node), f"a nested {'class' if isinstance(node, ast.ClassDef) else 'def'}")
            problems.append(f"{where}: {what} at line {node.lineno} (Cython: closures inside cpdef "
                            "functions not yet supported; use a comprehension or a module-level function)")
        elif isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            problems.append(f"{where}: yield/await at line {node.lineno}, in a cpdef function")
        elif isinstance(node, ast.Return) and not agrees(declared.returns, kind(node.value, shadowed), known):
            value = "nothing" if node.value is None else ast.unparse(node.value)
            problems.append(f"{where}: declared to return {declared.returns}, returns {value} "
                            f"({kind(node.value, shadowed)}) at line {node.lineno}")
    if not _terminates(defined.body) and not agrees(declared.returns, "None", known):
        problems.append(f"{where}: declared to return {declared.returns}, can end without a return (None)")
    local = _bound_names(defined)
    for name, type_ in declared.locals.items():
        if name not in local:
            hint = " (a comprehension's variable is not the function's)" if name in _comprehension_targets(defined) else ""
            problems.append(f"{where}: @cython.locals types {name}, not a local of the .py function{hint}")
    for node in _own_nodes(defined):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in declared.locals:
                    if not agrees(declared.locals[target.id], kind(node.value, shadowed), known):
                        problems.append(f"{where}: local {target.id} is declared {declared.locals[target.id]}, "
                                        f"assigned {ast.unparse(node.value)} at line {node.lineno}")
    return problems


def _typed_assignments(where: str, package: Package, module: str, typed: dict[str, str],
                       nodes, shadowed: set[str], known: set[str]) -> list[str]:
    """Assignments ``name.attr = value`` where ``name`` is an extension type (``typed``: name ->
    type): the attribute must be declared, and a plainly typed value must agree with it."""
    problems = []
    for node in nodes:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                        and target.value.id in typed):
                    continue
                type_ = typed[target.value.id]
                attributes = package.attributes(module, type_)
                if target.attr not in attributes:
                    problems.append(f"{where}: assigns {target.value.id}.{target.attr} at line {node.lineno}, "
                                    f"an attribute {type_} does not declare (an extension type has no __dict__)")
                elif isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and not agrees(
                        attributes[target.attr], kind(node.value, shadowed), known):
                    problems.append(f"{where}: {target.value.id}.{target.attr} is declared "
                                    f"{attributes[target.attr]}, assigned {ast.unparse(node.value)} at line {node.lineno}")
    return problems


def _typed_names(declared: Function, scope_classes: set[str]) -> dict[str, str]:
    typed = {p.name: p.type for p in declared.params if p.type in scope_classes}
    typed.update({n: t for n, t in declared.locals.items() if t in scope_classes})
    return typed


def _check_function(where: str, package: Package, module: str, declared: Function, defined: ast.FunctionDef,
                    shadowed: set[str], classes: set[str], typed: dict[str, str]) -> list[str]:
    problems = _signature(where, declared, defined, classes, shadowed)
    problems += _body(where, declared, defined, classes, shadowed)
    typed = {**typed, **_typed_names(declared, classes)}
    problems += _typed_assignments(where, package, module, typed, _own_nodes(defined), shadowed, classes)
    return problems


def _types_named(package: Package, module: str) -> list[str]:
    pxd = package.pxds[module]
    scope = package.scope(module)
    known = C_INTEGERS | C_FLOATS | BUILTINS | OBJECT | {"bint"}
    problems = []

    def check(what: str, type_: str | None, line: int) -> None:
        if type_ is None:
            return
        last = type_.split()[-1]
        if last not in known and (type_ not in scope or package.cclass(module, type_) is None):
            problems.append(f"{pxd.path.name}:{line}: {what} names the type {type_}, which is neither a C or "
                            "builtin type nor an extension type declared or cimported there")

    functions = [(f, None) for f in pxd.functions.values()]
    for cls in pxd.classes.values():
        check(f"cdef class {cls.name}'s base", cls.base, cls.line)
        for name, type_ in cls.attributes.items():
            check(f"{cls.name}.{name}", type_, cls.line)
        functions += [(f, cls) for f in cls.methods.values()]
    for function, cls in functions:
        label = f"{cls.name}.{function.name}" if cls else function.name
        check(f"{label}'s return", function.returns, function.line)
        for param in function.params:
            check(f"{label}'s parameter {param.name}", param.type, function.line)
        for name, type_ in function.locals.items():
            check(f"{label}'s local {name}", type_, function.line)
    return problems


def _cimports(package: Package, module: str) -> list[str]:
    pxd = package.pxds[module]
    problems = []
    for line, level, source, taken in pxd.cimports:
        if level == 0:
            problems.append(f"{pxd.path.name}:{line}: an absolute cimport (the engine's are relative)")
            continue
        for name, _ in taken:
            target = package.resolve(module, level, f"{source}.{name}" if not source else source)
            if not source:  # ``from .. cimport board``: a module
                if target not in package.pxds:
                    problems.append(f"{pxd.path.name}:{line}: cimports {name}, but there is no {target}.pxd")
            elif target not in package.pxds:
                problems.append(f"{pxd.path.name}:{line}: cimports from {source}, but there is no {target}.pxd")
            elif name not in package.pxds[target].classes and name not in package.pxds[target].functions:
                problems.append(f"{pxd.path.name}:{line}: cimports {name}, which {target}.pxd does not declare")
    return problems


def _check_class(where: str, package: Package, module: str, cls: CClass, defined: ast.AST | None,
                 shadowed: set[str], classes: set[str]) -> list[str]:
    if not isinstance(defined, ast.ClassDef):
        return [f"{where}: declared a cdef class, the .py {'has no' if defined is None else 'defines no'} "
                f"class {cls.name}"]
    problems = []
    bases = [ast.unparse(b) for b in defined.bases]
    if defined.decorator_list or defined.keywords:
        problems.append(f"{where}: decorated or given a metaclass in the .py (an extension type cannot be)")
    if bases != ([cls.base] if cls.base else []) and not (not cls.base and bases == ["object"]):
        problems.append(f"{where}: bases ({', '.join(bases) or 'none'}) in the .py, "
                        f"({cls.base or 'none'}) in the .pxd")
    slots = next((node.value for node in defined.body if isinstance(node, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets)), None)
    if slots is not None:
        names = ast.literal_eval(slots)
        names = {names} if isinstance(names, str) else set(names)
        extra, lacking = sorted(names - set(cls.attributes)), sorted(set(cls.attributes) - names)
        if extra:
            problems.append(f"{where}: __slots__ in the .py has {extra} that the .pxd does not declare")
        if lacking:
            problems.append(f"{where}: the .pxd declares {lacking} that __slots__ in the .py lacks")
    methods = {node.name: node for node in defined.body if isinstance(node, ast.FunctionDef)}
    for name, declared in cls.methods.items():
        if name not in methods:
            problems.append(f"{where}.{name}: declared cpdef, not defined in the .py class body")
            continue
        self_name = [a.arg for a in methods[name].args.args[:1]]
        problems += _check_function(f"{where}.{name}", package, module, declared, methods[name], shadowed,
                                    classes, dict.fromkeys(self_name, cls.name))
    for name, method in methods.items():  # plain def methods: self has the type too
        self_name = [a.arg for a in method.args.args[:1]]
        if self_name and not any(isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
                                 for d in method.decorator_list) and name not in cls.methods:
            problems += _typed_assignments(f"{where}.{name}", package, module, {self_name[0]: cls.name},
                                           _own_nodes(method), shadowed, classes)
    return problems


def check_module(package: Package, module: str, source: str | None = None) -> list[str]:
    """The disagreements between ``module``'s ``.pxd`` and its ``.py`` (``source``: the ``.py``'s
    text instead of the file's)."""
    pxd = package.pxds[module]
    py = pxd.path.with_suffix(".py")
    tree = ast.parse(source if source is not None else py.read_text(encoding="utf-8"))
    shadowed = _module_rebinds(tree)
    scope = package.scope(module)
    classes = {n for n in scope if package.cclass(module, n) is not None}
    top = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            top[node.name] = node
        elif isinstance(node, ast.Assign):
            top.update({t.id: node for t in node.targets if isinstance(t, ast.Name)})
    name = py.relative_to(package.root.parent).as_posix()
    problems = _types_named(package, module) + _cimports(package, module)
    for fname, declared in pxd.functions.items():
        where = f"{name}: {fname}"
        defined = top.get(fname)
        if not isinstance(defined, ast.FunctionDef):
            problems.append(f"{where}: declared cpdef in the .pxd, the .py "
                            f"{'has no' if defined is None else 'defines no'} function {fname}")
            continue
        problems += _check_function(where, package, module, declared, defined, shadowed, classes, {})
    for cname, cls in pxd.classes.items():
        problems += _check_class(f"{name}: {cname}", package, module, cls, top.get(cname), shadowed, classes)
    return problems


def check(root: Path, modules, sources: dict[str, str] | None = None) -> list[str]:
    """Every disagreement between the ``.pxd`` files of the package folder ``root`` (``server``)
    and their ``.py``, for ``modules`` (dotted, relative to ``root``: server/accelerate.py's
    ``MODULES``); ``sources`` replaces some ``.py`` texts (by module). A ``.pxd`` beside a module
    that is not compiled is a problem too (Cython would never read it)."""
    package = Package(root)
    problems = [f"{package.pxds[m].path}: beside a module standoff accelerate does not compile"
                for m in package.pxds if m not in modules]
    for module in modules:
        if module in package.pxds:
            problems += check_module(package, module, (sources or {}).get(module))
    return problems
