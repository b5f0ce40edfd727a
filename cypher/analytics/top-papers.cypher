// Most cited full papers, by citations inside the corpus or by OpenAlex's global count.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p, p.internalCitedBy AS internal, coalesce(p.citedByCount, 0) AS global
WITH p, internal, global, CASE $by WHEN 'GLOBAL_CITATIONS' THEN global ELSE internal END AS score
ORDER BY score DESC, p.id
// Collect node references and project only the page: projecting every paper (abstracts included) is the cost.
WITH collect([p, internal, global, score]) AS rows
RETURN size(rows) AS total, [r IN rows[$skip..($skip + $limit)] | {paper: properties(r[0]), internal: r[1], global: r[2], score: r[3]}] AS items
