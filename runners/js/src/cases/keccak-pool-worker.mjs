// One worker of the cpu.keccak.parallel pool: prepares span || payload for its slice, says
// 'ready', then on every 'run' computes the chunk addresses and posts them back concatenated, and
// on every 'settle' collects its garbage and finishes V8's sweeping, then says 'settled'.
// Measuring allocations, it meters its own part (heap statistics are per isolate) and posts
// {out, bytes}.
import { parentPort, workerData } from 'node:worker_threads';
import { allocMeter } from '../alloc.mjs';
import { loadClient } from '../client.mjs';
import { fixtureView } from '../fixtures.mjs';
import { finishSweeping, settleGc } from '../gc.mjs';
import { CHUNK_ADDRESS, spannedPayloads } from './keccak.mjs';

const { lo, hi, chunkBytes, shared, allocs } = workerData;
const chunkAddress = await (await loadClient()).internal(...CHUNK_ADDRESS);
const chunks = spannedPayloads(fixtureView(shared), lo, hi, chunkBytes);
const meter = allocs ? await allocMeter() : null;

let out;
function hashSlice() {
  out = new Uint8Array(32 * chunks.length);
  for (let j = 0; j < chunks.length; j++) out.set(chunkAddress(chunks[j]).toUint8Array(), 32 * j);
}

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort); // set: this is a worker
port.on('message', (m) => {
  if (m === 'settle') {
    settleGc();
    finishSweeping();
    port.postMessage('settled');
    return;
  }
  if (meter) {
    settleGc(); // as the case worker does before each region
    const bytes = meter.measure(hashSlice);
    port.postMessage({ out, bytes }, [out.buffer]);
    return;
  }
  hashSlice();
  port.postMessage(out, [out.buffer]);
});
port.postMessage('ready');
