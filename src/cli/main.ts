import { environmentHelp } from '../config/settings';
import { CitegraphError } from '../errors';
import { askCommand } from './commands/ask';
import { collectionCommand, statsCommand } from './commands/collection';
import { dbCommand, schemaCommand } from './commands/db';
import { enrichCommand } from './commands/enrich';
import { exportCommand } from './commands/export';
import { fetchCommand } from './commands/fetch';
import { bulkLoadCommand, embedCommand, ingestCommand } from './commands/ingest';
import { networkCommand } from './commands/network';
import { scienceCommand } from './commands/science';
import { reportCommand } from './commands/report';
import { searchCommand } from './commands/search';
import { serveCommand } from './commands/serve';
import { evalCommand } from './commands/eval';
import { EXIT, exitCodeFor } from './exit-codes';
import { output } from './shared';

const USAGE = `citegraph — a graph-centric knowledge service for scientific literature

usage:
  citegraph start                      database + schema + sample data when empty + GraphQL (what npm start runs)
  citegraph serve [--port N]           serve GraphQL on http://localhost:4000/graphql
  citegraph db start|stop|status|reset the embedded Neo4j (ignored parts when NEO4J_URI is set)
  citegraph db recount                 recount every stored aggregate (citation counts, totals, yearly counts)
  citegraph ingest PATH... [--format openalex|beir] [--collection NAME] [--defer-embedding] [--resolve-online]
                                       (records: .jsonl/.json[.gz]; documents: .pdf .md .html .txt;
                                       --resolve-online: references via Crossref/OpenAlex)
  citegraph embed [--model NAME]       embed chunks ingested with --defer-embedding; --model minilm|bge-small|e5-small
                                       re-embeds every chunk with that model (then serve with CITEGRAPH_EMBEDDING_MODEL)
  citegraph bulk-load PATH... --replace-database [--collection NAME]
                                       OpenAlex/BEIR records → CSV → neo4j-admin import into a NEW embedded store
                                       (replaces the whole database; embeddings left for \`citegraph embed\`)
  citegraph collection delete NAME...  remove collections and everything only they held (papers, chunks, stubs, …)
  citegraph stats                      counts per label and relationship type (JSON)
  --json (ingest, embed, collection, db, schema, enrich, search, ask, fetch): the summary as JSON on stdout; stats,
  science, network and export print JSON or files anyway. Long work shows its progress on stderr (one line with
  rate and time left on a terminal, a plain line every 10 s otherwise). Exit codes: 0 done, 1 failure, 2 bad usage
  or input, 3 database unavailable, 4 partial (records skipped), 5 every external source failed.
  citegraph science disruption|impact|beauty ID | prior|derivative ID... | path ID ID [--undirected] |
                    lotka|bradford|beauties|main-path [--key-routes K]|clusters|topic-bursts|reference-bursts
                    [--collection C]...
                                       science-of-science measures as JSON (docs/analytics.md)
  citegraph network [--network coupling|cocitation|coauthorship|citation|topic_cooccurrence]
                    [--format graphml|gexf|vosviewer-map|vosviewer-network|csv|svg] [--colouring cluster|year]
                    [--collection C]... [--max-nodes N] [--min-weight W] [--out FILE]
  citegraph search "TEXT" [--first N] [--collection C] [--options JSON] [--format F [--out FILE]]
  citegraph export --ids W1,W2,… | --collection C... [--format csv|jsonl|bibtex|ris|csl-json] [--first N] [--out FILE]
                                       paper lists as files for reference managers and spreadsheets
  citegraph ask "QUESTION" [--collection C] [--no-external] [--json]   a cited answer, or an abstention
  citegraph report "SUBJECT" [--collection C]... [--year-from Y] [--year-to Y] [--fronts N] [--sentences N]
                    [--papers ID,ID... | --papers-file F] [--format markdown|html|latex|bibtex|json] [--out FILE]
                                       a related-work report: one section per research front, every quote verified
                                       (SUBJECT may be a question; --papers reports on those papers instead of the
                                       subject's topic set; --format latex --out F.tex also writes references.bib)
  citegraph fetch --doi D | --search "TEXT" [--source openalex|crossref|s2]... [--cap N] [--ingest]
  citegraph fetch --stubs [--top N] [--collection C]   label the N most cited stubs (title, year, DOI) from OpenAlex
  citegraph enrich [--collection C] [--tau 0.1] [--max-terms 10] [--llm]   index vocabulary from citing titles (and the LLM)
  citegraph eval retrieval …           BEIR-style evaluation (citegraph eval for the options)
  citegraph help                       this text and the environment variables
`;

/**
 * The command table. `says` marks the commands whose summary `say` prints, so that --json is taken off their arguments
 * here (search, ask and fetch read it themselves; stats, science, network and export print JSON or files anyway;
 * elsewhere it is an unknown option).
 */
const COMMANDS: Record<string, { run: (args: string[]) => Promise<void>; says?: true }> = {
  start: { run: (args) => serveCommand(args, true) },
  serve: { run: (args) => serveCommand(args, false) },
  db: { run: (args) => dbCommand(args[0]), says: true },
  schema: { run: () => schemaCommand(), says: true },
  ingest: { run: ingestCommand, says: true },
  'bulk-load': { run: bulkLoadCommand, says: true },
  embed: { run: embedCommand, says: true },
  stats: { run: () => statsCommand(), says: true },
  network: { run: networkCommand },
  science: { run: scienceCommand },
  collection: { run: collectionCommand, says: true },
  search: { run: searchCommand },
  export: { run: exportCommand },
  fetch: { run: fetchCommand },
  ask: { run: askCommand },
  report: { run: reportCommand },
  enrich: { run: enrichCommand, says: true },
  eval: { run: evalCommand },
};

export async function main(argv: string[]): Promise<void> {
  const [name, ...given] = argv;
  if (name === undefined || name === 'help' || name === '--help') {
    process.stdout.write(
      `${USAGE}\nenvironment (variable, meaning, default and accepted values):\n${environmentHelp()}\n`,
    );
    return;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;
  if (!command) {
    process.stderr.write(`unknown command ${name}\n\n${USAGE}`);
    process.exitCode = EXIT.BAD_INPUT;
    return;
  }
  output.json = command.says === true && given.includes('--json');
  return command.run(command.says ? given.filter((arg) => arg !== '--json') : given);
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    const message =
      error instanceof CitegraphError
        ? `${error.code}: ${error.message}`
        : error instanceof Error
          ? error.message
          : String(error);
    process.stderr.write(`citegraph: ${message}\n`);
    process.exit(exitCodeFor(error));
  });
}
