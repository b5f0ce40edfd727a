// The papers on a topic, by one documented rule (README "Analytics planner"): the title or abstract contains every
// content word of the topic phrase (Lucene, English analyzer, so stemmed; $query is "+w1 +w2 …" of escaped terms),
// or the paper carries a concept the phrase names ($concepts, from topic-concepts.cypher, or named exactly the phrase)
// with score at least $minScore, or it is among the
// papers close in meaning to the topic ($similar: id and cosine, from topic-similar.cypher). Filtered like every
// paper list; at most $limit papers. Lucene's $scan comes before the filters, so it is large.
CALL {
  CALL db.index.fulltext.queryNodes('paper_text', $query, {limit: $scan}) YIELD node
  RETURN node AS p, 'words' AS why, null AS similarity
  UNION
  MATCH (t:Topic)
  WHERE toLower(t.name) = $phrase OR t.id IN $concepts
  MATCH (p:Paper)-[r:HAS_TOPIC]->(t)
  WHERE r.score >= $minScore
  RETURN p, 'concept' AS why, null AS similarity
  UNION
  UNWIND $similar AS near
  MATCH (p:Paper {id: near.id})
  RETURN p, 'meaning' AS why, near.similarity AS similarity
}
WITH p, collect(why) AS why, max(similarity) AS similarity
WHERE p.stub = false
  // include: fragments/paper-filter
WITH p, why, similarity
ORDER BY p.id
LIMIT $limit
RETURN p.id AS id, p.title AS title, p.year AS year, coalesce(p.citedByCount, 0) AS citedByCount,
       COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } AS internalCitations,
       'words' IN why AS byWords, 'concept' IN why AS byConcept, similarity
