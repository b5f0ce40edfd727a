// Institutions of the identified authors of given papers, by how many of the papers each appears on.
UNWIND $ids AS id
MATCH (p:Paper {id: id})<-[:AUTHORED]-(a:Author)-[:AFFILIATED_WITH]->(i:Institution)
WHERE a.anonymous = false
WITH i, collect(DISTINCT p.id) AS papers
ORDER BY size(papers) DESC, i.id
LIMIT $limit
RETURN i.id AS id, i.name AS name, size(papers) AS count, papers[..500] AS paperIds
