// Most cited full papers of the whole graph, read from the top of the (stub, internalCitedBy) or (stub,
// citedByCount) index instead of ranking every paper: the index gives the score of the last paper of the page (the
// floor); the papers at or above it — the page and its ties — are then ordered by score and id as top-papers orders
// them. Each branch runs only for its ranking. `floor` is null when fewer papers than the page have a score; 0 when
// the page reaches unscored papers (where a paper without a global count counts as 0): the caller then asks
// top-papers, which ranks them all. No total: counting every full paper is what this query avoids (the caller counts
// when a client asks).
CALL () {
  WITH $by AS by
  WHERE by = 'INTERNAL_CITATIONS'
  MATCH (p:Paper)
  WHERE p.stub = false AND p.internalCitedBy IS NOT NULL
  WITH p ORDER BY p.stub DESC, p.internalCitedBy DESC LIMIT $skip + $limit
  RETURN min(p.internalCitedBy) AS floor, count(p) AS read
  UNION
  WITH $by AS by
  WHERE by = 'GLOBAL_CITATIONS'
  MATCH (p:Paper)
  WHERE p.stub = false AND p.citedByCount IS NOT NULL
  WITH p ORDER BY p.stub DESC, p.citedByCount DESC LIMIT $skip + $limit
  RETURN min(p.citedByCount) AS floor, count(p) AS read
}
WITH floor, read
WHERE read = $skip + $limit AND floor > 0
CALL (floor) {
  WITH floor, $by AS by
  WHERE by = 'INTERNAL_CITATIONS'
  MATCH (p:Paper)
  WHERE p.stub = false AND p.internalCitedBy >= floor
  RETURN p
  UNION
  WITH floor, $by AS by
  WHERE by = 'GLOBAL_CITATIONS'
  MATCH (p:Paper)
  WHERE p.stub = false AND p.citedByCount >= floor
  RETURN p
}
WITH p, p.internalCitedBy AS internal, coalesce(p.citedByCount, 0) AS global
WITH p, internal, global, CASE $by WHEN 'GLOBAL_CITATIONS' THEN global ELSE internal END AS score
ORDER BY score DESC, p.id
SKIP $skip
LIMIT $limit
RETURN properties(p) AS paper, internal, global, score
