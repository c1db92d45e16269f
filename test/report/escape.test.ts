// Tests of escaping for markdown, HTML, scripts and CSV, on hostile strings.
import { describe, expect, it } from 'vitest';
import { HOSTILE } from './fixtures.js';
import { csvField, htmlCode, htmlText, inert, jsonForScript, mdCode, mdText, preText } from '../../src/report/escape.js';

describe('mdText', () => {
  it('never leaves raw HTML, pipes, backticks, link syntax or newlines', () => {
    for (const s of HOSTILE) {
      const out = mdText(s);
      expect(out).not.toMatch(/[<>|`\n\r[\]]/);
      expect(out).not.toMatch(/@[A-Za-z]/);
    }
  });
  it('defuses leading headings and mentions, keeps plain text readable', () => {
    expect(mdText('# x')).toBe('&#35; x');
    expect(mdText('@org/team')).toBe('@&#8203;org/team');
    expect(mdText('10000 chunks')).toBe('10000 chunks');
    expect(mdText('a|b')).toBe('a&#124;b');
    expect(mdText('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
  });
  it('leaves nothing GitHub would link or notify: #123, owner/repo#5, GH-7, bare URLs', () => {
    const out = mdText('fixes #123 and ethersphere/bee-js#5 and GH-7, see https://evil.example/x or www.evil.example');
    for (const live of [/#\d/, /GH-\d/, /https:\/\//, /www\./]) expect(out).not.toMatch(live);
    expect(out.replace(/\u200b/g, '')).toBe('fixes #123 and ethersphere/bee-js#5 and GH-7, see https://evil.example/x or www.evil.example');
  });
  it('uses code spans only for plain identifiers', () => {
    expect(mdCode('cpu.keccak.chunk-hash')).toBe('`cpu.keccak.chunk-hash`');
    expect(mdCode('a`b')).toBe('a&#96;b');
    expect(mdCode('a|b')).toBe('a&#124;b');
    // An underscore is safe in a code span: an identifier that has one copies exactly.
    expect(mdCode('BEE_GO_PATH')).toBe('`BEE_GO_PATH`');
  });
});

describe('bidirectional controls, plain text and HTML blocks', () => {
  const LIVE = 'cpu.x @someone @org/team #1 owner/repo#5 \u202egnp.exe \u2066x\u2069 \u200f';
  const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  it('no function lets a bidi control through: each shows U+FFFD instead', () => {
    for (const f of [mdText, mdCode, htmlText, htmlCode, inert, preText]) {
      expect(f(LIVE), f.name).not.toMatch(BIDI);
      expect(f(LIVE), f.name).toContain('\ufffd');
    }
  });
  it('inert: one line of plain text with no mention, team mention or reference, readable once the zero-width spaces are taken out', () => {
    const out = inert(`${LIVE}\nsecond line`);
    expect(out).not.toMatch(/@[A-Za-z]|#\d|\n/);
    expect(out.replace(/\u200b/g, '')).toBe('cpu.x @someone @org/team #1 owner/repo#5 \ufffdgnp.exe \ufffdx\ufffd \ufffd second line');
  });
  it('htmlCode: an identifier inside an HTML block (a <summary>, where backticks are no code span) as <code>, escaped, nothing live', () => {
    expect(htmlCode('cpu.bmt.file-root')).toBe('<code>cpu.bmt.file-root</code>');
    const out = htmlCode('<b>x</b> @someone #1');
    expect(out).toBe('<code>&#60;b&#62;x&#60;/b&#62; @&#8203;someone #\u200b1</code>');
  });
});

describe('htmlText / jsonForScript', () => {
  it('escapes HTML metacharacters', () => {
    expect(htmlText(`<img src=x onerror="alert('1')">&`)).toBe('&#60;img src=x onerror=&#34;alert(&#39;1&#39;)&#34;&#62;&#38;');
  });
  it('keeps </script> and <!-- out of a JSON script block and round-trips', () => {
    const data = { s: HOSTILE, u: 'line\u2028sep' };
    const out = jsonForScript(data);
    expect(out).not.toMatch(/<|>/);
    expect(out).not.toContain('\u2028');
    expect(JSON.parse(out)).toEqual(data);
  });
});

describe('csvField', () => {
  it('quotes per RFC 4180 and defuses formulas', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField(-3.5)).toBe('-3.5');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(undefined)).toBe('');
  });
});
