// Prior works of a set of papers (as Connected Papers names them): the works the set cites most, outside the set,
// with how many papers of the set cite each (stubs included, marked).
UNWIND $ids AS id
MATCH (:Paper {id: id})-[:CITES]->(r:Paper)
WHERE NOT r.id IN $ids
WITH r, count(*) AS count
ORDER BY count DESC, r.id
LIMIT $limit
RETURN r {.*} AS paper, count
