// Venues whose name contains the given text, largest first (to resolve "in the journal X").
MATCH (v:Venue)
WHERE toLower(v.name) CONTAINS toLower($name)
WITH v, COUNT { (v)<-[:PUBLISHED_IN]-(:Paper {stub: false}) } AS papers
ORDER BY papers DESC, v.id
LIMIT $limit
RETURN v.id AS id, v.name AS name, papers
