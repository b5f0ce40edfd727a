// Identified authors of given papers, by how many of them they wrote (for "who works on X" questions).
UNWIND $ids AS id
MATCH (a:Author)-[:AUTHORED]->(p:Paper {id: id})
WHERE a.anonymous = false
WITH a, collect(p.id) AS papers
ORDER BY size(papers) DESC, a.id
LIMIT $limit
RETURN a.id AS id, a.name AS name, a.orcid AS orcid, size(papers) AS count, papers[..3] AS paperIds
