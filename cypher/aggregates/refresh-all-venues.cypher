// Recounts the totals of every venue (see aggregates/refresh), in transactions of its own; after
// aggregates/refresh-all-papers (the internal citation counts it sums).
MATCH (v:Venue)
CALL (v) {
  OPTIONAL MATCH (v)<-[:PUBLISHED_IN]-(p:Paper {stub: false})
  WITH v, count(p) AS papers, sum(coalesce(p.citedByCount, 0)) AS global,
       sum(coalesce(p.internalCitedBy, 0)) AS internal, min(p.year) AS firstYear, max(p.year) AS lastYear
  SET v.venuePapers = papers, v.venueGlobal = global, v.venueInternal = internal, v.venueFirstYear = firstYear,
      v.venueLastYear = lastYear
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(v) AS venues
