MATCH (:Author {id: $id})-[r:AUTHORED]->(p:Paper)
RETURN p {.*} AS paper
ORDER BY p.year DESC, p.id
LIMIT $limit
