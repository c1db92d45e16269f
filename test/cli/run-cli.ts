// The CLI in this process, its stdout and stderr captured: what a user sees, and the exit code.
import { vi } from 'vitest';
import { main } from '../../src/cli.js';

export async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}
