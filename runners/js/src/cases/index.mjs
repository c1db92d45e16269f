// The dispatch table: case id -> setup function. A setup function takes (env, param), prepares
// everything untimed and returns the bench {before?, op, output?, close?}:
//   before()  untimed, before every run of op (fresh salts, topics, identifiers)
//   op()      exactly the timed operation (sync, or returns a promise)
//   output()  the raw bytes of the last op for the digest (the value itself or the concatenation)
//   close()   releases what setup holds
// Throwing Skip from setup marks the case skipped. The Go and Rust runners share this shape.
import { fileRoot, encryptedFileRoot } from './bmt.mjs';
import { identity, sign, verify } from './ecdsa.mjs';
import { noop } from './harness.mjs';
import { chunkHash, chunkHashParallel, keccakBulk } from './keccak.mjs';
import { hashFiles, lookupLarge } from './manifest.mjs';
import { stampsConcurrent, stampsList } from './net-calibration.mjs';
import { bytesDownload, bytesDownloadRange, bytesHead, bzzDownload } from './net-download.mjs';
import { feedFresh, feedWarm } from './net-feeds.mjs';
import { chunksUpload, pinAddList, socUpload, streamDirUpload } from './net-pipeline.mjs';
import { bytesUpload, bzzUpload, bzzUploadEncrypted, bzzUploadFromDisk, tagsUploadWithTag } from './net-upload.mjs';

export const CASES = {
  'cpu.harness.noop': noop,
  'cpu.keccak.chunk-hash': chunkHash,
  'cpu.keccak.parallel': chunkHashParallel,
  'cpu.keccak.bulk': keccakBulk,
  'cpu.bmt.file-root': fileRoot,
  'cpu.bmt.encrypted-file-root': encryptedFileRoot,
  'cpu.ecdsa.sign': sign,
  'cpu.ecdsa.verify': verify,
  'cpu.identity.create': identity,
  'cpu.manifest.hash': hashFiles,
  'cpu.manifest.lookup-large': lookupLarge,
  'net.stamps.list': stampsList,
  'net.stamps.concurrent': stampsConcurrent,
  'net.feed.write-read.fresh': feedFresh,
  'net.feed.write-read.warm': feedWarm,
  'net.bzz.upload': bzzUpload,
  'net.bzz.upload.encrypted': bzzUploadEncrypted,
  'net.bzz.upload-from-disk': bzzUploadFromDisk,
  'net.bytes.upload': bytesUpload,
  'net.tags.upload-with-tag': tagsUploadWithTag,
  'net.bzz.download': bzzDownload,
  'net.bytes.download': bytesDownload,
  'net.bytes.head': bytesHead,
  'net.bytes.download.range': bytesDownloadRange,
  'net.pin.add-list': pinAddList,
  'net.chunks.upload': chunksUpload,
  'net.stream-dir.upload': streamDirUpload,
  'net.soc.upload': socUpload,
};
