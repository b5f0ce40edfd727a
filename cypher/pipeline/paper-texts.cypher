// Title and abstract of papers, for checking in their own words that one paper connects a question's concepts (the
// full-text index stems and reads enrichment vocabulary, so its hits are candidates only).
UNWIND $ids AS id
MATCH (p:Paper {id: id})
RETURN p.id AS id, coalesce(p.title, '') + '\n' + coalesce(p.abstract, '') AS text
