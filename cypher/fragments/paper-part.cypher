// A paper's part in the stored aggregates, over a paper bound to `p` (aggregates/affected-before before a write,
// aggregates/refresh after it — one definition, so the part taken off and the part added are alike): whether it is
// full, the papers it cites, its venue, the people who sign it (each person once), its global and internal citation
// counts, its year and its topics with their scores.
{
  id: p.id,
  full: coalesce(p.stub = false, false),
  cited: [(p)-[:CITES]->(q:Paper) | q.id],
  venue: head([(p)-[:PUBLISHED_IN]->(v:Venue) | v.id]),
  people: COLLECT { MATCH (a:Author)-[:AUTHORED]->(p) RETURN DISTINCT coalesce('orcid:' + a.orcid, a.id) },
  global: coalesce(p.citedByCount, 0),
  internal: coalesce(p.internalCitedBy, 0),
  year: p.year,
  topics: [(p)-[r:HAS_TOPIC]->(t:Topic) | {id: t.id, score: r.score}]
}
