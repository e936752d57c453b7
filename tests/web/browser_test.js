// The web page in a real browser (Debian's Chromium, driven by playwright-core): complete games
// played by clicking cells, the page at level 10 as X and as O never losing; the page's answer on
// every position of tic-tac-toe against oxo-play --batch; the hints against the same answers; a
// screenshot; the shipped 7x6 network: games, its move values and best moves on BOARDS76
// against oxo-play --model's ANSWERS76, its hints; the winning line and the session's games; and
// the learner: runs in the page against the same runs of the command line (BUILD's oxo-train: the
// same report, the same model bytes), its model played by oxo-play, its Q-table exported as
// oxo-export writes it and imported back, the learned player's games and hints, progress.
// Usage: node browser_test.js WEB_DIR BOARDS ANSWERS SCREENSHOT.png BOARDS76 ANSWERS76 BUILD TMP
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const { execFileSync } = require('child_process');

const [webDir, boardsFile, answersFile, shot, boards76File, answers76File, buildDir, tmpDir, answersAzFile, answersNeFile] = process.argv.slice(2);
let checks = 0, fails = 0;
function check(ok, what) {
  checks++;
  if (!ok) {
    fails++;
    if (fails <= 10) console.log(`FAIL: ${what}`);
  }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.oxt': 'application/octet-stream' };
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
    // A won game shows its line (k cells, of the winner's stones); the session counts the game.
    const line = await page.$$eval('#board button.line', (bs) => bs.map((b) => (b.classList.contains('x') ? 'X' : b.classList.contains('o') ? 'O' : '')));
    const k = game === 'tictactoe' ? 3 : 4;
    if (st.startsWith('won-')) check(line.length >= k && line.every((c) => c === st.slice(4)), `${game} game ${g}: the winning line drawn is ${JSON.stringify(line)}`);
    else check(line.length === 0, `${game} game ${g}: a line is drawn on a draw`);
    const row = await page.$$eval(`#stats tr[data-side="${side}"] td`, (tds) => tds.map((t) => Number(t.textContent)));
    const want = st === 'draw' ? [1, 0, 1, 0] : st === `won-${side}` ? [1, 1, 0, 0] : [1, 0, 0, 1];
    check(JSON.stringify(row) === JSON.stringify(want), `${game} game ${g}: the session's row for ${side} says ${JSON.stringify(row)}, expected ${JSON.stringify(want)}`);
    if (st === 'draw') results.drawn++;
    else if (st === `won-${side}`) results.won++;
    else results.lost++;
  }
  // "lost" counts the person's losses: the page as the other side must never lose, so won = 0.
  check(results.won === 0, `${game}: the page at level 10 lost ${results.won} game(s) with the person as ${side}`);
  console.log(`${game}, the person as ${side} against the page at level 10: ${games} games, the page won ${results.lost}, drew ${results.drawn}, lost ${results.won}`);
}

// The command line the page shows for its run, run here with BUILD's programs (the page's own
// table where it names one, the model into TMP): its report, and the model file's bytes.
function runCommandLine(cmdline, name) {
  const args = cmdline.split(' ').slice(1);
  const o = args.indexOf('-o');
  args[o + 1] = path.join(tmpDir, name);
  const t = args.indexOf('--table');
  if (t >= 0) args[t + 1] = path.join(webDir, args[t + 1]);
  const report = execFileSync(path.join(buildDir, 'oxo-train'), args, { encoding: 'utf8' });
  return { report, model: fs.readFileSync(args[o + 1]), file: args[o + 1] };
}

async function setLearn(page, settings) {
  for (const [id, v] of Object.entries(settings)) {
    if (id === 'algo') await page.selectOption('#algo', v);
    else await page.$eval(`#${id}`, (el, val) => { el.value = val; el.dispatchEvent(new Event('input')); }, String(v));
  }
}

async function trainInPage(page) {
  await page.click('#train');
  await page.waitForFunction(() => ['trained', 'error'].includes(document.getElementById('learn-status').dataset.state), null, { timeout: 120000 });
  return page.getAttribute('#learn-status', 'data-state');
}

async function download(page, button, file) {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  await dl.saveAs(file);
  return fs.readFileSync(file);
}

// The learner: the page's runs are the command line's, byte for byte.
async function learnTests(page, base) {
  const runs = [
    { game: 'tictactoe', settings: { algo: 'q' } },
    { game: 'tictactoe', settings: { algo: 'td', episodes: 30000, alpha: 0.3, gamma: 0.95, lambda: 0.7, epsilon: 0.8, 'epsilon-end': 0.2, 'epsilon-length': 10000, 'learn-seed': 5 } },
    { game: 'connect4-4-4', settings: { algo: 'q', episodes: 30000, 'learn-seed': 3 } },
  ];
  let same = 0;
  for (const [i, run] of runs.entries()) {
    await page.goto(`${base}/?game=${run.game}&side=X&level=10&seed=9`);
    await page.waitForFunction(() => window.oxo && window.oxo.ready && document.getElementById('learn-status').dataset.state === 'ready', null, { timeout: 30000 });
    await setLearn(page, run.settings);
    const cmdline = await page.textContent('#cmdline');
    const state = await trainInPage(page);
    check(state === 'trained', `${run.game}: the page's run (${cmdline}) did not end trained: ${await page.textContent('#learn-status')}`);
    if (state !== 'trained') continue;
    const cli = runCommandLine(cmdline, `cli-${i}.oxm`);
    const pageModel = await download(page, '#download', path.join(tmpDir, `page-${i}.oxm`));
    // The report's lines but the first (the file's name and the speed) are oxo-train's own.
    const report = (await page.textContent('#report')).trim().split('\n').slice(1);
    const want = cli.report.trim().split('\n').slice(1);
    check(JSON.stringify(report) === JSON.stringify(want), `${cmdline}: the page reports ${JSON.stringify(report)}, oxo-train ${JSON.stringify(want)}`);
    check(Buffer.compare(pageModel, cli.model) === 0, `${cmdline}: the page's model (${pageModel.length} bytes) is not oxo-train's (${cli.model.length} bytes)`);
    if (Buffer.compare(pageModel, cli.model) === 0 && JSON.stringify(report) === JSON.stringify(want)) same++;
    // The downloaded model plays in oxo-play, against the solved table.
    const table = run.game === 'tictactoe' ? path.join(webDir, 'tictactoe.oxt') : path.join(webDir, 'connect4-4-4.oxt');
    const tally = execFileSync(path.join(buildDir, 'oxo-play'), ['--model', path.join(tmpDir, `page-${i}.oxm`), '--self-play', '--versus', table, '--games', '10', '--seed', '1'], { encoding: 'utf8' });
    check(/10 games/.test(tally), `oxo-play --model with the page's model: ${tally}`);
    if (run.game !== 'tictactoe') continue;
    // Its Q-table as oxo-export writes it from the command line's model.
    const json = await download(page, '#export', path.join(tmpDir, `page-${i}.json`));
    execFileSync(path.join(buildDir, 'oxo-export'), ['-m', cli.file, '-f', 'qtable', '-o', path.join(tmpDir, `cli-${i}.json`)]);
    check(Buffer.compare(json, fs.readFileSync(path.join(tmpDir, `cli-${i}.json`))) === 0, `${cmdline}: the page's Q-table JSON is not oxo-export's`);
  }
  check(same === runs.length, `${same} of ${runs.length} runs in the page made oxo-train's report and model bytes`);
  console.log(`the learner: ${same} of ${runs.length} runs in the page made the report and the model bytes of oxo-train with the same settings`);

  // Progress while it trains (a worker: the page answers meanwhile), the learned player's games.
  await page.goto(`${base}/?game=tictactoe&side=X&level=10&hints=1&seed=4`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready && document.getElementById('learn-status').dataset.state === 'ready', null, { timeout: 30000 });
  await page.evaluate(() => {
    window.learnTexts = [];
    const el = document.getElementById('learn-status');
    new MutationObserver(() => window.learnTexts.push(el.textContent)).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await setLearn(page, { algo: 'q', episodes: 400000 });
  await page.click('#train');
  await page.waitForFunction(() => /episodes, ε/.test(document.getElementById('learn-status').textContent), null, { timeout: 60000 });
  const answering = await page.evaluate(() => window.oxo.query('X........') !== null);
  check(answering, 'the page does not answer while the learner trains');
  await page.waitForFunction(() => ['trained', 'error'].includes(document.getElementById('learn-status').dataset.state), null, { timeout: 180000 });
  const texts = await page.evaluate(() => window.learnTexts.filter((t) => /episodes, ε/.test(t)));
  check(texts.length >= 2, `progress shown ${texts.length} times during 400,000 episodes: ${JSON.stringify(texts.slice(0, 3))}`);
  check(await page.$eval('#player', (el) => el.value) === 'learned', 'the learned player does not play after training');
  // Hints in the learned player's games are its values: a person's move, its reply, then each
  // free cell shows the learner's value of that move.
  await page.click('#board button[data-cell="0"]');
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Your move'));
  const hints = await page.$$eval('#board button[data-hint]', (bs) => bs.map((b) => [Number(b.dataset.move), b.dataset.hint]));
  const stones = await page.evaluate(() => [...document.querySelectorAll('#board button')].map((b) => (b.classList.contains('x') ? 'X' : b.classList.contains('o') ? 'O' : '-')).join(''));
  await download(page, '#export', path.join(tmpDir, 'page-400k.json'));
  const table = JSON.parse(fs.readFileSync(path.join(tmpDir, 'page-400k.json'), 'utf8')).q;
  const row = (table.find(([st]) => st === stones) || [])[1];
  const signed = (v) => `${v > 0 ? '+' : ''}${v.toFixed(2)}`;
  const wantHints = row && [...stones].map((c, m) => [m, c]).filter(([, c]) => c === '-').map(([m]) => [m, signed(row[m])]);
  check(row && JSON.stringify(hints) === JSON.stringify(wantHints), `learned hints on ${stones}: ${JSON.stringify(hints)}, its Q-table says ${JSON.stringify(wantHints)}`);
  check(await page.isVisible('#learnlegend'), 'the learned values\' legend is not shown');
  // The learned player (400,000 episodes: perfect) finishes its games and does not lose them.
  let finished = 0, lost = 0;
  for (let g = 0; g < 4; g++) {
    const r = rng(77 + g);
    for (let step = 0; step < 200; step++) {
      if ((await page.getAttribute('#status', 'data-state')) !== 'playing') break;
      // The board is drawn again when the learner answers: cells by number, not by element.
      const enabled = await page.$$eval('#board button:not([disabled])', (bs) => bs.map((b) => b.dataset.cell));
      if (!enabled.length) { await page.waitForTimeout(20); continue; }
      await page.click(`#board button[data-cell="${enabled[Math.floor(r() * enabled.length)]}"]`, { timeout: 5000 }).catch(() => {});
      await page.waitForFunction(() => document.getElementById('status').dataset.state !== 'playing' || document.getElementById('status').textContent.startsWith('Your move'));
    }
    const st = await page.getAttribute('#status', 'data-state');
    if (st === 'draw' || st.startsWith('won-')) finished++;
    if (st === 'won-X') lost++;
    await page.click('#new');
    await page.waitForFunction(() => document.getElementById('status').dataset.state === 'playing');
  }
  check(finished === 4 && lost === 0, `the learned player: ${finished} of 4 games finished, ${lost} lost`);
  const games = await page.$$eval('#stats tr[data-side="X"] td', (tds) => Number(tds[0].textContent));
  check(games === 4, `the session counts ${games} games as X, expected 4`);

  // Learning on from the games against the person (off by default): a short run, one game, and
  // its values move (oxo_trainer_learn_game, test_train) and are graded again. The export before it
  // once overflowed the module's 64 KiB stack into printf's digits (the model's hash had spaces):
  // the report after it checks that too.
  await page.goto(`${base}/?game=tictactoe&side=X&level=10&seed=6`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready && document.getElementById('learn-status').dataset.state === 'ready', null, { timeout: 30000 });
  check(!(await page.isChecked('#keep')), 'learning from the games against the person is on by default');
  await setLearn(page, { algo: 'q', episodes: 10 });
  await trainInPage(page);
  const fresh = await download(page, '#export', path.join(tmpDir, 'ten.json'));
  await page.check('#keep');
  const r2 = rng(5);
  for (let step = 0; step < 200 && (await page.getAttribute('#status', 'data-state')) === 'playing'; step++) {
    const enabled = await page.$$eval('#board button:not([disabled])', (bs) => bs.map((b) => b.dataset.cell));
    if (!enabled.length) { await page.waitForTimeout(20); continue; }
    await page.click(`#board button[data-cell="${enabled[Math.floor(r2() * enabled.length)]}"]`, { timeout: 5000 }).catch(() => {});
    await page.waitForFunction(() => document.getElementById('status').dataset.state !== 'playing' || document.getElementById('status').textContent.startsWith('Your move')
      || document.getElementById('learn-status').dataset.state === 'error');
  }
  await page.waitForFunction(() => ['learned-game', 'error'].includes(document.getElementById('learn-status').dataset.state), null, { timeout: 30000 });
  const learnedText = await page.textContent('#learn-status');
  check(/^Learned from 1 game against you/.test(learnedText), `after a game with learning on: ${learnedText}`);
  const moved = await download(page, '#export', path.join(tmpDir, 'ten-after.json'));
  check(Buffer.compare(fresh, moved) !== 0, 'the values did not move after a game learned from');

  // A Q-table imported: the computer then plays its values (those of the first run's table: Q
  // values are floats, which the JSON's 9 digits give back exactly), and a malformed one is
  // refused with where it is wrong.
  await page.goto(`${base}/?game=tictactoe&side=O&level=10&hints=1&seed=4`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready && document.getElementById('learn-status').dataset.state === 'ready', null, { timeout: 30000 });
  await page.setInputFiles('#import', path.join(tmpDir, 'page-0.json'));
  await page.waitForFunction(() => ['imported', 'error'].includes(document.getElementById('learn-status').dataset.state));
  check(await page.getAttribute('#learn-status', 'data-state') === 'imported', `import: ${await page.textContent('#learn-status')}`);
  const reimported = await download(page, '#export', path.join(tmpDir, 'reimported.json'));
  check(Buffer.compare(reimported, fs.readFileSync(path.join(tmpDir, 'page-0.json'))) === 0, 'a Q-table imported and exported again is not the same file');
  fs.writeFileSync(path.join(tmpDir, 'bad.json'), '{"q": [["XXXXXXXXX", [1, 2]]]}');
  await page.setInputFiles('#import', path.join(tmpDir, 'bad.json'));
  await page.waitForFunction(() => document.getElementById('learn-status').dataset.state === 'error');
  const refusal = await page.textContent('#learn-status');
  check(/byte \d+/.test(refusal), `a malformed Q-table: ${refusal}`);
  // A long run stopped: the page's run ends where it was, graded, and is the command line's run of
  // that many episodes.
  await page.goto(`${base}/?game=tictactoe`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready && document.getElementById('learn-status').dataset.state === 'ready', null, { timeout: 30000 });
  await setLearn(page, { algo: 'td', episodes: 50000000 });
  await page.click('#train');
  await page.waitForFunction(() => /episodes, ε/.test(document.getElementById('learn-status').textContent), null, { timeout: 60000 });
  await page.click('#stop');
  await page.waitForFunction(() => ['trained', 'error'].includes(document.getElementById('learn-status').dataset.state), null, { timeout: 60000 });
  const stopped = await page.getAttribute('#learn-status', 'data-state');
  const stopText = await page.textContent('#learn-status');
  const at = Number((stopText.match(/--episodes (\d+)/) || [])[1]);
  check(stopped === 'trained' && at > 0 && at < 50000000, `a stopped run: ${stopText}`);
  if (at > 0) {
    const cmd = (await page.textContent('#cmdline')).replace('--episodes 50000000', `--episodes ${at}`);
    const cli = runCommandLine(cmd, 'stopped-cli.oxm');
    const mine = await download(page, '#download', path.join(tmpDir, 'stopped-page.oxm'));
    check(Buffer.compare(mine, cli.model) === 0, `a run stopped at ${at} episodes is not oxo-train --episodes ${at}'s`);
  }

  // The page with its learner fits a 375 px phone.
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${base}/?game=tictactoe`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  const fit = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  check(fit.scroll <= fit.inner, `at 375 px the page with its learner is ${fit.scroll} px wide`);
  await page.setViewportSize({ width: 760, height: 720 });
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
  // The page's network (the one loaded) against oxo-play --model's answers on boards76: how many.
  const compareNet = async (answersFile, what) => {
    const answers = fs.readFileSync(answersFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const got = await page.evaluate((bs) => bs.map((b) => window.oxo.query(b)), boards76);
    let compared = 0;
    for (let i = 0; i < boards76.length; i++) {
      const want = answers[i], have = got[i];
      compared++;
      const same = have && !have.over && have.toMove === want.to_move && have.value === null
        && JSON.stringify(have.best) === JSON.stringify(want.best) && have.moves.length === want.moves.length
        && have.moves.every((m, j) => m.move === want.moves[j].move && Math.abs(m.value - want.moves[j].value) <= 1e-6);
      check(same, `${what}, 7x6 board ${boards76[i]}: the page says ${JSON.stringify(have)}, oxo-play ${JSON.stringify(want)}`);
    }
    check(compared >= 100, `compared ${compared} 7x6 positions of the ${what}, expected 100 or more`);
    return compared;
  };
  const compared76 = await compareNet(answers76File, 'n-tuple network');
  console.log(`connect4 7x6 network: the page's move values on ${compared76} positions compared with oxo-play --model`);
  // AlphaZero-lite's network: its policy's scores, as oxo-play --model gives them; games by clicks.
  await page.goto(`${base}/?game=connect4-7-6-azero`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  const comparedAz = await compareNet(answersAzFile, 'AlphaZero-lite network');
  console.log(`connect4 7x6 AlphaZero-lite network: the page's move values on ${comparedAz} positions compared with oxo-play --model`);
  check(await page.evaluate(() => !document.getElementById('about-azero').hidden && document.getElementById('about-net').hidden),
    'the AlphaZero-lite page does not say which network it plays');
  for (const side of ['X', 'O']) await playGames(page, base, 'connect4-7-6-azero', side, 1);
  // NEAT's champion network: its scores, as oxo-play --model gives them; games by clicks.
  await page.goto(`${base}/?game=connect4-7-6-neat`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready);
  const comparedNe = await compareNet(answersNeFile, 'NEAT network');
  console.log(`connect4 7x6 NEAT network: the page's move values on ${comparedNe} positions compared with oxo-play --model`);
  check(await page.evaluate(() => !document.getElementById('about-neat').hidden && document.getElementById('about-azero').hidden),
    'the NEAT page does not say which network it plays');
  for (const side of ['X', 'O']) await playGames(page, base, 'connect4-7-6-neat', side, 1);
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
  await learnTests(page, base);
  check(errors.length === 0, `the page reported errors: ${errors.join('; ')}`);
  await browser.close();
  server.close();
  console.log(`${checks} checks, ${fails} failed`);
  process.exit(fails ? 1 : 0);
})().catch((e) => { console.log(`FAIL: ${e.stack || e}`); process.exit(1); });
