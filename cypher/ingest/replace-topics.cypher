UNWIND $papers AS paperId
MATCH (:Paper {id: paperId})-[r:HAS_TOPIC]->(:Topic)
DELETE r
WITH count(*) AS removed
UNWIND $rows AS row
MATCH (p:Paper {id: row.paperId})
MERGE (t:Topic {id: row.topicId})
SET t.name = row.name, t.level = row.level, t.kind = row.kind
MERGE (p)-[r:HAS_TOPIC]->(t)
SET r.score = row.score
RETURN count(*) AS topics
