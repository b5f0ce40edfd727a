// Most cited authors over the filtered papers: sum of internal or global citations of their papers, and paper count.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
// Each paper's citations once, then spread over its authors (not once per authorship).
WITH p, CASE $by WHEN 'GLOBAL_CITATIONS' THEN coalesce(p.citedByCount, 0) ELSE COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } END AS citations
MATCH (a:Author)-[:AUTHORED]->(p)
WITH a, count(DISTINCT p) AS papers, sum(citations) AS score
ORDER BY score DESC, papers DESC, a.id
WITH collect([a, papers, score]) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | {author: properties(r[0]), papers: r[1], score: r[2]}] AS items
