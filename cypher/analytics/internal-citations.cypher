// Citations between papers of a set (both ends in $ids).
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:CITES]->(q:Paper)
WHERE q.id IN $ids
RETURN id AS citing, q.id AS cited
