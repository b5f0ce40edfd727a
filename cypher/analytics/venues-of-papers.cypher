// Venues of given papers, by how many of them each published (with a few of those papers).
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[:PUBLISHED_IN]->(v:Venue)
WITH v, collect(DISTINCT p.id) AS papers
ORDER BY size(papers) DESC, v.id
LIMIT $limit
RETURN v.id AS id, v.name AS name, size(papers) AS count, papers[..3] AS paperIds
