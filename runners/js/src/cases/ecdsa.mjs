// secp256k1 cases through bee-js key types: Ethereum-envelope signing, signer recovery, and
// private key -> public key -> address.
import { concat, range, raw } from './util.mjs';

const KEYS = 4; // message j is signed with private key j mod 4

function signingInputs(env, count) {
  const PrivateKey = env.client.export('PrivateKey');
  const keys = range(KEYS).map((k) => new PrivateKey(env.fixtures.key(k)));
  const messages = range(count).map((j) => env.fixtures.message(j));
  return { keys, messages };
}

const recovered = (signature, message) => raw(signature.recoverPublicKey(message).address());

/** cpu.ecdsa.sign: PrivateKey.sign (Ethereum envelope) of `count` messages. */
export function sign(env, p) {
  const { keys, messages } = signingInputs(env, p.count);
  const signatures = new Array(p.count);
  return {
    op() {
      for (let j = 0; j < messages.length; j++) signatures[j] = keys[j % KEYS].sign(messages[j]);
    },
    output: () => concat(signatures.map((s, j) => recovered(s, messages[j]))),
  };
}

/** cpu.ecdsa.verify: Signature.recoverPublicKey(message).address() for `count` pairs. */
export function verify(env, p) {
  const { keys, messages } = signingInputs(env, p.count);
  const signatures = messages.map((m, j) => keys[j % KEYS].sign(m));
  const addresses = new Array(p.count);
  return {
    op() {
      for (let j = 0; j < messages.length; j++) addresses[j] = signatures[j].recoverPublicKey(messages[j]).address();
    },
    output: () => concat(addresses.map(raw)),
  };
}

/** cpu.identity.create: new PrivateKey(bytes).publicKey().address() for keys 0..count-1. */
export function identity(env, p) {
  const PrivateKey = env.client.export('PrivateKey');
  const keyBytes = range(p.count).map((k) => env.fixtures.key(k));
  const addresses = new Array(p.count);
  return {
    op() {
      for (let j = 0; j < keyBytes.length; j++) addresses[j] = new PrivateKey(keyBytes[j]).publicKey().address();
    },
    output: () => concat(addresses.map(raw)),
  };
}
