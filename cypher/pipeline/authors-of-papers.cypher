// Identified authors of given papers, ranked by how many of them they wrote ($by 'papers'), or by the citations of
// those papers — global counts ('global') or citations from full papers of the graph ('internal').
UNWIND $ids AS id
MATCH (a:Author)-[:AUTHORED]->(p:Paper {id: id})
WHERE a.anonymous = false
WITH a, collect(p) AS papers
WITH a, papers,
     reduce(total = 0, p IN papers | total + coalesce(p.citedByCount, 0)) AS globalCitations,
     reduce(total = 0, p IN papers | total + size([(p)<-[:CITES]-(q:Paper) WHERE q.stub = false | 1])) AS internalCitations
ORDER BY CASE $by WHEN 'global' THEN globalCitations WHEN 'internal' THEN internalCitations ELSE size(papers) END DESC,
         size(papers) DESC, a.id
LIMIT $limit
RETURN a.id AS id, a.name AS name, a.orcid AS orcid, size(papers) AS count, [p IN papers[..3] | p.id] AS paperIds,
       globalCitations, internalCitations
