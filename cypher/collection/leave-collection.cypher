// Takes papers out of a collection. Returns those now in no collection, with the neighbours that may be left with
// no reason to exist once they go (the stubs they cite, their authors, venues and topics).
UNWIND $ids AS id
MATCH (p:Paper {id: id})
SET p.collections = [c IN coalesce(p.collections, []) WHERE c <> $collection]
WITH p
WHERE size(p.collections) = 0
RETURN p.id AS id,
       [(p)-[:CITES]->(q:Paper) WHERE q.stub = true | q.id] AS stubs,
       [(a:Author)-[:AUTHORED]->(p) | a.id] AS authors,
       [(p)-[:PUBLISHED_IN]->(v:Venue) | v.id] AS venues,
       [(p)-[:HAS_TOPIC]->(t:Topic) | t.id] AS topics
