// Author records whose name matches a Lucene query over names (author_name), anonymous ones left out, best match
// first, ties by the person's paper count (stored aggregate: records sharing an ORCID are one person).
CALL db.index.fulltext.queryNodes('author_name', $query, {limit: $scan}) YIELD node AS a, score
WHERE a.anonymous = false
WITH a, score, coalesce(a.personPapers, 0) AS papers
ORDER BY score DESC, papers DESC, a.id
LIMIT $limit
RETURN a {.id, .name, .orcid, .anonymous} AS author, score, papers,
       [(a)-[:AFFILIATED_WITH]->(i:Institution) | i {.*}] AS institutions
