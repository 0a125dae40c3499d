"""Reading facts out of TVM's source at a git tag: C++ registrations and Python tag registries.

Used by ``scripts/generate_releases.py`` and the other release scripts. Nothing here runs TVM: C++ is tokenized and the
registration chains (``TVM_REGISTER_TARGET_KIND(...)...;``, ``TVM_REGISTER_TARGET_TAG(...)
.set_config({...})`` and the macros built on it) are read with a small expression reader; the
preprocessor's ``#if`` branches are chosen for an LLVM build (``TVM_LLVM_VERSION`` and
``TVM_LLVM_HAS_AARCH64_TARGET`` as the oracles were built: LLVM 22 with AArch64) and every fact
read under a condition keeps the condition's text. Python tag registries are executed with
``register_tag`` replaced by a recorder (their imports removed), so loops and helper functions
give exactly the configs TVM registers.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Any

from . import TVM_GIT

# How the oracles' libtvm was configured, for the preprocessor's #if (TVM_LLVM_VERSION is the
# LLVM major version times ten).
BUILD = {"TVM_LLVM_VERSION": 220, "TVM_LLVM_HAS_AARCH64_TARGET": 1}


def git_show(tag: str, path: str) -> str:
    return subprocess.run(["git", "-C", str(TVM_GIT), "show", f"refs/tags/{tag}:{path}"],
                          check=True, stdout=subprocess.PIPE, text=True).stdout


def git_has(tag: str, path: str) -> bool:
    return subprocess.run(["git", "-C", str(TVM_GIT), "cat-file", "-e", f"refs/tags/{tag}:{path}"],
                          stderr=subprocess.DEVNULL, check=False).returncode == 0


def git_grep_files(tag: str, needle: str, *paths: str) -> list[str]:
    done = subprocess.run(["git", "-C", str(TVM_GIT), "grep", "-l", "-F", needle,
                           f"refs/tags/{tag}", "--", *paths],
                          stdout=subprocess.PIPE, text=True, check=False)
    return sorted(line.split(":", 1)[1] for line in done.stdout.splitlines())


def cite(where: str, text: str, needle: str) -> str:
    """``where:line`` of the first line of ``text`` holding ``needle`` (which must be there)."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return f"{where}:{number}"
    raise SystemExit(f"{where} does not say {needle!r}")


# ---- C++ -------------------------------------------------------------------------------------

@dataclass
class Source:
    """A C++ file with the preprocessor applied: inactive lines blanked, conditions kept."""

    where: str  # tag:path
    text: str
    conditions: list[tuple[str, ...]]  # per line (0-based): the #if texts it sits under
    defines: dict[str, tuple[list[str], str, int]] = field(default_factory=dict)


def _evaluate(condition: str) -> bool:
    expr = re.sub(r"defined\s*\(\s*(\w+)\s*\)", lambda m: str(int(m.group(1) in BUILD)), condition)
    expr = expr.replace("&&", " and ").replace("||", " or ")
    expr = re.sub(r"!(?!=)", " not ", expr)
    expr = re.sub(r"[A-Za-z_]\w*", lambda m: m.group(0) if m.group(0) in ("and", "or", "not")
                  else str(BUILD.get(m.group(0), 0)), expr)
    return bool(eval(expr, {"__builtins__": {}}))  # noqa: S307 - digits and operators only


def _strip_comments(text: str) -> str:
    """Comments become spaces (newlines kept), string literals untouched."""
    out = []
    for m in re.finditer(r'"(?:\\.|[^"\\\n])*"|//[^\n]*|/\*.*?\*/|.', text, re.S):
        piece = m.group(0)
        if piece.startswith("//") or piece.startswith("/*"):
            out.append(re.sub(r"[^\n]", " ", piece))
        else:
            out.append(piece)
    return "".join(out)


def preprocess(tag: str, path: str) -> Source:
    raw = _strip_comments(git_show(tag, path))
    lines = raw.split("\n")
    out: list[str] = []
    conditions: list[tuple[str, ...]] = []
    stack: list[tuple[str, bool, bool]] = []  # (text, this branch active, a branch was taken)
    defines: dict[str, tuple[list[str], str, int]] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        start = i
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        active = all(s[1] for s in stack)
        directive = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        here = tuple(s[0] for s in stack)
        if directive:
            word, rest = directive.group(1), directive.group(2).strip()
            if word in ("if", "ifdef", "ifndef"):
                cond = {"if": rest, "ifdef": f"defined({rest})",
                        "ifndef": f"!defined({rest})"}[word]
                value = _evaluate(cond)
                stack.append((cond, value, value))
            elif word == "elif":
                text, _, taken = stack.pop()
                value = not taken and _evaluate(rest)
                stack.append((f"!({text}) && ({rest})", value, taken or value))
            elif word == "else":
                text, _, taken = stack.pop()
                stack.append((f"!({text})", not taken, True))
            elif word == "endif":
                stack.pop()
            elif word == "define" and active:
                m = re.match(r"(\w+)\(([^)]*)\)\s*(.*)", rest, re.S)
                if m:
                    params = [p.strip() for p in m.group(2).split(",") if p.strip()]
                    defines[m.group(1)] = (params, m.group(3), start + 1)
            for _ in range(start, i + 1):
                out.append("")
                conditions.append(here)
        else:
            for j in range(start, i + 1):
                out.append(lines[j] if active else "")
                conditions.append(here)
        i += 1
    return Source(f"{tag}:{path}", "\n".join(out), conditions, defines)


TOKEN = re.compile(r'\s+|"(?:\\.|[^"\\])*"|[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*|-?\d+(?:\.\d+)?[fFuUlL]*'
                   r"|[{}()<>,;.=\[\]&*:+\-!?|/%^~]")


def tokenize(text: str, base: int = 0) -> list[tuple[str, int]]:
    """Tokens with their offsets (whitespace dropped)."""
    tokens = []
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            raise SystemExit(f"cannot tokenize {text[pos:pos + 40]!r}")
        if not m.group(0).isspace():
            tokens.append((m.group(0), base + pos))
        pos = m.end()
    return tokens


@dataclass(frozen=True)
class Ident:
    """A C++ name the reader could not turn into a value (a constant, a macro parameter)."""

    name: str


WRAPPERS = {"String", "Integer", "Bool", "Int", "DefaultValue", "Any", "int64_t", "bool",
            "Target"}


class Reader:
    def __init__(self, tokens: list[tuple[str, int]]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self, k: int = 0) -> str:
        return self.tokens[self.i + k][0] if self.i + k < len(self.tokens) else ""

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if expected is not None and tok != expected:
            raise SystemExit(f"expected {expected!r}, found {tok!r} near "
                             + " ".join(t for t, _ in self.tokens[self.i:self.i + 12]))
        self.i += 1
        return tok

    def template(self) -> str:
        """``<...>`` (balanced), returned without the outer brackets."""
        self.take("<")
        depth = 1
        parts: list[str] = []
        while True:
            tok = self.take()
            depth += {"<": 1, ">": -1}.get(tok, 0)
            if depth == 0:
                return " ".join(parts).replace(" < ", "<").replace(" >", ">").replace(" ,", ",")
            parts.append(tok)

    def value(self) -> Any:
        tok = self.peek()
        if tok.startswith('"'):
            self.take()
            text = ast.literal_eval(tok)
            while self.peek().startswith('"'):  # adjacent literals concatenate
                text += ast.literal_eval(self.take())
            return text
        if re.fullmatch(r"-?\d+", tok):
            self.take()
            number = int(tok)
            while self.peek() in ("<", "*") and re.fullmatch(r"\d+", self.peek(2) or "x") \
                    and (self.peek() == "*" or self.peek(1) == "<"):
                if self.take() == "<":  # 1 << 30
                    self.take("<")
                    number <<= int(self.take())
                else:
                    number *= int(self.take())
            return number
        if re.fullmatch(r"-?\d+(\.\d+)?[fF]?", tok):
            self.take()
            return float(tok.rstrip("fF"))
        if tok in ("true", "false"):
            self.take()
            return tok == "true"
        if tok == "{":
            return self.braced(None)
        if re.fullmatch(r"[A-Za-z_][\w:]*", tok):
            name = self.take()
            short = name.split("::")[-1]
            template = self.template() if self.peek() == "<" else None
            if self.peek() == "(":
                self.take("(")
                if self.peek() == ")":
                    self.take(")")
                    return [] if short == "Array" else {} if short == "Map" else Ident(name)
                inner = self.value()
                self.take(")")
                if short in WRAPPERS or short in ("Array", "Map"):
                    return inner
                return Ident(f"{name}(...)")
            if self.peek() == "{":
                return self.braced(short if template is not None else None)
            return Ident(name)
        raise SystemExit(f"cannot read a value at {tok!r}")

    def braced(self, container: str | None) -> Any:
        self.take("{")
        items = []
        while self.peek() != "}":
            items.append(self.value())
            if self.peek() == ",":
                self.take(",")
        self.take("}")
        pairs = all(isinstance(x, list) and len(x) == 2 and isinstance(x[0], str) for x in items)
        if container == "Map" or (container is None and items and pairs):
            return {k: v for k, v in items}
        return items

    def raw_args(self) -> list[list[tuple[str, int]]]:
        """The tokens of each argument of a call (not read as values)."""
        self.take("(")
        args: list[list[tuple[str, int]]] = [[]]
        depth = 0
        while True:
            tok = self.tokens[self.i]
            self.i += 1
            if depth == 0 and tok[0] == ")":
                return [a for a in args if a]
            if depth == 0 and tok[0] == ",":
                args.append([])
                continue
            depth += {"(": 1, ")": -1, "{": 1, "}": -1, "[": 1, "]": -1}.get(tok[0], 0)
            args[-1].append(tok)

    def call_args(self) -> list[Any]:
        self.take("(")
        args = []
        while self.peek() != ")":
            args.append(self.value())
            if self.peek() == ",":
                self.take(",")
        self.take(")")
        return args


def statements(source: Source, head: str) -> list[tuple[int, str]]:
    """``(line, text)`` of every statement that starts with ``head(`` (up to its ``;``)."""
    found = []
    for m in re.finditer(re.escape(head) + r"\s*\(", source.text):
        depth, j = 0, m.start()
        while True:
            ch = source.text[j]
            if ch == '"':
                j = re.compile(r'"(?:\\.|[^"\\])*"').match(source.text, j).end()  # type: ignore[union-attr]
                continue
            if ch in "({[":
                depth += 1
            elif ch in ")}]":
                depth -= 1
            elif ch == ";" and depth == 0:
                break
            j += 1
        line = source.text.count("\n", 0, m.start()) + 1
        found.append((line, source.text[m.start():j]))
    return found


CPP_TYPES = {"Array<String>": "array<str>", "String": "str", "Bool": "bool", "bool": "bool",
             "Integer": "int", "Int": "int", "int64_t": "int", "int": "int", "Target": "target",
             "Array<Target>": "array<target>", "Array<Integer>": "array<int>",
             "Array<Int>": "array<int>", "Array<int64_t>": "array<int>"}


def cpp_type(template: str) -> str:
    plain = re.sub(r"\b(?:ffi|runtime|tvm)::", "", template).replace(" ", "")
    if plain not in CPP_TYPES:
        raise SystemExit(f"unknown attribute type {template!r}")
    return CPP_TYPES[plain]


def kinds_at(tag: str) -> tuple[dict[str, Any], list[str]]:
    """Every ``TVM_REGISTER_TARGET_KIND`` at ``tag`` (with the macro's common options)."""
    header_path = "include/tvm/target/target_kind.h"
    header = preprocess(tag, header_path)
    params, body, define_line = header.defines["TVM_REGISTER_TARGET_KIND"]
    common = []
    reader = Reader(tokenize(body))
    while reader.peek():
        if reader.peek() == "add_attr_option" and reader.peek(1) == "<":
            reader.take()
            type_name = cpp_type(reader.template())
            args = reader.call_args()
            common.append((args[0], type_name))
        else:
            reader.take()
    common_cite = f"{tag}:{header_path}:{define_line}"
    # 0.24+: add_attr_option(key, traits...) where only refl::DefaultValue is a default
    traits = "Traits&&... traits" in header.text
    files = git_grep_files(tag, "TVM_REGISTER_TARGET_KIND(", "src")
    kinds: dict[str, Any] = {}
    for path in files:
        source = preprocess(tag, path)
        for line, text in statements(source, "TVM_REGISTER_TARGET_KIND"):
            reader = Reader(tokenize(text))
            reader.take("TVM_REGISTER_TARGET_KIND")
            name, device = reader.call_args()
            attrs: dict[str, Any] = {
                attr: {"type": type_name, "source": common_cite} for attr, type_name in common}
            hooks: dict[str, str] = {}
            keys: list[str] = []
            while reader.peek():
                tok = reader.take()
                if tok != "." or not re.fullmatch(r"\w+", reader.peek()):
                    continue
                method = reader.take()
                template = reader.template() if reader.peek() == "<" else None
                if reader.peek() != "(":
                    continue
                start_offset = reader.tokens[reader.i][1]
                if method == "add_attr_option":
                    assert template is not None
                    args = reader.raw_args()
                    spec: dict[str, Any] = {"type": cpp_type(template)}
                    for extra in args[1:]:
                        words = [t for t, _ in extra]
                        if any(w.endswith("AttrValidator") for w in words):
                            # 0.24+: a function that checks (and may convert) the value
                            spec["validator"] = True
                        elif not traits or words[0].endswith("DefaultValue"):
                            spec["default"] = Reader(extra).value()
                        elif words[0].startswith('"'):
                            spec["doc"] = Reader(extra).value()
                        else:
                            # 0.24+ ConfigSchema::ApplyTrait ignores any other trait, so a bare
                            # value is no default (the oracles agree)
                            spec["ignored_trait"] = " ".join(words)
                    args = [Reader(args[0]).value()]
                    at = line + text.count("\n", 0, start_offset)
                    spec["source"] = f"{source.where}:{at}"
                    attrs[args[0]] = spec
                elif method == "set_default_keys":
                    keys = reader.call_args()[0]
                elif method in ("set_target_parser", "set_attrs_preprocessor",
                                "set_target_canonicalizer"):
                    hooks[method.replace("set_", "")] = str(reader.call_args()[0].name)
                else:
                    depth = 0
                    while True:  # skip the arguments of other calls (lambdas included)
                        tok = reader.take()
                        depth += {"(": 1, ")": -1}.get(tok, 0)
                        if depth == 0:
                            break
            entry: dict[str, Any] = {"device_enum": device.name, "default_keys": keys,
                                     "attrs": dict(sorted(attrs.items())),
                                     "source": f"{source.where}:{line}"}
            if hooks:
                entry["hooks"] = hooks
                entry["hook_code"] = {h: hook_code(tag, fn, path) for h, fn in hooks.items()}
            if source.conditions[line - 1]:
                entry["condition"] = " && ".join(source.conditions[line - 1])
            if name in kinds:
                raise SystemExit(f"{tag}: kind {name} registered twice")
            kinds[name] = entry
    return dict(sorted(kinds.items())), files


def cpp_tags_at(tag: str, path: str = "src/target/tag.cc") -> dict[str, Any]:
    """Every tag ``path`` registers at ``tag``, as its config (macros expanded)."""
    if not git_has(tag, path):
        return {}
    source = preprocess(tag, path)
    tags: dict[str, Any] = {}
    macros = {name: d for name, d in source.defines.items()
              if "TVM_REGISTER_TARGET_TAG" in d[1]}

    def register(text: str, where: str, condition: tuple[str, ...]) -> None:
        reader = Reader(tokenize(text))
        reader.take("TVM_REGISTER_TARGET_TAG")
        (name,) = reader.call_args()
        reader.take(".")
        reader.take("set_config")
        (config,) = reader.call_args()
        while reader.peek() == ".":  # .with_config(key, value) adds to the config
            reader.take(".")
            reader.take("with_config")
            key, value = reader.call_args()
            config[key] = value
        entry: dict[str, Any] = {"config": config, "source": where}
        if condition:
            entry["condition"] = " && ".join(condition)
        # A second registration of a name replaces the config (AttrRegistry::RegisterOrGet).
        if name in tags:
            entry["registered_twice"] = tags[name]["source"]
        tags[name] = entry

    for line, text in statements(source, "TVM_REGISTER_TARGET_TAG"):
        register(text, f"{source.where}:{line}", source.conditions[line - 1])
    for macro, (params, body, define_line) in macros.items():
        for line, text in statements(source, macro):
            if text.startswith("#") or line == define_line:
                continue
            reader = Reader(tokenize(text))
            reader.take(macro)
            reader.take("(")
            args: list[str] = []
            depth = 0
            current: list[str] = []
            while True:
                tok = reader.take()
                if depth == 0 and tok in (",", ")"):
                    args.append(" ".join(current))
                    current = []
                    if tok == ")":
                        break
                    continue
                depth += {"(": 1, ")": -1, "{": 1, "}": -1}.get(tok, 0)
                current.append(tok)
            tail = text[reader.tokens[reader.i][1]:] if reader.peek() else ""
            mapping = dict(zip(params, args))
            expanded = re.sub(r"\b\w+\b",
                              lambda m, mapping=mapping: mapping.get(m.group(0), m.group(0)), body)
            expanded = expanded.strip().rstrip(";") + tail
            # the #if around the macro's definition counts too (0.21: apple-m4 or apple-latest)
            conditions = source.conditions[define_line - 1] + source.conditions[line - 1]
            register(expanded, f"{source.where}:{line} (macro {macro}, "
                     f"{source.where}:{define_line})", tuple(dict.fromkeys(conditions)))
    return dict(sorted(tags.items()))


# ---- Python tag registries ---------------------------------------------------------------

class _Imports(ast.NodeTransformer):
    """Imports inside functions become ``pass`` (the top-level ones are dropped)."""

    def visit_Import(self, node: ast.AST) -> ast.AST:  # noqa: N802 (ast's name)
        return ast.copy_location(ast.Pass(), node)

    visit_ImportFrom = visit_Import


class _LLVMBackends:
    """TVM TIRx registers its Arm tags through ``llvm.backend_enabled(triple)`` (only where its
    LLVM has that backend): every backend counts as enabled, and the tag registered next
    records the condition."""

    def __init__(self) -> None:
        self.condition: str | None = None

    def backend_enabled(self, triple: str) -> bool:
        self.condition = (f"the LLVM TIRx links has the backend of {triple} "
                          "(tvm_tirx.codegen.llvm.backend_enabled)")
        return True


def python_tags(files: list[tuple[str, str]]) -> dict[str, Any]:
    """Run each ``(where, source)`` with ``register_tag`` recording (imports removed)."""
    tags: dict[str, Any] = {}
    llvm = _LLVMBackends()
    for where, text in files:
        tree = _Imports().visit(ast.parse(text))
        body = [node for node in tree.body
                if not isinstance(node, ast.Pass)
                and not (isinstance(node, ast.FunctionDef)
                         and node.name in ("register_tag", "list_tags"))
                and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                         and isinstance(node.value.func, ast.Name)
                         and node.value.func.id == "list_tags")]
        module = ast.Module(body=body, type_ignores=[])
        filename = f"<{where}>"

        def register_tag(name: str, config: dict[str, Any] | None = None,
                         override: bool = False, *, filename: str = filename,
                         where: str = where) -> None:
            frame = sys._getframe(1)
            line = None
            while frame is not None:
                if frame.f_code.co_filename == filename:
                    line = frame.f_lineno  # the outermost line of this file wins
                frame = frame.f_back  # type: ignore[assignment]
            entry = {"config": copy.deepcopy(config), "source": f"{where}:{line}"}
            if llvm.condition is not None:
                entry["condition"], llvm.condition = llvm.condition, None
            if name in tags:
                if not override:
                    raise SystemExit(f"{where}: tag {name} registered twice without override")
                entry["registered_twice"] = tags[name]["source"]
            tags[name] = entry

        exec(compile(module, filename, "exec"), {"register_tag": register_tag,  # noqa: S102
                                                  "llvm": llvm, "__name__": "tag_source"})
    return dict(sorted(tags.items()))


def python_tag_files_at(tag: str) -> list[tuple[str, str]]:
    """The Python files that register tags at ``tag``, in the order TVM imports them."""
    files = [p for p in git_grep_files(tag, "register_tag(", "python/tvm")
             if not p.endswith(("tag_registry/registry.py",))]
    return [(f"{tag}:{p}", git_show(tag, p)) for p in files]


def cmake_condition(tag: str, path: str) -> tuple[str | None, str]:
    """Whether TVM's default build compiles ``path``: ``(None, cite)`` when it always does,
    ``(condition, cite)`` when a CMake ``if()`` guards it (an optional component)."""
    if path.startswith("src/target/"):
        return None, f"{tag}:CMakeLists.txt (src/target/ is always built)"
    directory = path.rsplit("/", 1)[0]
    for cmake in git_grep_files(tag, directory, "cmake", "CMakeLists.txt"):
        text = git_show(tag, cmake)
        stack: list[str] = []
        for number, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0]
            m = re.match(r"\s*(if|elseif|else|endif)\s*\((.*?)\)?\s*$", code, re.I)
            if m:
                word = m.group(1).lower()
                if word == "if":
                    stack.append(m.group(2).strip())
                elif word == "endif":
                    stack.pop()
                elif stack:
                    stack[-1] = f"not ({stack[-1]})" + (f" and {m.group(2)}" if word == "elseif"
                                                        else "")
                continue
            if directory in code:
                where = f"{tag}:{cmake}:{number}"
                return (" and ".join(stack) or None), where
    return "never (no CMake file names it)", f"{tag}:cmake"


def _normalized(text: str) -> str:
    """C++ without comments, whitespace and namespace qualifiers (refactors that moved code
    into ``ffi::`` or out of ``support::`` do not count as changes)."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\b(?:ffi|runtime|tvm|support)::", "", text)
    return re.sub(r"\s+", "", text)


def hook_code(tag: str, hook: str, kind_file: str) -> dict[str, str]:
    """A fingerprint of a hook's code at ``tag``: for a function of the kind's own file, its
    body; for the cpu parser / llvm canonicalizer, every file of its directory (it calls into
    them)."""
    if "::parsers::" in hook or "::canonicalizer::" in hook:
        directory = "src/target/parsers" if "::parsers::" in hook else "src/target/canonicalizer"
        done = subprocess.run(["git", "-C", str(TVM_GIT), "ls-tree", "-r", "--name-only",
                               f"refs/tags/{tag}", directory],
                              stdout=subprocess.PIPE, text=True, check=True)
        paths = sorted(done.stdout.split())
        text = "".join(_normalized(git_show(tag, p)) for p in paths)
        where = f"{tag}:{directory}/ ({len(paths)} files)"
    else:
        name = hook.split("::")[-1]
        source = git_show(tag, kind_file)
        m = re.search(r"\n[^\n;]*\b" + re.escape(name) + r"\s*\([^;{]*\)\s*\{", source)
        if m is None:
            return {"sha256": "", "of": f"{name}: no definition in {tag}:{kind_file}"}
        i, depth = m.end(), 1
        while depth:
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        text = _normalized(source[m.start():i])
        where = f"{tag}:{kind_file}:{source.count(chr(10), 0, m.start()) + 2} ({name})"
    return {"sha256": hashlib.sha256(text.encode()).hexdigest()[:16], "of": where}
