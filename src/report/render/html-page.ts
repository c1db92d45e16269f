// The head every self-contained page of ours opens with (report.html, a profile's diff page): one
// place for the charset, the Content-Security-Policy, the viewport and the escaped title.
import { htmlText } from '../escape.js';

/** A whole page: doctype, head with the CSP and the page's own style, then the body's markup. */
export function htmlPage(o: { title: string; csp: string; css: string; body: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${o.csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${htmlText(o.title)}</title>
<style>${o.css}</style>
</head>
<body>
${o.body}
</body>
</html>
`;
}
