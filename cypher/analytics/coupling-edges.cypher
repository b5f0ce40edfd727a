// Bibliographic coupling within a set of papers: pairs sharing at least $minWeight references, with how many.
UNWIND $ids AS id
MATCH (a:Paper {id: id})-[:CITES]->(r:Paper)<-[:CITES]-(b:Paper)
WHERE a.id < b.id AND b.id IN $ids
WITH a.id AS source, b.id AS target, count(DISTINCT r) AS weight
WHERE weight >= $minWeight
RETURN source, target, weight
