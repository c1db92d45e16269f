// Feed write then read (GET /feeds). A feed update is a single-owner chunk: a dev node answers
// 501 to the write, which setup detects and turns into a skip.
import { createHash } from 'node:crypto';
import { nodeApi, probeWrite } from './util.mjs';

const PAYLOAD = new TextEncoder().encode('bee-bench feed update');

function feedApi(env) {
  const api = nodeApi(env, 'makeFeedWriter', 'makeFeedReader');
  const PrivateKey = env.client.export('PrivateKey');
  const Topic = env.client.export('Topic');
  const signer = new PrivateKey(env.fixtures.key(0));
  const owner = signer.publicKey().address();
  // A topic no earlier run used: the hash of a fresh upload salt.
  const freshTopic = () => new Topic(createHash('sha256').update(env.fixtures.salt()).digest());
  return { ...api, signer, owner, freshTopic };
}

/** net.feed.write-read.fresh: per iteration a new topic, one update written, the latest read. */
export async function feedFresh(env) {
  const { batchId, makeFeedWriter, makeFeedReader, signer, owner, freshTopic } = feedApi(env);
  const writeRead = async (topic) => {
    await makeFeedWriter(topic, signer).uploadPayload(batchId, PAYLOAD);
    await makeFeedReader(topic, owner).download();
  };
  await probeWrite('feed writes (POST /soc)', () => writeRead(freshTopic()));
  let topic;
  return {
    before() {
      topic = freshTopic();
    },
    op: () => writeRead(topic),
  };
}

/** net.feed.write-read.warm: one write and read in setup, then `reads` reads of the latest update. */
export async function feedWarm(env, p) {
  const { batchId, makeFeedWriter, makeFeedReader, signer, owner, freshTopic } = feedApi(env);
  const topic = freshTopic();
  await probeWrite('feed writes (POST /soc)', () => makeFeedWriter(topic, signer).uploadPayload(batchId, PAYLOAD));
  const reader = makeFeedReader(topic, owner);
  await reader.download();
  return {
    async op() {
      for (let r = 0; r < p.reads; r++) await reader.download();
    },
  };
}
