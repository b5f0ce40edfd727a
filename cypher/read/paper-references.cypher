MATCH (:Paper {id: $id})-[:CITES]->(q:Paper)
RETURN q {.*} AS paper
ORDER BY q.stub, q.id
LIMIT $limit
