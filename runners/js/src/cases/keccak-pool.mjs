// The worker pool of cpu.keccak.parallel: started in setup (outside timing), one worker per CPU,
// each owning a contiguous slice of the payloads with its inputs prepared in advance. A run posts
// one message to each worker and resolves with their address slices in index order; a settle asks
// each to collect its garbage (cycles processes, before each region).
import { Worker } from 'node:worker_threads';

export class KeccakPool {
  #workers;
  #pending = new Map(); // worker -> {resolve, reject}

  constructor(workers) {
    this.#workers = workers;
    for (const w of workers) {
      w.on('message', (m) => this.#settle(w, null, m));
      w.on('error', (err) => this.#settle(w, err));
      w.on('exit', (code) => this.#settle(w, new Error(`keccak pool worker exited with code ${code}`)));
    }
  }

  static async start({ workers, count, chunkBytes, shared, allocs }) {
    const n = Math.max(1, Math.min(workers, count));
    const threads = Array.from({ length: n }, (_, w) => {
      const lo = Math.floor((count * w) / n);
      const hi = Math.floor((count * (w + 1)) / n);
      return new Worker(new URL('./keccak-pool-worker.mjs', import.meta.url), { workerData: { lo, hi, chunkBytes, shared, allocs } });
    });
    const pool = new KeccakPool(threads);
    try {
      await Promise.all(threads.map((w) => pool.#await(w))); // each posts 'ready' once prepared
    } catch (err) {
      await pool.close();
      throw err;
    }
    return pool;
  }

  /** One run over every slice: resolves with the address bytes of each slice, in order. */
  run() {
    return Promise.all(this.#workers.map((w) => this.#ask(w, 'run')));
  }

  /** run() with one worker at a time, each after the one before it has posted its slice. */
  async runInTurn() {
    const slices = [];
    for (const w of this.#workers) slices.push(await this.#ask(w, 'run'));
    return slices;
  }

  /** Each worker collects its garbage and finishes V8's sweeping (the case worker's own settle, case-worker.mjs). */
  async settle() {
    for (const w of this.#workers) await this.#ask(w, 'settle');
  }

  async close() {
    const workers = this.#workers;
    this.#workers = [];
    await Promise.all(workers.map((w) => w.terminate()));
  }

  #ask(w, message) {
    const answer = this.#await(w);
    w.postMessage(message);
    return answer;
  }

  #await(w) {
    return new Promise((resolve, reject) => this.#pending.set(w, { resolve, reject }));
  }

  #settle(w, err, value) {
    const p = this.#pending.get(w);
    if (!p) return;
    this.#pending.delete(w);
    if (err) p.reject(err);
    else p.resolve(value);
  }
}
