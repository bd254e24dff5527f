// Strata's web page: one ES module over the typed HTTP API. Every value from the server is
// put into the page as text (textContent, attributes), never as HTML.

const TOKEN_KEY = "strata-token";
const SNIPPET_LINES = 12;
const FILE_WINDOW = 1500; // lines rendered at once; the rest behind "show more"
const LONG_LINE = 2000; // characters of a line shown before "…"
const DEBOUNCE_MS = 30; // keystrokes closer than this make one search; a newer search aborts the one in flight
const FIRST_HITS = 6; // hits rendered before the page paints; the rest right after
const CONFIGURE = "To answer questions, configure an LLM: set llm.provider (ollama or openai), " +
  "llm.base_url and llm.model in .strata/config.yaml (or STRATA_LLM_PROVIDER, STRATA_LLM_BASE_URL, " +
  "STRATA_LLM_MODEL), then restart strata serve. The sources below are what it would read.";

const $ = (id) => document.getElementById(id);
let seq = 0; // the newest view render; older answers are dropped
let timer = null; // the status view's refresh
let selected = -1;
let reachable = true;
let searching = null; // the AbortController of the search in flight

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// ---- talking to the server -------------------------------------------------------------

async function api(path, body, signal) {
  const headers = {};
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  const opts = { method: body === undefined ? "GET" : "POST", headers, signal };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  let resp;
  try {
    resp = await fetch(path, opts);
  } catch (_err) {
    if (signal?.aborted) throw new ApiError("superseded by a newer search", -1);
    serverDown();
    throw new ApiError("the server is unreachable", 0);
  }
  serverUp();
  if (resp.status === 401) {
    askToken();
    throw new ApiError("this server needs its token", 401);
  }
  if (resp.status === 404 && path === "/ask") throw new ApiError("no /ask on this server", 404);
  const data = await resp.json().catch(() => ({ error: `unreadable answer (HTTP ${resp.status})` }));
  if (!resp.ok) {
    throw new ApiError(data.error + (data.hint ? ` (${data.hint})` : ""), resp.status);
  }
  return data;
}

function serverDown() {
  if (!reachable) return;
  reachable = false;
  const conn = $("conn");
  conn.textContent = "server unreachable, retrying…";
  conn.className = "down";
  const poll = setInterval(async () => {
    try {
      const resp = await fetch("/health");
      if (resp.ok || resp.status === 401) {
        clearInterval(poll);
        serverUp();
        render();
      }
    } catch (_err) { /* still down */ }
  }, 2000);
}

function serverUp() {
  if (reachable) return;
  reachable = true;
  $("conn").textContent = "connected";
  $("conn").className = "";
}

function askToken() {
  const dialog = $("tokendialog");
  if (!dialog.open) dialog.showModal();
}

// ---- small DOM helpers -----------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function svgEl(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function link(view, params, ...children) {
  return el("a", { href: hashOf(view, params) }, ...children);
}

function showError(message) { $("error").textContent = message || ""; }

// ---- URLs: every view is #/view?params ---------------------------------------------------

function current() {
  const raw = location.hash.replace(/^#\/?/, "");
  const [view, query] = raw.split("?");
  return { view: view || "search", params: new URLSearchParams(query || "") };
}

function hashOf(view, params) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v !== undefined && v !== null && v !== "" && v !== false) qs.set(k, String(v));
  }
  const s = qs.toString();
  return `#/${view}${s ? `?${s}` : ""}`;
}

// ---- a small highlighter: comments, strings, numbers, keywords ----------------------------

const KEYWORDS = new Set(("and as async await break case catch class const continue def defer " +
  "del do elif else enum export extends false final finally fn for from func function go if " +
  "impl import in interface is lambda let loop match mod module mut new nil none not null or " +
  "package pass pub raise return self static struct super switch this throw trait true try " +
  "type typeof use var void while with yield").split(" "));
const TOKEN = /(\/\/.*$|#.*$|\/\*.*?\*\/|--\s.*$)|("(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`[^`]*`?)|(\b\d[\d_.xXa-fA-F]*\b)|([A-Za-z_][A-Za-z0-9_]*)/g;

function highlight(line, lang) {
  const out = document.createDocumentFragment();
  const hashComments = !["javascript", "typescript", "tsx", "go", "rust", "java", "c", "cpp",
    "csharp", "kotlin", "swift", "scala", "php"].includes(lang);
  let last = 0;
  for (const m of line.matchAll(TOKEN)) {
    let cls = null;
    if (m[1] && (hashComments || !m[1].startsWith("#"))) cls = "com";
    else if (m[2]) cls = "str";
    else if (m[3]) cls = "num";
    else if (m[4] && KEYWORDS.has(m[4])) cls = "kw";
    if (cls === null) continue;
    if (m.index > last) out.append(line.slice(last, m.index));
    out.append(el("span", { class: cls }, m[0]));
    last = m.index + m[0].length;
  }
  if (last < line.length) out.append(line.slice(last));
  return out;
}

function codeLine(num, text, lang, marked) {
  const row = el("span", { class: marked ? "row mark" : "row", "data-line": num });
  row.append(el("span", { class: "ln" }, num));
  if (text.length > LONG_LINE) {
    row.append(highlight(text.slice(0, LONG_LINE), lang));
    const more = el("button", { class: "more", type: "button" }, `… ${text.length - LONG_LINE} more characters`);
    more.addEventListener("click", () => { more.replaceWith(text.slice(LONG_LINE)); });
    row.append(more);
  } else {
    row.append(highlight(text, lang));
  }
  row.append("\n");
  return row;
}

function codeBlock(lines, first, lang, mark = [0, -1]) {
  const pre = el("pre", { class: "code" });
  lines.forEach((text, i) => {
    const n = first + i;
    pre.append(codeLine(n, text, lang, n >= mark[0] && n <= mark[1]));
  });
  return pre;
}

// ---- views -----------------------------------------------------------------------------

const VIEWS = { search, symbols, graph, entrypoints, docs, doc, file, ask, status };

async function render() {
  const { view, params } = current();
  const mine = ++seq;
  clearInterval(timer);
  selected = -1;
  showError("");
  for (const a of document.querySelectorAll("header nav a")) {
    if (a.dataset.view === view) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  $("searchform").hidden = view !== "search";
  const main = $("view");
  try {
    const content = await (VIEWS[view] || search)(params, mine);
    if (mine !== seq || content === undefined) return;
    main.replaceChildren(content);
  } catch (err) {
    if (mine !== seq) return;
    showError(err.message);
    if (err.status === 0) main.replaceChildren(el("p", {}, "The server is unreachable; this page reconnects when it is back."));
  }
}

// ---- the search filters: the fields of the server's search body -------------------------

// What a search may keep to, as the server's OpenAPI schema names it (`Filters`, the
// `filters` of `POST /search`): one form field and one URL parameter each, read once;
// the layer menu lists the layer ids of the body's `layers`.
let filterFields = null;
let filtersRead = null;

function filters() { // asked at once by the page and by the first search: one read
  filtersRead ??= readFilters();
  return filtersRead;
}

async function readFilters() {
  const schema = await api("/openapi.json");
  const layers = schema.components?.schemas?.SearchRequest?.properties?.layers?.anyOf || [];
  const names = layers.find((o) => o.enum)?.enum || [];
  $("f-layer").append(...names.map((name) => el("option", { value: name }, name)));
  const props = schema.components?.schemas?.Filters?.properties || {};
  filterFields = Object.entries(props).map(([key, p]) => ({
    key, flag: p.type === "boolean", title: p.title || key, example: (p.examples || [])[0],
  }));
  $("f-filters").replaceChildren(...filterFields.map((f) => f.flag
    ? el("label", {}, el("input", { id: `f-${f.key}`, name: f.key, type: "checkbox" }), ` ${f.title.toLowerCase()}`)
    : el("label", {}, `${f.title} `, el("input", { id: `f-${f.key}`, name: f.key, size: 10, placeholder: f.example }))));
  return filterFields;
}

function filterValue(f, params) {
  return f.flag ? params.get(f.key) === "1" : params.get(f.key) || "";
}

function syncForm(params, fields) {
  $("q").value = params.get("q") || "";
  $("f-layer").value = params.get("layer") || "";
  for (const f of fields) $(`f-${f.key}`)[f.flag ? "checked" : "value"] = filterValue(f, params);
  $("f-explain").checked = params.get("explain") === "1";
}

async function search(params) {
  const fields = await filters();
  if (document.activeElement !== $("q")) syncForm(params, fields);
  const query = params.get("q") || "";
  if (!query.trim()) return el("p", { class: "meta" }, "Type a question or a name. / focuses search, ↑ ↓ move, Enter opens.");
  const given = fields.filter((f) => filterValue(f, params));
  const body = { query, k: 20, filters: Object.fromEntries(given.map((f) => [f.key, filterValue(f, params)])) };
  if (params.get("layer")) body.layers = [params.get("layer")];
  searching?.abort(); // its answer would be dropped anyway (see `seq`)
  searching = new AbortController();
  const asked = [api("/search", body, searching.signal)];
  if (params.get("explain") === "1") asked.push(explain(query, params, given));
  const [result, plan] = await Promise.all(asked);
  const box = el("div");
  if (plan) box.append(el("details", { open: true }, el("summary", {}, "Plan and score parts (--explain)"), el("div", { class: "panel", id: "plan" }, plan)));
  for (const note of result.notes || []) box.append(el("p", { class: "meta" }, note));
  const list = el("ol", { id: "hits", class: "hits", "aria-label": "Results", "data-query": query });
  if (!result.hits.length) box.append(el("p", {}, `No results for ${query}.`));
  result.hits.slice(0, FIRST_HITS).forEach((hit, i) => list.append(hitItem(hit, i)));
  if (result.hits.length > FIRST_HITS) { // below the fold: after the first paint
    afterPaint(() => {
      if (!list.isConnected) return; // a newer view took its place
      result.hits.slice(FIRST_HITS).forEach((hit, i) => list.append(hitItem(hit, FIRST_HITS + i)));
    });
  }
  box.append(list);
  return box;
}

// Runs `fn` once the frame showing what the page holds now is painted, after any other
// task then waiting (background priority): what it adds is below the fold.
function afterPaint(fn) {
  requestAnimationFrame(() => {
    if (globalThis.scheduler?.postTask) scheduler.postTask(fn, { priority: "background" });
    else setTimeout(fn, 0);
  });
}

async function explain(query, params, given) {
  const argv = ["search", query, "--explain", "-k", "10"];
  if (params.get("layer")) argv.push("--layer", params.get("layer"));
  for (const f of given) { // each filter is the command's flag of the same name
    const flag = `--${f.key.replaceAll("_", "-")}`;
    argv.push(...(f.flag ? [flag] : [flag, params.get(f.key)]));
  }
  const out = await api("/cli", { argv, width: 120, columns: 120 });
  return out.output || out.stdout || out.stderr || "";
}

function fileTarget(hit) {
  return { path: hit.path, repo: hit.repo, line: hit.start_line, end: hit.end_line };
}

function twinLink(place, repo) {
  const m = /^(.*):(\d+)-(\d+)$/.exec(place);
  const target = m ? { path: m[1], repo, line: Number(m[2]), end: Number(m[3]) } : { path: place, repo };
  return link("file", target, place);
}

function hitItem(hit, i) {
  const where = hit.start_line ? `${hit.path}:${hit.start_line}-${hit.end_line}` : hit.path;
  const li = el("li", { class: "hit", "data-index": i });
  const open = link("file", fileTarget(hit), where);
  open.classList.add("open");
  li.append(el("h3", {}, open, " ", hit.title ? el("span", { class: "meta" }, hit.title) : null));
  li.append(el("div", { class: "meta" }, el("span", {}, hit.layer), el("span", {}, hit.lang || "text"),
    hit.repo ? el("span", {}, hit.repo) : null, el("span", {}, `score ${hit.score}`)));
  const lines = (hit.content || "").split("\n");
  // a long hit's lines the query points at (a definition inside a chunk, the query's words)
  const first = hit.start_line || 1, focus = hit.metadata?.focus_start;
  const from = Number.isInteger(focus) && focus > first && focus - first < lines.length ? focus - first : 0;
  const shown = lines.slice(from, from + SNIPPET_LINES);
  li.append(codeBlock(shown, first + from, hit.lang));
  if (lines.length > shown.length) li.append(el("div", { class: "meta" }, `… ${lines.length - shown.length} more lines in the file view`));
  const twins = hit.metadata?.same_text_at || []; // the places left out for this one
  if (twins.length) li.append(el("div", { class: "meta twins" }, "the same text at ",
    ...twins.flatMap((place, n) => [n ? ", " : "", twinLink(place, hit.repo)])));
  li.addEventListener("click", (ev) => { if (ev.target.tagName !== "A" && ev.target.tagName !== "BUTTON") location.hash = open.getAttribute("href"); });
  return li;
}

async function file(params) {
  const path = params.get("path");
  const repo = params.get("repo") || undefined;
  const line = Number(params.get("line") || 1);
  const end = Number(params.get("end") || line);
  const got = await api("/file", { path, repo });
  if (got.gone) return el("p", { id: "gone" }, `${path} is gone: ${got.gone}.`);
  const lang = langOf(path);
  let first = Math.max(1, line - 200);
  let last = Math.min(got.line_count, first + FILE_WINDOW - 1);
  const box = el("div", { class: "file" });
  box.append(el("h2", {}, `${path}`, el("span", { class: "meta" }, ` ${got.line_count} lines${got.repo ? ` · ${got.repo}` : ""}`)));
  const pre = codeBlock(got.lines.slice(first - 1, last), first, lang, [line, end]);
  const earlier = el("button", { class: "more", type: "button", hidden: first <= 1 }, "show earlier lines");
  const later = el("button", { class: "more", type: "button", hidden: last >= got.line_count }, "show more lines");
  earlier.addEventListener("click", () => {
    const from = Math.max(1, first - FILE_WINDOW);
    pre.prepend(...codeBlock(got.lines.slice(from - 1, first - 1), from, lang, [line, end]).childNodes);
    first = from;
    earlier.hidden = first <= 1;
  });
  later.addEventListener("click", () => {
    const to = Math.min(got.line_count, last + FILE_WINDOW);
    pre.append(...codeBlock(got.lines.slice(last, to), last + 1, lang, [line, end]).childNodes);
    last = to;
    later.hidden = last >= got.line_count;
  });
  box.append(earlier, pre, later);
  requestAnimationFrame(() => pre.querySelector(`[data-line="${line}"]`)?.scrollIntoView({ block: "center" }));
  return box;
}

function langOf(path) {
  const ext = (path.split(".").pop() || "").toLowerCase();
  return { py: "python", js: "javascript", mjs: "javascript", ts: "typescript", tsx: "tsx",
    go: "go", rs: "rust", java: "java", c: "c", h: "c", cpp: "cpp", cs: "csharp", kt: "kotlin",
    swift: "swift", scala: "scala", php: "php", rb: "ruby", sh: "bash" }[ext] || "text";
}

function nameForm(view, params, key, label) {
  const input = el("input", { id: `${view}-name`, name: key, value: params.get(key) || "", size: 40 });
  const form = el("form", { role: "search" }, el("label", { for: `${view}-name` }, `${label} `), input, el("button", { type: "submit" }, "Go"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); location.hash = hashOf(view, { [key]: input.value }); });
  return form;
}

async function symbols(params) {
  const box = el("div", {}, nameForm("symbols", params, "name", "Symbol"));
  const name = params.get("name");
  if (!name) return box;
  const found = await api("/symbols", { name, k: 50 });
  if (!found.length) box.append(el("p", {}, `No symbol named ${name}.`));
  const table = el("table", {}, el("tr", {}, el("th", {}, "Symbol"), el("th", {}, "Kind"), el("th", {}, "Defined at"), el("th", {}, "")));
  for (const m of found) {
    const q = m.qname || m.title;
    table.append(el("tr", {},
      el("td", {}, q), el("td", {}, m.kind || m.metadata?.kind || ""),
      el("td", {}, link("file", fileTarget(m), `${m.path}:${m.start_line}`)),
      el("td", {}, link("graph", { q }, "call graph"))));
  }
  box.append(table);
  return box;
}

async function graph(params) {
  const box = el("div", {}, nameForm("graph", params, "q", "Qualified name"));
  const q = params.get("q");
  if (!q) return box;
  const [callers, callees] = await Promise.all([
    api("/callers", { qname: q, depth: 1 }), api("/callees", { qname: q, depth: 1 })]);
  box.append(drawGraph(q, callers, callees));
  box.append(el("p", { class: "meta" }, `${callers.length} caller(s), ${callees.length} callee(s). Click a name to walk on.`));
  return box;
}

function drawGraph(center, callers, callees) {
  const rowH = 28;
  const rows = Math.max(callers.length, callees.length, 1);
  const height = rows * rowH + 20;
  const width = 960;
  const svg = svgEl("svg", { class: "graph", width, height, viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `Call graph of ${center}` });
  const mid = { x: 360, y: height / 2 - 12, w: 240 };
  const node = (x, y, w, label, target, cls) => {
    const text = label.length > 36 ? `${label.slice(0, 35)}…` : label;
    const g = svgEl("a", { href: target, "data-name": label });
    g.append(svgEl("title", {}, label), svgEl("rect", { x, y, width: w, height: 22, rx: 4, class: cls }), svgEl("text", { x: x + 6, y: y + 15 }, text));
    svg.append(g);
  };
  const side = (links, x, toRight) => {
    links.forEach((l, i) => {
      const y = 10 + i * rowH;
      const name = l.symbol?.qname || l.title || "?";
      svg.append(svgEl("line", { x1: toRight ? x + 240 : x, y1: y + 11, x2: toRight ? mid.x : mid.x + mid.w, y2: mid.y + 11 }));
      node(x, y, 240, name, hashOf("graph", { q: name }), l.resolved === false ? "unresolved" : "");
    });
  };
  side(callers, 20, true);
  side(callees, 700, false);
  node(mid.x, mid.y, mid.w, center, hashOf("symbols", { name: center }), "center");
  return svg;
}

async function entrypoints() {
  const found = await api("/entrypoints", {});
  if (!found.length) return el("p", {}, "No entry points in this index.");
  const table = el("table", {}, el("tr", {}, el("th", {}, "Type"), el("th", {}, "Framework"), el("th", {}, "Route or command"), el("th", {}, "Handler"), el("th", {}, "Where")));
  for (const e of found) {
    const route = [e.method || e.methods, e.route || e.path_pattern || e.command || e.title].filter(Boolean).join(" ");
    table.append(el("tr", {}, el("td", {}, e.type || e.entry_type || ""), el("td", {}, e.framework || ""),
      el("td", {}, route), el("td", {}, e.handler || ""), el("td", {}, link("file", fileTarget(e), `${e.path}:${e.start_line}`))));
  }
  return table;
}

async function docs() {
  const found = await api("/docs", {});
  if (!found.length) return el("p", {}, "No documents in this index.");
  const table = el("table", {}, el("tr", {}, el("th", {}, "Document"), el("th", {}, "Kind"), el("th", {}, "Domain"), el("th", {}, "Path")));
  for (const d of found) {
    table.append(el("tr", {}, el("td", {}, link("doc", { path: d.path, repo: d.repo }, d.title || d.path)),
      el("td", {}, d.kind || d.doc_kind || ""), el("td", {}, d.domain || ""), el("td", {}, d.path)));
  }
  return table;
}

async function doc(params) {
  const got = await api("/document", { path: params.get("path"), repo: params.get("repo") || undefined });
  const card = got.card;
  const box = el("div", { class: "document" }, el("h2", {}, card.title || card.path), el("p", { class: "meta" }, link("file", fileTarget(card), card.path)));
  const section = (title, items, line) => {
    box.append(el("h3", {}, `${title} (${items.length})`));
    const ul = el("ul", { id: title.toLowerCase() });
    for (const item of items) ul.append(el("li", {}, ...line(item)));
    box.append(ul);
  };
  section("Facts", got.facts, (f) => [f.title || "", ": ", (f.content || "").slice(0, 300)]);
  section("Entities", got.entities, (e) => [e.title || e.name || "", e.entity_type ? ` (${e.entity_type})` : ""]);
  section("Relations", got.relations, (r) => [r.relation_type || "", r.direction === "in" ? " ← " : " → ",
    r.card ? link("doc", { path: r.card.path, repo: r.card.repo }, r.document_id) : r.document_id]);
  return box;
}

async function status(_params, mine) {
  const s = await api("/status");
  if (mine === seq) timer = setInterval(() => { if (mine === seq) refreshStatus(mine); }, 3000);
  return statusTable(s);
}

async function refreshStatus(mine) {
  try {
    const s = await api("/status");
    if (mine === seq) $("view").replaceChildren(statusTable(s));
  } catch (err) { showError(err.message); }
}

function statusTable(s) {
  const table = el("table", { id: "status" });
  for (const [k, v] of Object.entries(s)) {
    if (v !== null && typeof v === "object") continue;
    table.append(el("tr", {}, el("th", {}, k), el("td", {}, String(v))));
  }
  const layers = s.layers || s.rows || {};
  const rows = el("table", { id: "layers" }, el("tr", {}, el("th", {}, "Layer"), el("th", {}, "Rows"), el("th", {}, "Vectors")));
  for (const [layer, count] of Object.entries(layers)) {
    const n = typeof count === "object" ? count.rows : count;
    const vec = typeof count === "object" ? count.vectors : "";
    rows.append(el("tr", {}, el("td", {}, layer), el("td", {}, n ?? ""), el("td", {}, vec ?? "")));
  }
  return el("div", {}, el("h2", {}, "Index status"), table, el("h3", {}, "Rows per layer"), rows, el("p", { class: "meta" }, "Refreshes every 3 s."));
}

async function ask(params) {
  const input = el("textarea", { id: "question", rows: 3, cols: 80 }, params.get("q") || "");
  const out = el("div", { class: "answer", id: "answer", "aria-live": "polite" });
  const sources = el("ol", { id: "sources" });
  const form = el("form", {}, el("label", { for: "question" }, "Question"), el("br"), input, el("br"), el("button", { type: "submit" }, "Ask"));
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    history.replaceState(null, "", hashOf("ask", { q: input.value }));
    streamAnswer(input.value, out, sources);
  });
  return el("div", {}, form, out, sources);
}

async function streamAnswer(question, out, sources) {
  out.textContent = "";
  sources.replaceChildren();
  showError("");
  const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = `Bearer ${token}`;
  let resp;
  try {
    resp = await fetch("/ask", { method: "POST", headers, body: JSON.stringify({ query: question }) });
  } catch (_err) { serverDown(); showError("the server is unreachable"); return; }
  if (resp.status === 401) { askToken(); return; }
  if (!resp.ok) {
    const data = await resp.json().catch(() => ({}));
    showError(resp.status === 404 ? "this server has no /ask endpoint" : (data.error || `HTTP ${resp.status}`));
    out.textContent = CONFIGURE;
    return;
  }
  const reader = resp.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let text = "";
  let cited = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const event = parseEvent(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (event.name === "token") { text += event.data.text || ""; out.textContent = text; }
      else if (event.name === "answer") { text = event.data.answer || text; cited = event.data.citations || []; }
      else if (event.name === "error") {
        showError(event.data.error + (event.data.hint ? ` (${event.data.hint})` : ""));
        cited = (event.data.sources || []).map((src, i) => ({ n: i + 1, ...src }));
        if (!text) text = CONFIGURE;
      }
    }
  }
  renderAnswer(text, cited, out, sources);
}

function parseEvent(block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) name = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  let parsed = {};
  try { parsed = JSON.parse(data.join("\n")); } catch (_err) { parsed = { text: data.join("\n") }; }
  return { name, data: parsed };
}

function renderAnswer(text, citations, out, sources) {
  const byN = new Map(citations.map((c) => [String(c.n), c]));
  out.replaceChildren();
  let last = 0;
  for (const m of text.matchAll(/\[(\d+)\]/g)) {
    out.append(text.slice(last, m.index));
    const c = byN.get(m[1]);
    out.append(c ? link("file", { path: c.path, repo: c.repo, line: c.start_line, end: c.end_line }, m[0]) : m[0]);
    last = m.index + m[0].length;
  }
  out.append(text.slice(last));
  for (const c of citations) {
    sources.append(el("li", { value: c.n }, link("file", { path: c.path, repo: c.repo, line: c.start_line, end: c.end_line }, `${c.path}:${c.start_line}-${c.end_line}`), c.title ? ` ${c.title}` : ""));
  }
}

// ---- input: the search form, keys, the token ------------------------------------------

function formParams() {
  const own = { q: $("q").value, layer: $("f-layer").value, explain: $("f-explain").checked ? "1" : "" };
  for (const f of filterFields || []) {
    const input = $(`f-${f.key}`);
    own[f.key] = f.flag ? (input.checked ? "1" : "") : input.value.trim();
  }
  return own;
}

function moveSelection(step) {
  const hits = [...document.querySelectorAll("#hits .hit")];
  if (!hits.length) return;
  hits[selected]?.classList.remove("selected");
  selected = Math.max(0, Math.min(hits.length - 1, selected + step));
  hits[selected].classList.add("selected");
  hits[selected].scrollIntoView({ block: "nearest" });
}

function setup() {
  filters().catch(() => { filtersRead = null; }); // the layer menu, before any search; a failure is the search's to show
  let debounce = null;
  let searched = -Infinity;
  const go = () => {
    debounce = null;
    searched = performance.now();
    history.replaceState(null, "", hashOf("search", formParams()));
    render();
  };
  const changed = () => { // the first change after a pause searches at once (no wait)
    const idle = debounce === null && performance.now() - searched >= DEBOUNCE_MS;
    clearTimeout(debounce);
    if (idle) go();
    else debounce = setTimeout(go, DEBOUNCE_MS);
  };
  $("searchform").addEventListener("input", changed);
  $("searchform").addEventListener("submit", (ev) => { ev.preventDefault(); });
  document.addEventListener("keydown", (ev) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement?.tagName);
    if (ev.key === "/" && !typing) { ev.preventDefault(); location.hash = hashOf("search", Object.fromEntries(current().params)); $("q").focus(); return; }
    if (current().view !== "search") return;
    if (ev.key === "ArrowDown") { ev.preventDefault(); moveSelection(1); }
    else if (ev.key === "ArrowUp") { ev.preventDefault(); moveSelection(-1); }
    else if (ev.key === "Enter" && selected >= 0) {
      ev.preventDefault();
      const open = document.querySelectorAll("#hits .hit")[selected]?.querySelector("a.open");
      if (open) location.hash = open.getAttribute("href");
    }
  });
  $("tokenform").addEventListener("submit", () => {
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    render();
  });
  window.addEventListener("hashchange", render);
  render();
}

setup();
