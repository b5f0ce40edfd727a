MATCH (:Paper {id: $id})-[r:HAS_TOPIC]->(t:Topic)
RETURN t {.*} AS topic, r.score AS score
ORDER BY r.score DESC, t.id
LIMIT $limit
