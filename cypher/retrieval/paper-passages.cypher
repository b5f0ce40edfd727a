// The best passages of each paper for a query vector, with character offsets into the paper's source text.
UNWIND $paperIds AS paperId
MATCH (:Paper {id: paperId})-[:HAS_CHUNK]->(c:Chunk)
WITH paperId, c, CASE WHEN c.embedding IS NULL THEN 0.0 ELSE vector.similarity.cosine(c.embedding, $vector) END AS score
ORDER BY paperId, score DESC
WITH paperId, collect({chunkId: c.id, text: c.text, start: c.start, end: c.end, ordinal: c.ordinal, section: c.section, sectionKind: c.sectionKind, field: coalesce(c.field, CASE c.section WHEN 'title' THEN 'title' ELSE 'abstract' END), pageStart: c.pageStart, pageEnd: c.pageEnd, score: score}) AS passages
RETURN paperId, passages[..$perPaper] AS passages
