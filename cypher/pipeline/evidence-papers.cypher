// Metadata of the papers behind evidence: venue name and number of authors for the sufficiency score and citations.
UNWIND $ids AS id
MATCH (p:Paper {id: id})
OPTIONAL MATCH (p)-[:PUBLISHED_IN]->(v:Venue)
RETURN p.id AS id, p.title AS title, p.year AS year, p.doi AS doi, v.name AS venue,
       COUNT { (p)<-[:AUTHORED]-(:Author) } AS authors, p.source AS source, p.fetchedAt AS fetchedAt,
       coalesce(p.citedByCount, 0) AS citedByCount, COUNT { (p)<-[:CITES]-(:Paper {stub: false}) } AS internalCitations
