"""The page of ``boardgen serve``: one static HTML document with its style and script.

The script asks the server for the list of files and for drawings, and listens to
``/events``; a drawing replaces the one shown only once it has arrived whole and loaded as an
image (an ``<img>`` of the SVG: it cannot run anything, and its styles stay inside it).
While a file is refused, the last good drawing stays, greyed, beside a view of the file
with the offending line marked.

Under the drawing, **Watch it move** (a button: Enter or Space) opens the file's lines of
play in motion: the server's ``/animation/`` page, in a frame, with its own Pause and Play
again controls (checkboxes, reached with Tab), and a link to download the animated SVG.

The state is on ``<body>`` for tests and benchmarks: ``data-state`` (empty, loading, ok,
error, missing), ``data-draws`` (drawings shown so far) and ``data-drawn-at`` (when the last
one was shown, in milliseconds since the epoch).
"""

from __future__ import annotations

import base64
import hashlib
from html import escape

from boardgen.render.paper import PAPERS
from boardgen.render.scene import THEMES

STYLE = """
:root { color-scheme: light; --ink: #1f2328; --muted: #59636e; --line: #d1d9e0;
        --accent: #0b5cad; --bad: #b42318; --bad-bg: #fde8e7; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--ink);
       background: #f6f8fa; }
header { display: flex; flex-wrap: wrap; gap: .5rem 1.25rem; align-items: center;
         padding: .6rem 1rem; background: #fff; border-bottom: 1px solid var(--line); }
header h1 { font-size: 1rem; margin: 0; }
header h1 span { font-weight: normal; color: var(--muted); }
label { color: var(--muted); }
select { font: inherit; margin-left: .3rem; }
#downloads a { margin-left: .4rem; color: var(--accent); }
#downloads[aria-disabled="true"] { visibility: hidden; }
#status { margin-left: auto; color: var(--muted); font-size: .9rem; }
main { display: flex; align-items: flex-start; }
nav { flex: 0 0 16rem; padding: .75rem 0; max-height: calc(100vh - 3.2rem);
      overflow: auto; position: sticky; top: 0; }
nav h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em;
         color: var(--muted); margin: 0 1rem .4rem; }
nav ul { list-style: none; margin: 0; padding: 0; }
nav a { display: block; padding: .3rem 1rem; color: var(--ink); text-decoration: none;
        overflow-wrap: anywhere; }
nav a:hover { background: #eaeef2; }
nav a[aria-current="true"] { background: #ddeaf8; border-left: 3px solid var(--accent);
                             padding-left: calc(1rem - 3px); }
nav .folder { color: var(--muted); }
nav .game { display: block; font-size: .78rem; color: var(--muted); }
nav p { margin: .5rem 1rem; color: var(--muted); }
#view { flex: 1; min-width: 0; padding: 1rem 1.25rem 2rem; }
#view h2 { font-size: 1.05rem; margin: 0 0 .75rem; overflow-wrap: anywhere; }
#error { margin: 0 0 1rem; padding: .6rem .8rem; border: 1px solid var(--bad);
         border-left-width: 4px; background: var(--bad-bg); color: var(--bad);
         font: 14px/1.4 ui-monospace, monospace; white-space: pre-wrap; }
#panes { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; }
body[data-state="error"] #panes { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
figure { margin: 0; }
#drawing img { display: block; width: 100%; max-width: 70rem; height: auto;
               background: #fff; box-shadow: 0 1px 4px rgba(0, 0, 0, .15); }
body[data-state="error"] #drawing img { filter: grayscale(1); opacity: .45; }
#drawing figcaption { color: var(--muted); font-size: .85rem; margin-top: .35rem; }
#source { margin: 0; padding: .5rem 0 .5rem 3.2rem; max-height: 75vh; overflow: auto;
          background: #fff; border: 1px solid var(--line);
          font: 13px/1.5 ui-monospace, monospace; color: var(--muted); }
#source li { white-space: pre-wrap; padding: 0 .5rem 0 .4rem; }
#source li span { color: var(--ink); }
#source li.bad { background: var(--bad-bg); color: var(--bad);
                 box-shadow: inset 3px 0 var(--bad); }
#source li.bad span { color: var(--bad); font-weight: 600; }
.empty { color: var(--muted); }
#moving { margin-top: 1rem; }
#watch { font: inherit; padding: .3rem .8rem; border: 1px solid var(--accent);
         border-radius: 4px; background: #fff; color: var(--accent); cursor: pointer; }
#watch[aria-expanded="true"] { background: #ddeaf8; }
#watch:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
#get-moving { margin-left: .8rem; color: var(--accent); }
#moving iframe { display: block; width: 100%; max-width: 70rem; height: 24rem;
                 margin-top: .6rem; border: 1px solid var(--line); background: #fff; }
#moving [hidden] { display: none; }
"""

SCRIPT = r"""
"use strict";
const $ = (id) => document.getElementById(id);
const page = { file: null, files: [], good: null, request: 0, draws: 0, connected: false };

function pathUrl(prefix, file) {
  return prefix + file.split("/").map(encodeURIComponent).join("/");
}
function drawingUrl(file, extra) {
  const query = new URLSearchParams({ theme: $("theme").value, paper: $("paper").value });
  for (const [key, value] of Object.entries(extra || {})) query.set(key, value);
  return pathUrl("/diagram/", file) + "?" + query;
}
function movingUrl(file, extra) {
  const query = new URLSearchParams({ theme: $("theme").value, format: "html" });
  for (const [key, value] of Object.entries(extra || {})) query.set(key, value);
  return pathUrl("/animation/", file) + "?" + query;
}
// The lines in motion, in a frame, while the button is pressed (and drawn again at a save).
function showMoving() {
  const open = $("watch").getAttribute("aria-expanded") === "true" && !!page.file;
  const frame = $("moving-frame");
  $("get-moving").hidden = !page.file;
  if (page.file) $("get-moving").href = movingUrl(page.file, { format: "svg", download: "1" });
  if (!open) { frame.hidden = true; frame.removeAttribute("src"); return; }
  frame.title = "The lines of " + page.file + " in motion";
  frame.src = movingUrl(page.file) + "&at=" + page.draws;
  frame.hidden = false;
}
function setState(state) { document.body.dataset.state = state; }
function say(text) { $("status").textContent = text; }

function readHash() {
  const query = new URLSearchParams(location.hash.slice(1));
  for (const name of ["theme", "paper"]) {
    const value = query.get(name);
    if (value && [...$(name).options].some((o) => o.value === value)) $(name).value = value;
  }
  return query.get("file");
}
function writeHash() {
  const query = new URLSearchParams();
  if (page.file) query.set("file", page.file);
  query.set("theme", $("theme").value);
  query.set("paper", $("paper").value);
  history.replaceState(null, "", "#" + query);
}

function showList() {
  const list = $("files");
  list.replaceChildren();
  for (const { path, game } of page.files) {
    const link = document.createElement("a");
    const cut = path.lastIndexOf("/") + 1;
    const folder = document.createElement("span");
    folder.className = "folder";
    folder.textContent = path.slice(0, cut);
    const kind = document.createElement("span");
    kind.className = "game";
    kind.textContent = game;
    link.append(folder, path.slice(cut), kind);
    link.href = "#" + new URLSearchParams({ file: path, theme: $("theme").value,
                                            paper: $("paper").value });
    link.dataset.path = path;
    if (path === page.file) link.setAttribute("aria-current", "true");
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
  $("no-files").hidden = page.files.length > 0;
}

async function loadFiles() {
  const answer = await fetch("/files", { cache: "no-store" });
  const listing = await answer.json();
  page.files = listing.files;
  $("folder").textContent = listing.folder;
  $("truncated").hidden = !listing.truncated;
  if (!page.file && page.files.length) choose(page.files[0].path, false);
  showList();
}

function choose(file, draw = true) {
  if (file !== page.file) page.good = null;
  page.file = file;
  writeHash();
  document.title = (file ? file + " · " : "") + "boardgen serve";
  $("name").textContent = file || "";
  for (const [format, id] of [["pdf", "get-pdf"], ["svg", "get-svg"], ["png", "get-png"]]) {
    $(id).href = file ? drawingUrl(file, { format, download: "1" }) : "";
  }
  $("downloads").setAttribute("aria-disabled", file ? "false" : "true");
  showMoving();
  showList();
  if (draw) redraw();
}

function showDrawing(url, title, stale) {
  const figure = $("drawing");
  const image = figure.querySelector("img") || document.createElement("img");
  image.src = url;
  image.alt = title || "the drawing of " + page.file;
  figure.dataset.title = title;
  figure.querySelector("figcaption").textContent = stale
    ? "The last good drawing, kept until the file is drawn again." : "";
  if (!image.parentNode) figure.prepend(image);
  figure.hidden = false;
}

// The drawing's <desc>, its title (read from the text: a parsed copy would apply its
// styles under the page's policy).
function describe(svg) {
  const found = svg.match(/<desc>([^<]*)<\/desc>/);
  const named = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
  return found ? found[1].replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (all, name) =>
    name[0] !== "#" ? named[name] ?? all
      : String.fromCodePoint(parseInt(name.slice(name[1] === "x" ? 2 : 1),
                                      name[1] === "x" ? 16 : 10))) : "";
}

async function redraw() {
  const file = page.file;
  if (!file) { setState("empty"); return; }
  const request = ++page.request;
  const started = performance.now();
  let answer, body;
  try {
    answer = await fetch(drawingUrl(file), { cache: "no-store" });
    body = await answer.text();  // the whole answer, or nothing
  } catch (problem) {
    if (request === page.request) say("The server does not answer.");
    return;
  }
  if (request !== page.request) return;  // a newer drawing is on its way
  if (answer.ok) {
    const title = describe(body);
    const url = URL.createObjectURL(new Blob([body], { type: "image/svg+xml" }));
    const probe = new Image();
    probe.onload = () => {
      if (request !== page.request) { URL.revokeObjectURL(url); return; }
      if (page.good) URL.revokeObjectURL(page.good.url);
      page.good = { url, title };
      showDrawing(url, title, false);
      $("error").hidden = true;
      $("source").hidden = true;
      setState("ok");
      page.draws += 1;
      document.body.dataset.draws = String(page.draws);
      if (!$("moving-frame").hidden) showMoving();
      document.body.dataset.drawnAt = String(performance.timeOrigin + performance.now());
      say("Drawn at " + new Date().toLocaleTimeString() + " in "
          + ((performance.now() - started) / 1000).toFixed(2) + " s");
    };
    probe.onerror = () => { URL.revokeObjectURL(url); say("The drawing did not load."); };
    probe.src = url;
  } else if (answer.status === 422) {
    await showError(file, body.trim(), request);
  } else if (answer.status === 503 && answer.headers.get("Retry-After")) {
    // The file is being saved right now: ask again once the save is done.
    say("The file is being saved…");
    setTimeout(() => { if (request === page.request) redraw(); }, 500);
  } else if (answer.status === 404) {
    setState("missing");
    $("error").textContent = file + ": not found, or no longer a diagram file (removed, "
      + "renamed, or its 'game:' line gone?)";
    $("error").hidden = false;
    $("source").hidden = true;
  } else {
    say(answer.status + ": " + body.trim());
  }
}

async function showError(file, message, request) {
  $("error").textContent = message;
  $("error").hidden = false;
  setState("error");
  say("Not drawn: the file has a problem.");
  if (!page.good) {
    const kept = await fetch(drawingUrl(file, { last: "good" }), { cache: "no-store" });
    if (kept.ok && request === page.request) {
      const body = await kept.text();
      page.good = { url: URL.createObjectURL(new Blob([body], { type: "image/svg+xml" })),
                    title: "" };
    }
  }
  if (request !== page.request) return;
  if (page.good) showDrawing(page.good.url, page.good.title, true);
  else $("drawing").hidden = true;
  const prefix = file + ":";
  const line = message.startsWith(prefix)
    ? parseInt(message.slice(prefix.length), 10) : NaN;
  const answer = await fetch(pathUrl("/source/", file), { cache: "no-store" });
  if (request !== page.request || !answer.ok) return;
  const lines = (await answer.text()).split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const view = $("source");
  view.replaceChildren(...lines.map((text, index) => {
    const item = document.createElement("li");
    const words = document.createElement("span");
    words.textContent = text || " ";
    item.append(words);
    if (index + 1 === line) { item.className = "bad"; item.id = "bad-line"; }
    return item;
  }));
  view.hidden = false;
  $("bad-line")?.scrollIntoView({ block: "center" });
}

function listen() {
  const events = new EventSource("/events");
  events.addEventListener("hello", () => {
    if (page.connected) { loadFiles(); redraw(); }  // the server came back: catch up
    page.connected = true;
    say("Watching for saves.");
  });
  events.addEventListener("change", (event) => {
    const { paths, folder } = JSON.parse(event.data);
    loadFiles();
    // folder: the folder was removed and made again; its files may all be new.
    if (page.file && (folder || paths.includes(page.file))) redraw();
  });
  events.onerror = () => {
    say("Lost the server; trying again…");
    // The browser retries a dropped stream by itself, but not one refused (a 503 when
    // too many pages are open, the server restarting): then open a new one.
    if (events.readyState === EventSource.CLOSED) setTimeout(listen, 2000);
  };
}

$("watch").addEventListener("click", () => {
  const open = $("watch").getAttribute("aria-expanded") !== "true";
  $("watch").setAttribute("aria-expanded", String(open));
  showMoving();
});
$("moving-frame").addEventListener("load", () => {
  const inside = $("moving-frame").contentDocument;  // ours: the same origin
  if (inside && inside.body) {
    $("moving-frame").style.height = inside.body.scrollHeight + 8 + "px";
  }
});
for (const name of ["theme", "paper"]) {
  $(name).addEventListener("change", () => choose(page.file));
}
window.addEventListener("hashchange", () => {
  const file = readHash();
  choose(file || page.file);
});
setState("empty");
page.file = readHash();
loadFiles().then(() => choose(page.file)).catch(() => say("The server does not answer."));
listen();
"""


def _options(names: list[str], chosen: str) -> str:
    return "".join(f'<option{" selected" if name == chosen else ""}>{escape(name)}</option>'
                   for name in names)


def _digest(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>boardgen serve</title>
<link rel="icon" href="data:,">
<style>{STYLE}</style>
</head>
<body data-state="empty" data-draws="0">
<header>
  <h1>boardgen <span>live preview of</span> <span id="folder"></span></h1>
  <label>Theme <select id="theme">{_options(sorted(THEMES), "colour")}</select></label>
  <label>Paper <select id="paper">{_options(list(PAPERS), "a4")}</select></label>
  <span id="downloads" aria-disabled="true">Download
    <a id="get-pdf" download>PDF</a> <a id="get-svg" download>SVG</a>
    <a id="get-png" download>PNG</a></span>
  <span id="status" role="status" aria-live="polite">Starting…</span>
</header>
<main>
  <nav aria-label="Diagram files">
    <h2>Diagram files</h2>
    <ul id="files"></ul>
    <p id="no-files" hidden>No diagram files here yet: a file is listed once it has a line
      such as <code>game: copolymer</code>.</p>
    <p id="truncated" hidden>This folder has too many files to look through them all:
      serve a smaller folder.</p>
  </nav>
  <section id="view" aria-live="polite">
    <h2 id="name"></h2>
    <p id="error" role="alert" hidden></p>
    <div id="panes">
      <figure id="drawing" hidden><figcaption></figcaption></figure>
      <ol id="source" aria-label="The file" hidden></ol>
    </div>
    <div id="moving">
      <button type="button" id="watch" aria-expanded="false"
              aria-controls="moving-frame">Watch it move</button>
      <a id="get-moving" download hidden>Download the animated SVG</a>
      <iframe id="moving-frame" hidden></iframe>
    </div>
  </section>
</main>
<script>{SCRIPT}</script>
</body>
</html>
"""

PAGE_HTML = PAGE.encode("utf-8")
# The page runs its own script and style, and nothing else; it talks to this server only.
PAGE_POLICY = (f"default-src 'none'; script-src {_digest(SCRIPT)}; style-src {_digest(STYLE)}; "
               "img-src 'self' blob: data:; connect-src 'self'; frame-src 'self'; "
               "base-uri 'none'; "
               "form-action 'none'; frame-ancestors 'none'")
