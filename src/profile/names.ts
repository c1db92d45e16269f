// Function names as their users know them, and which functions are the client's own.
import type { Runner } from '../spec/schema.js';

/** Longest function name kept: C++ templates and Rust generics run to kilobytes. */
export const NAME_CHARS = 200;

/**
 * Go: `github.com/ethswarm-tools/bee-go/pkg/swarm.(*Chunk).Data` -> `swarm.(*Chunk).Data` (the
 * package name, as code calls it) and no ABI wrapper suffix (`.abi0`). Rust and C++: callgrind
 * already demangles (valgrind's demangler knows Rust's legacy and v0 schemes); a legacy symbol's
 * hash (`::h0123456789abcdef`) is dropped. JavaScript: as the symbolizer gave it.
 */
export function displayName(runner: Runner, name: string): string {
  let n = name;
  if (runner === 'go') {
    const paren = n.indexOf('(');
    const slash = n.lastIndexOf('/', paren === -1 ? n.length : paren);
    n = n.slice(slash + 1).replace(/\.abi0$/, '');
  } else {
    n = n.replace(/::h[0-9a-f]{16}$/, '');
  }
  // A name of at most NAME_CHARS UTF-16 units has at most as many characters: kept without counting them.
  if (n.length <= NAME_CHARS) return n;
  const chars = [...n];
  return chars.length > NAME_CHARS ? `${chars.slice(0, NAME_CHARS - 1).join('')}…` : n;
}

/**
 * The client's own code, by runner. bee-go: its module path. bee-rs: its crate, trait impls on
 * its types included (the bee-rs crate's library is `bee`: `bee::swarm::bmt::…`, `<bee::… as …>::`). bee-js: functions whose file is in the package, or
 * in cafe-utility, where bee-js keeps its chunking and hashing (both are the bee-js authors').
 * Everything else (runtimes, standard libraries, the allocator, crypto dependencies, the runner's
 * harness) is outside the client.
 */
/**
 * bee-js's own code by its file: a raw path (`…/node_modules/@ethersphere/bee-js/dist/…`, a
 * checkout's `…/cafe-utility/…`) or the package-relative path the V8 symbolizer puts after a JIT
 * function's name (`calculateChunkAddress @ethersphere/bee-js/dist/mjs/chunk/bmt.js`,
 * `log2Reduce cafe-utility/index.js`; src/profile/v8-symbols.ts readableName).
 */
const JS_OWN_PATH = /(?:^|[\s/\\])(?:@ethersphere[/\\]bee-js|cafe-utility)[/\\]/;

const OWN: Record<Runner, (name: string, file: string) => boolean> = {
  go: (name) => name.startsWith('github.com/ethswarm-tools/bee-go/'),
  rs: (name) => name.startsWith('bee::') || name.startsWith('<bee::'),
  js: (name, file) => JS_OWN_PATH.test(`${file} ${name}`),
};

export const isClientOwn = (runner: Runner, name: string, file: string): boolean => OWN[runner](name, file);

/**
 * The allocator's entry points a client's code calls: calls into them are allocation sites.
 * bee-js: V8 allocates JavaScript objects inline in JIT-compiled code (a pointer bump, no call),
 * so callgrind sees only the backing stores of ArrayBuffers and typed arrays, which V8 allocates
 * through node's allocator, one call each (docs/profiles.md has the measurement).
 */
const ALLOCATORS: Record<Runner, (fn: string) => boolean> = {
  go: (fn) => fn === 'runtime.mallocgc',
  rs: (fn) => /^(?:__rustc::)?__rust_(?:alloc|alloc_zeroed|realloc)$|^(?:malloc|calloc|realloc)$/.test(fn),
  js: (fn) => fn.startsWith('v8::internal::BackingStore::Allocate('),
};

export const isAllocator = (runner: Runner, fn: string): boolean => ALLOCATORS[runner](fn);
