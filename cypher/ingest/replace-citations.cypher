// Outgoing citations of papers being (re)written. A cited work outside the corpus becomes a stub paper, so that
// co-citation and coupling stay computable; stubs are never returned as evidence.
UNWIND $papers AS paperId
MATCH (:Paper {id: paperId})-[r:CITES]->(:Paper)
DELETE r
WITH count(*) AS removed
UNWIND $rows AS row
MATCH (p:Paper {id: row.from})
MERGE (q:Paper {id: row.to})
ON CREATE SET q.stub = true, q.doi = row.toDoi
MERGE (p)-[:CITES]->(q)
RETURN count(*) AS citations
