// BMT file chunking: the root address of the first `bytes` of the data fixture, no upload.
import { Skip } from '../errors.mjs';

/** cpu.bmt.file-root: MerkleTree.root over the data, its root chunk address. */
export function fileRoot(env, p) {
  const MerkleTree = env.client.export('MerkleTree');
  const data = env.fixtures.data(p.bytes);
  let root;
  return {
    async op() {
      root = await MerkleTree.root(data);
    },
    output: () => root.hash(),
  };
}

/** cpu.bmt.encrypted-file-root: bee-js encrypts only on the upload path. */
export function encryptedFileRoot() {
  throw new Skip('no offline encrypting chunker in bee-js (encryption lives in the upload path)');
}
