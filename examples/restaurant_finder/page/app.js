// The restaurant finder page: talks AG-UI to POST /agent with the official @ag-ui/client and
// draws the A2UI surfaces it receives with the official @a2ui/lit renderer, while they grow.
//
// One A2UI version per page (the v0.8 and v0.9 elements share tag names): v0.9 by default,
// v0.8 with `?a2ui=0.8`. Other parameters: `q` (the query to fill in), `agent` (the AG-UI
// endpoint, default `/agent` on this server).
//
// For tests the page exposes:
//   window.a2uiReady     promise, resolved once the renderer is loaded (to {version, source})
//   window.a2uiErrors    every error the renderer threw, one entry per failed message (and any
//                        uncaught error or rejection while rendering), across all runs
//   window.a2uiRuns      one record per run: {index, kind, start, timeline, outcome, done}
//   window.a2uiTimeline  the current run's timeline: {type, t} with t in ms since the run
//                        started (the request was sent), for RUN_STARTED, each
//                        ACTIVITY_SNAPSHOT / ACTIVITY_DELTA, RUN_FINISHED and RUN_ERROR
//   window.a2uiRunStart  performance.now() when the current run started
//   window.a2uiRunDone   promise of the current run, resolved (never rejected) with its outcome
//   window.a2uiRunning   true while a run is in progress
//
// A run whose connection breaks is resumed where it stopped (resume.js): the timeline records a
// RESUMED entry with the last event id, and the AG-UI client sees one uninterrupted stream.

import { renderMarkdown } from './markdown.js';
import { resumableFetch } from './resume.js';

const params = new URLSearchParams(location.search);
const VERSION = /^v?0[._]?8$/.test(params.get('a2ui') ?? '') ? 'v0.8' : 'v0.9';
const FILE = VERSION === 'v0.8' ? 'a2ui-v0_8' : 'a2ui-v0_9';
const AGENT_URL = params.get('agent') || new URL('agent', new URL('/', location.href)).href;

// Pinned like package.json, for when no local bundle was built.
const CDN = 'https://esm.sh';
const PINS = {
  lit: '@a2ui/lit@0.11.0',
  core: '@a2ui/web_core@0.11.0',
  context: '@lit/context@1.1.6',
  client: '@ag-ui/client@1.0.0',
};
// Every CDN module is built against the same dependency versions, so that lit, @lit/context and
// web_core resolve to the same URLs (one copy each) from every import. (The tests use the local
// bundle; this path is not covered by them.)
const DEPS = ['lit@3.3.3', PINS.context, PINS.core];

const $ = (id) => document.getElementById(id);
const surfacesEl = $('surfaces');
const proseEl = $('prose');
const statusEl = $('status');

// ---------------------------------------------------------------------------------------------
// Test hooks

window.a2uiVersion = VERSION;
window.a2uiErrors = [];
window.a2uiRuns = [];
window.a2uiTimeline = [];
window.a2uiRunStart = null;
window.a2uiRunDone = Promise.resolve(null);
window.a2uiRunning = false;

let currentRun = null;

// Every POST to the agent resumes after a broken connection.
window.fetch = resumableFetch(window.fetch.bind(window), {
  shouldResume: (url, init) => String(url) === AGENT_URL && (init?.method ?? 'GET').toUpperCase() === 'POST',
  onResume: ({ lastEventId, attempt, error }) => {
    mark('RESUMED', { lastEventId, attempt, error: String(error?.message ?? error) });
    setStatus(`connection lost; resuming after event ${lastEventId ?? '(none)'} (attempt ${attempt})…`);
  },
});

function since() {
  return currentRun ? Math.round((performance.now() - currentRun.start) * 10) / 10 : null;
}

/** One line for an error; a ZodError's message is its issues as JSON, shortened here. */
function describe(error) {
  if (Array.isArray(error?.issues)) return `${error.name}: ${error.issues.map((i) => i.message).join('; ')}`;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function recordError(where, error, extra = {}) {
  const message = describe(error);
  const entry = { t: since(), run: currentRun?.index ?? null, where, message, ...extra };
  window.a2uiErrors.push(entry);
  console.error(`[a2ui] ${where}: ${message}`, extra);
  $('error-count').textContent = String(window.a2uiErrors.length);
  $('error-count').parentElement.hidden = false;
}

window.addEventListener('error', (e) => recordError('uncaught', e.error ?? e.message));
window.addEventListener('unhandledrejection', (e) => recordError('unhandled rejection', e.reason));

// ---------------------------------------------------------------------------------------------
// Loading the renderer: the local bundle when it was built, else the CDN

async function loadLocal() {
  const url = new URL(`./dist/${FILE}.js`, import.meta.url).href;
  const head = await fetch(url, { method: 'HEAD' }).catch(() => null);
  if (!head?.ok) return null;
  return { lib: await import(url), source: `local bundle dist/${FILE}.js` };
}

async function loadCdn() {
  $('source').textContent = `A2UI ${VERSION} · no local bundle, loading @a2ui/lit from ${CDN}…`;
  const url = (pkg, sub = '') => `${CDN}/${pkg}${sub}?deps=${DEPS.filter((d) => d !== pkg).join(',')}`;
  const [client, context] = await Promise.all([import(`${CDN}/${PINS.client}`), import(url(PINS.context))]);
  const common = { HttpAgent: client.HttpAgent, ContextProvider: context.ContextProvider };
  if (VERSION === 'v0.8') {
    const [core, ui] = await Promise.all([import(url(PINS.lit, '/v0_8')), import(url(PINS.lit, '/ui'))]);
    const lib = { ...common, version: 'v0.8', Context: ui.Context, createProcessor: () => core.Data.createSignalA2uiMessageProcessor() };
    return { lib, source: `CDN ${CDN} (${PINS.lit})` };
  }
  const [web, lit] = await Promise.all([import(url(PINS.core, '/v0_9')), import(url(PINS.lit, '/v0_9'))]);
  const lib = { ...common, version: 'v0.9', MessageProcessor: web.MessageProcessor, basicCatalog: lit.basicCatalog, Context: lit.Context };
  return { lib, source: `CDN ${CDN} (${PINS.lit})` };
}

// ---------------------------------------------------------------------------------------------
// Renderers: apply(message) hands one A2UI message to the official processor (and throws what it
// throws); actions come back through onAction(userAction).

/** Wraps a surface element so tests (and people) can find it by surface id. */
function surfaceFrame(surfaceId, element) {
  const frame = document.createElement('section');
  frame.className = 'surface';
  frame.dataset.surfaceId = surfaceId;
  frame.append(element);
  surfacesEl.append(frame);
  frame.scrollIntoView({ block: 'nearest' });
  return frame;
}

function removeFrame(surfaceId) {
  surfacesEl.querySelector(`section.surface[data-surface-id="${CSS.escape(surfaceId)}"]`)?.remove();
}

/** Plain JSON of a value read from a v0.8 data model (Maps and signal collections included). */
function plain(value) {
  const mapLike = value instanceof Map || (typeof value?.get === 'function' && typeof value?.entries === 'function');
  if (mapLike) return Object.fromEntries([...value.entries()].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

class RendererV09 {
  constructor(lib, onAction) {
    this.processor = new lib.MessageProcessor([lib.basicCatalog], (action) => onAction(action));
    this.processor.onSurfaceCreated((surface) => {
      const el = document.createElement('a2ui-surface');
      el.surface = surface;
      surface.onError?.subscribe?.((error) => recordError('surface error', error?.message ?? error, { surfaceId: surface.id }));
      surfaceFrame(surface.id, el);
    });
    this.processor.onSurfaceDeleted((id) => removeFrame(id));
  }

  apply(message) {
    this.processor.processMessages([message]);
  }
}

class RendererV08 {
  constructor(lib, onAction) {
    this.processor = lib.createProcessor();
    this.onAction = onAction;
    this.shown = new Map(); // surface id -> { el, surface }
  }

  apply(message) {
    try {
      this.processor.processMessages([message]);
    } finally {
      this.sync();
    }
  }

  /** Shows the surfaces that have begun rendering, drops the deleted ones. */
  sync() {
    const surfaces = this.processor.getSurfaces();
    for (const [id, surface] of surfaces) {
      const known = this.shown.get(id);
      if (known) {
        if (known.surface !== surface) known.el.surface = known.surface = surface;
        continue;
      }
      const el = document.createElement('a2ui-surface');
      el.surfaceId = id;
      el.processor = this.processor;
      el.surface = surface;
      el.addEventListener('a2uiaction', (event) => this.action(id, event));
      surfaceFrame(id, el);
      this.shown.set(id, { el, surface });
    }
    for (const id of [...this.shown.keys()]) {
      if (!surfaces.has(id)) {
        this.shown.delete(id);
        removeFrame(id);
      }
    }
  }

  /** v0.8 buttons send their action unresolved: read the bound values here. */
  action(surfaceId, event) {
    event.stopPropagation();
    const { action, sourceComponent, sourceComponentId } = event.detail;
    const context = {};
    for (const { key, value } of action?.context ?? []) {
      if (value && 'path' in value) context[key] = plain(this.processor.getData(sourceComponent, value.path, surfaceId));
      else context[key] = value?.literalString ?? value?.literalNumber ?? value?.literalBoolean ?? null;
    }
    this.onAction({ name: action?.name, surfaceId, sourceComponentId, timestamp: new Date().toISOString(), context });
  }
}

// ---------------------------------------------------------------------------------------------
// The conversation pane

const bubbles = new Map();

function say(role, text, id) {
  const p = document.createElement('p');
  p.className = `bubble ${role}`;
  p.textContent = text;
  proseEl.append(p);
  if (id) bubbles.set(id, p);
  proseEl.scrollTop = proseEl.scrollHeight;
  return p;
}

// ---------------------------------------------------------------------------------------------
// Runs

let lib = null;
let renderer = null;
let agent = null;
/** Operations applied so far per activity message, so a repeated snapshot applies only what is new. */
let applied = new Map();

function setStatus(text) {
  statusEl.textContent = text;
}

function newConversation() {
  surfacesEl.replaceChildren();
  proseEl.replaceChildren();
  bubbles.clear();
  applied = new Map();
  renderer = VERSION === 'v0.8' ? new RendererV08(lib, onAction) : new RendererV09(lib, onAction);
  agent = new lib.HttpAgent({ url: AGENT_URL });
}

function mark(type, extra = {}) {
  currentRun?.timeline.push({ type, t: since(), ...extra });
}

function applyOperations(messageId, operations) {
  for (const op of operations) {
    const count = (applied.get(messageId) ?? 0) + 1;
    applied.set(messageId, count);
    try {
      renderer.apply(op);
    } catch (error) {
      const kind = Object.keys(op ?? {}).find((k) => k !== 'version') ?? '?';
      recordError('message', error, { messageId, index: count - 1, kind });
    }
  }
}

const subscriber = {
  onRunStartedEvent: () => mark('RUN_STARTED'),
  onRunFinishedEvent: () => mark('RUN_FINISHED'),
  onRunErrorEvent: ({ event }) => {
    mark('RUN_ERROR', { message: event.message });
    say('error', `The run failed: ${event.message}`);
  },
  onTextMessageStartEvent: ({ event }) => {
    say('assistant', '', event.messageId);
  },
  onTextMessageContentEvent: ({ event }) => {
    const bubble = bubbles.get(event.messageId) ?? say('assistant', '', event.messageId);
    bubble.dataset.raw = (bubble.dataset.raw ?? '') + event.delta;
    bubble.textContent = bubble.dataset.raw.trim();
    proseEl.scrollTop = proseEl.scrollHeight;
  },
  onCustomEvent: ({ event }) => {
    if (event.name === 'a2ui-stream.model-retry') {
      const v = event.value ?? {};
      mark('MODEL_RETRY', { attempt: v.attempt, reason: v.reason });
      setStatus(`the model request failed (${v.reason}); retry ${v.attempt} of ${v.maxRetries} in ${v.retryInMs} ms…`);
    } else if (event.name === 'a2ui-retry') {
      setStatus('the UI was rejected; asking the model again…');
    }
  },
  onToolCallStartEvent: ({ event }) => {
    say('tool', `Calling ${event.toolCallName}…`);
  },
  onActivitySnapshotEvent: ({ event }) => {
    const ops = event.content?.a2ui_operations;
    mark('ACTIVITY_SNAPSHOT', { messageId: event.messageId, ops: Array.isArray(ops) ? ops.length : 0 });
    if (event.activityType !== 'a2ui-surface' || !Array.isArray(ops)) return;
    // A snapshot holds every operation of its surface so far. For a message seen before, only the
    // ones not applied yet are new to the processor, and `replace: false` leaves it as it is.
    if (applied.has(event.messageId) && event.replace === false) return;
    applyOperations(event.messageId, ops.slice(applied.get(event.messageId) ?? 0));
  },
  onActivityDeltaEvent: ({ event }) => {
    mark('ACTIVITY_DELTA', { messageId: event.messageId, ops: event.patch?.length ?? 0 });
    if (event.activityType !== 'a2ui-surface') return;
    for (const p of event.patch ?? []) {
      const index = /^\/a2ui_operations\/(-|\d+)$/.exec(p.path ?? '');
      if (p.op === 'add' && index && (index[1] === '-' || Number(index[1]) === (applied.get(event.messageId) ?? 0))) {
        applyOperations(event.messageId, [p.value]);
      } else {
        recordError('patch', `unsupported activity patch ${JSON.stringify(p).slice(0, 200)}`, { messageId: event.messageId });
      }
    }
  },
};

async function run(kind, forwardedProps) {
  let resolve;
  const record = {
    index: window.a2uiRuns.length,
    kind,
    start: performance.now(),
    timeline: [],
    outcome: null,
    done: new Promise((r) => (resolve = r)),
  };
  currentRun = record;
  window.a2uiRuns.push(record);
  window.a2uiTimeline = record.timeline;
  window.a2uiRunStart = record.start;
  window.a2uiRunDone = record.done;
  window.a2uiRunning = true;
  document.body.classList.add('running');
  setStatus(`running (${kind})…`);
  try {
    await agent.runAgent({ forwardedProps: { a2uiVersion: VERSION, ...forwardedProps } }, subscriber);
    record.outcome = record.timeline.some((e) => e.type === 'RUN_ERROR') ? 'error' : 'finished';
  } catch (error) {
    record.outcome = 'error';
    mark('RUN_ERROR', { message: String(error?.message ?? error) });
    say('error', `The run failed: ${error?.message ?? error}`);
    console.error(error);
  } finally {
    window.a2uiRunning = false;
    document.body.classList.remove('running');
    const end = record.timeline.findLast((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR');
    setStatus(`${record.outcome} in ${end ? Math.round(end.t) : '?'} ms`);
    resolve(record.outcome);
  }
}

function onAction(userAction) {
  if (window.a2uiRunning) {
    setStatus('busy: wait for the answer before pressing another button');
    return;
  }
  // Name the action by what it is about: a value whose key mentions a name, else the first one.
  const entries = Object.entries(userAction.context ?? {}).filter(([, v]) => typeof v === 'string' && v);
  const shown = (entries.find(([k]) => /name/i.test(k)) ?? entries[0])?.[1] ?? '';
  say('user', `▶ ${userAction.name}${shown ? ` (${shown})` : ''}`);
  run('action', { a2uiAction: { userAction } });
}

function go(event) {
  event?.preventDefault();
  const query = $('query').value.trim();
  if (!query || window.a2uiRunning || !lib) return;
  newConversation();
  say('user', query);
  agent.addMessage({ id: crypto.randomUUID(), role: 'user', content: query });
  run('query', {});
}

// ---------------------------------------------------------------------------------------------
// Start

$('version').value = VERSION;
$('version').addEventListener('change', () => {
  const next = new URLSearchParams(location.search);
  next.set('a2ui', $('version').value === 'v0.8' ? '0.8' : '0.9');
  const q = $('query').value.trim();
  if (q) next.set('q', q);
  location.search = next.toString();
});
if (params.get('q')) $('query').value = params.get('q');
$('form').addEventListener('submit', go);

window.a2uiReady = (async () => {
  setStatus('loading the renderer…');
  try {
    const loaded = (await loadLocal()) ?? (await loadCdn());
    lib = loaded.lib;
    const markdownHost = surfacesEl;
    // v0.8 elements need a theme; both versions render markdown through the one given here.
    if (VERSION === 'v0.8') {
      const { theme } = await import('./theme-v0_8.js');
      new lib.ContextProvider(markdownHost, { context: lib.Context.theme, initialValue: theme });
    }
    new lib.ContextProvider(markdownHost, { context: lib.Context.markdown, initialValue: renderMarkdown });
    $('source').textContent = `A2UI ${VERSION} · @a2ui/lit 0.11.0 from ${loaded.source}`;
    $('go').disabled = false;
    setStatus('ready');
    return { version: VERSION, source: loaded.source };
  } catch (error) {
    $('source').textContent = `A2UI ${VERSION} · the renderer failed to load (no local bundle in dist/, and ${CDN} failed)`;
    setStatus(`could not load the renderer: ${error?.message ?? error}`);
    recordError('load', error);
    throw error;
  }
})();
