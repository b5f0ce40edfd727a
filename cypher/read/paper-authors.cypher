MATCH (a:Author)-[r:AUTHORED]->(:Paper {id: $id})
RETURN a {.*} AS author, r.position AS position, r.order AS order
ORDER BY r.order
