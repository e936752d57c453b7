// The page's learner, in a worker so that training never freezes the page: learn.wasm is oxo-train's
// own trainer (train/web/learn.c) built against wasi-libc, and this file gives it the few system
// calls it makes (a clock, and standard output and error, which it collects: oxo-train's report and
// messages), then runs the page's requests. Node.js loads the same file to test it (module.exports).
'use strict';

// WASI errno values (wasi_snapshot_preview1).
const EBADF = 8, ENOENT = 44, ESPIPE = 70;

class Learner {
  constructor(instance) {
    this.e = instance.exports;
    this.out = { 1: '', 2: '' };
  }

  // imports(getLearner): the module's WASI functions; the learner exists once it is instantiated.
  static imports(me) {
    const view = () => new DataView(me.e.memory.buffer);
    const bytes = () => new Uint8Array(me.e.memory.buffer);
    const decoder = new TextDecoder();
    const calls = {
      fd_write(fd, iovs, n, written) {
        if (fd !== 1 && fd !== 2) return EBADF;
        let total = 0;
        for (let i = 0; i < n; i++) {
          const ptr = view().getUint32(iovs + 8 * i, true), len = view().getUint32(iovs + 8 * i + 4, true);
          me.out[fd] += decoder.decode(bytes().subarray(ptr, ptr + len));
          total += len;
        }
        view().setUint32(written, total, true);
        return 0;
      },
      fd_fdstat_get(fd, ptr) {
        if (fd > 2) return EBADF;
        for (let i = 0; i < 24; i++) view().setUint8(ptr + i, 0);
        view().setUint8(ptr, 2); // a character device: no terminal, so no progress lines
        return 0;
      },
      fd_seek: () => ESPIPE,
      fd_close: () => 0,
      fd_fdstat_set_flags: () => EBADF,
      fd_filestat_get: () => EBADF,
      fd_prestat_get: () => EBADF, // no directory is given: the learner opens no file
      fd_prestat_dir_name: () => EBADF,
      fd_read: () => EBADF,
      fd_pread: () => EBADF, // tables read a block at a time (formats/table_blocks.c): none here
      path_open: () => ENOENT,
      path_filestat_get: () => ENOENT,
      path_readlink: () => ENOENT,
      environ_sizes_get(count, size) { view().setUint32(count, 0, true); view().setUint32(size, 0, true); return 0; },
      environ_get: () => 0,
      clock_time_get(id, precision, ptr) {
        const now = typeof performance !== 'undefined' ? performance.now() : Date.now();
        view().setBigUint64(ptr, BigInt(Math.round(now * 1e6)), true);
        return 0;
      },
      proc_exit(code) { throw new Error(`the learner exited (${code})`); },
    };
    return { wasi_snapshot_preview1: calls };
  }

  static async load(bytes) {
    const me = { e: null, out: { 1: '', 2: '' } };
    const { instance } = await WebAssembly.instantiate(bytes, Learner.imports(me));
    const l = new Learner(instance);
    me.e = l.e;
    l.out = me.out;
    l.e._initialize();
    return l;
  }

  // What the learner printed since the last call, on fd (1 its report, 2 its messages).
  take(fd) { const s = this.out[fd]; this.out[fd] = ''; return s; }

  // Bytes into the module's memory (malloc'd; free them after).
  put(data) {
    const p = this.e.learn_alloc(Math.max(1, data.length));
    new Uint8Array(this.e.memory.buffer, p, data.length).set(data);
    return p;
  }

  table(bytes) {
    const p = this.put(bytes);
    const rc = this.e.learn_table(p, bytes.length);
    this.e.learn_free(p);
    return rc;
  }

  // args: oxo-train's options, e.g. ['--algo', 'q', '--episodes', '20000']: 0, or its exit status.
  setup(args) {
    const enc = new TextEncoder(), argv = ['oxo-train', ...args];
    const ptrs = argv.map((a) => this.put(enc.encode(`${a}\0`)));
    const vec = this.e.learn_alloc(4 * ptrs.length + 4);
    const view = new DataView(this.e.memory.buffer);
    ptrs.forEach((p, i) => view.setUint32(vec + 4 * i, p, true));
    view.setUint32(vec + 4 * ptrs.length, 0, true);
    const rc = this.e.learn_setup(argv.length, vec);
    // argv stays with the run: getopt keeps pointers into it (optarg), which the run's settings hold
    this.argv = [vec, ...ptrs];
    return rc;
  }

  // A copy of the bytes the module made last (a model, a JSON table), or null.
  made(len) {
    if (!len) return null;
    return new Uint8Array(this.e.memory.buffer, this.e.learn_bytes(), len).slice();
  }

  moves(list) { const p = this.put(Uint8Array.from(list)); return p; }

  // The learned score of each move after the moves played (numbered from 0), null where not legal.
  scores(list, movesMax) {
    const p = this.moves(list);
    const n = this.e.learn_scores(p, list.length);
    this.e.learn_free(p);
    if (n < 0) return null;
    const s = [];
    for (let m = 0; m < movesMax; m++) { const v = this.e.learn_score(m); s.push(Number.isNaN(v) ? null : v); }
    return s;
  }

  pick(list, level, seed) {
    const p = this.moves(list);
    const m = this.e.learn_pick(p, list.length, level, seed);
    this.e.learn_free(p);
    return m;
  }

  import(text) {
    const data = new TextEncoder().encode(text);
    const p = this.put(data);
    const rc = this.e.learn_import(p, data.length);
    this.e.learn_free(p);
    return rc;
  }
}

// The worker: one request at a time, each answered with a message of the same id. A run reports
// its progress about ten times a second.
if (typeof module !== 'undefined') {
  module.exports = { Learner };
} else {
  let learner = null, stopping = false;
  const reply = (id, body) => self.postMessage({ id, ...body, stderr: learner ? learner.take(2) : '' });
  self.onmessage = async ({ data: req }) => {
    const { id } = req;
    try {
      if (req.op === 'load') {
        learner = await Learner.load(await (await fetch('learn.wasm')).arrayBuffer());
        reply(id, { ok: true });
      } else if (req.op === 'table') {
        reply(id, { rc: learner.table(new Uint8Array(req.bytes)) });
      } else if (req.op === 'train') {
        const rc = learner.setup(req.args);
        learner.take(1);
        if (rc) { reply(id, { rc }); return; }
        const goal = learner.e.learn_goal();
        let step = 1000;
        const t0 = performance.now();
        stopping = false;
        for (;;) {
          const s0 = performance.now();
          const done = learner.e.learn_run(step);
          const dt = performance.now() - s0;
          if (done < 0) { reply(id, { rc: 1 }); return; }
          if (done >= goal) break;
          self.postMessage({ id, progress: { done, goal, epsilon: learner.e.learn_epsilon(), seconds: (performance.now() - t0) / 1000 } });
          // A turn of the event loop between chunks, so that a stop request is heard.
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (stopping) { learner.e.learn_stop(); break; }
          step = Math.max(100, Math.round(step * Math.min(4, 100 / Math.max(dt, 1)))); // about 0.1 s
        }
        learner.e.learn_report(0);
        const text = learner.take(1);
        learner.e.learn_report(1);
        const json = JSON.parse(learner.take(1));
        reply(id, { rc: 0, text, json });
      } else if (req.op === 'stop') {
        stopping = true;
        reply(id, { ok: true });
      } else if (req.op === 'scores') {
        reply(id, { scores: learner.scores(req.moves, req.movesMax) });
      } else if (req.op === 'pick') {
        reply(id, { move: learner.pick(req.moves, req.level, req.seed) });
      } else if (req.op === 'played') {
        const p = learner.moves(req.moves);
        const rc = learner.e.learn_played(p, req.moves.length);
        learner.e.learn_free(p);
        learner.e.learn_report(1);
        const out = learner.take(1);
        reply(id, { rc, json: rc ? null : JSON.parse(out) });
      } else if (req.op === 'model') {
        reply(id, { bytes: learner.made(learner.e.learn_model()) });
      } else if (req.op === 'json') {
        const b = learner.made(learner.e.learn_json());
        reply(id, { text: b && new TextDecoder().decode(b) });
      } else if (req.op === 'import') {
        // into the run there is, or into a new one of the settings given (no episode played)
        const rc = learner.e.learn_goal() > 0 ? 0 : learner.setup(req.args);
        reply(id, { rc: rc || learner.import(req.text) });
      }
    } catch (err) {
      reply(id, { error: `${req.op}: ${err.message}` });
    }
  };
}
