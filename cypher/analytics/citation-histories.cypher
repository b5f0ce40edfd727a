// Citation histories of papers: the years of the full papers citing each inside the graph, and OpenAlex's citations
// per year (counts_by_year, stored at ingest). $ids null: the filtered full papers with at least $minCitations
// internal citations.
MATCH (p:Paper)
WHERE p.stub = false AND p.year IS NOT NULL AND ($ids IS NULL OR p.id IN $ids)
  // include: fragments/paper-filter
WITH p, [(p)<-[:CITES]-(q:Paper) WHERE q.stub = false AND q.year IS NOT NULL | q.year] AS citing
WHERE $ids IS NOT NULL OR size(citing) >= $minCitations
RETURN p.id AS id, p.year AS year, citing, p.citationYears AS globalYears, p.citationCounts AS globalCounts
