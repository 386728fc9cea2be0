#!/usr/bin/env python3
"""Fails on a circle of imports between the files of any crate in the workspace.

Every target of every workspace package (`cargo metadata`: libraries, binaries, tests,
examples, benches) is a crate; its files are found from the crate root by following `mod x;`
declarations. A file imports another when it names a path into it: `use crate::a::b`,
`use super::x`, `self::x`, a bare `use child::x` of a module it declares, or a `crate::a::f(..)`
path in code. A path to an item of a module (not a module of its own) counts as an import of
the file that holds the module, so `crate::Name` re-exported by lib.rs is an import of lib.rs:
importing the facade from below is a circle too. Comments, strings and `$crate` in macros are
ignored. Inline modules (`mod tests { use super::*; }`) belong to their file.

Usage: import_cycles.py [-p PACKAGE]... [--manifest-path Cargo.toml]   (exit 1 on a circle)
       import_cycles.py --self-test                                       (checks this checker)

Why a script and not `cargo modules dependencies --acyclic`: cargo-modules builds a few hundred
rust-analyzer crates (a long step for a 2-core CI) and wants the `rust-src` component, which
this toolchain may not have; this needs only Python 3 and cargo.
"""

import json
import os
import re
import subprocess
import sys
import tempfile

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """The code without comments, string and char literals (kept as blanks: lines stay put)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not text[i - 1].isalnum()):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(" " + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}'), not a lifetime ('a).
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                out.append(" ")
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> ['a::b', 'a::c::d', 'a::c::e'] (`self` in a group is the prefix)."""
    tree = re.sub(r"\s+", "", tree)
    paths = []

    def walk(prefix, s):
        depth, start, parts = 0, 0, []
        for k, ch in enumerate(s):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                parts.append(s[start:k])
                start = k + 1
        parts.append(s[start:])
        for part in filter(None, parts):
            brace = part.find("{")
            if brace >= 0 and part.endswith("}"):
                walk(prefix + part[:brace], part[brace + 1 : -1])
            else:
                part = re.sub(r"\bas\b.*$", "", part) if "as" in part else part
                if part == "self":
                    paths.append(prefix.rstrip(":"))
                else:
                    paths.append(prefix + part)

    walk("", tree)
    return [re.sub(r"(::)?(\*|as" + IDENT + ")$", "", p) for p in paths]


class Crate:
    """The files of one crate: module path -> file, and the imports between them."""

    def __init__(self, root):
        self.files = {}  # module path (tuple) -> file
        self.edges = {}  # file -> {file: line}
        self.raw = []  # (file, module path of the code, path text, line)
        self.modules = set()
        self.load(root, ())

    def load(self, path, module):
        self.files[module] = path
        with open(path, encoding="utf-8") as f:
            code = strip(f.read())
        self.edges.setdefault(path, {})
        base = os.path.dirname(path)
        own_dir = base if os.path.basename(path) in ("lib.rs", "main.rs", "mod.rs") or module == () \
            else os.path.join(base, os.path.splitext(os.path.basename(path))[0])
        inline = []  # (name, brace depth at which it opened)
        depth = 0
        tokens = re.finditer(r"\{|\}|\bmod\s+(" + IDENT + r")\s*([;{])|\buse\s+([^;]*);"
                             r"|(?<![\w$])((?:crate|super|self)(?:::" + IDENT + r")+)", code)
        for m in tokens:
            line = code.count("\n", 0, m.start()) + 1
            here = module + tuple(name for name, _ in inline)
            if m.group(0) == "{":
                depth += 1
            elif m.group(0) == "}":
                depth -= 1
                if inline and inline[-1][1] == depth:
                    inline.pop()
            elif m.group(1):
                if m.group(2) == "{":
                    inline.append((m.group(1), depth))
                    depth += 1
                elif not inline:
                    child = self.find_child(own_dir, m.group(1))
                    if child:
                        self.load(child, module + (m.group(1),))
                        self.edges.setdefault(path, {})
            elif m.group(3) is not None:
                for p in expand_use(m.group(3)):
                    self.pending_edge(path, here, p, line)
            elif m.group(4):
                self.pending_edge(path, here, m.group(4), line)

    def pending_edge(self, path, here, text, line):
        """Kept until every file is read: `text` may name a module found later."""
        self.raw.append((path, here, text, line))

    @staticmethod
    def find_child(own_dir, name):
        for candidate in (os.path.join(own_dir, name + ".rs"), os.path.join(own_dir, name, "mod.rs")):
            if os.path.exists(candidate):
                return candidate
        return None

    def resolve(self, here, text):
        """The module path `text` points into, from module `here`; None if outside the crate."""
        segments = text.split("::")
        if segments[0] == "crate":
            target, rest = (), segments[1:]
        elif segments[0] in ("super", "self"):
            target = here
            while segments and segments[0] in ("super", "self"):
                if segments[0] == "super":
                    target = target[:-1]
                segments = segments[1:]
            rest = segments
        elif here + (segments[0],) in self.files or any(
                k[: len(here) + 1] == here + (segments[0],) for k in self.modules):
            target, rest = here, segments
        else:
            return None  # an external crate, std, or an item in scope
        for s in rest:
            if target + (s,) in self.modules:
                target = target + (s,)
            else:
                break
        return target

    def file_of(self, module):
        while module not in self.files:
            module = module[:-1]
        return self.files[module]


def analyse(root):
    crate = Crate(root)
    # Every module path, inline ones included, so that `crate::a::tests` stays in a.rs.
    crate.modules = set(crate.files)
    for path, here, _, _ in crate.raw:
        for k in range(len(here) + 1):
            crate.modules.add(here[:k])
    for path, here, text, line in crate.raw:
        target = crate.resolve(here, text)
        if target is None:
            continue
        to = crate.file_of(target)
        if to != path:
            crate.edges[path].setdefault(to, line)
    return crate.edges


def circles(edges):
    """Strongly connected components of more than one file (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def report(name, edges, base):
    found = circles(edges)
    for component in found:
        rel = lambda p: os.path.relpath(p, base)
        print(f"{name}: import circle of {len(component)} files:")
        members = set(component)
        for f in component:
            for to, line in sorted(edges[f].items()):
                if to in members:
                    print(f"  {rel(f)}:{line} imports {rel(to)}")
    return len(found)


def targets(manifest, packages):
    meta = json.loads(subprocess.run(
        ["cargo", "metadata", "--no-deps", "--format-version", "1", "--manifest-path", manifest],
        check=True, capture_output=True, text=True).stdout)
    members = set(meta["workspace_members"])
    for package in meta["packages"]:
        if package["id"] not in members or (packages and package["name"] not in packages):
            continue
        for target in package["targets"]:
            yield f'{package["name"]} ({"/".join(target["kind"])} {target["name"]})', target["src_path"]


def self_test():
    """A circle of three files must fail, and the same crate without it must pass."""
    assert expand_use("crate::{a::B, c::{self, D as E}, f::*}") == ["crate::a::B", "crate::c", "crate::c::D", "crate::f"]
    assert "crate" not in strip('let s = "use crate::a::b;"; // crate::c\n')
    with tempfile.TemporaryDirectory() as d:
        def write(name, text):
            os.makedirs(os.path.dirname(os.path.join(d, name)), exist_ok=True)
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        write("src/lib.rs", "mod a;\nmod b;\nmod c;\npub use a::A;\n")
        write("src/a.rs", "use crate::b::B;\npub struct A(B);\n#[cfg(test)]\nmod tests { use super::*; }\n")
        write("src/b.rs", "pub struct B(crate::c::C);\n")
        write("src/c.rs", "use crate::{a::A as Alias};\n// use crate::b::B;\npub struct C;\n")
        edges = analyse(os.path.join(d, "src/lib.rs"))
        found = circles(edges)
        assert len(found) == 1 and len(found[0]) == 3, found
        write("src/c.rs", "// use crate::a::A;\nconst S: &str = \"crate::a::A\";\npub struct C;\n")
        assert circles(analyse(os.path.join(d, "src/lib.rs"))) == []
        # A child module importing its parent facade is a circle of two files.
        write("src/c.rs", "mod d;\npub use d::D;\npub struct C;\n")
        write("src/c/d.rs", "pub struct D(super::C);\n")
        found = circles(analyse(os.path.join(d, "src/lib.rs")))
        assert [sorted(os.path.basename(p) for p in c) for c in found] == [["c.rs", "d.rs"]], found
        # ... and `crate::Name` through lib.rs's re-export is an import of lib.rs.
        write("src/c.rs", "pub struct C(crate::A);\n")
        found = circles(analyse(os.path.join(d, "src/lib.rs")))
        assert len(found) == 1 and any(p.endswith("lib.rs") for p in found[0]), found
    print("import_cycles.py self-test: ok")


def main(argv):
    if argv == ["--self-test"]:
        self_test()
        return 0
    manifest, packages, args = "Cargo.toml", set(), list(argv)
    while args:
        flag = args.pop(0)
        if flag in ("-p", "--package") and args:
            packages.add(args.pop(0))
        elif flag == "--manifest-path" and args:
            manifest = args.pop(0)
        else:
            print(__doc__, file=sys.stderr)
            return 2
    base = os.path.dirname(os.path.abspath(manifest))
    bad = checked = 0
    for name, root in targets(manifest, packages):
        bad += report(name, analyse(root), base)
        checked += 1
    if checked == 0:
        print(f"no targets found for {sorted(packages) or 'the workspace'}", file=sys.stderr)
        return 2
    print(f"{checked} crates checked, {bad} import circle(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
