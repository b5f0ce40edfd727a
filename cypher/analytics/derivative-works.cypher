// Derivative works of a set of papers: full papers outside the set that cite the most papers of it.
UNWIND $ids AS id
MATCH (:Paper {id: id})<-[:CITES]-(c:Paper)
WHERE c.stub = false AND NOT c.id IN $ids
WITH c, count(*) AS count
ORDER BY count DESC, c.year DESC, c.id
LIMIT $limit
RETURN c {.*} AS paper, count
