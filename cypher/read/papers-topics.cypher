// The topics of each of several papers, strongest first, at most $limit each.
UNWIND $ids AS id
MATCH (:Paper {id: id})-[r:HAS_TOPIC]->(t:Topic)
WITH id, t, r ORDER BY r.score DESC, t.id
WITH id, collect({topic: t {.*}, score: r.score}) AS topics
RETURN id AS paperId, topics[..$limit] AS topics
