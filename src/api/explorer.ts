import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config/settings';

/**
 * The GraphQL explorer for browsers: GraphiQL bundled from npm into web/build (scripts/build-web.js) and served by
 * the service itself, with the example operations of the README and docs/ as its tabs. No CDN, so it works offline.
 */

/** Where the built browser assets are. */
export const WEB_BUILD = path.join(PROJECT_ROOT, 'web', 'build');

/** The assets a page may load, with their media types. */
export const ASSETS: Readonly<Record<string, string>> = {
  'explorer.js': 'text/javascript; charset=utf-8',
  'explorer.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** The content security policy of the service's pages: nothing from elsewhere, no inline script. */
export const PAGE_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The GraphQL operations of a page's ```graphql blocks, one per top-level operation (a block may hold several:
 * `{ … }` or `mutation { … }` at brace depth 0), in page order.
 */
export function graphqlExamples(markdown: string): string[] {
  const operations: string[] = [];
  for (const block of markdown.matchAll(/^```graphql\n([\s\S]*?)^```/gm)) {
    const text = block[1]!;
    let depth = 0;
    let start = -1;
    let lineStart = 0;
    for (let i = 0; i < text.length; i += 1) {
      const c = text[i]!;
      if (c === '\n') lineStart = i + 1;
      if (c === '"') {
        // Skip a string literal (escapes included): its braces are not the operation's.
        for (i += 1; i < text.length && text[i] !== '"'; i += 1) if (text[i] === '\\') i += 1;
        continue;
      }
      if (c === '{') {
        if (depth === 0) start = start === -1 ? lineStart : start;
        depth += 1;
      } else if (c === '}') {
        depth -= 1;
        if (depth === 0 && start !== -1) {
          operations.push(text.slice(start, i + 1).trim());
          start = -1;
        }
      }
    }
  }
  return operations;
}

/**
 * The documentation's pages, in reading order: the README, then the docs/ pages in the order the README links them,
 * then any page it does not link (by name). Paths relative to the project.
 */
export function documentationPages(root = PROJECT_ROOT): string[] {
  const readme = path.join(root, 'README.md');
  if (!existsSync(readme)) return [];
  const docs = path.join(root, 'docs');
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .sort()
    : [];
  const linked = [...readFileSync(readme, 'utf8').matchAll(/\]\(docs\/([\w.-]+\.md)\)/g)].map((m) => m[1]!);
  const ordered = [...new Set([...linked.filter((name) => pages.includes(name)), ...pages])];
  return ['README.md', ...ordered.map((name) => `docs/${name}`)];
}

/** Every example of the documentation, page by page (see documentationPages), each with the page it is on. */
export function documentedExamples(root = PROJECT_ROOT): Array<{ page: string; operation: string }> {
  return documentationPages(root).flatMap((page) =>
    graphqlExamples(readFileSync(path.join(root, page), 'utf8')).map((operation) => ({ page, operation })),
  );
}

let cachedExamples: string[] | null = null;

/** The documentation's examples (read once), or none when the README is not there. */
export function explorerExamples(): string[] {
  if (cachedExamples === null) cachedExamples = documentedExamples().map((example) => example.operation);
  return cachedExamples;
}

/**
 * The examples as the explorer's tabs: each anonymous operation named after its first field, so that its tab has a
 * title ("{ health … }" → "query Health { health … }"); mutations and examples with placeholders to fill in ("ds_…")
 * last.
 */
export function explorerTabs(examples: readonly string[]): string[] {
  const named = examples.map((example) => {
    const match = /^(query|mutation|subscription)?\s*\{\s*([A-Za-z_]\w*)/.exec(example);
    if (!match) return example;
    const name = match[2]!.charAt(0).toUpperCase() + match[2]!.slice(1);
    return `${match[1] ?? 'query'} ${name} ${example.slice(example.indexOf('{'))}`;
  });
  const later = (e: string) => e.includes('…') || e.startsWith('mutation');
  return [...named.filter((e) => !later(e)), ...named.filter(later)];
}

/** The explorer page: the bundle, and the examples as JSON data (not script). */
export function explorerPage(examples: readonly string[]): string {
  const data = JSON.stringify(explorerTabs(examples)).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>citegraph · GraphQL explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/explorer.css">
</head>
<body style="margin:0">
<div id="explorer" style="height:100vh"></div>
<script type="application/json" id="citegraph-examples">${data}</script>
<script src="/assets/explorer.js"></script>
</body>
</html>
`;
}

/** The web page (web/app.js): search, ask, papers, authors, trends and the collaboration network. */
export function appPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>citegraph</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/app.css">
</head>
<body>
<div id="app"></div>
<noscript>This page needs JavaScript; the GraphQL API is at /graphql.</noscript>
<script src="/assets/app.js"></script>
</body>
</html>
`;
}

/** A built asset's bytes, or null when it is unknown or not built. */
export function readAsset(name: string): Buffer | null {
  if (!Object.hasOwn(ASSETS, name)) return null;
  const file = path.join(WEB_BUILD, name);
  return existsSync(file) ? readFileSync(file) : null;
}
