// Feed write then read (GET /feeds). A feed update is a single-owner chunk: a dev node answers
// 501 to the write, which setup detects and turns into a skip.
import { nodeApi, probeWrite, saltedWrite } from './util.mjs';

/** A feed update's payload: the salt then data[0, 24). */
const PAYLOAD_BYTES = 32;

function feedApi(env) {
  const api = nodeApi(env, 'makeFeedWriter', 'makeFeedReader');
  const PrivateKey = env.client.export('PrivateKey');
  const Topic = env.client.export('Topic');
  const signer = new PrivateKey(env.fixtures.key(0));
  const owner = signer.publicKey().address();
  // A topic no earlier run used, SHA-256 of a fresh salt; the payload starts with that salt.
  const freshUpdate = () => {
    const { name, payload } = saltedWrite(env, PAYLOAD_BYTES);
    return { topic: new Topic(name), payload };
  };
  return { ...api, signer, owner, freshUpdate };
}

/** net.feed.write-read.fresh: per iteration a new topic, one update written, the latest read. */
export async function feedFresh(env) {
  const { batchId, makeFeedWriter, makeFeedReader, signer, owner, freshUpdate } = feedApi(env);
  const writeRead = async ({ topic, payload }) => {
    await makeFeedWriter(topic, signer).uploadPayload(batchId, payload);
    await makeFeedReader(topic, owner).download();
  };
  const probe = freshUpdate();
  await probeWrite('feed writes (POST /soc)', () => makeFeedWriter(probe.topic, signer).uploadPayload(batchId, probe.payload));
  await makeFeedReader(probe.topic, owner).download();
  let update;
  return {
    before() {
      update = freshUpdate();
    },
    op: () => writeRead(update),
  };
}

/** net.feed.write-read.warm: one write and read in setup, then `reads` reads of the latest update. */
export async function feedWarm(env, p) {
  const { batchId, makeFeedWriter, makeFeedReader, signer, owner, freshUpdate } = feedApi(env);
  const { topic, payload } = freshUpdate();
  await probeWrite('feed writes (POST /soc)', () => makeFeedWriter(topic, signer).uploadPayload(batchId, payload));
  const reader = makeFeedReader(topic, owner);
  await reader.download();
  return {
    async op() {
      for (let r = 0; r < p.reads; r++) await reader.download();
    },
  };
}
