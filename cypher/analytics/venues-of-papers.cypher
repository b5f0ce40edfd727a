// Venues of given papers, by how many of them each published (with up to 500 of those papers, for the answer to cite
// its best example of each).
UNWIND $ids AS id
MATCH (p:Paper {id: id})-[:PUBLISHED_IN]->(v:Venue)
WITH v, collect(DISTINCT p.id) AS papers
ORDER BY size(papers) DESC, v.id
LIMIT $limit
RETURN v.id AS id, v.name AS name, size(papers) AS count, papers[..500] AS paperIds
