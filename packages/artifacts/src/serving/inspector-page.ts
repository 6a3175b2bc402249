/**
 * The inspector: one self-contained page (no external assets) over the JSON API of the same
 * server. It lists sessions and their artifacts (filter by tool, kind and age; sort by time,
 * size or tool; a link per artifact, followed on load and on every hash change, naming the line
 * and column shown), shows an artifact with line numbers page by page (first, previous, next,
 * last, the tail, go to a line, windows of a long line), searches inside it
 * (literal or RE2 regex, matches paged past 50, each match highlighted and scrolled into view),
 * pretty-prints JSON without re-parsing its numbers, colours diffs and logs, and downloads the
 * raw bytes. Artifact text is untrusted and only ever set through `textContent`. A bearer token,
 * when the server needs one, is typed into the token field or read from the URL fragment
 * (`#token=…`, which browsers never send to the server or in a Referer), and kept in
 * `sessionStorage` only.
 */
export const INSPECTOR_PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Compaction artifacts</title>
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  body { margin: 0; display: grid; grid-template-columns: 22rem 1fr; height: 100vh; }
  aside { border-right: 1px solid #d5d9e0; overflow: auto; background: #fff; }
  main { overflow: auto; padding: 1rem 1.5rem; }
  h1 { font-size: 1rem; margin: 0; padding: .75rem 1rem; border-bottom: 1px solid #d5d9e0; }
  h2 { font-size: .8rem; text-transform: uppercase; color: #5b6475; margin: 1rem 1rem .25rem; }
  ul { list-style: none; margin: 0; padding: 0; }
  li { position: relative; }
  li button.pick { all: unset; box-sizing: border-box; display: block; width: 100%; padding: .5rem 2.5rem .5rem 1rem; cursor: pointer; }
  li button.pick:hover, li button.pick[aria-current="true"] { background: #e8eefc; }
  li a.link { position: absolute; right: .6rem; top: .5rem; font-size: .75rem; color: #3056d3; }
  .meta { font-size: .75rem; color: #5b6475; }
  .kind { display: inline-block; font-size: .7rem; padding: 0 .35rem; border-radius: .6rem; background: #eef0f4; color: #3b4252; }
  .kind.diff { background: #e6f4ea; color: #1e6b34; }
  .kind.terminal_log { background: #fff4e0; color: #8a5200; }
  .kind.file_read { background: #e8eefc; color: #2448a8; }
  .kind.doc { background: #f3e8fc; color: #6b2aa8; }
  .preview { font: .75rem ui-monospace, monospace; color: #3b4252; white-space: pre-wrap; max-height: 3.2em; overflow: hidden; }
  .filters { display: grid; grid-template-columns: 1fr 1fr; gap: .35rem; padding: 0 1rem; }
  .filters select, .filters input { font-size: .8rem; min-width: 0; }
  .token { display: flex; gap: .35rem; padding: .5rem 1rem; border-bottom: 1px solid #d5d9e0; }
  .token input { flex: 1; min-width: 0; }
  .bar { display: flex; gap: .4rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
  .error { color: #b42318; }
  #content { background: #fff; border: 1px solid #d5d9e0; font: .8rem/1.45 ui-monospace, monospace; min-height: 10rem; max-height: 70vh; overflow: auto; }
  .row { display: grid; grid-template-columns: 5rem 1fr; }
  .row .ln { color: #8a93a6; text-align: right; padding-right: .75rem; user-select: none; border-right: 1px solid #eef0f4; }
  .row .tx { white-space: pre-wrap; word-break: break-all; padding-left: .6rem; }
  .row.hit { background: #fff8c5; }
  mark { background: #ffd33d; color: inherit; }
  .row.add .tx { color: #1e6b34; } .row.del .tx { color: #b42318; } .row.hunk .tx { color: #2448a8; }
  .row.lvl-error .tx { color: #b42318; } .row.lvl-warn .tx { color: #8a5200; }
  #matches button { all: unset; cursor: pointer; display: block; font: .8rem ui-monospace, monospace; padding: .15rem .3rem; white-space: pre-wrap; word-break: break-all; }
  #matches button:hover { background: #e8eefc; }
  nav.tabs button[aria-selected="true"] { font-weight: 600; border-bottom: 2px solid #3056d3; }
  table { border-collapse: collapse; width: 100%; background: #fff; font-size: .8rem; margin-bottom: 1rem; }
  th, td { border: 1px solid #d5d9e0; padding: .3rem .5rem; text-align: left; vertical-align: top; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  details pre { min-height: 0; max-height: 20rem; overflow: auto; }
</style>
</head>
<body>
<aside>
  <h1>Compaction artifacts</h1>
  <form id="token-form" class="token">
    <input id="token" data-testid="token" type="password" placeholder="Bearer token (if the server needs one)" autocomplete="off">
    <button data-testid="token-save">Use</button>
  </form>
  <h2>Sessions</h2>
  <ul id="sessions" data-testid="sessions"></ul>
  <h2>Artifacts</h2>
  <div class="filters">
    <select id="f-tool" data-testid="filter-tool" aria-label="Tool"><option value="">all tools</option></select>
    <select id="f-kind" data-testid="filter-kind" aria-label="Kind"><option value="">all kinds</option></select>
    <select id="f-age" data-testid="filter-age" aria-label="Age">
      <option value="">any time</option><option value="3600000">last hour</option><option value="86400000">last day</option><option value="604800000">last week</option>
    </select>
    <select id="f-sort" data-testid="sort" aria-label="Sort">
      <option value="newest">newest first</option><option value="oldest">oldest first</option><option value="largest">largest first</option><option value="tool">by tool</option>
    </select>
  </div>
  <ul id="artifacts" data-testid="artifacts"></ul>
</aside>
<main>
  <nav class="tabs bar" role="tablist">
    <button id="tab-artifacts" role="tab" aria-selected="true" data-testid="tab-artifacts">Artifacts</button>
    <button id="tab-calls" role="tab" aria-selected="false" data-testid="tab-calls">Model calls</button>
  </nav>
  <p id="status" class="meta" role="status">Pick a session.</p>
  <section id="calls" hidden data-testid="calls"></section>
  <section id="viewer" hidden>
    <h2 id="title" data-testid="artifact-title" style="margin-left:0;text-transform:none;font-size:1rem;color:inherit"></h2>
    <p id="summary" class="meta" data-testid="summary"></p>
    <div class="bar">
      <button id="first" data-testid="first">« First</button>
      <button id="prev" data-testid="prev">◀ Previous</button>
      <button id="next" data-testid="next">Next ▶</button>
      <button id="last" data-testid="last">Last »</button>
      <button id="tail" data-testid="tail">Tail</button>
      <form id="goto" class="bar" style="margin:0">
        <input id="goto-line" data-testid="goto-line" type="number" min="1" placeholder="line" style="width:6rem">
        <button data-testid="goto">Go to line</button>
      </form>
      <label id="pretty-label" class="meta" hidden><input id="pretty" data-testid="pretty" type="checkbox"> pretty JSON</label>
      <button id="download" data-testid="download">Download raw</button>
      <span id="range" class="meta" data-testid="range"></span>
    </div>
    <div id="content" data-testid="content"></div>
    <form id="search" class="bar">
      <input id="pattern" data-testid="pattern" placeholder="Search in this artifact" maxlength="256" size="30">
      <label class="meta"><input id="regex" data-testid="regex" type="checkbox"> regex (RE2)</label>
      <label class="meta"><input id="case" data-testid="case" type="checkbox"> match case</label>
      <button data-testid="search">Search</button>
      <span id="matchCount" class="meta" data-testid="match-count"></span>
    </form>
    <ul id="matches" data-testid="matches"></ul>
    <button id="more" data-testid="more-matches" hidden>More matches</button>
  </section>
</main>
<script>
(() => {
  const PAGE = 100;
  const MAX_CHARS = 20000;
  const CONTEXT = 10;
  const LEAD = 200;
  const PRETTY_MAX = 8 * 1048576;
  const $ = (id) => document.getElementById(id);
  // 'before' maps where a shown page ends (its next line:column) to how that page was asked for,
  // so Previous goes back exactly to the page that Next came from.
  const state = { sessions: [], artifacts: [], artifact: null, page: null, session: null, tab: 'artifacts', search: null, pretty: null, hit: null, target: null, artifactSession: null, before: new Map() };
  let token = sessionStorage.getItem('compaction-token') || '';
  let navigation = 0;
  /** Moves a #token=… out of the fragment into sessionStorage; true when there was one. */
  function takeToken() {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (!hash.get('token')) return false;
    token = hash.get('token');
    sessionStorage.setItem('compaction-token', token);
    hash.delete('token');
    history.replaceState(null, '', location.pathname + (hash.toString() ? '#' + hash.toString() : ''));
    return true;
  }
  takeToken();
  const status = (text, error) => { $('status').textContent = text; $('status').className = error ? 'error' : 'meta'; };
  const headers = () => (token ? { authorization: 'Bearer ' + token } : {});
  async function api(path) {
    const response = await fetch(path, { headers: headers() });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }
  const enc = encodeURIComponent;
  const size = (n) => n >= 1048576 ? (n / 1048576).toFixed(1) + ' MiB' : n >= 1024 ? (n / 1024).toFixed(1) + ' KiB' : n + ' B';
  const when = (ms) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
  const el = (tag, className, text) => { const node = document.createElement(tag); if (className) node.className = className; if (text !== undefined) node.textContent = text; return node; };
  const linkFor = (session, id, line, column) => '#session=' + enc(session) + '&artifact=' + enc(id) + (line > 1 || column > 1 ? '&line=' + line : '') + (column > 1 ? '&column=' + column : '');
  const markCurrent = (list, id) => { for (const b of list.querySelectorAll('button.pick')) if (b.dataset.id === id) b.setAttribute('aria-current', 'true'); else b.removeAttribute('aria-current'); };

  function pickable(list, label, parts, onClick, href, id) {
    const li = el('li');
    const button = el('button', 'pick');
    button.dataset.id = id;
    button.append(el('div', '', label));
    for (const part of parts) if (part) button.append(part);
    button.addEventListener('click', () => { markCurrent(list, id); onClick(); });
    li.append(button);
    if (href) { const a = el('a', 'link', 'link'); a.href = href; a.dataset.testid = 'artifact-link'; a.title = 'Link to this artifact'; li.append(a); }
    list.append(li);
    return button;
  }

  async function loadSessions() {
    try {
      const { sessions } = await api('/api/sessions');
      state.sessions = sessions;
      $('sessions').replaceChildren();
      for (const id of sessions) pickable($('sessions'), id, [], () => loadArtifacts(id), undefined, id);
      status(sessions.length ? 'Pick a session.' : 'No sessions with artifacts here.');
      return sessions;
    } catch (e) { status('Could not list sessions: ' + e.message, true); return []; }
  }

  function fillSelect(select, values, all) {
    const current = select.value;
    select.replaceChildren(el('option', '', all));
    select.firstChild.value = '';
    for (const value of values) { const option = el('option', '', value); option.value = value; select.append(option); }
    select.value = values.includes(current) ? current : '';
  }

  function renderArtifacts() {
    const tool = $('f-tool').value, kind = $('f-kind').value, age = Number($('f-age').value), sort = $('f-sort').value;
    const now = Date.now();
    const shown = state.artifacts.filter((a) => (!tool || a.toolName === tool) && (!kind || a.kind === kind) && (!age || now - a.createdAt <= age));
    const by = { newest: (a, b) => b.createdAt - a.createdAt, oldest: (a, b) => a.createdAt - b.createdAt, largest: (a, b) => b.bytes - a.bytes, tool: (a, b) => String(a.toolName || '').localeCompare(String(b.toolName || '')) || b.createdAt - a.createdAt };
    shown.sort(by[sort] || by.newest);
    $('artifacts').replaceChildren();
    for (const a of shown) {
      const meta = el('div', 'meta');
      const badge = el('span', 'kind ' + a.kind, a.kind); badge.dataset.testid = 'kind';
      meta.append(badge, document.createTextNode(' · ' + (a.toolName || 'no tool') + ' · ' + size(a.bytes) + ' · ' + when(a.createdAt)));
      pickable($('artifacts'), a.title, [meta, el('div', 'preview', a.preview.slice(0, 200))], () => openArtifact(a), linkFor(state.session, a.id), a.id);
    }
    if (state.artifact) markCurrent($('artifacts'), state.artifact.id);
    return shown.length;
  }

  async function loadArtifacts(sessionId) {
    state.session = sessionId;
    if (state.tab === 'calls') return loadCalls();
    try {
      const { artifacts } = await api('/api/sessions/' + enc(sessionId) + '/artifacts');
      state.artifacts = artifacts;
      fillSelect($('f-tool'), [...new Set(artifacts.map((a) => a.toolName).filter(Boolean))].sort(), 'all tools');
      fillSelect($('f-kind'), [...new Set(artifacts.map((a) => a.kind))].sort(), 'all kinds');
      renderArtifacts();
      status(artifacts.length + ' artifacts in ' + sessionId + '.');
    } catch (e) { status('Could not list artifacts: ' + e.message, true); }
  }

  const JSON_TOKEN = /\s+|[{}[\]:,]|"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrtu])*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  const JSON_PARTIAL = /(?:"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrtu]?)*|-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?|t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?)$/y;

  /** Whether the text is a JSON object or array, or the start of one cut anywhere (a preview). */
  function isJsonStart(text) {
    const stack = [];
    let want = 'open';
    const valueDone = () => { want = stack.length ? 'comma' : 'done'; };
    for (let i = 0; i < text.length; ) {
      const value = want === 'value' || want === 'value]';
      const key = want === 'key' || want === 'key}';
      JSON_PARTIAL.lastIndex = i;
      if ((value || key) && JSON_PARTIAL.test(text) && (value || text[i] === '"')) return true;
      JSON_TOKEN.lastIndex = i;
      const match = JSON_TOKEN.exec(text);
      if (!match) return false;
      const t = match[0];
      i += t.length;
      if (/^\s/.test(t)) continue;
      const top = stack[stack.length - 1];
      if (t === '{' || t === '[') {
        if (!(value || want === 'open')) return false;
        stack.push(t); want = t === '{' ? 'key}' : 'value]';
      } else if (t === '}' || t === ']') {
        const empty = want === (t === '}' ? 'key}' : 'value]');
        if (!empty && !(want === 'comma' && top === (t === '}' ? '{' : '['))) return false;
        stack.pop(); valueDone();
      } else if (t === ':') { if (want !== 'colon') return false; want = 'value'; }
      else if (t === ',') { if (want !== 'comma') return false; want = top === '{' ? 'key' : 'value'; }
      else if (key && t[0] === '"') want = 'colon';
      else if (value) valueDone();
      else return false;
    }
    return want !== 'open';
  }

  /** Re-indents JSON token by token: strings and numbers are copied verbatim, never parsed. */
  function prettyJson(text) {
    let out = '', depth = 0, inString = false, escaped = false;
    const pad = () => '\n' + '  '.repeat(depth);
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (inString) { out += c; if (escaped) escaped = false; else if (c === '\\') escaped = true; else if (c === '"') inString = false; continue; }
      if (c === '"') { inString = true; out += c; continue; }
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
      if (c === '{' || c === '[') {
        let j = i + 1; while (j < text.length && /\s/.test(text[j])) j++;
        if (text[j] === (c === '{' ? '}' : ']')) { out += c + text[j]; i = j; continue; }
        depth++; out += c + pad(); continue;
      }
      if (c === '}' || c === ']') { depth = Math.max(0, depth - 1); out += pad() + c; continue; }
      if (c === ',') { out += ',' + pad(); continue; }
      if (c === ':') { out += ': '; continue; }
      out += c;
    }
    return out;
  }

  function lineClass(text) {
    const kind = state.artifact && state.artifact.kind;
    if (kind === 'diff') return text.startsWith('+') && !text.startsWith('+++') ? 'add' : text.startsWith('-') && !text.startsWith('---') ? 'del' : text.startsWith('@@') ? 'hunk' : '';
    if (kind === 'terminal_log') return /\b(ERROR|FATAL|FAIL(ED)?|panic|Traceback)\b/.test(text) ? 'lvl-error' : /\bWARN(ING)?\b/.test(text) ? 'lvl-warn' : '';
    return '';
  }

  function renderLines(lines, firstLine, firstColumn, atEnd) {
    const box = $('content');
    box.replaceChildren();
    box.scrollTop = 0;
    const hit = state.hit;
    let target = null;
    lines.forEach((text, i) => {
      const number = firstLine + i;
      const from = i === 0 ? firstColumn : 1;
      const row = el('div', 'row ' + lineClass(text));
      row.dataset.line = String(number);
      row.append(el('span', 'ln', i === 0 && firstColumn > 1 ? number + ':' + firstColumn : String(number)));
      const tx = el('span', 'tx', text);
      // Offsets of the hit in this row, which may be one window of its line.
      const start = hit && hit.line === number ? hit.column - from : -1;
      const end = start + Math.max(1, hit ? hit.length : 0);
      if (hit && hit.line === number && end > 0 && start < Math.max(1, text.length)) {
        row.classList.add('hit');
        target = row;
        if (hit.length > 0) {
          const a = Math.max(0, start), b = Math.min(text.length, end);
          tx.replaceChildren(document.createTextNode(text.slice(0, a)), el('mark', '', text.slice(a, b)), document.createTextNode(text.slice(b)));
          target = tx.querySelector('mark');
        }
      }
      row.append(tx);
      box.append(row);
    });
    if (target) target.scrollIntoView({ block: 'center' });
    else if (atEnd) box.scrollTop = box.scrollHeight;
  }

  /** A page from a line (at a column), keeping how it was asked for so it can be asked for again. */
  async function fetchPage(line, column, limit = PAGE, maxChars = MAX_CHARS) {
    const query = '?offset=' + line + (column > 1 ? '&column=' + column : '') + '&limit=' + limit + '&max_chars=' + maxChars;
    const page = await api('/api/artifacts/' + enc(state.artifact.id) + query + '&session=' + enc(state.artifactSession));
    return { ...page, asked: { line: page.line, column: page.column, limit, maxChars } };
  }

  /** Whether the page shows the given column of the given line. */
  function shows(page, line, column) {
    if (!page.count || line < page.line || line >= page.line + page.count) return false;
    return !page.window || page.window.line !== line || (column >= page.window.from && column <= page.window.to);
  }

  /** Loads a page and shows it, unless another navigation started meanwhile. */
  async function navigate(load, atEnd) {
    const a = state.artifact;
    const ticket = ++navigation;
    try {
      const page = await load();
      if (ticket === navigation && a === state.artifact) render(page, atEnd);
    } catch (e) { if (ticket === navigation) status('Could not read ' + a.id + ': ' + e.message, true); }
  }

  const positionKey = (position) => position.line + ':' + position.column;

  function render(page, atEnd) {
    state.page = page;
    if (page.next && page.asked) state.before.set(positionKey(page.next), page.asked);
    const lines = page.text.split('\n');
    if (page.text.endsWith('\n')) lines.pop();
    renderLines(lines, page.line, page.column, atEnd);
    const last = page.line + page.count - 1;
    const w = page.window;
    $('range').textContent = w && page.count === 1
      ? 'line ' + w.line + ', columns ' + w.from + '–' + w.to + ' of ' + w.lineChars + ' (long line)'
      : page.count ? 'lines ' + page.line + (w ? ' (from column ' + w.from + ')' : '') + '–' + last + ' of ' + page.totalLines + (page.next ? '' : ' (end)') : 'empty';
    $('prev').disabled = page.line === 1 && page.column === 1;
    $('first').disabled = $('prev').disabled;
    $('next').disabled = page.next === null;
    $('last').disabled = page.next === null;
    // The link names what was asked for (a line, a match), not where its page happens to start.
    const at = state.target || page;
    history.replaceState(null, '', location.pathname + linkFor(state.artifactSession, state.artifact.id, at.line, at.column));
  }

  function showPage(line, column) {
    if (state.pretty) return showPretty(line);
    state.target = null;
    return navigate(() => fetchPage(line, column));
  }

  /**
   * Shows a line (at a column) with the lines above it, or, when those leave it off the page
   * (long lines fill the page first, or the match is past the line's first window), from the
   * line itself: at column 1 when the match fits the first window, else just before the match.
   */
  function goTo(line, column, length) {
    if (state.page && !state.pretty && line > state.page.totalLines) return status('Line ' + line + ' is past the last line (' + state.page.totalLines + ').', true);
    state.hit = { line, column, length };
    if (state.pretty) return showPretty(Math.max(1, line - CONTEXT));
    state.target = { line, column };
    const firstWindow = column + length <= MAX_CHARS;
    return navigate(async () => {
      if (firstWindow) {
        const page = await fetchPage(Math.max(1, line - CONTEXT), 1);
        if (shows(page, line, column)) return page;
      }
      return fetchPage(line, firstWindow ? 1 : Math.max(1, column - LEAD));
    });
  }

  /**
   * The page that ends with line end: the most lines up to it that fit one page (found by
   * halving, as a page stops where its characters run out), or the last window of a line end
   * longer than a page. first, when given, is the page of the PAGE lines up to end.
   */
  async function fetchEnding(end, first) {
    const reaches = (page) => page.next === null || page.next.line > end;
    const start = Math.max(1, end - PAGE + 1);
    first = first || await fetchPage(start, 1, end - start + 1);
    if (reaches(first)) return first;
    let fits = null, lo = 0, hi = end - first.line + 1, lastLine = null;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      const probe = await fetchPage(end - mid + 1, 1, mid);
      if (reaches(probe)) { lo = mid; fits = probe; } else { hi = mid; if (mid === 1) lastLine = probe; }
    }
    if (fits) return fits;
    lastLine = lastLine || await fetchPage(end, 1, 1);
    if (!lastLine.window) return lastLine;
    // Four units short of a page, so the line's ending (a CRLF) and a surrogate pair the server
    // steps back into still fit, and the window reaches the end.
    return fetchPage(end, Math.max(1, lastLine.window.lineChars - MAX_CHARS + 4), 1);
  }

  /** The end of the artifact: the page that ends with its last line. */
  async function fetchTail() {
    const tail = await fetchPage(-PAGE, 1);
    return tail.next === null ? tail : fetchEnding(tail.totalLines, tail);
  }

  /**
   * The window of a line that ends just before a column: a page wide, or one unit wider when
   * its first column is the second half of a surrogate pair (the server starts at the pair), or
   * from column 1 when the line has fewer columns before.
   */
  async function fetchWindowBefore(line, column) {
    const from = Math.max(1, column - MAX_CHARS);
    const page = await fetchPage(line, from, 1, column - from);
    const w = page.window;
    return w && w.from < from ? fetchPage(line, w.from, 1, column - w.from) : page;
  }

  /**
   * The page before a page: the one a Next led from, when it was shown, else the columns of the
   * same line just before it, else the lines just before it.
   */
  function fetchPrevious(page) {
    const asked = state.before.get(positionKey(page));
    if (asked) return fetchPage(asked.line, asked.column, asked.limit, asked.maxChars);
    if (page.column > 1) return fetchWindowBefore(page.line, page.column);
    return fetchEnding(page.line - 1);
  }

  function showTail() {
    if (state.pretty) return showPretty(-PAGE);
    state.target = null;
    return navigate(fetchTail, true);
  }

  function showLast() {
    const total = state.page.totalLines;
    const aligned = Math.max(1, Math.floor((total - 1) / PAGE) * PAGE + 1);
    if (state.pretty) return showPretty(aligned);
    state.target = null;
    return navigate(async () => {
      const page = await fetchPage(aligned, 1);
      return page.next === null ? page : fetchTail();
    }, true);
  }

  async function showPretty(offset) {
    const lines = state.pretty;
    const total = lines.length;
    const start = offset < 0 ? Math.max(1, total + offset + 1) : Math.min(Math.max(1, offset), Math.max(1, total));
    const shown = lines.slice(start - 1, start - 1 + PAGE);
    state.page = { line: start, column: 1, count: shown.length, totalLines: total, next: start - 1 + PAGE < total ? { line: start + PAGE, column: 1 } : null };
    renderLines(shown, start, 1, offset < 0);
    $('range').textContent = 'pretty JSON lines ' + start + '–' + (start + shown.length - 1) + ' of ' + total;
    $('prev').disabled = start === 1; $('first').disabled = start === 1;
    $('next').disabled = state.page.next === null; $('last').disabled = state.page.next === null;
  }

  async function rawText(a) {
    const response = await fetch('/api/artifacts/' + enc(a.id) + '/raw?session=' + enc(state.artifactSession), { headers: headers() });
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error || response.statusText);
    return response;
  }

  function openArtifact(a, line, column) {
    // The artifact keeps its session while another session's list is shown.
    state.artifact = a; state.artifactSession = state.session; state.page = null; state.before = new Map();
    state.pretty = null; state.hit = null; state.search = null;
    markCurrent($('artifacts'), a.id);
    $('viewer').hidden = false;
    $('title').textContent = a.title;
    $('summary').textContent = a.summary + ' (' + a.id + ' · ' + a.path + ' · sha256 ' + a.digest.slice(0, 12) + '…' + (a.lines !== undefined ? ' · ' + a.lines + ' lines' : '') + ')';
    $('pretty-label').hidden = !isJsonStart(a.preview) || a.bytes > PRETTY_MAX;
    $('pretty').checked = false;
    $('matches').replaceChildren(); $('matchCount').textContent = ''; $('more').hidden = true;
    status('Opened ' + a.id + '.');
    return showAt(line, column);
  }

  /** Shows the top of the artifact, or a line linked to (highlighted, with the lines above). */
  function showAt(line, column) {
    return line > 1 || column > 1 ? goTo(Math.max(1, line), Math.max(1, column), 0) : showPage(1, 1);
  }

  function cell(row, text, className) {
    const td = el('td', className, text); row.append(td); return td;
  }
  async function loadCalls() {
    const section = $('calls');
    section.replaceChildren();
    if (!state.session) { status('Pick a session to see its model calls.'); return; }
    try {
      const { calls } = await api('/api/sessions/' + enc(state.session) + '/model-calls');
      const groups = new Map();
      for (const call of calls) {
        const key = call.requestId || '(no request id)';
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(call);
      }
      for (const [requestId, group] of groups) {
        const heading = el('h2', '', 'Request ' + requestId + ' · ' + group.length + ' calls');
        heading.style.marginLeft = '0';
        const table = el('table'); table.dataset.testid = 'calls-table';
        const head = el('tr');
        for (const label of ['Call', 'Step', 'Model', 'Input', 'Tokens in/out', 'Duration', 'Result']) head.append(el('th', '', label));
        table.append(head);
        for (const call of group) {
          const row = el('tr'); row.dataset.testid = 'call-row';
          cell(row, call.description); cell(row, call.stepId || ''); cell(row, call.model || '');
          cell(row, call.inputBytes === undefined ? '' : size(call.inputBytes), 'num');
          cell(row, call.usage ? call.usage.inputTokens + ' / ' + call.usage.outputTokens : '', 'num');
          cell(row, call.durationMs === undefined ? '' : Math.round(call.durationMs) + ' ms', 'num');
          const result = cell(row, '');
          if (call.error) { result.className = 'error'; result.textContent = 'failed: ' + call.error; }
          else {
            const details = el('details'); const summary = el('summary', '', size(new TextEncoder().encode(call.output || '').length) + ' of output');
            details.append(summary, el('pre', '', call.output || '')); result.append(details);
          }
          table.append(row);
        }
        section.append(heading, table);
      }
      status(calls.length ? calls.length + ' model calls recorded in ' + state.session + '.' : 'No model calls recorded in ' + state.session + ' (set COMPACTION_LLM_DEBUG_ENABLED=true).');
    } catch (e) { status('Could not list model calls: ' + e.message, true); }
  }
  function selectTab(tab) {
    state.tab = tab;
    $('tab-artifacts').setAttribute('aria-selected', String(tab === 'artifacts'));
    $('tab-calls').setAttribute('aria-selected', String(tab === 'calls'));
    $('calls').hidden = tab !== 'calls';
    $('viewer').hidden = tab !== 'artifacts' || !state.artifact;
    if (tab === 'calls') return loadCalls();
    if (state.session) return loadArtifacts(state.session);
  }

  async function runSearch(from) {
    const s = state.search;
    try {
      const query = '?pattern=' + enc(s.pattern) + '&regex=' + s.regex + '&case=' + s.caseSensitive + '&max=50' + (from ? '&from_line=' + from.line + '&from_column=' + from.column : '');
      const result = await api('/api/artifacts/' + enc(state.artifact.id) + '/search' + query + '&session=' + enc(state.artifactSession));
      if (!from) $('matches').replaceChildren();
      s.count += result.matches.length;
      s.next = result.more ? result.next : null;
      $('matchCount').textContent = s.count + (result.more ? '+' : '') + ' matches' + (result.stoppedBy === 'time' ? ' (stopped by the time budget)' : '');
      for (const m of result.matches) {
        const li = el('li');
        const button = el('button', '', m.line + ':' + m.column + ': ' + m.text);
        button.dataset.testid = 'match';
        button.addEventListener('click', () => {
          if (state.pretty) { $('pretty').checked = false; state.pretty = null; }
          return goTo(m.line, m.column, m.length);
        });
        li.append(button);
        $('matches').append(li);
      }
      $('more').hidden = !s.next;
    } catch (e) { status('Search failed: ' + e.message, true); }
  }

  $('tab-artifacts').addEventListener('click', () => selectTab('artifacts'));
  $('tab-calls').addEventListener('click', () => selectTab('calls'));
  for (const id of ['f-tool', 'f-kind', 'f-age', 'f-sort']) $(id).addEventListener('change', renderArtifacts);
  $('first').addEventListener('click', () => showPage(1, 1));
  $('prev').addEventListener('click', () => {
    const page = state.page;
    if (!page || (page.line === 1 && page.column === 1)) return;
    if (state.pretty) return showPretty(Math.max(1, page.line - PAGE));
    state.target = null;
    return navigate(() => fetchPrevious(page));
  });
  $('next').addEventListener('click', () => state.page.next && showPage(state.page.next.line, state.page.next.column));
  $('last').addEventListener('click', showLast);
  $('tail').addEventListener('click', showTail);
  $('goto').addEventListener('submit', (event) => {
    event.preventDefault();
    const line = Math.floor(Number($('goto-line').value));
    if (line >= 1) return goTo(line, 1, 0);
  });
  $('pretty').addEventListener('change', async () => {
    if (!$('pretty').checked) { state.pretty = null; return showPage(1, 1); }
    try {
      const text = await (await rawText(state.artifact)).text();
      try { JSON.parse(text); } catch (e) {
        $('pretty').checked = false; $('pretty-label').hidden = true;
        return status('Not shown as JSON: ' + e.message, true);
      }
      state.pretty = prettyJson(text).split('\n');
      state.hit = null;
      return showPretty(1);
    } catch (e) { $('pretty').checked = false; status('Could not load the JSON: ' + e.message, true); }
  });
  $('download').addEventListener('click', async () => {
    try {
      const blob = await (await rawText(state.artifact)).blob();
      const a = el('a');
      a.href = URL.createObjectURL(blob);
      a.download = state.artifact.path;
      document.body.append(a);
      a.click();
      setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
      status('Downloaded ' + state.artifact.path + ' (' + size(state.artifact.bytes) + ').');
    } catch (e) { status('Download failed: ' + e.message, true); }
  });
  $('search').addEventListener('submit', (event) => {
    event.preventDefault();
    const pattern = $('pattern').value;
    if (!pattern || !state.artifact) return;
    state.search = { pattern, regex: $('regex').checked, caseSensitive: $('case').checked, count: 0, next: null };
    return runSearch(null);
  });
  $('more').addEventListener('click', () => state.search && state.search.next && runSearch(state.search.next));
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('token').value.trim();
    if (token) sessionStorage.setItem('compaction-token', token); else sessionStorage.removeItem('compaction-token');
    $('token').value = '';
    start();
  });

  /** Opens what the fragment links to (#session=…&artifact=…&line=…&column=…). */
  async function follow() {
    const link = new URLSearchParams(location.hash.slice(1));
    const session = link.get('session'), artifact = link.get('artifact');
    if (!session) return;
    if (!state.sessions.includes(session)) return status('No session ' + session + ' here.', true);
    markCurrent($('sessions'), session);
    if (state.tab !== 'artifacts' || session !== state.session || !state.artifacts.some((a) => a.id === artifact)) {
      state.session = session;
      await selectTab('artifacts');
    }
    if (!artifact) return;
    const a = state.artifacts.find((item) => item.id === artifact);
    if (!a) return status('No artifact ' + artifact + ' in ' + session + '.', true);
    const line = Math.floor(Number(link.get('line'))) || 0, column = Math.floor(Number(link.get('column'))) || 0;
    if (!state.artifact || state.artifact.id !== a.id || state.artifactSession !== session) return openArtifact(a, line, column);
    if (state.pretty) { $('pretty').checked = false; state.pretty = null; }
    return showAt(line, column);
  }

  async function start() {
    await loadSessions();
    await follow();
  }
  window.addEventListener('hashchange', () => (takeToken() ? start() : follow()));
  start();
})();
</script>
</body>
</html>
`;
