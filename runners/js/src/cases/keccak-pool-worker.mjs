// One worker of the cpu.keccak.parallel pool: prepares span || payload for its slice, says
// 'ready', then on every 'run' computes the chunk addresses and posts them back concatenated.
import { parentPort, workerData } from 'node:worker_threads';
import { loadClient } from '../client.mjs';
import { fixtureView } from '../fixtures.mjs';
import { CHUNK_ADDRESS, spannedPayloads } from './keccak.mjs';

const { lo, hi, chunkBytes, shared } = workerData;
const chunkAddress = await (await loadClient()).internal(...CHUNK_ADDRESS);
const chunks = spannedPayloads(fixtureView(shared), lo, hi, chunkBytes);

parentPort.on('message', () => {
  const out = new Uint8Array(32 * chunks.length);
  for (let j = 0; j < chunks.length; j++) out.set(chunkAddress(chunks[j]).toUint8Array(), 32 * j);
  parentPort.postMessage(out, [out.buffer]);
});
parentPort.postMessage('ready');
