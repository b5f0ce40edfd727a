// Identified authors whose name matches, most productive first (for questions that name people).
MATCH (a:Author)
WHERE a.anonymous = false AND toLower(a.name) CONTAINS toLower($name)
WITH a, COUNT { (a)-[:AUTHORED]->(:Paper {stub: false}) } AS papers
ORDER BY papers DESC, a.id
LIMIT $limit
RETURN a {.id, .name, .orcid} AS author, papers
