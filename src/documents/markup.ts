import { Readability } from '@mozilla/readability';
import { Parser } from 'htmlparser2';
import { parseHTML } from 'linkedom';
import { Lexer, type Token, type Tokens } from 'marked';
import { type Block, type DocumentMetadata, normaliseCharacters, numberingDepth, sectionKindOf } from './document-text';

/**
 * Readers of the text formats: Markdown (headings from the Markdown structure, through the marked lexer), HTML
 * (the page's main content as Mozilla Readability finds it over a server-side DOM, then h1–h6, block elements and
 * scholarly `citation_*` meta tags through htmlparser2) and plain text (blank-line paragraphs, form feeds as page
 * breaks, headings recognised by numbering or section names).
 */

export function emptyMetadata(): DocumentMetadata {
  return { title: null, authors: [], doi: null, year: null };
}

/**
 * The plain text of inline Markdown: images keep their alt text, links their words, code spans and emphasis lose their
 * markers, inline HTML its tags. Written as a few linear passes rather than marked's inline lexer, whose emphasis
 * matching is quadratic on runs of delimiters (40 KB of "a *" took 23 s there).
 */
export function inlineText(source: string): string {
  return source
    .replace(/!\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)/g, '$1')
    .replace(/\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)/g, '$1')
    .replace(/\[([^\]\n]{0,500})\]\[[^\]\n]{0,200}\]/g, '$1')
    .replace(/<((?:https?|mailto):[^>\s]{1,2000})>/g, '$1')
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]{0,30}(?:\s[^<>]{0,1000})?\/?>/g, '')
    .replace(/`+/g, '')
    .replace(/(^|[^\p{L}\p{N}*_~\\])[*_~]{1,3}(?=[^\s*_~])/gu, '$1')
    .replace(/([^\s*_~\\])[*_~]{1,3}(?=$|[^\p{L}\p{N}*_~])/gu, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s*\n\s*/g, ' ');
}

/** Most nesting markers (">", list bullets and numbers) one line keeps, and most columns of indentation. */
const MAX_NESTING = 16;
const MAX_INDENT = 64;

/**
 * A line nested deeper than MAX_NESTING (block quotes or list markers) or indented past MAX_INDENT columns keeps only
 * that much: marked lexes nesting by recursion, and 20,000 levels overflow the stack. No real document nests so deep.
 */
export function boundNesting(source: string): string {
  const marker = '[ \\t]{0,3}(?:>[ \\t]?|(?:[-*+]|\\d{1,9}[.)])(?:[ \\t]+|$))';
  const markers = new RegExp(`^((?:${marker}){${MAX_NESTING}})(?:${marker})+`, 'gm');
  return source.replace(markers, '$1').replace(new RegExp(`^([ \\t]{${MAX_INDENT}})[ \\t]+`, 'gm'), '$1');
}

const decodeEntities = (text: string): string =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/** A YAML front matter's title, authors, DOI and date, when the Markdown has one. */
function frontMatter(source: string): { body: string; metadata: DocumentMetadata } {
  const metadata = emptyMetadata();
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(source);
  if (!match) return { body: source, metadata };
  for (const line of match[1]!.split(/\r?\n/)) {
    const field = /^(\w+):\s*(.*)$/.exec(line);
    if (!field) continue;
    const value = field[2]!.replace(/^["']|["']$/g, '').trim();
    const key = field[1]!.toLowerCase();
    if (key === 'title') metadata.title = value || null;
    else if (key === 'doi') metadata.doi = value || null;
    else if (key === 'year' || key === 'date') metadata.year = Number(/\b(19|20)\d\d\b/.exec(value)?.[0]) || null;
    else if (key === 'author' || key === 'authors')
      metadata.authors = value
        .replace(/^\[|\]$/g, '')
        .split(/\s*(?:;|,| and )\s*/)
        .filter(Boolean);
  }
  return { body: source.slice(match[0].length), metadata };
}

export function markdownBlocks(source: string): { blocks: Block[]; metadata: DocumentMetadata } {
  const { body, metadata } = frontMatter(source);
  const blocks: Block[] = [];
  const visit = (tokens: readonly Token[]): void => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const heading = token as Tokens.Heading;
          const text = normaliseCharacters(decodeEntities(inlineText(heading.text)));
          if (heading.depth === 1 && metadata.title === null && blocks.length === 0) {
            blocks.push({ kind: 'title', text, page: null });
            metadata.title = text;
          } else blocks.push({ kind: 'heading', text, page: null, level: heading.depth });
          break;
        }
        case 'paragraph':
        case 'text': {
          const paragraph = token as Tokens.Paragraph;
          const text = decodeEntities(inlineText(paragraph.text));
          blocks.push({ kind: 'paragraph', text: normaliseCharacters(text), page: null });
          break;
        }
        case 'list':
          for (const item of (token as Tokens.List).items) visit(item.tokens);
          break;
        case 'blockquote':
          visit((token as Tokens.Blockquote).tokens);
          break;
        case 'code':
          blocks.push({ kind: 'paragraph', text: (token as Tokens.Code).text, page: null });
          break;
        case 'table': {
          const table = token as Tokens.Table;
          const rows = [table.header, ...table.rows].map((row) => row.map((cell) => inlineText(cell.text)).join(' | '));
          blocks.push({ kind: 'paragraph', text: rows.join('; '), page: null });
          break;
        }
        default:
          break;
      }
    }
  };
  // Block structure only: inline text is read by `inlineText` (see there why not by marked).
  visit(new Lexer().blockTokens(boundNesting(body.replace(/\r\n?/g, '\n')), []));
  return { blocks, metadata };
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'nav', 'svg', 'head', 'button', 'form', 'select']);
const BLOCKS = new Set([
  'p',
  'div',
  'li',
  'tr',
  'blockquote',
  'pre',
  'section',
  'article',
  'figcaption',
  'caption',
  'dd',
  'dt',
  'br',
  'table',
  'ul',
  'ol',
  'main',
  'header',
  'footer',
  'aside',
  'figure',
]);

/**
 * Text of a page below which its main content is not looked for: a short page has little chrome to lose, and
 * Readability drops short blocks it cannot score.
 */
const MAIN_CONTENT_MIN_CHARS = 1500;

interface PageDocument {
  readonly body: { readonly textContent: string | null } | null;
  querySelectorAll(selector: string): Iterable<{ remove(): void }>;
}

const PAGE_FURNITURE = [
  '.mw-editsection',
  '#toc',
  '.toc',
  '.navbox',
  '.catlinks',
  '.mw-jump-link',
  '[role="navigation"]',
].join(', ');

/**
 * The main content of a web page as Mozilla Readability extracts it (navigation, language lists, edit links, footers
 * and sidebars left out, headings kept), over linkedom's DOM; null when the page is short or Readability finds no
 * article of at least a few hundred characters.
 */
export function mainContent(source: string): string | null {
  // The little of linkedom's DOM used here (its types lean on the browser's DOM library, which this build leaves out).
  const { document } = parseHTML(source) as unknown as { document: PageDocument };
  const text = document.body?.textContent ?? '';
  if (text.replace(/\s+/g, ' ').length < MAIN_CONTENT_MIN_CHARS) return null;
  // Page furniture Readability keeps: Wikipedia's "[edit]" links (inside headings), tables of contents, navigation
  // boxes, category and skip links.
  for (const node of document.querySelectorAll(PAGE_FURNITURE)) node.remove();
  const article = new Readability(document, { charThreshold: 500 }).parse();
  if (!article?.content || (article.textContent ?? '').trim().length < 200) return null;
  return article.content;
}

/**
 * Blocks of an HTML page: its main content when Readability finds one (the page's title first, from its meta tags,
 * first h1 or <title>), otherwise every block outside scripts, navigation and forms. Metadata come from the whole page.
 */
export function htmlBlocks(source: string): { blocks: Block[]; metadata: DocumentMetadata } {
  const page = htmlPageBlocks(source);
  const main = mainContent(source);
  if (main === null) return page;
  const title = page.metadata.title;
  const blocks: Block[] = title === null ? [] : [{ kind: 'title', text: title, page: null }];
  for (const block of htmlPageBlocks(main).blocks) {
    if (block.kind === 'title' || (block.kind === 'heading' && block.level === 1)) {
      if (block.text !== title) blocks.push({ kind: 'heading', text: block.text, page: null, level: 1 });
    } else blocks.push(block);
  }
  return { blocks, metadata: page.metadata };
}

/** Every block of an HTML page outside scripts, navigation and forms, and its metadata (no main-content step). */
export function htmlPageBlocks(source: string): { blocks: Block[]; metadata: DocumentMetadata } {
  const metadata = emptyMetadata();
  const blocks: Block[] = [];
  let skipDepth = 0;
  let heading: number | null = null;
  let inTitle = false;
  let documentTitle = '';
  let buffer = '';
  const authors: string[] = [];
  const flush = (): void => {
    // A table row is one block, its cells separated by " | " (empty cells dropped), as the Markdown reader writes them.
    const text = normaliseCharacters(buffer)
      .replace(/\s+/g, ' ')
      .replace(/\s*\uE000(?:\s*\uE000)*\s*/g, ' | ')
      .replace(/^ \| | \| $/g, '')
      .trim();
    buffer = '';
    if (!text) return;
    if (heading !== null) blocks.push({ kind: 'heading', text, page: null, level: heading });
    else blocks.push({ kind: 'paragraph', text, page: null });
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === 'meta') {
          const key = (attributes.name ?? attributes.property ?? '').toLowerCase();
          const content = (attributes.content ?? '').trim();
          if (!content) return;
          if (key === 'citation_title' || key === 'dc.title') metadata.title ??= content;
          else if (key === 'citation_author' || key === 'dc.creator') authors.push(content);
          else if (key === 'citation_doi' || key === 'dc.identifier') metadata.doi ??= content;
          else if (key === 'citation_publication_date' || key === 'citation_date' || key === 'dc.date')
            metadata.year ??= Number(/\b(19|20)\d\d\b/.exec(content)?.[0]) || null;
          return;
        }
        if (name === 'title') inTitle = true;
        if (SKIPPED.has(name)) {
          skipDepth += 1;
          return;
        }
        if (skipDepth > 0) return;
        const level = /^h([1-6])$/.exec(name);
        if (level) {
          flush();
          heading = Number(level[1]);
        } else if (BLOCKS.has(name)) flush();
      },
      ontext(text) {
        if (inTitle) documentTitle += text;
        if (skipDepth === 0) buffer += text;
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false;
        if (SKIPPED.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (/^h[1-6]$/.test(name)) {
          flush();
          heading = null;
        } else if (name === 'td' || name === 'th') buffer += '\uE000';
        else if (BLOCKS.has(name)) flush();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(source);
  parser.end();
  flush();
  metadata.authors = authors;
  // The first h1 is the title when no meta tag names one.
  const first = blocks.findIndex((block) => block.kind === 'heading' && block.level === 1);
  if (first >= 0 && (metadata.title === null || blocks[first]!.text === metadata.title)) {
    const block = blocks[first]!;
    blocks[first] = { kind: 'title', text: block.text, page: null };
    metadata.title ??= block.text;
  }
  metadata.title ??= documentTitle.replace(/\s+/g, ' ').trim() || null;
  return { blocks, metadata };
}

/** A line that is a heading in plain text: a section name or a numbered short line without a closing period. */
function plainHeading(line: string): number | null {
  if (line.length > 80 || /[.;,]$/.test(line)) return null;
  if (sectionKindOf(line) !== null) return numberingDepth(line) ?? 1;
  const depth = numberingDepth(line);
  if (depth !== null && /^[0-9.]+\s+\p{Lu}/u.test(line) && line.split(/\s+/).length <= 10) return depth;
  return null;
}

export function plainTextBlocks(source: string): { blocks: Block[]; metadata: DocumentMetadata } {
  const blocks: Block[] = [];
  const pages = source.replace(/\r\n?/g, '\n').split('\f');
  pages.forEach((pageText, index) => {
    const page = pages.length > 1 ? index + 1 : null;
    for (const paragraph of pageText.split(/\n\s*\n/)) {
      const lines = paragraph
        .split('\n')
        .map((line) => normaliseCharacters(line).trim())
        .filter(Boolean);
      if (lines.length === 0) continue;
      const level = lines.length === 1 ? plainHeading(lines[0]!) : null;
      if (level !== null) {
        blocks.push({ kind: 'heading', text: lines[0]!, page, level });
        continue;
      }
      // A heading line on top of its paragraph.
      const headLevel = lines.length > 1 ? plainHeading(lines[0]!) : null;
      if (headLevel !== null && sectionKindOf(lines[0]!) !== null) {
        blocks.push({ kind: 'heading', text: lines.shift()!, page, level: headLevel });
      }
      // Parts joined once at the end: growing one string and reading its end per line would copy it each time.
      const parts: string[] = [];
      for (const line of lines) {
        const last = parts[parts.length - 1];
        if (last !== undefined && /\p{Ll}[-\u00AD]$/u.test(last.slice(-2)) && /^\p{Ll}/u.test(line)) {
          parts[parts.length - 1] = last.slice(0, -1);
          parts.push(line);
        } else parts.push(last === undefined ? line : ` ${line}`);
      }
      blocks.push({ kind: 'paragraph', text: parts.join(''), page });
    }
  });
  const metadata = emptyMetadata();
  const first = blocks[0];
  if (first && first.kind === 'paragraph' && first.text.length < 200 && !/[.]$/.test(first.text)) {
    blocks[0] = { kind: 'title', text: first.text, page: first.page };
    metadata.title = first.text;
  }
  return { blocks, metadata };
}
