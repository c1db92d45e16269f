// The docker command lines of a Bee dev node, in argv form: the image's entrypoint is `bee`, so the
// words after the image are bee's own arguments (`dev --api-addr=:1633`). A whole command in one
// string (a service container's --entrypoint "bee dev ...") makes Docker look for an executable
// named by the whole string.
import { randomBytes } from 'node:crypto';

/** The last Bee release with `bee dev` (an in-memory chain and postage contract). */
export const BEE_IMAGE = 'ethersphere/bee:2.8.0';
/** The API port inside the container. */
export const CONTAINER_API_PORT = 1633;
/** Label on every container bee-bench starts, so a leftover one can be found by hand. */
export const CONTAINER_LABEL = 'org.bee-bench.dev-node=1';

export function containerName(): string {
  return `bee-bench-dev-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * `docker run -d`: published on the host's loopback only (a dev node holds no secrets, but it is no
 * one else's business), removed when stopped (--rm) and by name in any case (dockerRemoveArgs).
 */
export function dockerRunArgs(o: { name: string; hostPort: number; image?: string }): string[] {
  return [
    'run',
    '-d',
    '--rm',
    '--name',
    o.name,
    '--label',
    CONTAINER_LABEL,
    '--publish',
    `127.0.0.1:${o.hostPort}:${CONTAINER_API_PORT}`,
    o.image ?? BEE_IMAGE,
    'dev',
    `--api-addr=:${CONTAINER_API_PORT}`,
  ];
}

/** Stops and removes the container in one step (also when it is already stopped). */
export function dockerRemoveArgs(name: string): string[] {
  return ['rm', '--force', name];
}

export function dockerLogsArgs(name: string): string[] {
  return ['logs', '--tail', '30', name];
}
