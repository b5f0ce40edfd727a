// The ids of an author's full papers (at most 1,000, newest first).
MATCH (:Author {id: $id})-[:AUTHORED]->(p:Paper)
WHERE p.stub = false
WITH p ORDER BY p.year DESC, p.id
LIMIT 1000
RETURN collect(p.id) AS ids
