// Full papers whose title or abstract holds a study's name as written (case-sensitive; the caller checks the word
// boundaries), the most cited inside the graph first, filtered like every paper list. A name as short as an acronym
// defeats the full-text analyzer ("NOR-SWITCH" is the stopword "nor" and "switch"), so this reads the full papers.
MATCH (p:Paper {stub: false})
WHERE (p.title CONTAINS $name OR p.abstract CONTAINS $name)
  // include: fragments/paper-filter
WITH p, COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } AS internal
ORDER BY internal DESC, coalesce(p.citedByCount, 0) DESC, p.id
LIMIT $limit
RETURN p.id AS id, p.title AS title, p.abstract AS abstract
