// The host block of the result file and of `info`.
import os from 'node:os';

export const runtime = () => `node ${process.version}`;

export function hostInfo() {
  const cpus = os.cpus();
  return {
    os: process.platform,
    arch: process.arch,
    cpu_model: cpus[0]?.model?.trim() || 'unknown',
    cpus: os.availableParallelism?.() ?? Math.max(cpus.length, 1),
    mem_mb: Math.floor(os.totalmem() / 2 ** 20),
    runtime: runtime(),
  };
}
