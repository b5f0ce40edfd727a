// What a write to these papers may change before it happens: the papers they cite now (whose internal citation
// counts change when the citations are replaced or removed), the people who sign them now, the venues they are
// published in now (whose totals change) and, for a full paper, its year and topics now (what the yearly counts hold
// of it: aggregates/refresh takes it off and adds what the paper is after the write). Run before the write.
UNWIND $papers AS id
MATCH (p:Paper {id: id})
RETURN [(p)-[:CITES]->(q:Paper) | q.id] AS cited,
       [(a:Author)-[:AUTHORED]->(p) | coalesce('orcid:' + a.orcid, a.id)] AS people,
       [(p)-[:PUBLISHED_IN]->(v:Venue) | v.id] AS venues,
       CASE WHEN p.stub = false THEN {year: p.year, topics: [(p)-[r:HAS_TOPIC]->(t:Topic) | {id: t.id, score: r.score}]}
       END AS counted
