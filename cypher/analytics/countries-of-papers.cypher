// Countries of the institutions of the authors of given papers, by how many of the papers each appears on: the
// institutions an authorship names when the paper records affiliations per paper, else the author's.
UNWIND $ids AS id
MATCH (p:Paper {id: id})<-[authorship:AUTHORED]-(a:Author)
WITH p, CASE WHEN p.affiliationsPerPaper THEN coalesce(authorship.institutions, [])
  ELSE [(a)-[:AFFILIATED_WITH]->(x) | x.id] END AS institutions
UNWIND institutions AS institution
MATCH (i:Institution {id: institution})
WHERE i.countryCode IS NOT NULL
WITH i.countryCode AS code, collect(DISTINCT p.id) AS papers
ORDER BY size(papers) DESC, code
LIMIT $limit
RETURN code AS id, code AS name, size(papers) AS count, papers[..500] AS paperIds
