// The web page in a real browser (Debian's Chromium, driven by playwright-core): complete games
// played by clicking cells, the page at level 10 as X and as O never losing; the page's answer on
// every position of tic-tac-toe against oxo-play --batch; the hints against the same answers; a
// screenshot; and the shipped 7x6 network: games, its move values and best moves on BOARDS76
// against oxo-play --model's ANSWERS76, its hints.
// Usage: node browser_test.js WEB_DIR BOARDS ANSWERS SCREENSHOT.png BOARDS76 ANSWERS76
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const [webDir, boardsFile, answersFile, shot, boards76File, answers76File] = process.argv.slice(2);
let checks = 0, fails = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    fails++;
    if (fails <= 10) console.log(`FAIL: ${what}`);
  }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = http.createServer((req, res) => {
  const name = path.basename(new URL(req.url, 'http://x').pathname) || 'index.html';
  const file = path.join(webDir, name);
  if (!TYPES[path.extname(name)] || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
  // With its length, as python3 -m http.server and other static servers send it.
  res.writeHead(200, { 'Content-Type': TYPES[path.extname(name)], 'Content-Length': fs.statSync(file).size });
  fs.createReadStream(file).pipe(res);
});

// A seeded stream for the clicks (the test's own, so that a failure can be replayed).
function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

async function playGames(page, base, game, side, games) {
  const results = { won: 0, drawn: 0, lost: 0 };
  for (let g = 0; g < games; g++) {
    await page.goto(`${base}/?game=${game}&side=${side}&level=10&seed=${g + 1}`);
    await page.waitForFunction(() => window.oxo && window.oxo.ready);
    const r = rng(1000 + g);
    const smart = g % 2 === 1; // every other game the person plays best moves too
    for (let ply = 0; ply < 64; ply++) {
      const st = await page.getAttribute('#status', 'data-state');
      if (st !== 'playing') break;
      const enabled = await page.$$('#board button:not([disabled])');
      if (!enabled.length) break;
      let target = enabled[Math.floor(r() * enabled.length)];
      if (smart) {
        const moves = await page.evaluate(() => {
          const st = window.oxoState();
          return st;
        }).catch(() => null);
        if (moves && moves.best.length) {
          const m = moves.best[Math.floor(r() * moves.best.length)];
          for (const b of enabled) if (Number(await b.getAttribute('data-move')) === m) { target = b; break; }
        }
      }
      await target.click();
    }
    const st = await page.getAttribute('#status', 'data-state');
    check(st === 'draw' || st.startsWith('won-'), `${game} game ${g} as ${side} did not finish (${st})`);
    if (st === 'draw') results.drawn++;
    else if (st === `won-${side}`) results.won++;
    else results.lost++;
  }
  // "lost" counts the person's losses: the page as the other side must never lose, so won = 0.
  check(results.won === 0, `${game}: the page at level 10 lost ${results.won} game(s) with the person as ${side}`);
  console.log(`${game}, the person as ${side} against the page at level 10: ${games} games, the page won ${results.lost}, drew ${results.drawn}, lost ${results.won}`);
}

(async () => {
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: process.env.OXO_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new'],
  });
  const page = await browser.newPage({ viewport: { width: 760, height: 720 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  // The test reads the position on the board the same way a script would: through window.oxo.
  await page.addInitScript(() => {
    window.oxoState = () => {
      const cells = [...document.querySelectorAll('#board button')];
      const gravity = document.getElementById('board').classList.contains('gravity');
      if (gravity) return null;
      const text = cells.map((b) => (b.classList.contains('x') ? 'X' : b.classList.contains('o') ? 'O' : '.')).join('');
      return window.oxo.query(text);
    };
    // Every text the status line shows, in order (the loading progress flashes by).
    window.statusTexts = [];
    document.addEventListener('DOMContentLoaded', () => {
      const status = document.getElementById('status');
      new MutationObserver(() => window.statusTexts.push(status.textContent))
        .observe(status, { childList: true, characterData: true, subtree: true });
    });
  });

  for (const side of ['X', 'O']) await playGames(page, base, 'tictactoe', side, 20);
  for (const side of ['X', 'O']) await playGames(page, base, 'connect4-4-4', side, 6);
  for (const side of ['X', 'O']) await playGames(page, base, 'connect4-7-6', side, 2);

  // The 7x6 network: every move's value (oxo-play prints 6 digits) and the best moves, as
  // oxo-play --model answers them.
  await page.goto(`${base}/?game=connect4-7-6`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  // The 13 MB module's loading says how far it is, out of the size the server gave.
  const size76 = (fs.statSync(path.join(webDir, 'connect4-7-6.wasm')).size / 1e6).toFixed(1);
  const statuses = await page.evaluate(() => window.statusTexts);
  check(statuses.some((t) => t === `loading… ${size76} of ${size76} MB`),
    `the 7x6 page's status never said "loading… ${size76} of ${size76} MB": ${JSON.stringify(statuses.slice(0, 8))}`);
  const boards76 = fs.readFileSync(boards76File, 'utf8').trim().split('\n');
  const answers76 = fs.readFileSync(answers76File, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const got76 = await page.evaluate((bs) => bs.map((b) => window.oxo.query(b)), boards76);
  let compared76 = 0;
  for (let i = 0; i < boards76.length; i++) {
    const want = answers76[i], have = got76[i];
    compared76++;
    const same = have && !have.over && have.toMove === want.to_move && have.value === null
      && JSON.stringify(have.best) === JSON.stringify(want.best) && have.moves.length === want.moves.length
      && have.moves.every((m, j) => m.move === want.moves[j].move && Math.abs(m.value - want.moves[j].value) <= 1e-6);
    check(same, `7x6 board ${boards76[i]}: the page says ${JSON.stringify(have)}, oxo-play ${JSON.stringify(want)}`);
  }
  check(compared76 >= 100, `compared ${compared76} 7x6 positions, expected 100 or more`);
  console.log(`connect4 7x6 network: the page's move values on ${compared76} positions compared with oxo-play --model`);
  // Its hints: each landing cell shows the value of its column's move.
  await page.goto(`${base}/?game=connect4-7-6&side=O&level=10&hints=1&seed=2`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  const netHints = (await page.$$eval('#board button[data-hint]', (bs) => bs.map((b) => [Number(b.dataset.move), b.dataset.hint])))
    .sort((a, b) => a[0] - b[0]);
  const played = await page.evaluate(() => {
    const cells = [...document.querySelectorAll('#board button')];
    return cells.findIndex((b) => b.classList.contains('x')) % 7 + 1;
  });
  const q76 = await page.evaluate((b) => window.oxo.query(b), String(played));
  const signed = (v) => `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
  check(q76 && netHints.length === 7 && JSON.stringify(netHints) === JSON.stringify(q76.moves.map((m) => [m.move, signed(m.value)])),
    `7x6 hints after ${played}: ${JSON.stringify(netHints)} against the engine's ${q76 && JSON.stringify(q76.moves)}`);
  check(await page.isVisible('#netlegend') && !(await page.isVisible('#legend')), 'the network\'s legend is shown');
  // The hints on a graded scale: moves of different values get different colours (they were
  // green or red whatever the value), and the legend shows the scale.
  const netColours = await page.$$eval('#board button[data-hint]', (bs) => bs.map((b) => [b.dataset.hint, getComputedStyle(b).backgroundColor]));
  const apart = netColours.flatMap(([v, c], i) => netColours.slice(i + 1)
    .filter(([w]) => Math.abs(Number(v) - Number(w)) >= 0.05).map(([, d]) => c !== d));
  check(apart.every((x) => x), `7x6 hint colours do not follow the values: ${JSON.stringify(netColours)}`);
  check(await page.isVisible('#netlegend .scale'), 'the network legend shows its colour scale');
  // Which colour is whose is said.
  const sides = await page.textContent('#sides');
  check(/X \(first\)/.test(sides) && /O \(second\)/.test(sides) && /you: O/.test(sides), `the sides legend says ${sides}`);
  // A 375 px phone: the 7x6 board fits the screen (it was 648 px wide), no sideways scrolling.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${base}/?game=connect4-7-6&side=X&level=10`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
    right: document.getElementById('board').getBoundingClientRect().right }));
  check(fit.scroll <= fit.inner && fit.right <= fit.inner, `at 375 px the 7x6 page is ${fit.scroll} px wide, its board ends at ${fit.right}`);
  await page.setViewportSize({ width: 760, height: 720 });

  // Every position against oxo-play --batch --json.
  await page.goto(`${base}/?game=tictactoe`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  const boards = fs.readFileSync(boardsFile, 'utf8').trim().split('\n');
  const answers = fs.readFileSync(answersFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const got = await page.evaluate((bs) => bs.map((b) => window.oxo.query(b)), boards);
  const NAME = { 1: 'win', 0: 'draw', '-1': 'loss' };
  let compared = 0;
  for (let i = 0; i < boards.length; i++) {
    const want = answers[i], have = got[i];
    if (!have || !want.moves || want.moves.length === 0) continue;
    compared++;
    const same = have.toMove === want.to_move && NAME[have.value] === want.value && have.distance === want.distance
      && JSON.stringify(have.best) === JSON.stringify(want.best)
      && JSON.stringify(have.moves.map((m) => [m.move, NAME[m.value], m.distance]))
        === JSON.stringify(want.moves.map((m) => [m.move, m.value, m.distance]));
    check(same, `board ${boards[i]}: the page says ${JSON.stringify(have)}, oxo-play ${JSON.stringify(want)}`);
  }
  check(compared === 4520, `compared ${compared} positions not finished, expected 4520`);
  console.log(`tic-tac-toe: the page's answer on ${compared} positions compared with oxo-play --batch`);

  // Hints: each free cell coloured by its value, as oxo-play values the move; then a screenshot.
  await page.goto(`${base}/?game=tictactoe&side=X&level=1&hints=1&seed=3`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  await page.click('#board button[data-cell="0"]');
  const hinted = await page.$$eval('#board button[data-hint]', (bs) => bs.map((b) => [Number(b.dataset.move), b.dataset.hint]));
  const text = await page.evaluate(() => [...document.querySelectorAll('#board button')]
    .map((b) => (b.classList.contains('x') ? 'X' : b.classList.contains('o') ? 'O' : '.')).join(''));
  const want = answers[boards.indexOf(text)];
  check(want && JSON.stringify(hinted) === JSON.stringify(want.moves.map((m) => [m.move, m.value])),
    `hints on ${text}: ${JSON.stringify(hinted)} against oxo-play's ${want && JSON.stringify(want.moves)}`);
  await page.screenshot({ path: shot, fullPage: true });
  check(fs.statSync(shot).size > 1000, 'the screenshot was written');
  check(errors.length === 0, `the page reported errors: ${errors.join('; ')}`);
  await browser.close();
  server.close();
  console.log(`${checks} checks, ${fails} failed`);
  process.exit(fails ? 1 : 0);
})().catch((e) => { console.log(`FAIL: ${e.stack || e}`); process.exit(1); });
