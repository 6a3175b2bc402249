/**
 * The inspector: one self-contained page (no external assets) that lists sessions and their
 * artifacts, opens one page by page and searches inside it, through the JSON API of the same
 * server. Artifact text is untrusted and only ever set through `textContent`. A bearer token,
 * when the server needs one, is read from the URL fragment (`#token=…`), which browsers never
 * send to the server or in a Referer.
 */
export const INSPECTOR_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Compaction artifacts</title>
<style>
  :root { font-family: system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
  body { margin: 0; display: grid; grid-template-columns: 20rem 1fr; height: 100vh; }
  aside { border-right: 1px solid #d5d9e0; overflow: auto; background: #fff; }
  main { overflow: auto; padding: 1rem 1.5rem; }
  h1 { font-size: 1rem; margin: 0; padding: .75rem 1rem; border-bottom: 1px solid #d5d9e0; }
  h2 { font-size: .8rem; text-transform: uppercase; color: #5b6475; margin: 1rem 1rem .25rem; }
  ul { list-style: none; margin: 0; padding: 0; }
  li button { all: unset; box-sizing: border-box; display: block; width: 100%; padding: .5rem 1rem; cursor: pointer; }
  li button:hover, li button[aria-current="true"] { background: #e8eefc; }
  .meta { font-size: .75rem; color: #5b6475; }
  .preview { font: .75rem ui-monospace, monospace; color: #3b4252; white-space: pre-wrap; max-height: 3.2em; overflow: hidden; }
  pre { background: #fff; border: 1px solid #d5d9e0; padding: .75rem; white-space: pre-wrap; word-break: break-word; font: .8rem/1.4 ui-monospace, monospace; min-height: 10rem; }
  .bar { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
  .error { color: #b42318; }
  #matches button { font: .8rem ui-monospace, monospace; }
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
  <h2>Sessions</h2>
  <ul id="sessions" data-testid="sessions"></ul>
  <h2>Artifacts</h2>
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
    <p id="summary" class="meta"></p>
    <div class="bar">
      <button id="prev" data-testid="prev">◀ Previous</button>
      <button id="next" data-testid="next">Next ▶</button>
      <span id="range" class="meta" data-testid="range"></span>
    </div>
    <pre id="content" data-testid="content"></pre>
    <form id="search" class="bar">
      <input id="pattern" data-testid="pattern" placeholder="Search in this artifact" maxlength="256" size="30">
      <button data-testid="search">Search</button>
      <span id="matchCount" class="meta" data-testid="match-count"></span>
    </form>
    <ul id="matches" data-testid="matches"></ul>
  </section>
</main>
<script>
(() => {
  const PAGE = 100;
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = hash.get('token') || sessionStorage.getItem('compaction-token') || '';
  if (hash.get('token')) { sessionStorage.setItem('compaction-token', token); history.replaceState(null, '', location.pathname); }
  const $ = (id) => document.getElementById(id);
  const state = { artifact: null, offset: 0, next: null, session: null, tab: 'artifacts' };
  const status = (text, error) => { $('status').textContent = text; $('status').className = error ? 'error' : 'meta'; };
  async function api(path) {
    const response = await fetch(path, { headers: token ? { authorization: 'Bearer ' + token } : {} });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(body.error || response.statusText);
    return body;
  }
  const size = (n) => n >= 1048576 ? (n / 1048576).toFixed(1) + ' MB' : n >= 1024 ? (n / 1024).toFixed(1) + ' KB' : n + ' B';
  function item(list, label, meta, preview, onClick) {
    const li = document.createElement('li');
    const button = document.createElement('button');
    const strong = document.createElement('div'); strong.textContent = label; button.append(strong);
    if (meta) { const m = document.createElement('div'); m.className = 'meta'; m.textContent = meta; button.append(m); }
    if (preview) { const p = document.createElement('div'); p.className = 'preview'; p.textContent = preview; button.append(p); }
    button.addEventListener('click', () => { for (const b of list.querySelectorAll('button')) b.removeAttribute('aria-current'); button.setAttribute('aria-current', 'true'); onClick(); });
    li.append(button); list.append(li);
  }
  async function loadSessions() {
    try {
      const { sessions } = await api('/api/sessions');
      $('sessions').replaceChildren();
      for (const id of sessions) item($('sessions'), id, '', '', () => loadArtifacts(id));
      status(sessions.length ? 'Pick a session.' : 'No sessions with artifacts here.');
    } catch (e) { status('Could not list sessions: ' + e.message, true); }
  }
  async function loadArtifacts(sessionId) {
    state.session = sessionId;
    if (state.tab === 'calls') return loadCalls();
    try {
      const { artifacts } = await api('/api/sessions/' + encodeURIComponent(sessionId) + '/artifacts');
      $('artifacts').replaceChildren();
      for (const a of artifacts) item($('artifacts'), a.title, a.kind + ' · ' + size(a.bytes) + ' · ' + a.chars + ' chars', a.preview.slice(0, 200), () => openArtifact(a));
      status(artifacts.length + ' artifacts in ' + sessionId + '.');
    } catch (e) { status('Could not list artifacts: ' + e.message, true); }
  }
  async function showPage(offset) {
    const a = state.artifact;
    try {
      const page = await api('/api/artifacts/' + encodeURIComponent(a.id) + '?offset=' + offset + '&limit=' + PAGE);
      state.offset = page.offset; state.next = page.nextOffset;
      $('content').textContent = page.text;
      $('range').textContent = 'lines ' + (page.offset + 1) + '–' + (page.offset + page.count) + (page.nextOffset === null ? ' (end)' : '');
      $('prev').disabled = page.offset === 0;
      $('next').disabled = page.nextOffset === null;
    } catch (e) { status('Could not read ' + a.id + ': ' + e.message, true); }
  }
  function openArtifact(a) {
    state.artifact = a;
    $('viewer').hidden = false;
    $('title').textContent = a.title;
    $('summary').textContent = a.summary + ' (' + a.id + ', sha256 ' + a.digest.slice(0, 12) + '…)';
    $('matches').replaceChildren(); $('matchCount').textContent = '';
    status('Opened ' + a.id + '.');
    return showPage(0);
  }
  function cell(row, text, className) {
    const td = document.createElement('td'); td.textContent = text; if (className) td.className = className; row.append(td); return td;
  }
  async function loadCalls() {
    const section = $('calls');
    section.replaceChildren();
    if (!state.session) { status('Pick a session to see its model calls.'); return; }
    try {
      const { calls } = await api('/api/sessions/' + encodeURIComponent(state.session) + '/model-calls');
      const groups = new Map();
      for (const call of calls) {
        const key = call.requestId || '(no request id)';
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(call);
      }
      for (const [requestId, group] of groups) {
        const heading = document.createElement('h2'); heading.textContent = 'Request ' + requestId + ' · ' + group.length + ' calls';
        heading.style.marginLeft = '0';
        const table = document.createElement('table'); table.dataset.testid = 'calls-table';
        const head = document.createElement('tr');
        for (const label of ['Call', 'Step', 'Model', 'Input', 'Tokens in/out', 'Duration', 'Result']) { const th = document.createElement('th'); th.textContent = label; head.append(th); }
        table.append(head);
        for (const call of group) {
          const row = document.createElement('tr'); row.dataset.testid = 'call-row';
          cell(row, call.description); cell(row, call.stepId || ''); cell(row, call.model || '');
          cell(row, call.inputBytes === undefined ? '' : size(call.inputBytes), 'num');
          cell(row, call.usage ? call.usage.inputTokens + ' / ' + call.usage.outputTokens : '', 'num');
          cell(row, call.durationMs === undefined ? '' : Math.round(call.durationMs) + ' ms', 'num');
          const result = cell(row, '');
          if (call.error) { result.className = 'error'; result.textContent = 'failed: ' + call.error; }
          else {
            const details = document.createElement('details'); const summary = document.createElement('summary');
            summary.textContent = size(new TextEncoder().encode(call.output || '').length) + ' of output';
            const pre = document.createElement('pre'); pre.textContent = call.output || '';
            details.append(summary, pre); result.append(details);
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
    if (tab === 'calls') loadCalls();
    else if (state.session) loadArtifacts(state.session);
  }
  $('tab-artifacts').addEventListener('click', () => selectTab('artifacts'));
  $('tab-calls').addEventListener('click', () => selectTab('calls'));
  $('prev').addEventListener('click', () => showPage(Math.max(0, state.offset - PAGE)));
  $('next').addEventListener('click', () => state.next !== null && showPage(state.next));
  $('search').addEventListener('submit', async (event) => {
    event.preventDefault();
    const pattern = $('pattern').value;
    if (!pattern || !state.artifact) return;
    try {
      const result = await api('/api/artifacts/' + encodeURIComponent(state.artifact.id) + '/search?pattern=' + encodeURIComponent(pattern));
      $('matches').replaceChildren();
      $('matchCount').textContent = result.matches.length + (result.truncated ? '+' : '') + ' matching lines';
      for (const m of result.matches) item($('matches'), m.line + ': ' + m.text, '', '', () => showPage(Math.floor((m.line - 1) / PAGE) * PAGE));
    } catch (e) { status('Search failed: ' + e.message, true); }
  });
  loadSessions();
})();
</script>
</body>
</html>
`;
