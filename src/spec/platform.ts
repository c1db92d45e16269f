// One vocabulary for the runners' host platform. Each runner reports its own language's names
// (bee-js Node's process.platform/arch "linux/x64", bee-go GOOS/GOARCH "linux/amd64", bee-rs
// std::env::consts "linux/x86_64"); the result files keep them as written (result@1 is unchanged),
// and the report model speaks Node's names, so one machine reads the same for every client.
import type { Host } from './schema.js';

/** Go's and Rust's operating-system names where Node's differ. */
const OS: ReadonlyMap<string, string> = new Map([
  ['macos', 'darwin'],
  ['windows', 'win32'],
]);

/** Go's and Rust's architecture names where Node's differ (Node says ppc64 for little-endian too). */
const ARCH: ReadonlyMap<string, string> = new Map([
  ['x86_64', 'x64'],
  ['amd64', 'x64'],
  ['aarch64', 'arm64'],
  ['x86', 'ia32'],
  ['386', 'ia32'],
  ['powerpc64', 'ppc64'],
  ['ppc64le', 'ppc64'],
  ['loongarch64', 'loong64'],
]);

/** A host block with os and arch in Node's names; anything unknown is kept as reported. */
export function normalHost<H extends Pick<Host, 'os' | 'arch'>>(host: H): H {
  return { ...host, os: OS.get(host.os) ?? host.os, arch: ARCH.get(host.arch) ?? host.arch };
}

/** "linux/x64": a host's platform in Node's names. */
export function platformOf(host: Pick<Host, 'os' | 'arch'>): string {
  const h = normalHost(host);
  return `${h.os}/${h.arch}`;
}
