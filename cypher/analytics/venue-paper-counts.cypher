// Papers per venue over the filtered papers (each venue once), for Bradford's zones; papers without a venue counted.
MATCH (p:Paper)
WHERE p.stub = false
  // include: fragments/paper-filter
OPTIONAL MATCH (p)-[:PUBLISHED_IN]->(v:Venue)
WITH v, count(DISTINCT p) AS papers
RETURN v {.*} AS venue, papers
ORDER BY papers DESC
