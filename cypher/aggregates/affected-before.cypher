// What a write to these papers may change, read before it happens: each paper's part in the stored aggregates as it
// stands (aggregates/refresh takes it off and adds the paper's part after the write) — whether it is full, the
// papers it cites, its venue, the people who sign it (each person once), its global and internal citation counts,
// its year and its topics with their scores.
UNWIND $papers AS id
MATCH (p:Paper {id: id})
RETURN {
  id: p.id,
  full: coalesce(p.stub = false, false),
  cited: [(p)-[:CITES]->(q:Paper) | q.id],
  venue: head([(p)-[:PUBLISHED_IN]->(v:Venue) | v.id]),
  people: COLLECT { MATCH (a:Author)-[:AUTHORED]->(p) RETURN DISTINCT coalesce('orcid:' + a.orcid, a.id) },
  global: coalesce(p.citedByCount, 0),
  internal: coalesce(p.internalCitedBy, 0),
  year: p.year,
  topics: [(p)-[r:HAS_TOPIC]->(t:Topic) | {id: t.id, score: r.score}]
} AS state
