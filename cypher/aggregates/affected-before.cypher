// What a write to these papers may change before it happens: the papers they cite now (whose internal citation
// counts change when the citations are replaced or removed), the people who sign them now and the venues they are
// published in now (whose totals change).
UNWIND $papers AS id
MATCH (p:Paper {id: id})
RETURN [(p)-[:CITES]->(q:Paper) | q.id] AS cited,
       [(a:Author)-[:AUTHORED]->(p) | coalesce('orcid:' + a.orcid, a.id)] AS people,
       [(p)-[:PUBLISHED_IN]->(v:Venue) | v.id] AS venues
