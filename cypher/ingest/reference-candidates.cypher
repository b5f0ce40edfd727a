// Papers a reference entry may cite: by its DOI, and the best title matches of its words (the caller accepts a
// candidate only when the candidate's normalised title stands in the entry and the years agree).
UNWIND $entries AS entry
CALL (entry) {
  MATCH (p:Paper {doi: entry.doi})
  RETURN p, 2.0 AS score
  UNION
  CALL db.index.fulltext.queryNodes('paper_text', entry.query, {limit: 5}) YIELD node, score
  WHERE node.title IS NOT NULL AND NOT coalesce(node.stub, false)
  RETURN node AS p, score
}
RETURN entry.index AS index, collect({id: p.id, title: p.title, year: p.year, doi: p.doi}) AS candidates
