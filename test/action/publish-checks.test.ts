// The publish job's checks of publish.json over real spec-shaped results: each refusal names what
// and why; rows of other clients in a client's artifact are left out with a line saying so.
import { describe, expect, it } from 'vitest';
import { acceptedResults, checkWriteBound, PUBLISH_CAPS } from '../../src/action/publish-checks.js';
import { parsePublishBundle } from '../../src/action/publish-bundle.js';
import { COMMIT_TIME, publishJson, SPEC, specResult } from './publish-harness.js';

const SHA = '1'.repeat(40);
const commit = { sha: SHA, message: 'm', author: 'a', timestamp: COMMIT_TIME };
const check = (json: string, client?: 'js' | 'go' | 'rs') =>
  acceptedResults(parsePublishBundle(Buffer.from(json)), { ...(client ? { client } : {}), commit, spec: SPEC });

describe('publish.json checks', () => {
  it('accepts a genuine bundle', () => {
    expect(check(publishJson(SHA, [specResult('js')]), 'js')).toMatchObject({ results: [{ runner: 'js' }], notes: [] });
  });

  it("leaves other clients' results out of a client's artifact, and says so", () => {
    const out = check(publishJson(SHA, [specResult('js'), specResult('go')]), 'js');
    expect(out.results.map((r) => r.runner)).toEqual(['js']);
    expect(out.notes).toEqual(["the go result in js's artifact is left out: the job that wrote it ran js's code"]);
  });

  it('refuses a run dated before its commit, a foreign spec, oversized cases and a client other than the name says', () => {
    expect(() => check(publishJson(SHA, [specResult('js', { started: '2020-01-01T00:00:00Z' })]), 'js')).toThrow(
      `the js result's started_at 2020-01-01T00:00:00Z is before its commit was made (${COMMIT_TIME})`,
    );
    const foreign = specResult('js');
    foreign.spec.hash = 'ab'.repeat(32);
    expect(() => check(publishJson(SHA, [foreign]), 'js')).toThrow(/names spec abababababab, this job's spec is [0-9a-f]{12}/);
    const long = specResult('js');
    long.cases[0]!.samples_ns = Array.from({ length: PUBLISH_CAPS.samplesPerCase + 1 }, () => 1);
    long.cases[0]!.cpu_ns = long.cases[0]!.samples_ns;
    expect(() => check(publishJson(SHA, [long]), 'js')).toThrow(
      `with ${PUBLISH_CAPS.samplesPerCase + 1} samples, more than the ${PUBLISH_CAPS.samplesPerCase}`,
    );
    expect(() => check(publishJson(SHA, [specResult('go')]), 'js')).toThrow("publish.json names client go, but this is js's artifact");
    const twice = specResult('js');
    twice.cases.push(twice.cases[0]!);
    expect(() => check(publishJson(SHA, [twice]), 'js')).toThrow(`has case ${twice.cases[0]!.id} [${String(twice.cases[0]!.param.label)}] twice`);
  });

  it('bounds what one publish writes: one record per client', () => {
    expect(() => checkWriteBound([specResult('js'), specResult('js')])).toThrow('two js records in one publish');
    expect(() => checkWriteBound([specResult('js'), specResult('go'), specResult('rs')])).not.toThrow();
  });
});
