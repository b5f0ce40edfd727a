// Identified co-authors of one person (every author node of that person), by papers written together.
MATCH (a:Author)-[:AUTHORED]->(p:Paper)<-[:AUTHORED]-(co:Author)
WHERE a.id IN $ids AND NOT co.id IN $ids AND p.stub = false AND co.anonymous = false
WITH co, collect(DISTINCT p.id) AS papers
ORDER BY size(papers) DESC, co.id
LIMIT $limit
RETURN co.id AS id, co.name AS name, co.orcid AS orcid, size(papers) AS count, papers[..3] AS paperIds
