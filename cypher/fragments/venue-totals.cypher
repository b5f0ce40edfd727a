// Recounts the stored totals of the venue bound to `v` over its full papers (see aggregates/refresh): papers, the
// sums of their global and internal citations, and the first and last year. Counted afresh, never incremented.
CALL (v) {
  OPTIONAL MATCH (v)<-[:PUBLISHED_IN]-(p:Paper {stub: false})
  RETURN count(p) AS papers, sum(coalesce(p.citedByCount, 0)) AS global, sum(coalesce(p.internalCitedBy, 0)) AS internal,
         min(p.year) AS firstYear, max(p.year) AS lastYear
}
SET v.venuePapers = papers, v.venueGlobal = global, v.venueInternal = internal, v.venueFirstYear = firstYear,
    v.venueLastYear = lastYear
