"""boardgen's own Sphinx extension.

- ``diagram-syntax``: a game's diagram-file language, read from the tables its runner uses
  (:func:`boardgen.games.script.directive_syntax`, the source ``boardgen diagram --syntax``
  will print), so that the reference lists exactly what the parser accepts.
- The command-line examples are run by the doctest builder (``-b doctest``), as the
  ``>>>`` examples are: in a ``sh`` block every line that starts with ``boardgen`` must
  succeed; in a ``console`` block every ``$ boardgen ...`` line must print what follows it
  (``...`` matches anything) and exit as said (``[exit 2]`` on the last line of its output,
  else 0).  A block captioned with a file name (``:caption: position.txt``) is that file,
  written into the page's folder before its commands run.  Each page runs in a fresh, empty
  folder, as a reader without boardgen's source tree would: a page that needs a file gives
  its text.  A block marked
  ``:class: not-run`` is shown only (the live preview, which runs until stopped, and the
  plug-in's commands, which need it installed: the tests run those).
"""

from __future__ import annotations

import base64
import html
import os
import re
import shlex
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import boardgen
from boardgen.games.registry import games
from boardgen.games.script import GameSyntax, Syntax

LOG = logging.getLogger(__name__)


def _cell(text: str) -> str:
    """Text for a Markdown table's cell (MyST parses the directive's output)."""
    return text.replace("|", "\\|")


def _table(title: str, entries: tuple[Syntax, ...]) -> list[str]:
    if not entries:
        return []
    lines = [f"**{title}**", "", "| written | meaning |", "|---|---|"]
    for entry in entries:
        forms = " or ".join(f"`{_cell(form.strip())}`" for form in entry.form.split(" | "))
        lines.append(f"| {forms} | {_cell(entry.meaning)} |")
    return [*lines, ""]


def syntax_markdown(syntax: GameSyntax) -> list[str]:
    lines = [*_table("Before the first panel", syntax.header),
             *_table("In a panel", syntax.panel)]
    if syntax.mark_kinds:
        lines += _table("Mark kinds, after mark: WHERE", syntax.mark_kinds)
    if syntax.claims:
        lines += _table("Claims, after expect:", syntax.claims)
    else:
        lines += ["No claims: nothing is replayed, so `expect:` is refused.", ""]
    judged = ", ".join(f"`{role}`" for role in syntax.judged_roles) or "none"
    drawn = ", ".join(f"`{role}`" for role in syntax.drawn_roles)
    lines += [f"Highlight roles the engine judges: {judged}. Drawn as asked, judged by "
              f"nobody: {drawn}.", ""]
    if syntax.block_keys:
        keys = [f"`{key}:`" for key in syntax.block_keys]
        blocks = ", ".join(keys[:-1]) + " and " + keys[-1] if len(keys) > 1 else keys[0]
        takes = "take the lines after them" if len(keys) > 1 else "takes the lines after it"
        lines += [f"With an empty value, {blocks} {takes}, up to a line `end`.", ""]
    return lines


class DiagramSyntax(SphinxDirective):
    """``.. diagram-syntax:: GAME``: that game's directives, claims and highlight roles."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        game = games()[self.arguments[0]]
        syntax = game.diagram_syntax()
        if syntax is None:
            raise self.error(f"{game.key} has no diagram language")
        container = nodes.container()
        self.state.nested_parse(StringList(syntax_markdown(syntax), source="diagram-syntax"),
                                self.content_offset, container)
        return list(container.children)


class GameDiagram(SphinxDirective):
    """``.. game-diagram:: GAME NAME`` (a built-in diagram) or, with a diagram file's text
    as content, that file: drawn by boardgen, checked by the engine as the command line
    checks it, shown as an SVG picture (a refusal fails the build)."""

    optional_arguments = 2
    has_content = True

    def run(self) -> list[nodes.Node]:
        try:
            if self.content:
                drawn = boardgen.parse_diagram("\n".join(self.content))
            elif len(self.arguments) == 2:
                drawn = boardgen.diagram(*self.arguments)
            else:
                raise self.error("game-diagram: give GAME NAME, or a diagram file's text")
            svg = boardgen.draw(drawn, "svg")
        except boardgen.BoardgenError as exc:
            raise self.error(f"game-diagram: {exc}") from None
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        alt = html.escape(drawn.title, quote=True)
        return [nodes.raw("", f'<figure class="boardgen-diagram"><img alt="{alt}" '
                              f'src="data:image/svg+xml;base64,{data}" '
                              'style="max-width: 100%; height: auto"></figure>',
                          format="html")]


class QuickReference(SphinxDirective):
    """``.. quick-reference:: GAME``: the game's one-page quick reference, the same text
    as its printed one (``templates/GAME/quick.md``), its diagrams drawn by boardgen."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        game = games()[self.arguments[0]]
        source = game.template_folder / "quick.md"
        lines: list[str] = []
        for line in source.read_text(encoding="utf-8").splitlines():
            if line.startswith("# "):  # its title: the page has its own heading
                continue
            if line.startswith("::: diagram "):
                lines += [f"```{{game-diagram}} {line.removeprefix('::: diagram ')}", "```"]
            else:
                lines.append(line)
        self.env.note_dependency(str(source))
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source=str(source)), self.content_offset,
                                container)
        return list(container.children)


# --- the API reference --------------------------------------------------------------------

PROTOCOL_POSITION = "boardgen.games.protocol.Position"


def public_position(app: Sphinx, doctree: nodes.document) -> None:
    """In the signatures of the public API (``boardgen.play``, ``boardgen.draw`` ...), a
    position is :class:`boardgen.Position`, the page a user reads, not the plug-in
    protocol's entry for the same class (which is what a game subclasses)."""
    for signature in doctree.findall(addnodes.desc_signature):
        module = signature.get("module") or ""
        if not module.startswith("boardgen") or module.startswith("boardgen.games"):
            continue
        for ref in signature.findall(addnodes.pending_xref):
            if ref.get("reftarget") == PROTOCOL_POSITION:
                ref["reftarget"] = "boardgen.Position"


# --- the command reference, from the click commands' help (sphinx-click) -----------------

# A quoted fragment of a help text is something to type ('game:', "F6 E5 ..."): shown as
# code, its quotes straight, as the terminal shows them (smart quotes would curl them, and a
# curled quote pasted into a shell is part of the word).
QUOTED = re.compile(r"""(?<![\w`])(['"])([^'"`\n]+?)\1(?![\w`])""")
# "FILE:LINE" reads as a URI with the scheme "file:" to docutils: code, not a link.
PLACEHOLDER = re.compile(r"(?<!`)\bFILE:LINE\b(?!`)")
# The help's pointer to a page of this site, in words a terminal can show.
PAGE_NAMED = re.compile(r'"([^"]+)"\s+\((reference/[\w/-]+)\)')


def _inline_code(text: str) -> str:
    text = PAGE_NAMED.sub(lambda m: f":doc:`{m.group(1)} </{m.group(2)}>`", text)
    text = PLACEHOLDER.sub("``FILE:LINE``", text)
    return QUOTED.sub(lambda m: f"``{m.group(0)}``" if m.group(1) == '"' and " " in m.group(2)
                      else f"``{m.group(2)}``", text)


def help_as_rst(lines: list[str]) -> list[str]:
    """A command's help, as sphinx-click gives it (a click ``\\b`` paragraph as a line block
    of ``| `` lines), with each indented run of a ``\\b`` paragraph (the examples, the
    tables) as a code block, and what is to be typed in the prose as code."""
    out: list[str] = []
    prose: list[str] = []

    def flush_prose() -> None:
        if prose:
            out.extend(_inline_code("\n".join(prose)).split("\n"))
            prose.clear()

    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("| ") and line[2:].startswith(" ") and line[2:].strip():
            run = []
            while index < len(lines) and lines[index].startswith("|  "):
                run.append(lines[index][2:])
                index += 1
            flush_prose()
            if out and out[-1].startswith("| "):
                out[-1] = out[-1][2:]  # its heading ("Examples:"), a paragraph of its own
            run = textwrap.dedent("\n".join(run)).split("\n")
            commands = all(row.startswith("boardgen ") for row in run)
            out += ["", f".. code-block:: {'sh' if commands else 'text'}", "   :class: not-run",
                    "", *(f"   {row}" for row in run), ""]
            continue
        if line.startswith("| "):
            flush_prose()
            out.append("| " + _inline_code(line[2:]))
        else:
            prose.append(line)
        index += 1
    flush_prose()
    return out


def _description(app: Sphinx, ctx: Any, lines: list[str]) -> None:
    lines[:] = help_as_rst(lines)


def _options(app: Sphinx, ctx: Any, lines: list[str]) -> None:
    lines[:] = [line if line.lstrip().startswith(".. option::") else _inline_code(line)
                for line in lines]


# --- the command-line examples, run by the doctest builder --------------------------------

FILE_NAME = re.compile(r"^[\w.-]+\.(txt|toml)$")
EXIT = re.compile(r"\[exit (\d+)\]\s*$")


def _matches(expected: str, got: str) -> bool:
    """Whitespace-insensitive, '...' matching anything."""
    want = " ".join(expected.split())
    have = " ".join(got.split())
    pattern = ".*?".join(re.escape(part) for part in want.split("..."))
    return re.fullmatch(pattern, have, re.S) is not None


def _run(words: list[str], folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "boardgen", *words[1:]], cwd=folder,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "80", "BOARDGEN_DISABLE_PLUGINS": "1"},
                          stdin=subprocess.DEVNULL)


def _check_page(docname: str, doctree: nodes.document) -> tuple[int, list[str]]:
    """Run a page's command-line examples; (commands run, failures)."""
    blocks = [b for b in doctree.findall(nodes.literal_block)
              if "not-run" not in b.get("classes", [])]
    failures: list[str] = []
    ran = 0
    with tempfile.TemporaryDirectory(prefix="boardgen-docs-") as tmp:
        folder = Path(tmp)
        for block in blocks:  # files first: a command may come before the file it reads
            caption = block.parent if isinstance(block.parent, nodes.container) else None
            title = caption.next_node(nodes.caption).astext() if caption is not None else ""
            if FILE_NAME.match(title):
                (folder / title).write_text(block.astext() + "\n", encoding="utf-8")
        for block in blocks:
            language = block.get("language", "")
            where = f"{docname}:{block.line or '?'}"
            if language == "sh":
                for line in block.astext().splitlines():
                    if not line.startswith("boardgen "):
                        continue
                    ran += 1
                    result = _run(shlex.split(line, comments=True), folder)
                    if result.returncode != 0:
                        failures.append(f"{where}: {line!r} exited {result.returncode}: "
                                        f"{result.stderr.strip()[-300:]}")
            elif language == "console":
                for command, output in re.findall(r"^\$ (.*)\n((?:(?!\$ ).*\n?)*)",
                                                  block.astext(), re.M):
                    ran += 1
                    code = EXIT.search(output)
                    want = int(code.group(1)) if code else 0
                    expected = EXIT.sub("", output)
                    result = _run(shlex.split(command), folder)
                    got = result.stdout + result.stderr
                    if result.returncode != want or not _matches(expected, got):
                        failures.append(f"{where}: {command!r} exited {result.returncode} "
                                        f"(expected {want}) and printed:\n{got}")
    return ran, failures


def run_command_examples(app: Sphinx, error: Exception | None) -> None:
    if error is not None or app.builder.name != "doctest":
        return
    total = 0
    failed = 0
    for docname in sorted(app.env.found_docs):
        ran, failures = _check_page(docname, app.env.get_doctree(docname))
        total += ran
        for failure in failures:
            failed += 1
            LOG.error("command example failed: %s", failure)
    LOG.info("command-line examples: %d run, %d failed", total, failed)
    if failed:
        app.statuscode = 1


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("diagram-syntax", DiagramSyntax)
    app.add_directive("game-diagram", GameDiagram)
    app.add_directive("quick-reference", QuickReference)
    app.connect("build-finished", run_command_examples)
    app.connect("doctree-read", public_position)
    app.connect("sphinx-click-process-description", _description)
    app.connect("sphinx-click-process-options", _options)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
