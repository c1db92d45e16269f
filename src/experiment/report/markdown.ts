// The experiment report as markdown (experiment-report.md): the summary, the runs, then one table
// per family (downloads pooled and per server, RACE vs DATA within each arm, uploads), failures,
// sync waits, and how the figures were computed. Every user-controlled string passes mdText.
import { mdText } from '../../report/escape.js';
import { levelName, seconds, sizeLabel, type Analysis, type Comparison } from '../analysis/analyse.js';
import { cellLabel, directionText, needText, pText, relativeText, shiftText } from './labels.js';

export function experimentMarkdown(a: Analysis): string {
  const out: string[] = [];
  const title = a.arms.length >= 2 ? `${a.arms[1]!.label} against ${a.arms[0]!.label}` : (a.arms[0]?.label ?? '');
  out.push(`# Bee release experiment: ${mdText(title)}`, '', mdText(a.summary), '');
  out.push('## Runs', '', '| run | created | client (runner) | arms | rows | resumes | seed |', '|---|---|---|---|---:|---:|---|');
  for (const j of a.journals) {
    const arms = a.arms.filter((x) => x.runId === j.runId);
    out.push(
      `| ${mdText(j.runId)} | ${mdText(j.createdAt)} | ${mdText(arms[0]?.client ?? '')} (${mdText(arms[0]?.runner ?? '')}) | ${arms
        .map((x) => `${mdText(x.label)}: ${x.nodes.map(mdText).join(', ')}`)
        .join('; ')} | ${j.rows} | ${j.resumes} | ${mdText(j.seed.slice(0, 16))}… |`,
    );
  }
  out.push('');
  for (const n of a.notes) out.push(`- ${mdText(n)}`);
  if (a.notes.length) out.push('');

  const pooled = (f: Comparison['family']) => a.comparisons.filter((c) => c.family === f && c.scope === 'pooled');
  const table = (rows: Comparison[], withScope: boolean) => {
    if (rows.length === 0) return ['(no cells)', ''];
    const r0 = rows[0]!;
    const lines = [
      `| ${withScope ? 'server | ' : ''}cell | n ${mdText(r0.aLabel)} / ${mdText(r0.bLabel)} | median ${mdText(r0.aLabel)} | median ${mdText(r0.bLabel)} | shift ${mdText(r0.bLabel)} − ${mdText(r0.aLabel)} (95 % interval) | relative | p | BH q | direction | failures | replicates for ±${(a.options.powerShift * 100).toFixed(0)} % |`,
      `|${withScope ? '---|' : ''}---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|`,
    ];
    for (const c of rows)
      lines.push(
        `| ${withScope ? `${mdText(c.scope)} | ` : ''}${mdText(cellLabel(c))} | ${c.a.n} / ${c.b.n} | ${seconds(c.a.median)} | ${seconds(c.b.median)} | ${mdText(shiftText(c))} | ${relativeText(c.relative)} | ${pText(c.p)} | ${pText(c.q)} | ${mdText(directionText(c))} | ${c.a.failures} / ${c.b.failures} | ${needText(c.replicatesNeeded)} |`,
      );
    return [...lines, ''];
  };

  out.push('## Downloads, pooled over servers', '', ...table(pooled('download'), false));
  const perServer = a.comparisons.filter((c) => c.family === 'download' && c.scope !== 'pooled');
  if (perServer.length) out.push('## Downloads per server', '', ...table(perServer, true));
  const strategy = pooled('strategy');
  if (strategy.length) {
    out.push('## RACE against DATA within each release', '');
    for (const arm of a.arms) {
      const rows = strategy.filter((c) => c.arm === arm.label);
      if (rows.length) out.push(`### ${mdText(arm.label)}`, '', ...table(rows, false));
    }
  }
  out.push('## Uploads by size and level', '', ...table(pooled('upload'), false));

  out.push('## Failures', '');
  if (a.failures.length === 0) out.push('Every download succeeded at its first attempt.', '');
  else {
    out.push(
      '| release | node | size | level | strategy | units | never succeeded | failed attempts | last error |',
      '|---|---|---:|---|---|---:|---:|---:|---|',
    );
    for (const f of a.failures)
      out.push(
        `| ${mdText(f.arm)} | ${mdText(f.node)} | ${mdText(sizeLabel(f.size))} | ${levelName(f.level)} | ${f.strategy} | ${f.units} | ${f.failures} | ${f.failedAttempts} | ${mdText(f.lastError ?? '')} |`,
      );
    out.push('');
  }

  out.push('## Sync waits', '', '| release | units | synced | ceiling reached | signals | median wait | longest wait |', '|---|---:|---:|---:|---|---:|---:|');
  for (const s of a.sync)
    out.push(
      `| ${mdText(s.arm)} | ${s.units} | ${s.synced} | ${s.ceilingReached} | ${mdText(s.signals.join(', ') || '–')} | ${seconds(s.medianWaitS)} | ${seconds(s.maxWaitS)} |`,
    );
  out.push('');
  const ceiling = a.sync.filter((s) => s.ceilingReached > 0);
  for (const s of ceiling)
    out.push(
      `- ${mdText(s.arm)}: the wait reached its ceiling for ${s.ceilingReached} upload(s) and their downloads ran anyway, e.g. ${s.examples.map(mdText).join('; ')}`,
    );
  if (ceiling.length) out.push('');

  out.push(
    '## How these figures are computed',
    '',
    [
      'Download time is the time of the first ok attempt of a unit (one unique upload, then downloads); a unit with no ok attempt within its attempts is a failure and has no time.',
      `Per cell, ${mdText(a.arms[1]?.label ?? 'B')} is set against ${mdText(a.arms[0]?.label ?? 'A')} with a two-sided Mann–Whitney test (exact below 50 values per side, otherwise the normal approximation with tie and continuity correction) and the Hodges–Lehmann shift (median of the pairwise differences, B − A, in seconds) with its 95 % interval (exact from the U distribution when small and tie-free, otherwise the asymptotic inversion as R's wilcox.test).`,
      `p-values are adjusted by Benjamini–Hochberg within each table; a cell favours a release when its q is below ${a.options.alpha}.`,
      `Relative change is the shift over the median of ${mdText(a.arms[0]?.label ?? 'A')}.`,
      `"Replicates for ±${(a.options.powerShift * 100).toFixed(0)} %" is Noether's sample size for the Mann–Whitney test (two-sided α ${a.options.alpha}, power ${a.options.power}) to see a shift of ${(a.options.powerShift * 100).toFixed(0)} % of the cell's pooled median, with P(shifted > unshifted) taken from the observed spread (both arms' values around their own medians): a normal approximation, coarse for small samples.`,
      'z-scores (in the HTML figures) standardise download times within each cell and server over both arms: (t − mean) / sd.',
    ].join(' '),
    '',
  );
  return out.join('\n');
}
