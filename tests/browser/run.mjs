// Drives the restaurant finder page in headless Chromium and checks that the official A2UI Lit
// renderer draws the restaurant list while it streams, then the booking flow.
//
//   node tests/browser/run.mjs <base-url> <v0.9|v0.8> [--query Q] [--names "A|B|C|D|E"]
//                              [--screenshot FILE] [--resumes yes|no]
//
// Chromium: $CHROME, else /usr/bin/chromium. puppeteer-core comes from the page's node_modules
// (examples/restaurant_finder/page, or $A2UI_PAGE_DIR). Prints one line of timings; exits 1
// with the list of what failed.
//
// From the moment the run starts, a poller in the page looks at the DOM every 20 ms (through
// shadow roots) and notes when each restaurant card first shows its name. Checks:
//   (a) the first card with its name is visible before 70% of the time to RUN_FINISHED (the
//       scripted answer writes the list's title in its own data-model update before the records,
//       so the first record ends about 65% into the run);
//   (b) the five cards appear at 3 or more distinct moments spread over 20% or more of the run;
//   (c) the renderer threw no error, and the final list has five cards, each with a name, an
//       image and a Book button;
//   (d) Book opens the booking form; filling it in and pressing Reserve shows the confirmation.
// With --screenshot FILE.png it also saves FILE-form.png and FILE-confirmation.png.

import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const LIST = 'restaurant-list';
const BOOKING = 'booking-form';
const CONFIRMATION = 'confirmation';
const RUN_TIMEOUT_MS = 90_000;
/** The share of the run by which the first card must show (check (a)). */
const FIRST_CARD_BY = 0.7;

// ---------------------------------------------------------------------------------------------
// Arguments

const argv = process.argv.slice(2);
const positional = [];
const options = {};
for (let i = 0; i < argv.length; i++) {
  if (argv[i].startsWith('--')) options[argv[i].slice(2)] = argv[++i];
  else positional.push(argv[i]);
}
const [base, versionArg] = positional;
if (!base || !/^v?0\.[89]$/.test(versionArg ?? '')) {
  console.error('usage: node tests/browser/run.mjs <base-url> <v0.9|v0.8> [--query Q] [--names "A|B"] [--screenshot FILE] [--resumes yes|no]');
  process.exit(2);
}
const version = versionArg.startsWith('v') ? versionArg : `v${versionArg}`;
const names = (options.names ?? '').split('|').filter(Boolean);
const screenshot = options.screenshot;
const chrome = process.env.CHROME || '/usr/bin/chromium';

const here = dirname(fileURLToPath(import.meta.url));
const pageDir = process.env.A2UI_PAGE_DIR || resolve(here, '../../examples/restaurant_finder/page');
const require = createRequire(join(pageDir, 'package.json'));
const puppeteer = (await import(pathToFileURL(require.resolve('puppeteer-core')).href)).default;

// ---------------------------------------------------------------------------------------------
// In-page helpers (serialised into the page; they must not use anything from this module)

function installProbe(expectedNames) {
  const skip = new Set(['STYLE', 'SCRIPT', 'TEMPLATE']);
  /** Every element under `root`, through shadow roots. */
  const all = (root, out = []) => {
    const visit = (node) => {
      for (const child of node.children ?? []) {
        out.push(child);
        if (child.shadowRoot) visit(child.shadowRoot);
        visit(child);
      }
    };
    if (root.shadowRoot) visit(root.shadowRoot);
    visit(root);
    return out;
  };
  /** Text nodes under `root` that take up space on screen, in the flat tree (through shadow
   * roots and into what slots show). */
  const visibleTexts = (root) => {
    const out = [];
    const range = document.createRange();
    const visit = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        if (!node.data.trim()) return;
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        const style = node.parentElement && getComputedStyle(node.parentElement);
        if (r.width > 0 && r.height > 0 && style?.visibility !== 'hidden' && style?.opacity !== '0') out.push(node.data.trim());
        return;
      }
      if (node.nodeType === Node.ELEMENT_NODE && skip.has(node.tagName)) return;
      if (node.shadowRoot) return visit(node.shadowRoot); // light children show through slots
      if (node.tagName === 'SLOT') {
        const shown = node.assignedNodes({ flatten: true });
        for (const c of shown.length ? shown : node.childNodes) visit(c);
        return;
      }
      for (const c of node.childNodes) visit(c);
    };
    visit(root);
    return out;
  };
  const frame = (surfaceId) => document.querySelector(`section.surface[data-surface-id="${surfaceId}"]`);
  const card = (el) => {
    const texts = visibleTexts(el);
    const joined = texts.join(' ');
    const name = expectedNames.length
      ? expectedNames.find((n) => joined.includes(n)) ?? null
      : texts.find((t) => t !== '(empty)' && t !== 'Book' && !t.startsWith('★')) ?? null;
    const images = all(el).filter((e) => e.tagName === 'IMG' && e.getAttribute('src'));
    const buttons = all(el).filter((e) => e.tagName === 'BUTTON' && visibleTexts(e).join(' ').includes('Book'));
    return { name, image: images.length > 0, book: buttons.length > 0, text: joined.slice(0, 200) };
  };
  window.__probe = {
    all,
    visibleTexts,
    frame,
    cards: () => {
      const f = frame('restaurant-list');
      return f ? all(f).filter((e) => e.tagName === 'A2UI-CARD').map(card) : [];
    },
    cardElements: () => {
      const f = frame('restaurant-list');
      return f ? all(f).filter((e) => e.tagName === 'A2UI-CARD') : [];
    },
    bookButton: (index) => {
      const el = window.__probe.cardElements()[index];
      return el ? all(el).find((e) => e.tagName === 'BUTTON' && visibleTexts(e).join(' ').includes('Book')) ?? null : null;
    },
    button: (surfaceId, label) => {
      const f = frame(surfaceId);
      return f ? all(f).find((e) => e.tagName === 'BUTTON' && visibleTexts(e).join(' ').includes(label)) ?? null : null;
    },
    inputs: (surfaceId) => {
      const f = frame(surfaceId);
      return f ? all(f).filter((e) => e.tagName === 'INPUT' || e.tagName === 'TEXTAREA') : [];
    },
    text: (surfaceId) => {
      const f = frame(surfaceId);
      return f ? visibleTexts(f).join(' ') : '';
    },
  };
}

/** Starts the 20 ms poller for the next run (the one whose index is `runIndex`). */
function startPoller(runIndex) {
  const seen = {};
  window.__cards = { seen, samples: 0, maxNamed: 0 };
  let shot = false;
  window.__poller = setInterval(() => {
    const record = window.a2uiRuns[runIndex];
    if (!record) return;
    const t = Math.round((performance.now() - record.start) * 10) / 10;
    const cards = window.__probe.cards();
    window.__cards.samples++;
    let named = 0;
    for (const c of cards) {
      if (!c.name) continue;
      named++;
      if (!(c.name in seen)) seen[c.name] = t;
    }
    window.__cards.maxNamed = Math.max(window.__cards.maxNamed, named);
    if (!shot && named >= 2 && named <= 4) {
      shot = true;
      window.__midRun?.(named, t);
    }
  }, 20);
}

// ---------------------------------------------------------------------------------------------
// The run

const failures = [];
const check = (ok, what) => {
  if (!ok) failures.push(what);
  return ok;
};
const consoleLines = [];
const userDataDir = mkdtempSync(join(tmpdir(), 'a2ui-browser-'));
let browser;
let summary = `${version}: no timings`;

async function waitRun(page, index) {
  await page.waitForFunction((i) => window.a2uiRuns.length > i, { timeout: 30_000 }, index);
  return page.evaluate(
    (i, ms) => Promise.race([window.a2uiRuns[i].done, new Promise((r) => setTimeout(() => r('timeout'), ms))]),
    index,
    RUN_TIMEOUT_MS,
  );
}

try {
  browser = await puppeteer.launch({
    executablePath: chrome,
    headless: false, // '--headless' is in the flags below
    userDataDir,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${userDataDir}`,
    ],
    defaultViewport: { width: 1280, height: 900 },
  });
  const page = await browser.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') consoleLines.push(`[${m.type()}] ${m.text()}`);
  });
  page.on('pageerror', (e) => consoleLines.push(`[pageerror] ${e.message}`));

  let midShot = null;
  await page.exposeFunction('__midRun', async (named, t) => {
    if (!screenshot) return;
    mkdirSync(dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    const after = await page.evaluate(() => window.__probe.cards().filter((c) => c.name).length);
    midShot = { named, t, after };
  });

  const url = new URL(`/?a2ui=${version.slice(1)}`, base);
  if (options.query) url.searchParams.set('q', options.query);
  await page.goto(url.href, { waitUntil: 'load' });
  const ready = await page.evaluate(() => window.a2uiReady);
  check(ready?.version === version, `page runs ${ready?.version}, wanted ${version}`);
  check(/local bundle/.test(ready?.source ?? ''), `page did not load the local bundle (${ready?.source}); run npm run build in the page folder`);
  const footer = await page.$eval('#source', (e) => e.textContent);
  check(footer.includes('local bundle'), `footer does not name the bundle in use: ${footer}`);
  await page.evaluate(installProbe, names);

  // -- the query ------------------------------------------------------------------------------
  await page.evaluate(startPoller, 0);
  await page.click('#go');
  const outcome = await waitRun(page, 0);
  await page.evaluate(() => clearInterval(window.__poller));
  check(outcome === 'finished', `the query run ended with ${outcome}`);
  await new Promise((r) => setTimeout(r, 300)); // let the last render settle

  const { timeline, cards, seen, samples, errors } = await page.evaluate(() => ({
    timeline: window.a2uiRuns[0].timeline,
    cards: window.__probe.cards(),
    seen: window.__cards.seen,
    samples: window.__cards.samples,
    errors: window.a2uiErrors,
  }));
  const finished = timeline.find((e) => e.type === 'RUN_FINISHED')?.t;
  const times = Object.values(seen).sort((a, b) => a - b);
  const first = times[0];
  const fifth = times[4];
  const moments = new Set(times).size;
  const spread = times.length ? times[times.length - 1] - times[0] : 0;
  const activity = timeline.filter((e) => e.type.startsWith('ACTIVITY')).length;
  const resumed = timeline.filter((e) => e.type === 'RESUMED');
  const fmt = (x) => (x === undefined ? 'n/a' : `${Math.round(x)} ms`);
  summary =
    `${version}: first card ${fmt(first)}, fifth card ${fmt(fifth)}, RUN_FINISHED ${fmt(finished)}` +
    (finished ? ` (first at ${Math.round((100 * first) / finished)}%; ${moments} moments over ${Math.round((100 * spread) / finished)}% of the run;` : ' (') +
    ` ${activity} activity events, ${samples} DOM samples, ${errors.length} renderer errors` +
    (resumed.length ? `; resumed ${resumed.length} times, after event ${resumed.map((r) => r.lastEventId).join(', ')})` : ')');
  // A server that cuts connections on purpose (--cut-after): the page must resume, unseen by
  // the AG-UI client, and every check below must still hold.
  if (options.resumes === 'yes') check(resumed.length >= 1, '(e) the connection was cut, but the page never resumed');
  else check(resumed.length === 0, `(e) the page resumed ${resumed.length} times on a server that cuts nothing`);

  check(finished !== undefined, 'no RUN_FINISHED in the timeline');
  check(first !== undefined, 'no restaurant card with its name was ever visible');
  if (finished !== undefined && first !== undefined) {
    check(first < FIRST_CARD_BY * finished, `(a) first card at ${fmt(first)}, not before ${100 * FIRST_CARD_BY}% of RUN_FINISHED (${fmt(FIRST_CARD_BY * finished)})`);
    check(times.length === 5, `(b) ${times.length} of 5 cards were seen with their names during the run`);
    check(moments >= 3, `(b) the cards appeared at ${moments} distinct moments, want 3 or more (${times.map(Math.round).join(', ')} ms)`);
    check(spread >= 0.2 * finished, `(b) the cards appeared within ${fmt(spread)}, want 20% of the run (${fmt(0.2 * finished)})`);
  }
  check(errors.length === 0, `(c) the renderer threw ${errors.length} errors: ${JSON.stringify(errors.slice(0, 5))}`);
  check(cards.length === 5, `(c) the final list has ${cards.length} cards, want 5`);
  const named = cards.filter((c) => c.name);
  check(named.length === 5 && new Set(named.map((c) => c.name)).size === 5, `(c) cards with distinct names: ${named.length} of ${cards.length}`);
  check(cards.every((c) => c.image), `(c) cards without an image: ${cards.filter((c) => !c.image).length}`);
  check(cards.every((c) => c.book), `(c) cards without a Book button: ${cards.filter((c) => !c.book).length}`);
  if (names.length && cards.length) {
    const missing = names.filter((n) => !cards.some((c) => c.name === n));
    check(missing.length === 0, `(c) restaurants not shown: ${missing.join(', ')}`);
  }
  if (screenshot) {
    if (midShot) {
      console.log(`screenshot ${screenshot} at ${Math.round(midShot.t)} ms with ${midShot.named} named cards (${midShot.after} once saved)`);
    } else {
      mkdirSync(dirname(screenshot), { recursive: true });
      await page.screenshot({ path: screenshot, fullPage: true });
      console.log(`screenshot ${screenshot} after the run: there was no moment with 2 to 4 named cards`);
    }
  }

  // -- Book -----------------------------------------------------------------------------------
  const book = (await page.evaluateHandle(() => window.__probe.bookButton(0))).asElement();
  if (check(book, '(d) no Book button to press')) {
    const chosen = cards[0]?.name;
    await book.click();
    const booked = await waitRun(page, 1);
    check(booked === 'finished', `(d) the Book run ended with ${booked}`);
    await page.waitForFunction((s) => window.__probe.inputs(s).length >= 2, { timeout: 5_000 }, BOOKING).catch(() => {});
    const form = await page.evaluate((s) => ({ text: window.__probe.text(s), inputs: window.__probe.inputs(s).length }), BOOKING);
    check(form.inputs >= 2, `(d) the booking form shows ${form.inputs} input fields, want 2 or more (text: ${form.text.slice(0, 200)})`);
    check(!chosen || form.text.includes(chosen), `(d) the booking form does not name ${chosen}: ${form.text.slice(0, 200)}`);
    if (screenshot) await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-form.png'), fullPage: true });

    // Party size 4 and a dietary note, typed like a person would.
    const inputs = await page.evaluateHandle((s) => window.__probe.inputs(s), BOOKING);
    const party = (await inputs.getProperty('0')).asElement();
    const dietary = (await inputs.getProperty(String(Math.max(0, form.inputs - 1)))).asElement();
    const fill = async (input, text) => {
      await input.focus();
      await page.keyboard.down('Control');
      await page.keyboard.press('KeyA');
      await page.keyboard.up('Control');
      await page.keyboard.press('Backspace');
      await input.type(text);
      await page.keyboard.press('Tab');
      const value = await input.evaluate((e) => e.value);
      check(value === text, `(d) typed "${text}" into a booking field, it holds "${value}"`);
    };
    if (party && dietary && form.inputs >= 2) {
      await fill(party, '4');
      await fill(dietary, 'vegetarian');
    }
    const reserve = (await page.evaluateHandle((s) => window.__probe.button(s, 'Reserve'), BOOKING)).asElement();
    if (check(reserve, '(d) no Reserve button on the booking form')) {
      await reserve.click();
      const confirmed = await waitRun(page, 2);
      check(confirmed === 'finished', `(d) the Reserve run ended with ${confirmed}`);
      await page
        .waitForFunction((s) => window.__probe.text(s).includes('Booked'), { timeout: 5_000 }, CONFIRMATION)
        .catch(() => {});
      const done = await page.evaluate((s) => window.__probe.text(s), CONFIRMATION);
      check(done.includes('Booked'), `(d) no confirmation shown: "${done.slice(0, 200)}"`);
      check(!chosen || done.includes(chosen), `(d) the confirmation does not name ${chosen}: "${done.slice(0, 200)}"`);
      check(done.includes('Table for 4'), `(d) the confirmation does not show the party size typed (4): "${done.slice(0, 200)}"`);
      check(done.includes('vegetarian'), `(d) the confirmation does not show the dietary note typed: "${done.slice(0, 200)}"`);
      if (screenshot) await page.screenshot({ path: screenshot.replace(/(\.png)?$/, '-confirmation.png'), fullPage: true });
    }
    const later = await page.evaluate(() => window.a2uiErrors);
    check(later.length === 0, `(d) the renderer threw ${later.length} errors in the booking flow: ${JSON.stringify(later.slice(0, 5))}`);
  }
} catch (error) {
  failures.push(`the browser run broke: ${error?.stack ?? error}`);
} finally {
  await browser?.close().catch(() => {});
  rmSync(userDataDir, { recursive: true, force: true });
}

console.log(summary);
if (failures.length) {
  console.log(`FAILED (${version}):`);
  for (const f of failures) console.log(`  - ${f}`);
  if (consoleLines.length) {
    console.log('page console (errors and warnings, last 30):');
    for (const l of consoleLines.slice(-30)) console.log(`  ${l.slice(0, 400)}`);
  }
  process.exit(1);
}
console.log(`ok (${version})`);
